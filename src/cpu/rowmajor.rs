//! Dense double-precision kernels on row-major slices, backed by faer.

use faer::{Mat, Side};

/// A row-major `rows × cols` slice as a faer matrix.
pub fn to_mat(a: &[f64], rows: usize, cols: usize) -> Mat<f64> {
    Mat::from_fn(rows, cols, |i, j| a[i * cols + j])
}

/// A faer matrix as a row-major vector.
pub fn from_mat(m: faer::MatRef<'_, f64>) -> Vec<f64> {
    let (r, c) = (m.nrows(), m.ncols());
    let mut v = Vec::with_capacity(r * c);
    for i in 0..r {
        for j in 0..c {
            v.push(m[(i, j)]);
        }
    }
    v
}

/// The lower Cholesky factor of the symmetric m×m matrix whose lower triangle is in `c`
/// (row-major), or `None` if it is not numerically positive definite.
pub fn cholesky_lower(c: &[f64], m: usize) -> Option<Vec<f64>> {
    let a = Mat::from_fn(m, m, |i, j| if j <= i { c[i * m + j] } else { c[j * m + i] });
    let llt = a.llt(Side::Lower).ok()?;
    Some(from_mat(llt.L()))
}

/// ‖a − b‖_F / ‖b‖_F.
pub fn relative_frobenius(a: &[f64], b: &[f64]) -> f64 {
    let num: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
    let den: f64 = b.iter().map(|y| y * y).sum();
    (num / den).sqrt()
}

/// ‖C − L·Lᵀ‖_F / ‖C‖_F over the full symmetric C given by its lower triangle (the backward
/// error of a Cholesky factor, bounded by a small multiple of m·u whatever the conditioning).
pub fn cholesky_backward_error(c: &[f64], l: &[f64], m: usize) -> f64 {
    let lm = to_mat(l, m, m);
    let llt = &lm * lm.transpose();
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..m {
        for j in 0..m {
            let cij = if j <= i { c[i * m + j] } else { c[j * m + i] };
            num += (cij - llt[(i, j)]).powi(2);
            den += cij * cij;
        }
    }
    (num / den).sqrt()
}

/// Solves L·Lᵀ·x = b by forward and back substitution with the lower factor `l` (row-major m×m),
/// in the precision of `T` (Algorithm 1 of the 2008 IPM paper and its transpose).
pub fn cholesky_solve<T: Copy + std::ops::Sub<Output = T> + std::ops::Mul<Output = T> + std::ops::Div<Output = T>>(
    l: &[T],
    m: usize,
    b: &[T],
) -> Vec<T> {
    let mut y = b.to_vec();
    for k in 0..m {
        y[k] = y[k] / l[k * m + k];
        for i in k + 1..m {
            y[i] = y[i] - y[k] * l[i * m + k];
        }
    }
    for k in (0..m).rev() {
        y[k] = y[k] / l[k * m + k];
        for i in 0..k {
            y[i] = y[i] - y[k] * l[k * m + i];
        }
    }
    y
}

/// Solves A·x = b from P·A = L·U stored LAPACK-style in `lu` (row-major; unit L below the
/// diagonal, U on and above) with `perm[i]` = the row of A that became row i, in the precision
/// of `T`.
pub fn lu_solve<T: Copy + std::ops::Sub<Output = T> + std::ops::Mul<Output = T> + std::ops::Div<Output = T>>(
    lu: &[T],
    m: usize,
    perm: &[usize],
    b: &[T],
) -> Vec<T> {
    let mut y: Vec<T> = perm.iter().map(|&p| b[p]).collect();
    for i in 0..m {
        for j in 0..i {
            y[i] = y[i] - lu[i * m + j] * y[j];
        }
    }
    for i in (0..m).rev() {
        for j in i + 1..m {
            y[i] = y[i] - lu[i * m + j] * y[j];
        }
        y[i] = y[i] / lu[i * m + i];
    }
    y
}

