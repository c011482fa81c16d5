//! Which normal equations the cpu backend forms, chosen from A's shape and density by a cost
//! model: the multiply-adds of one iteration's assembly, factorization and solves.
//!
//! With k the columns of A's dense block (columns of more than one entry, a split free
//! column's pair counted once: [`crate::cpu::products::column_kinds`]), u the columns of one
//! entry, m₀ the rows holding none of them and m₁ = m − m₀:
//!
//! * [`NormalShape::Full`], today's path: A·D²·Aᵀ over all n columns, m²n/2 + m³/6;
//! * [`NormalShape::Diagonal`]: the block's A_D·D²·A_Dᵀ plus the unit columns' diagonal,
//!   m²k/2 + m³/6 ([`crate::cpu::products::DiagonalSplit`]);
//! * [`NormalShape::Schur`], the smaller side: with Δ the unit columns' diagonal the Newton
//!   system is solved through the k×k matrix K = D_D⁻² + A₁ᵀ·Δ₁⁻¹·A₁ (the dual's normal
//!   equations) over the m₁ rows Δ dominates, and the m₀×m₀ Schur complement
//!   Δ₀ + A₀·K⁻¹·A₀ᵀ of the others — the bare rows and at most [`extra_rows`]`(k)` more:
//!   k²m₁/2 + k³/6 + m₀k² + m₀²k/2 + m₀³/6 ([`super::DualNormal`]).
//!
//! Each path also pays [`SOLVES_PER_ITERATION`] solves (m² per solve on the m×m factor;
//! 2k·m + k² + m₀² + 2m₀k through K). A path other than `Full` is taken only when it is
//! predicted [`SHAPE_MARGIN`] times cheaper, and never when the cpu backend holds A sparse (its
//! sparse assembly already costs a column of one entry one multiply-add): the papers' family,
//! whose every column is dense, and the sparse NETLIB problems keep today's path.

use std::cell::Cell;

/// The solves with the factor in one iteration (predictor, corrector, a few refinement steps).
pub const SOLVES_PER_ITERATION: f64 = 8.0;

/// How much cheaper than the full assembly another path must be predicted to be (the matrix
/// game 600 × 600's diagonal path is predicted 1.7 times cheaper).
pub const SHAPE_MARGIN: f64 = 1.5;

/// The most rows beyond those without a unit column that the smaller side's Schur complement
/// takes ([`super::DualNormal`]: the rows the unit columns do not dominate, least dominated
/// first): 2k + 16, room for the k or so active rows of a vertex and for degeneracy.
pub fn extra_rows(k: usize) -> usize {
    2 * k + 16
}

/// The normal equations of the cpu backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NormalShape {
    /// A·D²·Aᵀ over every column (dense or sparse, as A is held).
    Full,
    /// The dense block's product plus the unit columns' diagonal.
    Diagonal,
    /// The k×k matrix of the block's columns (and the bare rows' Schur complement).
    Schur,
    /// For A held sparse: the sparse columns' product factored sparse, the dense columns
    /// through a Schur complement ([`super::dense_columns`]).
    DenseColumns,
}

impl NormalShape {
    /// The name the log uses.
    pub fn name(self) -> &'static str {
        match self {
            NormalShape::Full => "full",
            NormalShape::Diagonal => "diagonal",
            NormalShape::Schur => "schur",
            NormalShape::DenseColumns => "dense-columns",
        }
    }
}

/// What the choice reads: the shape of A and how the cpu backend would hold it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeFacts {
    /// m and n.
    pub rows: usize,
    pub cols: usize,
    /// k: the dense block's columns.
    pub block: usize,
    /// Columns of one entry.
    pub units: usize,
    /// m₀: rows without a column of one entry.
    pub bare_rows: usize,
    /// The cpu backend holds A sparse for its assembly ([`super::sparse_assembly_pays`]).
    pub sparse: bool,
}

/// Predicted multiply-adds per iteration of each path (`None`: not available).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCosts {
    pub full: f64,
    pub diagonal: f64,
    pub schur: Option<f64>,
}

/// The costs of [`ShapeFacts`]' paths (see the module documentation).
pub fn shape_costs(f: &ShapeFacts) -> ShapeCosts {
    let m0 = f.bare_rows + extra_rows(f.block).min(f.rows - f.bare_rows.min(f.rows));
    let (m, n, k, m0) = (f.rows as f64, f.cols as f64, f.block as f64, m0 as f64);
    let m1 = m - m0;
    let primal_tail = m.powi(3) / 6.0 + SOLVES_PER_ITERATION * m * m;
    let schur = (f.bare_rows < f.rows).then(|| {
        k * k * m1 / 2.0
            + k.powi(3) / 6.0
            + m0 * k * k
            + m0 * m0 * k / 2.0
            + m0.powi(3) / 6.0
            + SOLVES_PER_ITERATION * (2.0 * k * m + k * k + m0 * m0 + 2.0 * m0 * k)
    });
    ShapeCosts { full: m * m * n / 2.0 + primal_tail, diagonal: m * m * k / 2.0 + primal_tail, schur }
}

