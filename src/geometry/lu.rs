//! Primitives of LU factorization with partial pivoting on the GPU (the LU-GPU baseline of
//! Galoppo et al. that the 2006 paper compares against): pivot gather, row swaps, normalization of
//! the column below the pivot, and the rank-1 update over the trailing square. `k` is the step,
//! `m` the order.

use super::{Primitive, Vertex};

/// Gathers column k, rows k..m, into a vector of length m − k: T0 at entry r is (k+.5, k+r+.5).
pub fn pivot_column_gather(k: u32, m: u32) -> Primitive {
    let (kc, len) = (k as f32 + 0.5, (m - k) as f32);
    let t = |x: f32| [kc, k as f32 + x, 0.0];
    Primitive::rect_with(0, 0, m - k, 1, [t(0.0), t(len), t(0.0), t(len)], [[0.0; 3]; 4])
}

/// Row `to` of an m-column matrix, reading row `from` of the source: T0 = (x, from + .5).
pub fn row_copy(to: u32, from: u32, m: u32) -> Primitive {
    let (fc, mf) = (from as f32 + 0.5, m as f32);
    let t = |x: f32| [x, fc, 0.0];
    Primitive::rect_with(0, to, m, to + 1, [t(0.0), t(mf), t(0.0), t(mf)], [[0.0; 3]; 4])
}

/// The trailing square (k+1..m)² of the rank-1 update A(i,j) − L(i,k)·U(k,j): T0 = (k+.5, i) is
/// the multiplier L(i, k); T1 = (k+.5, j) read `.yx` is U(k, j) = texel (j, k) — the Fig. 5 kernel
/// with the pivot taken from the row instead of the column.
pub fn trailing_update(k: u32, m: u32) -> Primitive {
    let (kc, a, b) = (k as f32 + 0.5, k as f32 + 1.0, m as f32);
    let t0 = [[kc, a, 0.0], [kc, a, 0.0], [kc, b, 0.0], [kc, b, 0.0]];
    let t1 = [[kc, a, 0.0], [kc, b, 0.0], [kc, a, 0.0], [kc, b, 0.0]];
    Primitive::rect_with(k + 1, k + 1, m, m, t0, t1)
}

/// The blocked LU's passes (the mixed-precision paper's right-looking LU and its substitutions)
/// work on whole texels of the 2×2-block layout: the rectangle of texels `j0..j1` × `i0..i1` (x = block
/// column, y = block row), corners on texel edges so that every centre inside is covered once.
/// Kernels find their block from the fragment position, so no coordinates are interpolated.
pub fn block_rect(j0: u32, i0: u32, j1: u32, i1: u32) -> Primitive {
    Primitive::texel_rect(j0, i0, j1, i1)
}

/// The point at vector entry 0 (a 1×1 result) with no coordinates.
pub fn single_texel() -> Primitive {
    Primitive::Point(Vertex::at(0.5, 0.5))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::coverage::fragments;

    #[test]
    fn block_rectangles_cover_exactly_their_texels() {
        for (j0, i0, j1, i1) in [(0u32, 0u32, 1u32, 1u32), (3, 2, 9, 5), (4, 4, 5, 17)] {
            let f = fragments(&block_rect(j0, i0, j1, i1), 20, 20).unwrap();
            let mut got: Vec<(u32, u32)> = f.iter().map(|f| (f.j, f.i)).collect();
            got.sort();
            let mut want: Vec<(u32, u32)> = (j0..j1).flat_map(|j| (i0..i1).map(move |i| (j, i))).collect();
            want.sort();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn gather_swap_and_update_domains() {
        for m in 1..=12u32 {
            for k in 0..m {
                let g = fragments(&pivot_column_gather(k, m), m - k, 1).unwrap();
                assert_eq!(g.len() as u32, m - k);
                for (r, f) in g.iter().enumerate() {
                    assert!(
                        (f.t0[0] - (k as f64 + 0.5)).abs() < 1e-9
                            && (f.t0[1] - (k as f64 + r as f64 + 0.5)).abs() < 1e-9
                    );
                }
                for p in k..m {
                    let f = fragments(&row_copy(k, p, m), m, m).unwrap();
                    assert_eq!(
                        f.iter().map(|f| (f.j, f.i)).collect::<Vec<_>>(),
                        (0..m).map(|j| (j, k)).collect::<Vec<_>>()
                    );
                    assert!(f
                        .iter()
                        .all(|f| (f.t0[1] - (p as f64 + 0.5)).abs() < 1e-9
                            && (f.t0[0] - (f.j as f64 + 0.5)).abs() < 1e-9));
                }
                let f = fragments(&trailing_update(k, m), m, m).unwrap();
                assert_eq!(f.len() as u32, (m - k - 1) * (m - k - 1));
                for fr in &f {
                    // Multiplier L(i, k) at (k+.5, i+.5); U(k, j) at T1.yx = (j+.5, k+.5).
                    assert!(
                        (fr.t0[0] - (k as f64 + 0.5)).abs() < 1e-9 && (fr.t0[1] - (fr.i as f64 + 0.5)).abs() < 1e-9
                    );
                    assert!(
                        (fr.t1[1] - (fr.j as f64 + 0.5)).abs() < 1e-9 && (fr.t1[0] - (k as f64 + 0.5)).abs() < 1e-9
                    );
                }
            }
        }
    }
}
