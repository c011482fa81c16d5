//! Primitives of the Cholesky factorization in the rectangular packed format (2008 structure
//! paper §4.3, Figs. 6 and 7). Positions are packed texel units; texture coordinates point at the
//! packed positions of the neighbour L(i, k) (T0) and of the pivot L(j, k) (T1, read `.yx`), so the
//! full-format kernels run unchanged.

use super::{Primitive, Vertex};
use crate::layout::packed::{Packed, Piece};

/// The packed centre of full entry (row `y`, column k) for continuous row `y` (texel units).
fn column_point(p: &Packed, k: u32, y: f64) -> [f32; 3] {
    let (px, py) = p.to_packed(p.piece(k as usize), k as f64 + 0.5, y);
    [px as f32, py as f32, 0.0]
}

/// The update vertex at packed (x, y) on `piece` for step k: T0 = neighbour (row Y, column k),
/// T1 = pivot (row X, column k) with x and y exchanged, where (X, Y) is the full position.
fn update_vertex(p: &Packed, piece: Piece, k: u32, x: f64, y: f64) -> Vertex {
    let (fx, fy) = p.to_full(piece, x, y);
    let n = column_point(p, k, fy);
    let q = column_point(p, k, fx);
    Vertex::new([x as f32, y as f32], n, [q[1], q[0], 0.0])
}

/// The triangle over the rotated piece that holds full columns J0..m (rows i ≥ j): its texels are
/// x ≤ m − e − J0 with y on or above the packed diagonal.
fn rotated_triangle(p: &Packed, k: u32, j0: usize) -> [Vertex; 3] {
    let e = p.e() as f64;
    let x1 = (p.m - p.e() - j0) as f64 + 1.0;
    [
        update_vertex(p, Piece::Rotated, k, x1, x1 + e - 0.5),
        update_vertex(p, Piece::Rotated, k, x1, 0.0),
        update_vertex(p, Piece::Rotated, k, 0.5 - e, 0.0),
    ]
}

/// The k-th outer-product subtraction. For k = 0..w−1 two triangles (Figs. 6a/7a): the trapezoid
/// part of the Fig. 5 triangle moved down e rows (clipped at x = w), and the whole rotated
/// triangle. For k ≥ w one triangle over the rotated columns k+1..m (Figs. 6b/7b).
pub fn fig6_fig7_packed_update(k: u32, m: u32) -> Primitive {
    let p = Packed::new(m as usize);
    let (kf, mf) = (k as f64, m as f64);
    if (k as usize) < p.w {
        let trap = |x: f64, y: f64| {
            let (px, py) = p.to_packed(Piece::Trapezoid, x, y);
            update_vertex(&p, Piece::Trapezoid, k, px, py)
        };
        let [a, b, c] = rotated_triangle(&p, k, p.w);
        Primitive::TwoTriangles([trap(kf + 1.0, kf + 0.5), trap(kf + 1.0, mf), trap(mf + 0.5, mf), a, b, c])
    } else {
        Primitive::Triangle(rotated_triangle(&p, k, k as usize + 1))
    }
}

/// The texel of the diagonal entry (k, k): square root and its copy-back.
pub fn packed_diagonal_square(k: u32, m: u32) -> Primitive {
    let (x, y) = Packed::new(m as usize).texel(k as usize, k as usize);
    Primitive::texel_rect(x as u32, y as u32, x as u32 + 1, y as u32 + 1)
}

/// The k-th column below the diagonal (rows k+1..m), one packed column segment, with T0 = the
/// pivot's packed centre (Kernel 4).
pub fn packed_column_below_diagonal(k: u32, m: u32) -> Primitive {
    let p = Packed::new(m as usize);
    let (k, mu) = (k as usize, m as usize);
    let (dx, dy) = p.texel(k, k);
    let pivot = [dx as f32 + 0.5, dy as f32 + 0.5, 0.0];
    let (x, y0, y1) = match p.piece(k) {
        Piece::Trapezoid => (k, k + 1 + p.e(), mu + p.e()),
        Piece::Rotated => (mu - p.e() - k, 0, mu - 1 - k),
    };
    Primitive::rect_with(x as u32, y0 as u32, x as u32 + 1, y1 as u32, [pivot; 4], [[0.0; 3]; 4])
}

