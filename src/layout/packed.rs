//! The rectangular packed format of the 2008 papers (after Gunnels and Gustavson): the lower
//! triangle of an m×m matrix in a w×h texture, w = ⌈m/2⌉, h = m + mod(m+1, 2), with the lower-right
//! triangle (columns w..m) rotated by 180° into the upper-left corner (Fig. 3). Every texel is used:
//! w·h = m(m+1)/2.
//!
//! Index map (0-based, full (row i, column j), j ≤ i):
//! - columns j < w (the *trapezoid*) stay in place, shifted down one row when m is even:
//!   texel (x, y) = (j, i + e), e = 1 for even m, 0 for odd m;
//! - columns j ≥ w (the *rotated triangle*): (x, y) = (m − 1 − j, m − 1 − i) for even m and
//!   (m − j, m − 1 − i) for odd m.
//!
//! The same map on continuous texel coordinates (centres at +.5) is affine on each piece, which is
//! what lets the rasterizer interpolate packed texture coordinates (see `geometry::packed`).

/// Which piece of the packed texture a full-format entry lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Columns 0..w, stored unrotated.
    Trapezoid,
    /// Columns w..m, rotated into the upper-left corner.
    Rotated,
}

/// The packed layout of an m×m symmetric or lower-triangular matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packed {
    pub m: usize,
    /// Texture width ⌈m/2⌉.
    pub w: usize,
    /// Texture height m + mod(m+1, 2).
    pub h: usize,
}

impl Packed {
    pub fn new(m: usize) -> Self {
        Self { m, w: m.div_ceil(2), h: m + (m + 1) % 2 }
    }

    /// 1 when m is even (the trapezoid sits one row down), else 0.
    pub fn e(&self) -> usize {
        (self.m + 1) % 2
    }

    /// The piece column j lives in.
    pub fn piece(&self, j: usize) -> Piece {
        if j < self.w {
            Piece::Trapezoid
        } else {
            Piece::Rotated
        }
    }

    /// Texel (x, y) holding full entry (i, j), j ≤ i < m.
    pub fn texel(&self, i: usize, j: usize) -> (usize, usize) {
        debug_assert!(j <= i && i < self.m);
        match self.piece(j) {
            Piece::Trapezoid => (j, i + self.e()),
            Piece::Rotated => (self.m - self.e() - j, self.m - 1 - i),
        }
    }

    /// Full entry (i, j) held by texel (x, y) (every texel holds one).
    pub fn entry(&self, x: usize, y: usize) -> (usize, usize) {
        let e = self.e();
        // A texel is in the trapezoid when it lies on or below the packed diagonal y = x + e.
        if y >= x + e {
            (y - e, x)
        } else {
            (self.m - 1 - y, self.m - e - x)
        }
    }

    /// Continuous map of a full-format point (X, Y) = (column, row) in texel units on `piece`
    /// to packed texel units: affine, centres to centres.
    pub fn to_packed(self, piece: Piece, x: f64, y: f64) -> (f64, f64) {
        let (m, e) = (self.m as f64, self.e() as f64);
        match piece {
            Piece::Trapezoid => (x, y + e),
            // Centre j + .5 ↦ m − e − j + .5 = (m − e + 1) − (j + .5); likewise rows.
            Piece::Rotated => (m - e + 1.0 - x, m - y),
        }
    }

    /// The inverse of [`Packed::to_packed`].
    pub fn to_full(self, piece: Piece, x: f64, y: f64) -> (f64, f64) {
        let (m, e) = (self.m as f64, self.e() as f64);
        match piece {
            Piece::Trapezoid => (x, y - e),
            Piece::Rotated => (m - e + 1.0 - x, m - y),
        }
    }

    /// Packs the lower triangle of a row-major m×m matrix into a row-major w×h texture.
    pub fn pack<T: Copy + Default>(&self, full: &[T]) -> Vec<T> {
        let mut out = vec![T::default(); self.w * self.h];
        for i in 0..self.m {
            for j in 0..=i {
                let (x, y) = self.texel(i, j);
                out[y * self.w + x] = full[i * self.m + j];
            }
        }
        out
    }

    /// Unpacks into a row-major m×m matrix whose strict upper part is `T::default()`.
    pub fn unpack<T: Copy + Default>(&self, packed: &[T]) -> Vec<T> {
        let mut out = vec![T::default(); self.m * self.m];
        for y in 0..self.h {
            for x in 0..self.w {
                let (i, j) = self.entry(x, y);
                out[i * self.m + j] = packed[y * self.w + x];
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_paper() {
        assert_eq!((Packed::new(6).w, Packed::new(6).h), (3, 7));
        assert_eq!((Packed::new(7).w, Packed::new(7).h), (4, 7));
        for m in 1..=200 {
            let p = Packed::new(m);
            assert_eq!(p.w * p.h, m * (m + 1) / 2, "m={m}");
        }
    }

    #[test]
    fn texel_and_entry_are_inverse_bijections() {
        for m in 1..=200 {
            let p = Packed::new(m);
            let mut seen = vec![false; p.w * p.h];
            for i in 0..m {
                for j in 0..=i {
                    let (x, y) = p.texel(i, j);
                    assert!(x < p.w && y < p.h, "m={m} ({i},{j}) -> ({x},{y})");
                    assert!(!seen[y * p.w + x], "m={m}: texel ({x},{y}) used twice");
                    seen[y * p.w + x] = true;
                    assert_eq!(p.entry(x, y), (i, j), "m={m}");
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn pack_then_unpack_is_the_identity_on_lower_triangles() {
        for m in 1..=200usize {
            let p = Packed::new(m);
            let full: Vec<u32> = (0..m * m).map(|n| if n % m <= n / m { n as u32 + 1 } else { 0 }).collect();
            assert_eq!(p.unpack(&p.pack(&full)), full, "m={m}");
        }
    }

    #[test]
    fn continuous_map_sends_centres_to_centres() {
        for m in [1usize, 2, 5, 6, 7, 10, 33] {
            let p = Packed::new(m);
            for i in 0..m {
                for j in 0..=i {
                    let (x, y) = p.texel(i, j);
                    let (px, py) = p.to_packed(p.piece(j), j as f64 + 0.5, i as f64 + 0.5);
                    assert_eq!((px, py), (x as f64 + 0.5, y as f64 + 0.5), "m={m} ({i},{j})");
                    assert_eq!(p.to_full(p.piece(j), px, py), (j as f64 + 0.5, i as f64 + 0.5));
                }
            }
        }
    }

    #[test]
    fn six_by_six_example_of_figure_3a() {
        // Columns 0..3 sit one row down; column 5's diagonal entry lands in the corner.
        let p = Packed::new(6);
        assert_eq!(p.texel(0, 0), (0, 1));
        assert_eq!(p.texel(5, 2), (2, 6));
        assert_eq!(p.texel(5, 5), (0, 0));
        assert_eq!(p.texel(3, 3), (2, 2));
        assert_eq!(p.texel(5, 3), (2, 0));
        // 7×7 (Fig. 3b): trapezoid unshifted.
        let p = Packed::new(7);
        assert_eq!(p.texel(0, 0), (0, 0));
        assert_eq!(p.texel(6, 6), (1, 0));
        assert_eq!(p.texel(6, 4), (3, 0));
    }
}
