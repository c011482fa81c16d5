//! Dense columns beside sparse ones: which columns of a sparse A go into a Schur complement
//! rather than into the sparse product, and what that path is predicted to cost
//! ([`super::DenseColumnNormal`] solves it).
//!
//! A·D²·Aᵀ = P + Z·W·Zᵀ with P = S·D_S²·Sᵀ over the sparse columns S and Z the k dense ones.
//! One column of e entries adds e(e+1)/2 multiply-adds to P's product and, worse, an e×e
//! clique to P's pattern (a column of X in the textbook L1 regression fills all of it); in Z it
//! costs its row and column of the q×q Schur complement, about 2·m·q multiply-adds for the
//! q-th. Taken by entries, largest first, the i-th column is dense while e²/2 ≥
//! [`DENSE_WORTH`]·m·i. A split free column's mirrored pair is one column of Z (weight w⁺ + w⁻).
//!
//! Per iteration the path costs P's product, its sparse factorization (analysed once), q
//! solves with that factor for the Schur complement's columns (q = k plus the rows whose pivot
//! the dense columns dominate, predicted k), the q×q product over m rows, its LU, and
//! [`super::shape::SOLVES_PER_ITERATION`] solves. The full path on the same sparse A costs the
//! whole product and at least the dense columns' clique's factorization. The rows the dense
//! columns come to dominate near the optimum (r of them) cost m·r² more each; the path takes
//! them up to [`DenseColumnCosts::rows_limit`].

use super::shape::SOLVES_PER_ITERATION;
use super::DENSE_SPEEDUP;
use crate::cpu::products::{mirrors, Csc, SparsePlan};
use crate::cpu::sparse_cholesky::SparseCholesky;
use crate::lp::model::SparseColMatrix;
use faer::Par;

/// A column at rank i among the dense ones is dense while e²/2 ≥ `DENSE_WORTH`·m·i.
pub const DENSE_WORTH: f64 = 2.0;

/// How many times cheaper than the full path the dense-column path must be predicted to be.
pub const DENSE_MARGIN: f64 = 2.0;

/// A's columns sorted into the dense ones (Z) and the sparse ones (S).
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnSplit {
    /// Z's columns: A's column and, for a split free column, its mirror.
    pub dense: Vec<(usize, Option<usize>)>,
    /// S's columns, ascending.
    pub sparse: Vec<usize>,
}

/// Why an iteration of the dense-column path fell back to the full matrix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fallback {
    /// More rows were dominated than the path takes, and one left in P̃ lost its pivot.
    TooManyRows { dominated: usize, limit: usize },
    /// A factorization broke down.
    Breakdown,
}

impl std::fmt::Display for Fallback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fallback::TooManyRows { dominated, limit } => {
                write!(f, "{dominated} rows dominated by the dense columns, more than the {limit} taken")
            }
            Fallback::Breakdown => write!(f, "a factorization broke down"),
        }
    }
}

/// The split of `a` by [`DENSE_WORTH`] (see the module documentation); `pairs` are the split
/// free columns.
pub fn split_columns(a: Csc<'_>, pairs: &[(usize, usize)]) -> ColumnSplit {
    let n = a.ncols;
    let entries = |j: usize| a.col_ptr[j + 1] - a.col_ptr[j];
    let mut mirror = vec![None; n];
    let mut second = vec![false; n];
    for &(p, q) in pairs {
        if p < n && q < n && p != q && mirror[p].is_none() && !second[p] && !second[q] && mirrors(a, p, q) {
            mirror[p] = Some(q);
            second[q] = true;
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&j| !second[j] && entries(j) > 1).collect();
    order.sort_by_key(|&j| std::cmp::Reverse(entries(j)));
    let m = a.nrows as f64;
    let k = order
        .iter()
        .enumerate()
        .take_while(|&(i, &j)| (entries(j) as f64).powi(2) / 2.0 >= DENSE_WORTH * m * (i + 1) as f64)
        .count();
    let mut dense: Vec<(usize, Option<usize>)> = order[..k].iter().map(|&j| (j, mirror[j])).collect();
    dense.sort_unstable();
    let mut is_dense = vec![false; n];
    for &(p, q) in &dense {
        is_dense[p] = true;
        if let Some(q) = q {
            is_dense[q] = true;
        }
    }
    ColumnSplit { dense, sparse: (0..n).filter(|&j| !is_dense[j]).collect() }
}

impl ColumnSplit {
    /// The sparse columns of `a` as a matrix of their own (m × |S|).
    pub fn sparse_part(&self, a: &SparseColMatrix) -> SparseColMatrix {
        let mut s = SparseColMatrix::new(a.nrows);
        s.ncols = self.sparse.len();
        for &j in &self.sparse {
            let (b, e) = (a.col_ptr[j], a.col_ptr[j + 1]);
            s.row_idx.extend_from_slice(&a.row_idx[b..e]);
            s.values.extend_from_slice(&a.values[b..e]);
            s.col_ptr.push(s.row_idx.len());
        }
        s
    }

    /// Z's weights from d² (a mirrored pair's two weights summed).
    pub fn dense_weights(&self, d2: &[f64]) -> Vec<f64> {
        self.dense.iter().map(|&(p, q)| d2[p].max(0.0) + q.map_or(0.0, |q| d2[q].max(0.0))).collect()
    }
}

/// The predicted multiply-adds per iteration of the dense-column path and of the path it
/// would replace.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DenseColumnCosts {
    /// Z's columns.
    pub dense: usize,
    /// P's product, its factorization, the Schur complement, the solves.
    pub path: f64,
    /// The path otherwise taken: the given one, or the full product on A held sparse with (a
    /// lower bound of) its factorization, and the solves.
    pub incumbent: f64,
    /// Entries of P's factor.
    pub factor_entries: usize,
    /// The most rows the dense columns may dominate (taken into the rows' Schur complement)
    /// before the path's m·r² product costs the margin away.
    pub rows_limit: usize,
}

