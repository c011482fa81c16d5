//! Primitives of the assembly of C = A·D²·Aᵀ (2008 structure paper, Algorithm 3, Figs. 2 and 4).
//! A is stored n×m (width n: A(i, k) at texel (k, i)), d as n×1, b as m×1.

use super::{Primitive, Vertex};
use crate::layout::packed::{Packed, Piece};

/// Fig. 2(a): the rectangle over b (m×1) for the k-th column scaling. Each vertex at (x, y)
/// carries the triad (x, k+.5, .5): `.yx` addresses A(x, k), `.yz` addresses d(k).
pub fn fig2a_column_scaling(k: u32, m: u32) -> Primitive {
    let (kc, mf) = (k as f32 + 0.5, m as f32);
    let t = |x: f32| [x, kc, 0.5];
    Primitive::rect_with(0, 0, m, 1, [t(0.0), t(mf), t(0.0), t(mf)], [[0.0; 3]; 4])
}

/// The full-format vertex at (x, y) of the k-th outer-product addition: T0 = (k+.5, y) fetches
/// A(y, k), T1 = (x, .5) fetches b(x).
fn addition_vertex(pos: [f32; 2], full: (f64, f64), k: u32) -> Vertex {
    let (x, y) = (full.0 as f32, full.1 as f32);
    Vertex::new(pos, [k as f32 + 0.5, y, 0.0], [x, 0.5, 0.0])
}

/// Fig. 2(b): the isosceles right triangle (0, −.5), (0, m), (m+.5, m) over the lower triangle
/// of C, diagonal included.
pub fn fig2b_outer_addition(k: u32, m: u32) -> Primitive {
    let mf = m as f32;
    let v = |x: f32, y: f32| addition_vertex([x, y], (x as f64, y as f64), k);
    Primitive::Triangle([v(0.0, -0.5), v(0.0, mf), v(mf + 0.5, mf)])
}