/// Solves A·x = b (A row-major n×n) in double precision with faer's partial-pivoting LU;
/// `None` when A is singular to working precision: a pivot at most n·ε·‖A‖∞ (then
/// κ(A) ≥ 1/(n²·ε)), or a solution that is not finite. An exactly singular A does not always
/// leave an exact zero pivot (faer eliminates through the pivot's reciprocal: [1 2; 2 4]·0.79
/// leaves one of rounding size, and a consistent b then gives a finite x), so the pivots are
/// tested, not only x.
pub fn solve_general(a: &[f64], n: usize, b: &[f64]) -> Option<Vec<f64>> {
    use faer::linalg::solvers::Solve;
    let lu = to_mat(a, n, n).partial_piv_lu();
    let limit = n as f64 * f64::EPSILON * norm_inf(a, n, n);
    if (0..n).any(|k| lu.U()[(k, k)].abs() <= limit) {
        return None;
    }
    let x = lu.solve(Mat::from_fn(n, 1, |i, _| b[i]));
    let x: Vec<f64> = (0..n).map(|i| x[(i, 0)]).collect();
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// ‖A‖∞ (largest absolute row sum) of a row-major rows×cols matrix.
pub fn norm_inf(a: &[f64], rows: usize, cols: usize) -> f64 {
    (0..rows).map(|i| a[i * cols..(i + 1) * cols].iter().map(|v| v.abs()).sum::<f64>()).fold(0.0, f64::max)
}

/// y = A·x for a row-major rows×cols matrix.
pub fn matvec(a: &[f64], rows: usize, cols: usize, x: &[f64]) -> Vec<f64> {
    (0..rows).map(|i| a[i * cols..(i + 1) * cols].iter().zip(x).map(|(p, q)| p * q).sum()).collect()
}

/// y = Aᵀ·x for a row-major rows×cols matrix.
pub fn matvec_t(a: &[f64], rows: usize, cols: usize, x: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; cols];
    for i in 0..rows {
        let xi = x[i];
        for (yj, aij) in y.iter_mut().zip(&a[i * cols..(i + 1) * cols]) {
            *yj += aij * xi;
        }
    }
    y
}

/// ‖P·A − L·U‖_F / ‖A‖_F of a LAPACK-style single-precision factor (row-major n×n: unit L below
/// the diagonal, U on and above) with `perm[i]` = the row of A that became row i, in double
/// precision: the backward error of LU, bounded by a small multiple of n·u·ρ whatever κ(A).
pub fn lu_backward_error(a: &[f64], factor: &[f32], perm: &[usize], n: usize) -> f64 {
    let l = Mat::from_fn(n, n, |i, j| match i.cmp(&j) {
        std::cmp::Ordering::Greater => factor[i * n + j] as f64,
        std::cmp::Ordering::Equal => 1.0,
        std::cmp::Ordering::Less => 0.0,
    });
    let u = Mat::from_fn(n, n, |i, j| if i <= j { factor[i * n + j] as f64 } else { 0.0 });
    let lu = &l * &u;
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..n {
        for j in 0..n {
            let pa = a[perm[i] * n + j];
            num += (pa - lu[(i, j)]).powi(2);
            den += pa * pa;
        }
    }
    (num / den).sqrt()
}

/// κ∞(A) = ‖A‖∞·‖A⁻¹‖∞ from faer's partial-pivoting LU (infinite for a singular A).
pub fn condition_inf(a: &[f64], n: usize) -> f64 {
    use faer::linalg::solvers::DenseSolveCore;
    let inv = to_mat(a, n, n).partial_piv_lu().inverse();
    let inv_norm = (0..n).map(|i| (0..n).map(|j| inv[(i, j)].abs()).sum::<f64>()).fold(0.0, f64::max);
    let k = norm_inf(a, n, n) * inv_norm;
    if k.is_finite() {
        k
    } else {
        f64::INFINITY
    }
}

/// Solves A·x = b in single precision with faer's partial-pivoting LU (the CPU single-precision
/// column of the benchmarks).
pub fn solve_general_f32(a: &[f32], n: usize, b: &[f32]) -> Vec<f32> {
    use faer::linalg::solvers::Solve;
    let lu = Mat::from_fn(n, n, |i, j| a[i * n + j]).partial_piv_lu();
    let x = lu.solve(Mat::from_fn(n, 1, |i, _| b[i]));
    (0..n).map(|i| x[(i, 0)]).collect()
}

/// faer's partial-pivoting LU of A in double (`f64`) or single (`f32`) precision, for timing;
/// returns U's last diagonal entry so the work cannot be optimized away.
pub fn lu_factor_only<T: faer::traits::RealField + Copy>(a: &Mat<T>) -> T {
    let lu = a.partial_piv_lu();
    let n = a.nrows();
    lu.U()[(n - 1, n - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn singular_systems_have_no_solution_at_any_scale() {
        for s in [1.0, 0.79, 0.3, 1e30, 1e-30] {
            let a = [s, 2.0 * s, 2.0 * s, 4.0 * s];
            assert_eq!(solve_general(&a, 2, &[3.0 * s, 6.0 * s]), None, "scale {s:e}, consistent b");
            assert_eq!(solve_general(&a, 2, &[3.0 * s, 7.0 * s]), None, "scale {s:e}, inconsistent b");
        }
        // Nearly singular but regular to double precision (κ ≈ 4e12): solved.
        let a = [1.0, 1.0, 1.0, 1.0 + 2f64.powi(-40)];
        let x = solve_general(&a, 2, &[2.0, 2.0 + 2f64.powi(-40)]).expect("regular");
        assert!((x[0] - 1.0).abs() <= 1e-3 && (x[1] - 1.0).abs() <= 1e-3, "{x:?}");
    }
}
