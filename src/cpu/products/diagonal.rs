//! A·diag(w)·Aᵀ for A whose columns are of two kinds: a dense block, and columns of one entry
//! (a row's slack, the unit columns of an L1 model). A column of one entry aᵢⱼ adds wⱼ·aᵢⱼ²
//! to the diagonal entry i and nothing else, so the product is the block's
//! A_D·diag(w_D)·A_Dᵀ plus a diagonal Δ: m²k/2 multiply-adds for k block columns instead of
//! the m²n/2 of all n. A free column split into x⁺ − x⁻ stores a and −a, and
//! (−a)(−a)ᵀ = a·aᵀ: the pair is one column of the block (a [`Slot`]) with weight w⁺ + w⁻.

use super::dense_a::DenseA;
use super::operands::{length, Fused, VSource, PARALLEL_ENTRIES};
use super::sparse::Csc;
use crate::cpu::shapes::PassShapeError;
use faer::{Accum, ColRef, MatRef, Par};

/// One column of the dense block: the column of A it copies, and the column that stores its
/// negative (the other half of a split free column), whose weight it adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub col: usize,
    pub mirror: Option<usize>,
}

/// A's columns sorted into the block's slots and the columns of one entry.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnKinds {
    /// The block's columns, in A's column order.
    pub slots: Vec<Slot>,
    /// (column, row, aᵢⱼ²) of each column of one entry.
    pub units: Vec<(usize, usize, f64)>,
    /// Rows that hold no column of one entry (their Δ is 0), ascending.
    pub bare_rows: Vec<usize>,
    /// Entries of the block's columns (each slot counted once).
    pub block_entries: usize,
}

/// Whether column `q` of `a` holds the negatives of column `p`'s entries, row for row.
pub fn mirrors(a: Csc<'_>, p: usize, q: usize) -> bool {
    a.col(p).count() == a.col(q).count() && a.col(p).zip(a.col(q)).all(|((i, u), (k, v))| i == k && u == -v)
}

/// Sorts the columns of `a`: a column with one entry is a unit column; every other column
/// (empty ones included: they cost nothing) is a slot, except the second column of a pair in
/// `pairs` whose entries are the negatives of the first's, which joins the first's slot.
pub fn column_kinds(a: Csc<'_>, pairs: &[(usize, usize)]) -> ColumnKinds {
    let n = a.ncols;
    let count = |j: usize| a.col_ptr.get(j + 1).unwrap_or(&0).saturating_sub(*a.col_ptr.get(j).unwrap_or(&0));
    let mut mirror_of = vec![None; n];
    let mut joined = vec![false; n];
    for &(p, q) in pairs {
        if p < n && q < n && p != q && count(p) > 1 && !joined[p] && !joined[q] && mirrors(a, p, q) {
            mirror_of[p] = Some(q);
            joined[q] = true;
        }
    }
    let mut kinds = ColumnKinds { slots: Vec::new(), units: Vec::new(), bare_rows: Vec::new(), block_entries: 0 };
    let mut has_unit = vec![false; a.nrows];
    for j in (0..n).filter(|&j| !joined[j]) {
        if count(j) == 1 {
            if let Some((i, v)) = a.col(j).next() {
                kinds.units.push((j, i, v * v));
                has_unit[i] = true;
            }
        } else {
            kinds.slots.push(Slot { col: j, mirror: mirror_of[j] });
            kinds.block_entries += count(j);
        }
    }
    kinds.bare_rows = (0..a.nrows).filter(|&i| !has_unit[i]).collect();
    kinds
}

/// The dense block of A (its slots' columns, m × k) and the columns of one entry.
pub struct DiagonalSplit {
    block: DenseA,
    kinds: ColumnKinds,
    ncols: usize,
    /// aᵢⱼ of each unit column j (0 elsewhere).
    unit_values: Vec<f64>,
}

impl DiagonalSplit {
    /// The split of `a` into `kinds` ([`column_kinds`] of `a`): the block copied dense.
    pub fn new(a: Csc<'_>, kinds: ColumnKinds) -> Self {
        let cols: Vec<usize> = kinds.slots.iter().map(|s| s.col).collect();
        let mut unit_values = vec![0.0; a.ncols];
        for &(j, _, _) in &kinds.units {
            unit_values[j] = a.col(j).next().map_or(0.0, |(_, v)| v);
        }
        Self { block: DenseA::from_columns(a, &cols), kinds, ncols: a.ncols, unit_values }
    }