/// The costs of the dense-column path for `a` split as `split`, against `incumbent` (the
/// predicted cost of the path otherwise taken; `None`: the full path on A held sparse).
/// `None` when there is no dense column, P's product alone cannot pay, or P's pattern cannot
/// be analysed.
pub fn dense_column_costs(a: &SparseColMatrix, split: &ColumnSplit, incumbent: Option<f64>) -> Option<DenseColumnCosts> {
    let k = split.dense.len();
    if k == 0 || split.sparse.is_empty() || a.nrows == 0 {
        return None;
    }
    let m = a.nrows as f64;
    let entries = |j: usize| (a.col_ptr[j + 1] - a.col_ptr[j]) as f64;
    let product = |cols: &mut dyn Iterator<Item = usize>| cols.map(|j| entries(j) * (entries(j) + 1.0) / 2.0).sum::<f64>();
    let clique = (0..a.ncols).map(entries).fold(0.0, f64::max);
    let sparse_full = |factor: f64| {
        product(&mut (0..a.ncols)) + (m.powi(3) / 6.0).min(factor.max(clique.powi(3) / 6.0)) + SOLVES_PER_ITERATION * 2.0 * m * m
    };
    // Before any analysis: P must be sparse (its columns' sparse assembly must pay, as for A
    // held sparse: the papers' family's columns are all dense) and its product leave room.
    let bound = incumbent.unwrap_or_else(|| sparse_full(0.0));
    let p_product = product(&mut split.sparse.iter().copied());
    if p_product * DENSE_SPEEDUP >= m * m * split.sparse.len() as f64 / 2.0 || p_product * DENSE_MARGIN >= bound {
        return None;
    }
    let s = split.sparse_part(a);
    let plan = SparsePlan::new(s.csc(), 1);
    let chol = SparseCholesky::analyze(&plan.pattern(s.csc()), Par::Seq).ok()?;
    let l = chol.factor_nnz() as f64;
    let q = 2.0 * k as f64;
    let path = plan.multiply_adds
        + chol.multiply_adds()
        + q * 2.0 * l
        + m * q * q
        + 2.0 * q.powi(3) / 3.0
        + SOLVES_PER_ITERATION * (4.0 * l + 4.0 * m * q + 2.0 * q * q);
    let incumbent = incumbent.unwrap_or_else(|| sparse_full(chol.multiply_adds()));
    let room = (incumbent / DENSE_MARGIN - path).max(0.0);
    let rows_limit = ((room / m).sqrt() as usize).max(k);
    Some(DenseColumnCosts { dense: k, path, incumbent, factor_entries: chol.factor_nnz(), rows_limit })
}

