//! Four values per texel (RGBA32F), the layouts of the blocked kernels (pure).
//!
//! * [`Blocks2x2`]: a matrix in 2×2 blocks, TensorFlow.js's packed layout. Texel (J, I) (x = J
//!   block column, y = I block row) holds a(2I, 2J), a(2I, 2J+1), a(2I+1, 2J), a(2I+1, 2J+1) in
//!   R, G, B, A. A fragment reads a 2×2 block with one fetch, so a 2×2 by 2×2 product is eight
//!   multiply-adds for two fetches (the papers' one-value kernels: one for three).
//! * [`Rows4`]: each row of a matrix in runs of four consecutive columns: texel (K, i) holds
//!   a(i, 4K..4K+3). A loop over the column index k runs along a texture row, four entries per
//!   fetch (the assembly's and the matrix–vector products' layout of A); a vector is one such
//!   row (x(4K..4K+3) at texel (K, 0)).
//!
//! Both may be padded beyond the logical size; padding is zero except on the diagonal, where a
//! symmetric positive definite matrix is padded with the identity (its Cholesky factor is then
//! the factor of the logical matrix bordered by the identity).

/// A `rows × cols` matrix stored in 2×2 blocks, padded to `padded_rows × padded_cols` (even).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocks2x2 {
    /// The matrix's rows.
    pub rows: usize,
    /// The matrix's columns.
    pub cols: usize,
    /// Rows rounded up to even (twice the texture's height).
    pub padded_rows: usize,
    /// Columns rounded up to even (twice the texture's width).
    pub padded_cols: usize,
}

impl Blocks2x2 {
    /// No padding beyond the next even size.
    pub fn new(rows: usize, cols: usize) -> Self {
        Self::padded(rows, cols, rows.next_multiple_of(2), cols.next_multiple_of(2))
    }

    /// A square `m × m` matrix padded to a multiple of `block` (itself even).
    pub fn square(m: usize, block: usize) -> Self {
        let p = m.max(1).next_multiple_of(block.max(2).next_multiple_of(2));
        Self::padded(m, m, p, p)
    }

    /// Padded to at least the given sizes (rounded up to even).
    pub fn padded(rows: usize, cols: usize, padded_rows: usize, padded_cols: usize) -> Self {
        Self {
            rows,
            cols,
            padded_rows: padded_rows.max(rows).next_multiple_of(2),
            padded_cols: padded_cols.max(cols).next_multiple_of(2),
        }
    }

    /// Texture (width, height) in texels.
    pub fn texture_size(&self) -> (usize, usize) {
        (self.padded_cols / 2, self.padded_rows / 2)
    }

    /// Where entry (i, j) lives: texel (x, y) and channel 0..4.
    pub fn texel(&self, i: usize, j: usize) -> (usize, usize, usize) {
        (j / 2, i / 2, 2 * (i % 2) + j % 2)
    }

    /// Index of entry (i, j) in the texture's data (row-major texels, four floats each).
    pub fn index(&self, i: usize, j: usize) -> usize {
        let (x, y, c) = self.texel(i, j);
        (y * self.padded_cols / 2 + x) * 4 + c
    }

    /// Texture data for the row-major `rows × cols` matrix `a`; padded diagonal entries get
    /// `diagonal_pad` (1 for the identity border of a matrix to factor, 0 otherwise).
    pub fn pack(&self, a: &[f32], diagonal_pad: f32) -> Vec<f32> {
        assert_eq!(a.len(), self.rows * self.cols, "Blocks2x2::pack: {}×{} matrix", self.rows, self.cols);
        let mut out = vec![0.0; self.padded_rows * self.padded_cols];
        for i in 0..self.rows {
            for j in 0..self.cols {
                out[self.index(i, j)] = a[i * self.cols + j];
            }
        }
        for d in self.rows.min(self.cols)..self.padded_rows.min(self.padded_cols) {
            out[self.index(d, d)] = diagonal_pad;
        }
        out
    }

    /// The row-major `rows × cols` matrix held in texture data `t` (padding dropped).
    pub fn unpack(&self, t: &[f32]) -> Vec<f32> {
        assert_eq!(t.len(), self.padded_rows * self.padded_cols, "Blocks2x2::unpack: texture data size");
        let mut out = vec![0.0; self.rows * self.cols];
        for i in 0..self.rows {
            for j in 0..self.cols {
                out[i * self.cols + j] = t[self.index(i, j)];
            }
        }
        out
    }
}

