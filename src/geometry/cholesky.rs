//! Primitives of the full-format Cholesky factorization (2006 paper Figs. 3–5, 2008 structure
//! paper Algorithm 5 and Fig. 5). `k` is the step, `m` the order of the matrix.

use super::{Primitive, Vertex};

/// The square covering the diagonal entry (k, k): square root and its copy-back.
pub fn diagonal_square(k: u32) -> Primitive {
    Primitive::texel_rect(k, k, k + 1, k + 1)
}

/// The rectangle covering the k-th column below the diagonal, rows k+1..m: normalization and its
/// copy-back. T0 carries the pivot index (k+.5, k+.5) at every vertex (Kernel 4's `pivot_index`).
pub fn column_below_diagonal(k: u32, m: u32) -> Primitive {
    let p = [k as f32 + 0.5, k as f32 + 0.5, 0.0];
    Primitive::rect_with(k, k + 1, k + 1, m, [p; 4], [[0.0; 3]; 4])
}

/// Fig. 5 (a)/(b): the oversized triangle (k+1, k+.5), (k+1, m), (m+.5, m) over the trailing
/// lower triangle. At fragment (j, i) T0 interpolates to (k+.5, i) — the neighbour L(i, k) — and
/// T1 to (j, k+.5), whose `.yx` swizzle (k+.5, j) is the pivot L(j, k).
pub fn fig5_outer_update_triangle(k: u32, m: u32) -> Primitive {
    let (k, m) = (k as f32, m as f32);
    Primitive::Triangle([
        Vertex::new([k + 1.0, k + 0.5], [k + 0.5, k + 0.5, 0.0], [k + 1.0, k + 0.5, 0.0]),
        Vertex::new([k + 1.0, m], [k + 0.5, m, 0.0], [k + 1.0, k + 0.5, 0.0]),
        Vertex::new([m + 0.5, m], [k + 0.5, m, 0.0], [m + 0.5, k + 0.5, 0.0]),
    ])
}

/// Fig. 5 (c) (2006 paper): the same triangle with one interpolated triad T0 = (j, i, k+.5);
/// `.zy` addresses the neighbour (k+.5, i) and `.zx` the pivot (k+.5, j).
pub fn fig5c_outer_update_triad(k: u32, m: u32) -> Primitive {
    let (kf, mf) = (k as f32, m as f32);
    let v = |x: f32, y: f32| Vertex::new([x, y], [x, y, kf + 0.5], [0.0; 3]);
    Primitive::Triangle([v(kf + 1.0, kf + 0.5), v(kf + 1.0, mf), v(mf + 0.5, mf)])
}

/// The BrookGPU-style square domain (k+1..m)² with the pair coordinates of Fig. 5: T0 = (k+.5, i),
/// T1 = (j, k+.5). It also updates the strict upper part, which the lower factor never reads.
pub fn square_outer_update(k: u32, m: u32) -> Primitive {
    let (kf, mf) = (k as f32, m as f32);
    let (a, b) = (kf + 1.0, mf);
    let t0 = [[kf + 0.5, a, 0.0], [kf + 0.5, a, 0.0], [kf + 0.5, b, 0.0], [kf + 0.5, b, 0.0]];
    let t1 = [[a, kf + 0.5, 0.0], [b, kf + 0.5, 0.0], [a, kf + 0.5, 0.0], [b, kf + 0.5, 0.0]];
    Primitive::rect_with(k + 1, k + 1, m, m, t0, t1)
}

/// The column-wise multipass update (2006 paper §3.2, the BrookGPU way to mimic a triangular
/// domain): column j of the trailing lower triangle, rows j..m, one pass per column. T0 = (k+.5, i)
/// is the neighbour L(i, k); T1 = (j+.5, k+.5), swizzled `.yx`, the pivot L(j, k) — the pair
/// coordinates of Fig. 5 restricted to one column.
pub fn column_outer_update(k: u32, j: u32, m: u32) -> Primitive {
    let (kf, jf, mf) = (k as f32 + 0.5, j as f32, m as f32);
    let t0 = [[kf, jf, 0.0], [kf, jf, 0.0], [kf, mf, 0.0], [kf, mf, 0.0]];
    let t1 = [[jf, kf, 0.0], [jf + 1.0, kf, 0.0], [jf, kf, 0.0], [jf + 1.0, kf, 0.0]];
    Primitive::rect_with(j, j, j + 1, m, t0, t1)
}

/// The BrookGPU-style square domain with the triad coordinates T0 = (j, i, k+.5).
pub fn square_outer_update_triad(k: u32, m: u32) -> Primitive {
    let (kf, a, b) = (k as f32 + 0.5, k as f32 + 1.0, m as f32);
    let t0 = [[a, a, kf], [b, a, kf], [a, b, kf], [b, b, kf]];
    Primitive::rect_with(k + 1, k + 1, m, m, t0, [[0.0; 3]; 4])
}

/// Inner-product form (2006 paper Fig. 4a): the column k+1 from the diagonal down, rows k+1..m,
/// whose fragments each loop over p ≤ k. T0 = (k+1.5, i) (the element's own row, loop column
/// start), T1 = (k+.5, k+1.5, 0) gives the pivot row k+1 and the last column k of the sum.
pub fn inner_product_column(k: u32, m: u32) -> Primitive {
    let (kf, mf) = (k as f32, m as f32);
    let t0 = [[kf + 1.5, kf + 1.0, 0.0], [kf + 1.5, kf + 1.0, 0.0], [kf + 1.5, mf, 0.0], [kf + 1.5, mf, 0.0]];
    let t1 = [[kf + 0.5, kf + 1.5, 0.0]; 4];
    Primitive::rect_with(k + 1, k + 1, k + 2, m, t0, t1)
}

