//! Register tiles (pure): a matrix held as several RGBA32F textures, its *planes*, so that one
//! fragment writes a whole tile through multiple render targets.
//!
//! A tile is `rows × cols` entries (each even), made of (rows/2)·(cols/2) 2×2 blocks; block
//! (r, c) of the tile (r down, c across) lives in plane q = (cols/2)·r + c, at the tile's texel
//! (J, I), with the channels of [`super::Blocks2x2`]. Equivalently, plane q at texel (J, I) is
//! the [`super::Blocks2x2`] texel (cols/2·J + c, rows/2·I + r): reading a planed matrix is
//! reading 2×2 blocks with the plane chosen by the block's position within its tile.

/// A register tile's shape, in matrix entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct TileShape {
    pub rows: usize,
    pub cols: usize,
}

impl TileShape {
    /// 2×2: one RGBA texel, one plane (the blocked kernels' fragment).
    pub const T2X2: TileShape = TileShape { rows: 2, cols: 2 };
    /// 4×4: four planes.
    pub const T4X4: TileShape = TileShape { rows: 4, cols: 4 };
    /// 8×4: eight planes (eight rows against four columns).
    pub const T8X4: TileShape = TileShape { rows: 8, cols: 4 };

    /// Planes (RGBA targets written by one fragment).
    pub const fn planes(self) -> usize {
        (self.rows / 2) * (self.cols / 2)
    }
    /// Blocks per tile across (c = 0..) and down (r = 0..).
    pub const fn blocks(self) -> (usize, usize) {
        (self.cols / 2, self.rows / 2)
    }
    /// The plane of block (r, c) of a tile.
    pub const fn plane(self, r: usize, c: usize) -> usize {
        (self.cols / 2) * r + c
    }
    /// "8×4".
    pub fn name(self) -> String {
        format!("{}×{}", self.rows, self.cols)
    }
}

/// A square matrix of order `order` padded to `padded` (a multiple of both tile sides), held in
/// the planes of `shape`. Padding is zero except on the diagonal (see [`Tiles::pack`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiles {
    pub order: usize,
    pub padded: usize,
    pub shape: TileShape,
}

impl Tiles {
    /// An m×m matrix padded to a multiple of `multiple` and of the tile's sides.
    pub fn square(m: usize, multiple: usize, shape: TileShape) -> Self {
        let step = lcm(lcm(multiple.max(2), shape.rows), shape.cols);
        Self { order: m, padded: m.max(1).next_multiple_of(step), shape }
    }

    /// Each plane's (width, height) in texels.
    pub fn plane_size(&self) -> (usize, usize) {
        (self.padded / self.shape.cols, self.padded / self.shape.rows)
    }

    /// Where entry (i, j) lives: plane, texel (x, y), channel.
    pub fn locate(&self, i: usize, j: usize) -> (usize, usize, usize, usize) {
        let (tc, tr) = self.shape.blocks();
        let (bx, by) = (j / 2, i / 2);
        (self.shape.plane(by % tr, bx % tc), bx / tc, by / tr, 2 * (i % 2) + j % 2)
    }

    /// Index of entry (i, j) within its plane's data (row-major texels, four floats each).
    fn index(&self, x: usize, y: usize, channel: usize) -> usize {
        (y * self.plane_size().0 + x) * 4 + channel
    }

    /// Each plane's texture data for the row-major m×m matrix `a`; padded diagonal entries get
    /// `diagonal_pad` (1 for the identity border of a matrix to factor).
    pub fn pack(&self, a: &[f32], diagonal_pad: f32) -> Vec<Vec<f32>> {
        let m = self.order;
        assert_eq!(a.len(), m * m, "Tiles::pack: {m}×{m} matrix");
        let (w, h) = self.plane_size();
        let mut planes = vec![vec![0.0; w * h * 4]; self.shape.planes()];
        for i in 0..self.padded {
            for j in 0..self.padded {
                let v = if i < m && j < m {
                    a[i * m + j]
                } else if i == j {
                    diagonal_pad
                } else {
                    continue;
                };
                let (q, x, y, c) = self.locate(i, j);
                let at = self.index(x, y, c);
                planes[q][at] = v;
            }
        }
        planes
    }

    /// The row-major m×m matrix held in the planes' data (padding dropped).
    pub fn unpack(&self, planes: &[Vec<f32>]) -> Vec<f32> {
        let m = self.order;
        let (w, h) = self.plane_size();
        assert_eq!(planes.len(), self.shape.planes(), "Tiles::unpack: planes");
        assert!(planes.iter().all(|p| p.len() == w * h * 4), "Tiles::unpack: plane data size");
        let mut out = vec![0.0; m * m];
        for i in 0..m {
            for j in 0..m {
                let (q, x, y, c) = self.locate(i, j);
                out[i * m + j] = planes[q][self.index(x, y, c)];
            }
        }
        out
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: usize, b: usize) -> usize {
    a / gcd(a, b) * b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Blocks2x2;

    #[test]
    fn a_plane_texel_is_the_blocks2x2_texel_of_its_tile_position() {
        for shape in [TileShape::T2X2, TileShape::T4X4, TileShape::T8X4] {
            for m in [1, 3, 7, 8, 9, 17] {
                let t = Tiles::square(m, 2, shape);
                let b = Blocks2x2::square(m, 2);
                for i in 0..m {
                    for j in 0..m {
                        let (q, x, y, c) = t.locate(i, j);
                        let (bx, by, bc) = b.texel(i, j);
                        let (tc, tr) = shape.blocks();
                        assert_eq!(c, bc);
                        assert_eq!((tc * x + q % tc, tr * y + q / tc), (bx, by), "{shape:?} ({i}, {j})");
                    }
                }
            }
        }
    }

    #[test]
    fn pack_and_unpack_round_trip_with_the_identity_on_the_padded_diagonal() {
        for shape in [TileShape::T4X4, TileShape::T8X4] {
            for m in [1, 3, 4, 5, 8, 9, 15, 16, 17] {
                for multiple in [2, 8, 16] {
                    let t = Tiles::square(m, multiple, shape);
                    assert!(t.padded >= m && t.padded.is_multiple_of(multiple) && t.padded.is_multiple_of(shape.rows));
                    assert!(t.padded < m.max(1) + multiple.max(shape.rows));
                    let a: Vec<f32> = (0..m * m).map(|v| v as f32 + 2.0).collect();
                    let planes = t.pack(&a, 1.0);
                    assert_eq!(planes.len(), shape.planes());
                    assert_eq!(t.unpack(&planes), a);
                    let ones: usize = planes.iter().map(|p| p.iter().filter(|&&v| v == 1.0).count()).sum();
                    assert_eq!(ones, t.padded - m, "{shape:?} m={m}");
                }
            }
        }
    }
}