/// A `rows × cols` matrix stored as runs of four columns per texel, `cols` padded to a multiple
/// of 4 (with zeros) and optionally beyond.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rows4 {
    pub rows: usize,
    pub cols: usize,
    pub padded_cols: usize,
}

impl Rows4 {
    pub fn new(rows: usize, cols: usize) -> Self {
        Self::padded(rows, cols, cols)
    }

    /// Columns padded to at least `padded_cols` (rounded up to a multiple of 4).
    pub fn padded(rows: usize, cols: usize, padded_cols: usize) -> Self {
        Self { rows, cols, padded_cols: padded_cols.max(cols).max(1).next_multiple_of(4) }
    }

    /// A vector of length n: one row.
    pub fn vector(n: usize) -> Self {
        Self::new(1, n)
    }

    /// Texture (width, height) in texels.
    pub fn texture_size(&self) -> (usize, usize) {
        (self.padded_cols / 4, self.rows.max(1))
    }

    /// Index of entry (i, j) in the texture's data.
    pub fn index(&self, i: usize, j: usize) -> usize {
        i * self.padded_cols + j
    }

    /// Texture data for the row-major `rows × cols` matrix `a` (zero padding).
    pub fn pack(&self, a: &[f32]) -> Vec<f32> {
        assert_eq!(a.len(), self.rows * self.cols, "Rows4::pack: {}×{} matrix", self.rows, self.cols);
        let mut out = vec![0.0; self.rows.max(1) * self.padded_cols];
        for i in 0..self.rows {
            out[i * self.padded_cols..i * self.padded_cols + self.cols]
                .copy_from_slice(&a[i * self.cols..(i + 1) * self.cols]);
        }
        out
    }

    /// The row-major matrix held in texture data `t` (padding dropped).
    pub fn unpack(&self, t: &[f32]) -> Vec<f32> {
        assert_eq!(t.len(), self.rows.max(1) * self.padded_cols, "Rows4::unpack: texture data size");
        let mut out = Vec::with_capacity(self.rows * self.cols);
        for i in 0..self.rows {
            out.extend_from_slice(&t[i * self.padded_cols..i * self.padded_cols + self.cols]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(r: usize, c: usize) -> Vec<f32> {
        (0..r * c).map(|v| v as f32 + 1.0).collect()
    }

    #[test]
    fn blocks_put_each_2x2_block_in_one_texel_in_rgba_order() {
        let b = Blocks2x2::new(3, 5);
        assert_eq!(b.texture_size(), (3, 2));
        let a = matrix(3, 5);
        let t = b.pack(&a, 0.0);
        // Texel (1, 0): a(0,2), a(0,3), a(1,2), a(1,3).
        assert_eq!(&t[4..8], &[a[2], a[3], a[5 + 2], a[5 + 3]]);
        // Texel (2, 1): a(2,4) then padding.
        assert_eq!(&t[(3 + 2) * 4..(3 + 3) * 4], &[a[2 * 5 + 4], 0.0, 0.0, 0.0]);
        assert_eq!(b.unpack(&t), a);
    }

    #[test]
    fn blocks_round_trip_every_odd_and_even_size_and_pad_the_diagonal() {
        for m in 1..=9 {
            for block in [2, 4, 8] {
                let b = Blocks2x2::square(m, block);
                assert_eq!(b.padded_rows % block, 0);
                assert!(b.padded_rows >= m && b.padded_rows < m + block);
                let a = matrix(m, m);
                let t = b.pack(&a, 1.0);
                assert_eq!(b.unpack(&t), a);
                for d in m..b.padded_rows {
                    assert_eq!(t[b.index(d, d)], 1.0);
                }
                let ones = t.iter().filter(|&&v| v == 1.0).count();
                assert_eq!(ones, b.padded_rows - m + 1, "m={m}: a(0,0) = 1 and the padded diagonal");
            }
        }
    }

    #[test]
    fn rows4_runs_four_columns_per_texel() {
        let r = Rows4::new(2, 6);
        assert_eq!(r.texture_size(), (2, 2));
        let a = matrix(2, 6);
        let t = r.pack(&a);
        assert_eq!(t, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 0.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 0.0, 0.0]);
        assert_eq!(r.unpack(&t), a);
        let v = Rows4::vector(1);
        assert_eq!(v.texture_size(), (1, 1));
        assert_eq!(v.pack(&[5.0]), vec![5.0, 0.0, 0.0, 0.0]);
        assert_eq!(Rows4::padded(3, 5, 13).texture_size(), (4, 3));
    }
}