    /// The block, m × k.
    pub fn block(&self) -> MatRef<'_, f64> {
        self.block.as_ref()
    }

    /// The column kinds.
    pub fn kinds(&self) -> &ColumnKinds {
        &self.kinds
    }

    /// Columns of A (n).
    pub fn ncols(&self) -> usize {
        self.ncols
    }

    /// The block's weights: wⱼ of each slot's column, plus its mirror's.
    pub fn slot_weights(&self, w: &[f64]) -> Vec<f64> {
        let at = |j: usize| w.get(j).copied().unwrap_or(0.0);
        self.kinds.slots.iter().map(|s| at(s.col) + s.mirror.map_or(0.0, at)).collect()
    }

    /// Adds Δᵢ = Σ wⱼ·aᵢⱼ² over the columns of one entry to `diag` (length m); a negative
    /// weight (rounding of x/s) counts as 0.
    pub fn add_diagonal(&self, w: &[f64], diag: &mut [f64]) {
        for &(j, i, a2) in &self.kinds.units {
            if let (Some(d), Some(&wj)) = (diag.get_mut(i), w.get(j)) {
                *d += wj.max(0.0) * a2;
            }
        }
    }

    /// A·x (x of length n): the block times each slot's x_col − x_mirror, plus the unit columns.
    ///
    /// # Errors
    /// [`PassShapeError`] when `x` is not n long.
    pub fn a_mul(&self, x: &[f64], threads: usize) -> Result<Vec<f64>, PassShapeError> {
        length("x", self.ncols, x.len())?;
        let xs: Vec<f64> = self.kinds.slots.iter().map(|s| x[s.col] - s.mirror.map_or(0.0, |q| x[q])).collect();
        let block = self.block();
        let mut ax = vec![0.0; block.nrows()];
        gemv(&mut ax, block, &xs, threads);
        for &(j, i, _) in &self.kinds.units {
            ax[i] += self.unit_value(j) * x[j];
        }
        Ok(ax)
    }

    /// Aᵀ·y (length n).
    ///
    /// # Errors
    /// [`PassShapeError`] when `y` is not m long.
    pub fn at_mul(&self, y: &[f64], threads: usize) -> Result<Vec<f64>, PassShapeError> {
        let block = self.block();
        length("y", block.nrows(), y.len())?;
        let mut us = vec![0.0; block.ncols()];
        gemv(&mut us, block.transpose(), y, threads);
        let mut u = vec![0.0; self.ncols];
        for (s, &v) in self.kinds.slots.iter().zip(&us) {
            u[s.col] = v;
            if let Some(q) = s.mirror {
                u[q] = -v;
            }
        }
        for &(j, i, _) in &self.kinds.units {
            u[j] = self.unit_value(j) * y[i];
        }
        Ok(u)
    }

    /// (Aᵀy, v, A·v) as [`super::fused_dense`] gives them, from the block's two products.
    ///
    /// # Errors
    /// [`PassShapeError`] when `y` is not m long or a vector of `src` not n long.
    pub fn fused(&self, y: &[f64], src: VSource<'_>, threads: usize) -> Result<Fused, PassShapeError> {
        src.check(self.ncols)?;
        let u = self.at_mul(y, threads)?;
        let v: Vec<f64> = u.iter().enumerate().map(|(j, &uj)| src.value(j, uj)).collect();
        let av = self.a_mul(&v, threads)?;
        Ok((u, v, av))
    }

    /// The entry of unit column j (looked up in the block-free copy of the values).
    fn unit_value(&self, j: usize) -> f64 {
        self.unit_values.get(j).copied().unwrap_or(0.0)
    }
}

