//! Primitives of the blocked kernels, in texel units of their targets (a texel is a 2×2 block of
//! a matrix, or four entries of a vector). The same placement rule as the papers' figures: edges
//! on half-integers or texel borders, never through a texel centre.

use super::{Primitive, Vertex};

/// The oversized triangle (t, t − ½), (t, n), (n + ½, n): exactly the texels (j, i) with
/// t ≤ j ≤ i < n — the lower triangle of blocks from block t on (Fig. 5's triangle, one block
/// per fragment). T0 is the position.
pub fn lower_triangle(t: u32, n: u32) -> Primitive {
    let (t, n) = (t as f32, n as f32);
    Primitive::Triangle([Vertex::at(t, t - 0.5), Vertex::at(t, n), Vertex::at(n + 0.5, n)])
}

/// The rectangle of texels `x0..x1` × `y0..y1`.
pub fn rect(x0: u32, y0: u32, x1: u32, y1: u32) -> Primitive {
    Primitive::texel_rect(x0, y0, x1, y1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::coverage::fragments;

    #[test]
    fn the_lower_triangle_of_blocks_is_exactly_j_le_i_from_t() {
        for n in 1..=12u32 {
            for t in 0..n {
                let mut got: Vec<(u32, u32)> = fragments(&lower_triangle(t, n), n, n)
                    .expect("no centre on an edge")
                    .iter()
                    .map(|f| (f.j, f.i))
                    .collect();
                got.sort();
                let mut want: Vec<(u32, u32)> = (t..n).flat_map(|i| (t..=i).map(move |j| (j, i))).collect();
                want.sort();
                assert_eq!(got, want, "t={t} n={n}");
            }
        }
    }
}
