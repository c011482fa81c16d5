//! Primitives of forward and back substitution with the factor in full or packed format (2008
//! IPM paper §3.2, Algorithm 1, Kernels 1–3, Fig. 3.3). Vectors are m×1 textures (width m): entry
//! i at texel (i, 0). Each line pass also says whether its T1 must be read swizzled (`.yx`,
//! Kernel 2) or as is (Kernel 3).

use super::{Primitive, Vertex};
use crate::layout::packed::{Packed, Piece};
use crate::layout::Format;

/// The packed or full centre of L(i, j) as a function of continuous row `y` and column `x`.
fn l_point(format: Format, m: u32, piece_of: usize, x: f64, y: f64) -> (f64, f64) {
    match format {
        Format::Full => (x, y),
        Format::Packed => {
            let p = Packed::new(m as usize);
            p.to_packed(p.piece(piece_of), x, y)
        }
    }
}

/// The point over entry k of a vector with T0 = the centre of L(k, k) (Kernel 1's `L_index`).
pub fn division_point(k: u32, m: u32, format: Format) -> Primitive {
    let c = k as f64 + 0.5;
    let (lx, ly) = l_point(format, m, k as usize, c, c);
    Primitive::Point(Vertex::new([k as f32 + 0.5, 0.5], [lx as f32, ly as f32, 0.0], [0.0; 3]))
}

/// A line over vector entries `i0..i1` (texel centre to texel centre), T0 fixed at entry `k`, T1
/// from `t1(x)` at each end.
fn line(k: u32, i0: u32, i1: u32, t1: impl Fn(f64) -> [f32; 3]) -> Primitive {
    let (x0, x1) = (i0 as f64 + 0.5, i1 as f64 + 0.5);
    let t0 = [k as f32 + 0.5, 0.5, 0.0];
    Primitive::Line([Vertex::new([x0 as f32, 0.5], t0, t1(x0)), Vertex::new([x1 as f32, 0.5], t0, t1(x1))])
}

/// Forward substitution, step k: the sub-column subtraction f(i) −= f(k)·L(i, k), i = k+1..m, as
/// one line. Returns the line and whether T1 is swizzled: L(i, k) moves down a column as i moves
/// right, so the full format and the trapezoid read T1 `.yx`; in the rotated triangle the column
/// lies along x already (Kernel 3, no swizzle).
pub fn forward_sub_column(k: u32, m: u32, format: Format) -> (Primitive, bool) {
    let kc = k as f64 + 0.5;
    let rotated = format == Format::Packed && Packed::new(m as usize).piece(k as usize) == Piece::Rotated;
    let prim = line(k, k + 1, m, |x| {
        let (lx, ly) = l_point(format, m, k as usize, kc, x);
        if rotated {
            [lx as f32, ly as f32, 0.0]
        } else {
            [ly as f32, lx as f32, 0.0]
        }
    });
    (prim, !rotated)
}

/// Back substitution (Lᵀx = y), step k: the sub-row subtraction y(i) −= x(k)·L(k, i), i = 0..k,
/// along row k of L: one line in the full format, one per piece in the packed format. T1 is never
/// swizzled.
pub fn backward_sub_row(k: u32, m: u32, format: Format) -> Vec<Primitive> {
    let kc = k as f64 + 0.5;
    let t1 = |piece_col: usize| {
        move |x: f64| {
            let (lx, ly) = l_point(format, m, piece_col, x, kc);
            [lx as f32, ly as f32, 0.0]
        }
    };
    match format {
        Format::Full => {
            if k > 0 {
                vec![line(k, 0, k, t1(0))]
            } else {
                vec![]
            }
        }
        Format::Packed => {
            let w = Packed::new(m as usize).w as u32;
            let mut v = Vec::new();
            if k > 0 {
                v.push(line(k, 0, k.min(w), t1(0)));
            }
            if k > w {
                v.push(line(k, w, k, t1(w as usize)));
            }
            v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::coverage::fragments;

    fn l_texel(format: Format, m: usize, i: usize, j: usize) -> (f64, f64) {
        match format {
            Format::Full => (j as f64 + 0.5, i as f64 + 0.5),
            Format::Packed => {
                let (x, y) = Packed::new(m).texel(i, j);
                (x as f64 + 0.5, y as f64 + 0.5)
            }
        }
    }

    #[test]
    fn forward_lines_fetch_the_column_below_the_pivot() {
        for format in [Format::Full, Format::Packed] {
            for m in 1..=24u32 {
                for k in 0..m {
                    let f = fragments(&division_point(k, m, format), m, 1).unwrap();
                    assert_eq!(f.len(), 1);
                    assert_eq!((f[0].t0[0], f[0].t0[1]), l_texel(format, m as usize, k as usize, k as usize));
                    if k + 1 >= m {
                        continue;
                    }
                    let (p, swizzled) = forward_sub_column(k, m, format);
                    let f = fragments(&p, m, 1).unwrap();
                    assert_eq!(f.iter().map(|f| f.j).collect::<Vec<_>>(), (k + 1..m).collect::<Vec<_>>());
                    for fr in &f {
                        let want = l_texel(format, m as usize, fr.j as usize, k as usize);
                        let got = if swizzled { (fr.t1[1], fr.t1[0]) } else { (fr.t1[0], fr.t1[1]) };
                        assert!(
                            (got.0 - want.0).abs() < 1e-6 && (got.1 - want.1).abs() < 1e-6,
                            "{format:?} m={m} k={k} i={}",
                            fr.j
                        );
                        assert_eq!((fr.t0[0], fr.t0[1]), (k as f64 + 0.5, 0.5));
                    }
                }
            }
        }
    }

    #[test]
    fn backward_lines_fetch_the_row_left_of_the_pivot() {
        for format in [Format::Full, Format::Packed] {
            for m in 1..=24u32 {
                for k in 0..m {
                    let mut seen = Vec::new();
                    for p in backward_sub_row(k, m, format) {
                        for fr in fragments(&p, m, 1).unwrap() {
                            let want = l_texel(format, m as usize, k as usize, fr.j as usize);
                            assert!(
                                (fr.t1[0] - want.0).abs() < 1e-6 && (fr.t1[1] - want.1).abs() < 1e-6,
                                "{format:?} m={m} k={k} i={}",
                                fr.j
                            );
                            seen.push(fr.j);
                        }
                    }
                    seen.sort();
                    assert_eq!(seen, (0..k).collect::<Vec<_>>(), "{format:?} m={m} k={k}");
                }
            }
        }
    }
}