/// out = A·x with faer, on `threads` threads when A is large enough.
fn gemv(out: &mut [f64], a: MatRef<'_, f64>, x: &[f64], threads: usize) {
    let par = if a.nrows() * a.ncols() < PARALLEL_ENTRIES || threads <= 1 { Par::Seq } else { Par::rayon(threads) };
    let om = faer::ColMut::from_slice_mut(out).as_mat_mut();
    faer::linalg::matmul::matmul(om, Accum::Replace, a, ColRef::from_slice(x).as_mat(), 1.0, par);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compressed columns of the dense column-major `cols`, zeros left out.
    fn csc(m: usize, cols: &[Vec<f64>]) -> (Vec<usize>, Vec<usize>, Vec<f64>) {
        let (mut ptr, mut rows, mut vals) = (vec![0], Vec::new(), Vec::new());
        for c in cols {
            for (i, &v) in c.iter().enumerate().filter(|(_, v)| **v != 0.0) {
                rows.push(i);
                vals.push(v);
            }
            ptr.push(rows.len());
            assert_eq!(c.len(), m);
        }
        (ptr, rows, vals)
    }

    #[test]
    fn kinds_find_units_mirrored_pairs_and_bare_rows() {
        // Columns: dense 0, its mirror 1 (a pair), unit on row 2, dense 3, a pair (4, 5) that
        // is not a mirror, a unit on row 0.
        let cols = vec![
            vec![1.0, 2.0, 0.0, 3.0],
            vec![-1.0, -2.0, 0.0, -3.0],
            vec![0.0, 0.0, 5.0, 0.0],
            vec![0.5, 0.0, 0.25, 1.0],
            vec![1.0, 1.0, 0.0, 0.0],
            vec![-1.0, -2.0, 0.0, 0.0],
            vec![-2.0, 0.0, 0.0, 0.0],
        ];
        let (p, r, v) = csc(4, &cols);
        let a = Csc { nrows: 4, ncols: 7, col_ptr: &p, row_idx: &r, values: &v };
        let k = column_kinds(a, &[(0, 1), (4, 5)]);
        let slots = vec![
            Slot { col: 0, mirror: Some(1) },
            Slot { col: 3, mirror: None },
            Slot { col: 4, mirror: None },
            Slot { col: 5, mirror: None },
        ];
        assert_eq!(k.slots, slots);
        assert_eq!(k.units, vec![(2, 2, 25.0), (6, 0, 4.0)]);
        assert_eq!(k.bare_rows, vec![1, 3]);
        assert_eq!(k.block_entries, 3 + 3 + 2 + 2);
    }

    /// The block product plus the diagonal equals A·diag(w)·Aᵀ computed entry by entry in f64,
    /// on odd sizes (1 row, a block of 1, a line ± 1 rows).
    #[test]
    fn block_product_plus_diagonal_is_the_whole_product() {
        for (m, k_dense) in [(1, 1), (7, 3), (9, 1), (8, 5), (13, 2)] {
            let mut cols = Vec::new();
            for j in 0..k_dense {
                let c: Vec<f64> = (0..m).map(|i| ((i * 7 + j * 3) % 5) as f64 - 1.5).collect();
                cols.push(c.clone());
                if j % 2 == 0 {
                    cols.push(c.iter().map(|v| -v).collect());
                }
            }
            let pairs: Vec<(usize, usize)> = (0..cols.len()).filter(|&j| j % 3 == 0).map(|j| (j, j + 1)).collect();
            for i in 0..m {
                let mut u = vec![0.0; m];
                u[i] = 1.0 + i as f64 / 4.0;
                cols.push(u);
                if i % 2 == 1 {
                    let mut u = vec![0.0; m];
                    u[i] = -0.5;
                    cols.push(u);
                }
            }
            let n = cols.len();
            let (p, r, v) = csc(m, &cols);
            let a = Csc { nrows: m, ncols: n, col_ptr: &p, row_idx: &r, values: &v };
            let w: Vec<f64> = (0..n).map(|j| 0.25 + (j % 7) as f64).collect();
            let split = DiagonalSplit::new(a, column_kinds(a, &pairs));
            let (b, ws) = (split.block(), split.slot_weights(&w));
            let mut diag = vec![0.0; m];
            split.add_diagonal(&w, &mut diag);
            for i in 0..m {
                for l in 0..=i {
                    let want: f64 = (0..n).map(|j| cols[j][i] * w[j] * cols[j][l]).sum();
                    let mut got: f64 = (0..b.ncols()).map(|s| b[(i, s)] * ws[s] * b[(l, s)]).sum();
                    if i == l {
                        got += diag[i];
                    }
                    assert!((got - want).abs() <= 1e-12 * (1.0 + want.abs()), "m={m} ({i},{l}): {got} vs {want}");
                }
            }
        }
    }
}
