//! Primitives of the register-tile kernels, in texel units of their planes (a texel is a tile of
//! ROWS × COLS entries). The papers' placement rule holds: no texel centre on an edge.

use super::{Primitive, Vertex};

/// The tiles of the lower triangle of a matrix whose tiles are `ratio` times as tall as they are
/// wide (ratio = ROWS/COLS, 1 or 2): tile (J, I) of rows ratio·COLS·I.. and columns COLS·J..
/// holds an entry on or below the diagonal exactly when J ≤ ratio·(I + 1) − 1. Drawn as the
/// triangle under the edge x = ratio·y + ratio/2 from (0, −½) to (ratio·n + ratio/2, n), over
/// `n` tile rows; T0 is the position. ratio = 1 is [`super::blocks::lower_triangle`] from 0.
pub fn lower_triangle(n: u32, ratio: u32) -> Primitive {
    let (n, r) = (n as f32, ratio as f32);
    Primitive::Triangle([Vertex::at(0.0, -0.5), Vertex::at(0.0, n), Vertex::at(r * n + r / 2.0, n)])
}

/// Fragments of [`lower_triangle`]: ratio·n(n+1)/2.
pub fn lower_triangle_fragments(n: u64, ratio: u64) -> u64 {
    ratio * n * (n + 1) / 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::coverage::fragments;

    #[test]
    fn the_lower_triangle_of_tiles_is_exactly_the_tiles_touching_it() {
        for ratio in [1u32, 2] {
            for n in 1..=12u32 {
                let (w, h) = (ratio * n, n);
                let mut got: Vec<(u32, u32)> = fragments(&lower_triangle(n, ratio), w, h)
                    .expect("no centre on an edge")
                    .iter()
                    .map(|f| (f.j, f.i))
                    .collect();
                got.sort();
                // Tile (J, I) with COLS = 4, ROWS = 4·ratio touches the lower triangle iff its
                // first column 4J is at most its last row 4·ratio·(I + 1) − 1.
                let mut want: Vec<(u32, u32)> = (0..h)
                    .flat_map(|i| (0..w).filter(move |&j| 4 * j < 4 * ratio * (i + 1)).map(move |j| (j, i)))
                    .collect();
                want.sort();
                assert_eq!(got, want, "ratio={ratio} n={n}");
                assert_eq!(got.len() as u64, lower_triangle_fragments(n as u64, ratio as u64));
            }
        }
    }
}
