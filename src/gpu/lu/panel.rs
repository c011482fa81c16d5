//! The CPU half of the right-looking LU, in single precision: the panel factorization with partial
//! pivoting (LAPACK's `sgetf2` on a tall panel), the explicit inverse of a unit lower triangular
//! block (the paper forms the diagonal blocks' inverses "explicitly if needed"), and the small
//! triangular products and solves of the blocked substitutions. Row-major slices throughout.

/// Why a panel could not be factored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PanelError {
    /// No candidate pivot above the singularity threshold in this column of the panel.
    #[error("no pivot above the singularity threshold in column {0} of the panel")]
    Singular(usize),
    /// A candidate pivot is NaN (elimination overflowed) in this column of the panel.
    #[error("a candidate pivot is not finite in column {0} of the panel (the elimination overflowed)")]
    NonFinite(usize),
}

/// Factors the `rows × w` panel `p` (row-major, row stride `w`) in place: unit L below the
/// diagonal, U on and above it, rows interchanged as partial pivoting chooses. Returns `piv`:
/// at column j, row j was swapped with row `piv[j]` ≥ j (LAPACK's ipiv, 0-based and local).
/// The pivot is the first row holding the largest magnitude (as the GPU's pivot search does);
/// a largest magnitude at or below `tiny` is singular. `tick` runs after every column, so the
/// caller can look at the GPU meanwhile.
pub fn factor(
    p: &mut [f32],
    rows: usize,
    w: usize,
    tiny: f32,
    mut tick: impl FnMut(),
) -> Result<Vec<usize>, PanelError> {
    let mut piv = Vec::with_capacity(w);
    for j in 0..w.min(rows) {
        let (mut best, mut at) = (-1.0f32, j);
        for i in j..rows {
            let v = p[i * w + j].abs();
            if v.is_nan() {
                return Err(PanelError::NonFinite(j));
            }
            if v > best {
                (best, at) = (v, i);
            }
        }
        if best <= tiny {
            return Err(PanelError::Singular(j));
        }
        if at != j {
            for c in 0..w {
                p.swap(j * w + c, at * w + c);
            }
        }
        piv.push(at);
        let (top, below) = p.split_at_mut((j + 1) * w);
        let pivot_row = &top[j * w..];
        let d = pivot_row[j];
        for row in below.chunks_exact_mut(w) {
            // Division, not a multiplication by 1/d: the GPU baseline's normalize kernel divides.
            let l = row[j] / d;
            row[j] = l;
            for (x, u) in row[j + 1..].iter_mut().zip(&pivot_row[j + 1..]) {
                *x -= l * u;
            }
        }
        tick();
    }
    Ok(piv)
}

/// The source of every row after the interchanges `piv` (local to a panel): `src[i]` is the row
/// that ends up at row i, for rows `0..rows`.
pub fn row_sources(piv: &[usize], rows: usize) -> Vec<usize> {
    let mut src: Vec<usize> = (0..rows).collect();
    for (j, &p) in piv.iter().enumerate() {
        src.swap(j, p);
    }
    src
}

/// The inverse of the unit lower triangular `w × w` block held below the diagonal of the first
/// `w` rows of `p` (stride `stride`), as a `size × size` row-major matrix (`size` ≥ w; zero
/// beyond w, so a kernel compiled for a wider block adds nothing from the padding).
pub fn unit_lower_inverse(p: &[f32], stride: usize, w: usize, size: usize) -> Vec<f32> {
    let mut x = vec![0.0f32; size * size];
    // Column c of the inverse solves L·x = e_c by forward substitution.
    for c in 0..w {
        x[c * size + c] = 1.0;
        for i in c + 1..w {
            let mut s = 0.0f32;
            for t in c..i {
                s += p[i * stride + t] * x[t * size + c];
            }
            x[i * size + c] = -s;
        }
    }
    x
}