/// Fig. 4: the k-th outer-product addition in the packed format: vertices 1–3 over the trapezoid
/// (the full-format triangle moved down e rows), 4–6 over the rotated triangle; every vertex
/// carries the coordinates of its full-format position.
pub fn fig4_packed_outer_addition(k: u32, m: u32) -> Primitive {
    let p = Packed::new(m as usize);
    let (mf, w, e) = (m as f64, p.w as f64, p.e() as f64);
    let v = |piece: Piece, x: f64, y: f64| addition_vertex([x as f32, y as f32], p.to_full(piece, x, y), k);
    let trap = |x: f64, y: f64| {
        let (px, py) = p.to_packed(Piece::Trapezoid, x, y);
        v(Piece::Trapezoid, px, py)
    };
    Primitive::TwoTriangles([
        trap(0.0, -0.5),
        trap(0.0, mf),
        trap(mf + 0.5, mf),
        v(Piece::Rotated, w, w + e - 0.5),
        v(Piece::Rotated, w, 0.0),
        v(Piece::Rotated, 0.5 - e, 0.0),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::coverage::fragments;

    #[test]
    fn column_scaling_fetches_a_column_and_one_weight() {
        let (k, m) = (3, 7);
        let f = fragments(&fig2a_column_scaling(k, m), m, 1).unwrap();
        assert_eq!(f.len(), 7);
        for (i, fr) in f.iter().enumerate() {
            // .yx = (k+.5, i+.5): A(i, k); .yz = (k+.5, .5): d(k).
            assert!(
                (fr.t0[0] - (i as f64 + 0.5)).abs() < 1e-9
                    && (fr.t0[1] - 3.5).abs() < 1e-9
                    && (fr.t0[2] - 0.5).abs() < 1e-9
            );
        }
    }

    #[test]
    fn full_addition_covers_the_lower_triangle_with_fig2_coordinates() {
        for m in 1..=20u32 {
            let f = fragments(&fig2b_outer_addition(2, m), m, m).unwrap();
            assert_eq!(f.len() as u32, m * (m + 1) / 2);
            for fr in &f {
                assert!(fr.j <= fr.i);
                assert!((fr.t0[0] - 2.5).abs() < 1e-9 && (fr.t0[1] - (fr.i as f64 + 0.5)).abs() < 1e-9);
                assert!((fr.t1[0] - (fr.j as f64 + 0.5)).abs() < 1e-9 && (fr.t1[1] - 0.5).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn packed_addition_covers_every_texel_once_with_the_full_coordinates_of_its_entry() {
        for m in 1..=40u32 {
            let p = Packed::new(m as usize);
            let k = m / 3;
            let f = fragments(&fig4_packed_outer_addition(k, m), p.w as u32, p.h as u32).unwrap();
            assert_eq!(f.len(), p.w * p.h, "m={m}");
            for fr in &f {
                let (i, j) = p.entry(fr.j as usize, fr.i as usize);
                assert!((fr.t0[0] - (k as f64 + 0.5)).abs() < 1e-9, "m={m}");
                assert!(
                    (fr.t0[1] - (i as f64 + 0.5)).abs() < 1e-6,
                    "m={m} texel ({},{}) T0 {:?} for ({i},{j})",
                    fr.j,
                    fr.i,
                    fr.t0
                );
                assert!(
                    (fr.t1[0] - (j as f64 + 0.5)).abs() < 1e-6,
                    "m={m} texel ({},{}) T1 {:?} for ({i},{j})",
                    fr.j,
                    fr.i,
                    fr.t1
                );
            }
        }
    }

    /// The vertices and coordinates Fig. 4 lists, for m = 6 (even) and m = 7 (odd).
    #[test]
    fn packed_addition_reproduces_figure_4() {
        let k = 1u32;
        let kc = k as f32 + 0.5;
        let Primitive::TwoTriangles(v) = fig4_packed_outer_addition(k, 6) else { panic!() };
        let (m, w, h) = (6.0, 3.0, 7.0);
        let want = [
            ([0.0, 0.5], [kc, -0.5], [0.0, 0.5]),
            ([0.0, h], [kc, m], [0.0, 0.5]),
            ([m + 0.5, h], [kc, m], [m + 0.5, 0.5]),
            ([w, w + 0.5], [kc, w - 0.5], [w, 0.5]),
            ([w, 0.0], [kc, m], [w, 0.5]),
            ([-0.5, 0.0], [kc, m], [m + 0.5, 0.5]),
        ];
        for (n, (pos, t0, t1)) in want.iter().enumerate() {
            assert_eq!(v[n].pos, *pos, "even vertex {}", n + 1);
            assert_eq!([v[n].t0[0], v[n].t0[1]], *t0, "even vertex {}", n + 1);
            assert_eq!([v[n].t1[0], v[n].t1[1]], *t1, "even vertex {}", n + 1);
        }
        let Primitive::TwoTriangles(v) = fig4_packed_outer_addition(k, 7) else { panic!() };
        let (m, w) = (7.0, 4.0);
        // Vertex 4's T1 is (w, .5): the figure prints (m, .5), which would make T1 depend on y
        // along the edge 4–5 where vertex 5 has (w, .5); (w, .5) is the affine continuation.
        let want = [
            ([0.0, -0.5], [kc, -0.5], [0.0, 0.5]),
            ([0.0, m], [kc, m], [0.0, 0.5]),
            ([m + 0.5, m], [kc, m], [m + 0.5, 0.5]),
            ([w, w - 0.5], [kc, w - 0.5], [w, 0.5]),
            ([w, 0.0], [kc, m], [w, 0.5]),
            ([0.5, 0.0], [kc, m], [m + 0.5, 0.5]),
        ];
        for (n, (pos, t0, t1)) in want.iter().enumerate() {
            assert_eq!(v[n].pos, *pos, "odd vertex {}", n + 1);
            assert_eq!([v[n].t0[0], v[n].t0[1]], *t0, "odd vertex {}", n + 1);
            assert_eq!([v[n].t1[0], v[n].t1[1]], *t1, "odd vertex {}", n + 1);
        }
    }
}