/// The path for `f`: the cheapest by [`shape_costs`], `Full` unless another is
/// [`SHAPE_MARGIN`] times cheaper, and `Full` for A held sparse or without anything to split.
pub fn choose_shape(f: &ShapeFacts) -> NormalShape {
    if let Some(shape) = FORCED.with(Cell::get) {
        return shape;
    }
    if f.sparse || f.rows == 0 || (f.units == 0 && f.block == f.cols) {
        return NormalShape::Full;
    }
    let c = shape_costs(f);
    let (best, cost) = match c.schur {
        Some(s) if s < c.diagonal => (NormalShape::Schur, s),
        _ => (NormalShape::Diagonal, c.diagonal),
    };
    if cost * SHAPE_MARGIN < c.full {
        best
    } else {
        NormalShape::Full
    }
}

/// The shape [`with_forced_shape`] holds on this thread, if any.
pub fn forced_shape() -> Option<NormalShape> {
    FORCED.with(Cell::get)
}

thread_local! {
    static FORCED: Cell<Option<NormalShape>> = const { Cell::new(None) };
}

/// Runs `f` with every [`choose_shape`] on this thread answering `shape` (the solve runs on its
/// caller's thread): for tests and benchmarks that compare the paths on one problem.
#[doc(hidden)]
pub fn with_forced_shape<R>(shape: NormalShape, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<NormalShape>);
    impl Drop for Restore {
        fn drop(&mut self) {
            FORCED.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(FORCED.with(|c| c.replace(Some(shape))));
    f()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(rows: usize, cols: usize, block: usize, units: usize, bare_rows: usize) -> ShapeFacts {
        ShapeFacts { rows, cols, block, units, bare_rows, sparse: false }
    }

    #[test]
    fn the_papers_family_keeps_the_full_path() {
        for m in [1, 256, 512, 1024, 4096] {
            assert_eq!(choose_shape(&facts(m, 4 * m, 4 * m, 0, m)), NormalShape::Full, "m = {m}");
        }
    }

    #[test]
    fn sparse_a_keeps_the_full_path_whatever_its_shape() {
        let f = ShapeFacts { sparse: true, ..facts(4000, 4201, 201, 4000, 0) };
        assert_eq!(choose_shape(&f), NormalShape::Full);
    }

    #[test]
    fn tall_problems_go_to_the_smaller_side() {
        // The Chebyshev fit 2000 × 200: 4000 rows, 200 free pairs + t, a slack per row.
        assert_eq!(choose_shape(&facts(4000, 4401, 201, 4000, 0)), NormalShape::Schur);
        // L1 regression 2000 × 200: 2000 rows, 200 merged pairs, 4000 unit columns.
        assert_eq!(choose_shape(&facts(2000, 4400, 200, 4000, 0)), NormalShape::Schur);
        // A tall game: 4001 rows, 401 columns, one bare row.
        assert_eq!(choose_shape(&facts(4001, 4401, 401, 4000, 1)), NormalShape::Schur);
    }

    #[test]
    fn square_problems_with_slacks_take_the_diagonal() {
        // The matrix game 600 × 600: 601 rows, 601 block columns, 600 slacks, one bare row.
        let f = facts(601, 1202, 601, 600, 1);
        let c = shape_costs(&f);
        assert!(c.schur.unwrap() > c.diagonal);
        assert_eq!(choose_shape(&f), NormalShape::Diagonal);
    }

    #[test]
    fn the_margin_is_the_threshold() {
        // Block k of m columns with u units: diagonal/full = (m²k/2 + t)/(m²(k + u)/2 + t).
        // Every row bare, so the Schur path (k ≥ m here) is out of the running.
        let m = 1000;
        let tail = (m as f64).powi(3) / 6.0 + SOLVES_PER_ITERATION * (m * m) as f64;
        let units_at = |k: usize| {
            // full = margin·diagonal ⇔ m²u/2 = (margin − 1)·(m²k/2 + tail).
            let u = (SHAPE_MARGIN - 1.0) * ((m * m * k) as f64 / 2.0 + tail) / ((m * m) as f64 / 2.0);
            u.ceil() as usize
        };
        let k = 1200;
        let u = units_at(k);
        assert_eq!(choose_shape(&facts(m, k + u + 1, k, u + 1, m)), NormalShape::Diagonal);
        assert_eq!(choose_shape(&facts(m, k + u - 1, k, u - 1, m)), NormalShape::Full);
    }

    #[test]
    fn nothing_to_split_is_full_and_no_rows_is_full() {
        assert_eq!(choose_shape(&facts(10, 5, 5, 0, 10)), NormalShape::Full);
        assert_eq!(choose_shape(&facts(0, 0, 0, 0, 0)), NormalShape::Full);
        // All rows bare: no Schur cost.
        assert_eq!(shape_costs(&facts(10, 20, 20, 0, 10)).schur, None);
    }

    #[test]
    fn a_forced_shape_holds_inside_the_scope_only() {
        let f = facts(256, 1024, 1024, 0, 256);
        let inside = with_forced_shape(NormalShape::Diagonal, || choose_shape(&f));
        assert_eq!(inside, NormalShape::Diagonal);
        assert_eq!(choose_shape(&f), NormalShape::Full);
    }
}