/// The row 0..m of an m×1 texture whose T0 at fragment j is (j+.5, j+.5): gathers a diagonal.
pub fn diagonal_gather(m: u32) -> Primitive {
    let mf = m as f32;
    let t0 = [[0.0, 0.0, 0.0], [mf, mf, 0.0], [0.0, 0.0, 0.0], [mf, mf, 0.0]];
    Primitive::rect_with(0, 0, m, 1, t0, [[0.0; 3]; 4])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::coverage::fragments;

    fn covered(p: &Primitive, m: u32) -> Vec<(u32, u32)> {
        fragments(p, m, m).expect("no centre on an edge").iter().map(|f| (f.j, f.i)).collect()
    }

    #[test]
    fn fig5_triangle_covers_trailing_lower_triangle_with_paper_coordinates() {
        for m in 1..=23u32 {
            for k in 0..m.saturating_sub(1) {
                let p = fig5_outer_update_triangle(k, m);
                let frags = fragments(&p, m, m).expect("centres off the edges");
                let expect: Vec<(u32, u32)> = (k + 1..m).flat_map(|i| (k + 1..=i).map(move |j| (j, i))).collect();
                assert_eq!(frags.iter().map(|f| (f.j, f.i)).collect::<Vec<_>>(), expect, "k={k} m={m}");
                for f in &frags {
                    let (x, y, kc) = (f.j as f64 + 0.5, f.i as f64 + 0.5, k as f64 + 0.5);
                    assert!((f.t0[0] - kc).abs() < 1e-9 && (f.t0[1] - y).abs() < 1e-9, "T0 at ({},{})", f.j, f.i);
                    assert!((f.t1[0] - x).abs() < 1e-9 && (f.t1[1] - kc).abs() < 1e-9, "T1 at ({},{})", f.j, f.i);
                }
            }
        }
    }

    #[test]
    fn fig5_triangle_fragment_total_is_tetrahedral_number() {
        for m in [1u32, 2, 3, 10, 17, 64] {
            let total: usize =
                (0..m.saturating_sub(1)).map(|k| covered(&fig5_outer_update_triangle(k, m), m).len()).sum();
            let m = m as usize;
            assert_eq!(total, (m - 1) * m * (m + 1) / 6);
        }
    }

    #[test]
    fn triad_covers_what_the_pair_covers_and_carries_k_in_z() {
        for m in [2u32, 5, 8, 13] {
            for k in 0..m - 1 {
                let pair = fragments(&fig5_outer_update_triangle(k, m), m, m).unwrap();
                let triad = fragments(&fig5c_outer_update_triad(k, m), m, m).unwrap();
                assert_eq!(pair.len(), triad.len());
                for (a, b) in pair.iter().zip(&triad) {
                    assert_eq!((a.j, a.i), (b.j, b.i));
                    assert!((b.t0[0] - (a.j as f64 + 0.5)).abs() < 1e-9);
                    assert!((b.t0[1] - (a.i as f64 + 0.5)).abs() < 1e-9);
                    assert!((b.t0[2] - (k as f64 + 0.5)).abs() < 1e-9);
                }
            }
        }
    }

    #[test]
    fn square_domain_covers_the_whole_trailing_square() {
        for m in [2u32, 7, 16] {
            for k in 0..m - 1 {
                for p in [square_outer_update(k, m), square_outer_update_triad(k, m)] {
                    let f = fragments(&p, m, m).unwrap();
                    assert_eq!(f.len() as u32, (m - k - 1) * (m - k - 1));
                    for fr in &f {
                        assert!(fr.j > k && fr.i > k);
                    }
                }
                let f = fragments(&square_outer_update(k, m), m, m).unwrap();
                for fr in &f {
                    assert!(
                        (fr.t0[1] - (fr.i as f64 + 0.5)).abs() < 1e-9 && (fr.t1[0] - (fr.j as f64 + 0.5)).abs() < 1e-9
                    );
                }
            }
        }
    }

    #[test]
    fn diagonal_gather_points_each_texel_at_the_diagonal() {
        for m in [1u32, 2, 9, 64] {
            let f = fragments(&diagonal_gather(m), m, 1).unwrap();
            assert_eq!(f.len() as u32, m);
            for (j, fr) in f.iter().enumerate() {
                assert_eq!((fr.j, fr.i), (j as u32, 0));
                assert!((fr.t0[0] - (j as f64 + 0.5)).abs() < 1e-9 && (fr.t0[1] - (j as f64 + 0.5)).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn diagonal_column_and_inner_product_domains() {
        let m = 9;
        for k in 0..m - 1 {
            assert_eq!(covered(&diagonal_square(k), m), vec![(k, k)]);
            let col: Vec<(u32, u32)> = (k + 1..m).map(|i| (k, i)).collect();
            assert_eq!(covered(&column_below_diagonal(k, m), m), col);
            let next: Vec<(u32, u32)> = (k + 1..m).map(|i| (k + 1, i)).collect();
            let f = fragments(&inner_product_column(k, m), m, m).unwrap();
            assert_eq!(f.iter().map(|f| (f.j, f.i)).collect::<Vec<_>>(), next);
            for fr in &f {
                assert!((fr.t0[1] - (fr.i as f64 + 0.5)).abs() < 1e-9);
            }
        }
    }
}