/// Whether the dense-column path is taken at `costs` ([`DENSE_MARGIN`]).
pub fn dense_columns_pay(costs: &DenseColumnCosts) -> bool {
    costs.path * DENSE_MARGIN < costs.incumbent
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook L1 regression's A: rows i and obs + i hold xᵢ and −xᵢ, t's column −1 in
    /// both, and a slack in each; β's columns split in pairs.
    fn l1_t(obs: usize, p: usize) -> (SparseColMatrix, Vec<(usize, usize)>) {
        let mut t = Vec::new();
        for i in 0..obs {
            for j in 0..p {
                let x = ((i * 7 + j * 13) % 11) as f64 - 5.0 + 0.5;
                t.extend([(i, 2 * j, x), (obs + i, 2 * j, -x), (i, 2 * j + 1, -x), (obs + i, 2 * j + 1, x)]);
            }
            t.extend([(i, 2 * p + i, -1.0), (obs + i, 2 * p + i, -1.0)]);
        }
        for r in 0..2 * obs {
            t.push((r, 2 * p + obs + r, 1.0));
        }
        let a = SparseColMatrix::from_triplets(2 * obs, 2 * p + 3 * obs, &t).unwrap();
        (a, (0..p).map(|j| (2 * j, 2 * j + 1)).collect())
    }

    #[test]
    fn the_regressions_columns_are_dense_and_their_pairs_join() {
        let (a, pairs) = l1_t(301, 7);
        let s = split_columns(a.csc(), &pairs);
        assert_eq!(s.dense, (0..7).map(|j| (2 * j, Some(2 * j + 1))).collect::<Vec<_>>());
        assert_eq!(s.sparse.len(), 3 * 301);
        assert_eq!(s.sparse_part(&a).nnz(), 2 * 301 + 2 * 301);
        assert_eq!(s.dense_weights(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0]), [
            3.0, 7.0, 11.0, 15.0, 19.0, 23.0, 27.0
        ]);
        let c = dense_column_costs(&a, &s, None).unwrap();
        assert!(dense_columns_pay(&c), "{c:?}");
        // P is 2×2 blocks and a diagonal: its factor grows with the rows, not their square.
        assert!(c.factor_entries <= 4 * 301, "{c:?}");
    }

    #[test]
    fn a_column_that_is_not_mirrored_stays_two_columns() {
        let (mut a, pairs) = l1_t(101, 3);
        // Column 1 is no longer column 0's negative.
        let p = a.col_ptr[1];
        a.values[p] *= 2.0;
        let s = split_columns(a.csc(), &pairs);
        assert!(s.dense.contains(&(0, None)) && s.dense.contains(&(1, None)), "{:?}", s.dense);
        assert!(s.dense.contains(&(2, Some(3))));
    }

    #[test]
    fn columns_of_a_few_entries_are_sparse_and_nothing_dense_means_no_path() {
        // A banded matrix: every column of 3 entries.
        let m = 500;
        let t: Vec<_> = (0..m).flat_map(|j: usize| (j.saturating_sub(1)..(j + 2).min(m)).map(move |i| (i, j, 1.0))).collect();
        let a = SparseColMatrix::from_triplets(m, m, &t).unwrap();
        let s = split_columns(a.csc(), &[]);
        assert!(s.dense.is_empty());
        assert_eq!(dense_column_costs(&a, &s, None), None);
    }

    #[test]
    fn dense_columns_beside_other_dense_columns_have_no_sparse_part_to_factor() {
        // The papers' family's shape: every column full. The rank rule takes some as dense,
        // but the rest are no sparse product: no analysis, no path.
        let (m, n) = (40, 160);
        let t: Vec<_> = (0..n).flat_map(|j| (0..m).map(move |i| (i, j, 1.0 + ((i * j) % 7) as f64))).collect();
        let a = SparseColMatrix::from_triplets(m, n, &t).unwrap();
        let s = split_columns(a.csc(), &[]);
        assert!(!s.dense.is_empty() && !s.sparse.is_empty());
        assert_eq!(dense_column_costs(&a, &s, None), None);
        assert_eq!(dense_column_costs(&a, &s, Some(f64::INFINITY)), None);
    }

    #[test]
    fn the_rank_rule_stops_where_the_schur_complement_costs_more() {
        // m = 100: a column of e entries is the i-th dense one while e²/2 ≥ 200·i; fifty
        // columns of 60 entries (1800 ≥ 200·i up to i = 9).
        let m = 100;
        let mut t: Vec<_> = (0..m).map(|i| (i, i, 1.0)).collect();
        for j in 0..50 {
            t.extend((0..60).map(|i| ((i + j) % m, m + j, 1.0)));
        }
        let a = SparseColMatrix::from_triplets(m, m + 50, &t).unwrap();
        assert_eq!(split_columns(a.csc(), &[]).dense.len(), 9);
    }
}