/// Gathers the diagonal into an m×1 texture: two rectangles, one per piece (the map is affine on
/// each piece only). T0 at fragment j is the packed centre of (j, j).
pub fn packed_diagonal_gather(m: u32) -> [Primitive; 2] {
    let p = Packed::new(m as usize);
    let at = |x: f64| {
        let piece = if x <= p.w as f64 { Piece::Trapezoid } else { Piece::Rotated };
        let (px, py) = p.to_packed(piece, x, x);
        [px as f32, py as f32, 0.0]
    };
    let at_rot = |x: f64| {
        let (px, py) = p.to_packed(Piece::Rotated, x, x);
        [px as f32, py as f32, 0.0]
    };
    let (w, mf) = (p.w as f64, m as f64);
    [
        Primitive::rect_with(0, 0, p.w as u32, 1, [at(0.0), at(w), at(0.0), at(w)], [[0.0; 3]; 4]),
        Primitive::rect_with(p.w as u32, 0, m, 1, [at_rot(w), at_rot(mf), at_rot(w), at_rot(mf)], [[0.0; 3]; 4]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::coverage::fragments;

    fn centre_of(p: &Packed, i: usize, j: usize) -> (f64, f64) {
        let (x, y) = p.texel(i, j);
        (x as f64 + 0.5, y as f64 + 0.5)
    }

    /// At every step, the update shades exactly the packed texels of the trailing lower triangle,
    /// and T0 / T1.yx point at the packed neighbour and pivot.
    #[test]
    fn packed_update_covers_the_trailing_triangle_with_neighbour_and_pivot() {
        for m in 1..=40u32 {
            let p = Packed::new(m as usize);
            let mut total = 0usize;
            for k in 0..m.saturating_sub(1) {
                let f = fragments(&fig6_fig7_packed_update(k, m), p.w as u32, p.h as u32)
                    .unwrap_or_else(|e| panic!("m={m} k={k}: {e:?}"));
                let mut entries: Vec<(usize, usize)> =
                    f.iter().map(|fr| p.entry(fr.j as usize, fr.i as usize)).collect();
                entries.sort();
                let k = k as usize;
                let want: Vec<(usize, usize)> =
                    (k + 1..m as usize).flat_map(|i| (k + 1..=i).map(move |j| (i, j))).collect();
                assert_eq!(entries, want, "m={m} k={k}");
                for fr in &f {
                    let (i, j) = p.entry(fr.j as usize, fr.i as usize);
                    let n = centre_of(&p, i, k);
                    let q = centre_of(&p, j, k);
                    assert!(
                        (fr.t0[0] - n.0).abs() < 1e-6 && (fr.t0[1] - n.1).abs() < 1e-6,
                        "m={m} k={k} ({i},{j}) T0 {:?} want {n:?}",
                        fr.t0
                    );
                    assert!(
                        (fr.t1[1] - q.0).abs() < 1e-6 && (fr.t1[0] - q.1).abs() < 1e-6,
                        "m={m} k={k} ({i},{j}) T1 {:?} want {q:?}",
                        fr.t1
                    );
                }
                total += f.len();
            }
            let m = m as usize;
            assert_eq!(total, m.saturating_sub(1) * m * (m + 1) / 6);
        }
    }

    #[test]
    fn packed_sqrt_and_normalization_domains() {
        for m in 1..=25u32 {
            let p = Packed::new(m as usize);
            for k in 0..m {
                let f = fragments(&packed_diagonal_square(k, m), p.w as u32, p.h as u32).unwrap();
                assert_eq!(f.len(), 1);
                assert_eq!(p.entry(f[0].j as usize, f[0].i as usize), (k as usize, k as usize));
                let f = fragments(&packed_column_below_diagonal(k, m), p.w as u32, p.h as u32).unwrap();
                let mut e: Vec<(usize, usize)> = f.iter().map(|fr| p.entry(fr.j as usize, fr.i as usize)).collect();
                e.sort();
                let want: Vec<(usize, usize)> = (k as usize + 1..m as usize).map(|i| (i, k as usize)).collect();
                assert_eq!(e, want, "m={m} k={k}");
                let d = centre_of(&p, k as usize, k as usize);
                for fr in &f {
                    assert!((fr.t0[0] - d.0).abs() < 1e-9 && (fr.t0[1] - d.1).abs() < 1e-9);
                }
            }
        }
    }

    #[test]
    fn packed_gather_reads_every_diagonal_entry() {
        for m in 1..=25u32 {
            let p = Packed::new(m as usize);
            let mut seen = Vec::new();
            for prim in packed_diagonal_gather(m) {
                for fr in fragments(&prim, m, 1).unwrap() {
                    let (x, y) = ((fr.t0[0] - 0.5).round() as usize, (fr.t0[1] - 0.5).round() as usize);
                    assert_eq!(p.entry(x, y), (fr.j as usize, fr.j as usize), "m={m}");
                    seen.push(fr.j);
                }
            }
            seen.sort();
            assert_eq!(seen, (0..m).collect::<Vec<_>>());
        }
    }

    /// Fig. 6 (m even) and Fig. 7 (m odd) as printed, for one step of each half.
    #[test]
    fn packed_update_reproduces_figures_6_and_7() {
        // Fig. 6a, m = 8 (w = 4, h = 9), k = 1.
        let (m, k) = (8u32, 1u32);
        let (kf, mf, w, h) = (1.0f32, 8.0f32, 4.0f32, 9.0f32);
        let Primitive::TwoTriangles(v) = fig6_fig7_packed_update(k, m) else { panic!() };
        let want = [
            ([kf + 1.0, kf + 1.5], [kf + 0.5, kf + 1.5], [kf + 2.0, kf + 0.5]),
            ([kf + 1.0, h], [kf + 0.5, h], [kf + 2.0, kf + 0.5]),
            ([mf + 0.5, h], [kf + 0.5, h], [mf + 1.5, kf + 0.5]),
            ([w, w + 0.5], [kf + 0.5, w + 0.5], [w + 1.0, kf + 0.5]),
            ([w, 0.0], [kf + 0.5, h], [w + 1.0, kf + 0.5]),
            ([-0.5, 0.0], [kf + 0.5, h], [mf + 1.5, kf + 0.5]),
        ];
        for (n, (pos, t0, t1)) in want.iter().enumerate() {
            assert_eq!(v[n].pos, *pos, "6a vertex {}", n + 1);
            assert_eq!([v[n].t0[0], v[n].t0[1]], *t0, "6a vertex {}", n + 1);
            assert_eq!([v[n].t1[0], v[n].t1[1]], *t1, "6a vertex {}", n + 1);
        }
        // Fig. 6b, m = 8: the figure's k counts packed columns down; packed column kp = 2 is
        // full step m − 1 − kp = 5.
        let kp = 2.0f32;
        let Primitive::Triangle(v) = fig6_fig7_packed_update(5, m) else { panic!() };
        let want = [
            ([kp, kp + 0.5], [kp + 0.5, kp + 0.5], [kp, kp + 0.5]),
            ([kp, 0.0], [kp + 0.5, 0.0], [kp, kp + 0.5]),
            ([-0.5, 0.0], [kp + 0.5, 0.0], [-0.5, kp + 0.5]),
        ];
        for (n, (pos, t0, t1)) in want.iter().enumerate() {
            assert_eq!(v[n].pos, *pos, "6b vertex {}", n + 1);
            assert_eq!([v[n].t0[0], v[n].t0[1]], *t0, "6b vertex {}", n + 1);
            assert_eq!([v[n].t1[0], v[n].t1[1]], *t1, "6b vertex {}", n + 1);
        }
        // Fig. 7b, m = 9 (w = 5): packed column kp = 3 is full step m − kp = 6.
        let kp = 3.0f32;
        let Primitive::Triangle(v) = fig6_fig7_packed_update(6, 9) else { panic!() };
        let want = [
            ([kp, kp - 0.5], [kp + 0.5, kp - 0.5], [kp - 1.0, kp + 0.5]),
            ([kp, 0.0], [kp + 0.5, 0.0], [kp - 1.0, kp + 0.5]),
            ([0.5, 0.0], [kp + 0.5, 0.0], [-0.5, kp + 0.5]),
        ];
        for (n, (pos, t0, t1)) in want.iter().enumerate() {
            assert_eq!(v[n].pos, *pos, "7b vertex {}", n + 1);
            assert_eq!([v[n].t0[0], v[n].t0[1]], *t0, "7b vertex {}", n + 1);
            assert_eq!([v[n].t1[0], v[n].t1[1]], *t1, "7b vertex {}", n + 1);
        }
    }
}