/// y ← X·y for a `w × w` row-major X (size stride), in single precision: the paper's `strmv`
/// with the explicit inverse of a diagonal block.
pub fn apply(x: &[f32], size: usize, w: usize, y: &mut [f32]) {
    let old: Vec<f32> = y[..w].to_vec();
    for (i, yi) in y[..w].iter_mut().enumerate() {
        *yi = x[i * size..i * size + w].iter().zip(&old).map(|(a, b)| a * b).sum();
    }
}

/// Solves U·z = y in place for the upper triangular `w × w` block of `lu` whose top-left entry is
/// (c, c) (row stride `stride`): LAPACK's `strsv`, with divisions by the diagonal.
pub fn upper_solve(lu: &[f32], stride: usize, c: usize, w: usize, y: &mut [f32]) {
    for i in (0..w).rev() {
        let row = &lu[(c + i) * stride + c..(c + i) * stride + c + w];
        let mut s = y[i];
        for t in i + 1..w {
            s -= row[t] * y[t];
        }
        y[i] = s / row[i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panel_factor_matches_the_pivoted_product() {
        // A 6×3 panel: P·A = L·U with |L| ≤ 1.
        let (rows, w) = (6usize, 3usize);
        let a: Vec<f32> = (0..rows * w).map(|v| ((v * 7 + 3) % 11) as f32 - 5.0).collect();
        let mut p = a.clone();
        let piv = factor(&mut p, rows, w, 0.0, || {}).unwrap();
        let src = row_sources(&piv, rows);
        for i in 0..rows {
            for j in 0..w {
                let lu: f32 = (0..w)
                    .map(|t| {
                        let l = if t < i {
                            p[i * w + t]
                        } else if t == i {
                            1.0
                        } else {
                            0.0
                        };
                        let u = if t <= j { p[t * w + j] } else { 0.0 };
                        l * u
                    })
                    .sum();
                assert!((lu - a[src[i] * w + j]).abs() < 1e-5, "({i},{j})");
                if j < i {
                    assert!(p[i * w + j].abs() <= 1.0);
                }
            }
        }
    }

    #[test]
    fn singular_columns_and_nan_are_reported_by_column() {
        let mut p = vec![1.0, 2.0, 2.0, 4.0, 3.0, 6.0];
        assert_eq!(factor(&mut p, 3, 2, 1e-6, || {}), Err(PanelError::Singular(1)));
        let mut q = vec![f32::NAN, 1.0, 1.0, 1.0];
        assert_eq!(factor(&mut q, 2, 2, 0.0, || {}), Err(PanelError::NonFinite(0)));
    }

    #[test]
    fn inverse_apply_and_upper_solve_invert_their_blocks() {
        let w = 4;
        let l: Vec<f32> = (0..w * w).map(|v| if v % (w + 1) == 0 { 1.0 } else { 0.25 * (v % 3) as f32 }).collect();
        let x = unit_lower_inverse(&l, w, w, 6);
        let mut y = vec![1.0, -2.0, 0.5, 3.0];
        let orig = y.clone();
        apply(&x, 6, w, &mut y);
        // L·y must give back the original (L unit lower from `l`).
        for i in 0..w {
            let v: f32 = (0..=i).map(|t| if t == i { y[t] } else { l[i * w + t] * y[t] }).sum();
            assert!((v - orig[i]).abs() < 1e-5);
        }
        assert!(x[4..6].iter().all(|&v| v == 0.0) && x[4 * 6..].iter().all(|&v| v == 0.0));
        let u: Vec<f32> = (0..w * w).map(|v| if v / w <= v % w { 1.0 + (v % 5) as f32 } else { 9.0 }).collect();
        let mut z = orig.clone();
        upper_solve(&u, w, 0, w, &mut z);
        for i in 0..w {
            let v: f32 = (i..w).map(|t| u[i * w + t] * z[t]).sum();
            assert!((v - orig[i]).abs() < 1e-4);
        }
    }
}
