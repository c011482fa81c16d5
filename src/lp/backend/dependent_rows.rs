//! Rows of A that are linear combinations of the others, found before the loop so that the
//! standard form can drop them.
//!
//! **Why.** A dependent row leaves A·Θ·Aᵀ singular in every iteration. The factor's tiny-pivot
//! rule copes with the singularity itself, but λ is then free along the null space of Aᵀ: the
//! conjugate-gradient refinement moves it there without bound, and Aᵀλ, whose rounding grows
//! with |λ|, stops being the dual residual the directions assume (dfl001, 13 dependent rows:
//! row duals of 5e10 where HiGHS's are at most 2e7, the dual residual rising from 2e-9 to 1e-4
//! within three iterations, and the run ending at the iteration limit).
//!
//! **How** (with the sparse normal equations' tools). A·Aᵀ, scaled to a unit diagonal, is
//! factored as L·D·Lᵀ in AMD order with every pivot ≤ [`CANDIDATE_PIVOT`] replaced by a huge
//! value: that decouples the row (its column of L is ≈ 0), so the rest of the factor is the
//! factor of the remaining rows K, and solving with it gives y = (A_K·A_Kᵀ)⁻¹·A_K·aᵢ for a
//! candidate row i. Row i is dropped only when that combination reproduces it,
//! ‖aᵢ − A_Kᵀ·y‖∞ ≤ [`DEPENDENCE_TOLERANCE`]·‖|A_K|ᵀ·|y|‖∞ (the size of the terms summed), and
//! its right-hand side too, |bᵢ − yᵀ·b_K| ≤ [`DEPENDENCE_TOLERANCE`]·(|bᵢ| + |y|ᵀ·|b_K|) (the
//! row's own numbers, no unit of 1 borrowed from elsewhere): then
//! every point with A_K·x = b_K satisfies row i, and y = 0 on it is a valid dual. A dependent
//! row with an inconsistent right-hand side stays: the loop and its certificates then prove the
//! infeasibility as for any other infeasible model.
//!
//! Only for A held sparse whose A·Aᵀ the sparse factor handles (the test of
//! [`super::CpuNormal::with_factorization`]); dense A (the papers' random family) is taken as it
//! is, at no cost.

use super::cpu_normal::SPARSE_FACTOR_ADVANTAGE;
use super::cpu_vectors::sparse_assembly_pays;
use crate::cpu::products::{threads, SparsePlan};
use crate::cpu::sparse_cholesky::SparseCholesky;
use crate::lp::model::{ModelError, SparseColMatrix};
use faer::Par;

/// Pivots of the unit-diagonal A·Aᵀ at or below this make their row a candidate: its part
/// orthogonal to the earlier rows is below √(1e-9) ≈ 3e-5 of its norm.
pub const CANDIDATE_PIVOT: f64 = 1e-9;

/// A candidate is dependent when the combination of the other rows reproduces it (and its
/// right-hand side) to this fraction of the terms summed.
pub const DEPENDENCE_TOLERANCE: f64 = 1e-9;

/// The value a candidate's pivot is replaced by, which takes its row out of the others' factor.
const DECOUPLING_PIVOT: f64 = 1e64;

/// What [`dependent_rows`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DependentRows {
    /// The rows that are combinations of the others (with a consistent right-hand side),
    /// ascending.
    pub rows: Vec<usize>,
    /// Rows whose pivot was tiny but that the check kept (independent after all, or dependent
    /// with an inconsistent right-hand side).
    pub kept_candidates: usize,
    /// Whether A was examined at all (false for dense A and for A·Aᵀ too dense to factor
    /// sparse).
    pub examined: bool,
}

/// The dependent rows of `a` with right-hand side `b` (see the module documentation).
/// A malformed `a` ([`SparseColMatrix::validate`]), a `b` of another length than A's rows or a
/// NaN in `b` is an error; numerical trouble in the factorization is not: nothing is dropped
/// then.
pub fn dependent_rows(a: &SparseColMatrix, b: &[f64]) -> Result<DependentRows, ModelError> {
    a.validate()?;
    let m = a.nrows;
    if b.len() != m {
        return Err(ModelError::Length { field: "b", found: b.len(), expected: m, of: "rows" });
    }
    if let Some(index) = b.iter().position(|v| v.is_nan()) {
        return Err(ModelError::NotANumber { field: "b", index });
    }
    Ok(examine(a, b))
}

/// [`dependent_rows`] of the standard form of a validated model, whose A is valid by
/// construction: without the pass over A's entries that validation costs (26 ms of the setup
/// at m = 2048 on the dense family, which is then not examined). Its b can still hold NaN
/// (bound shifts of ±1e300 cancelling in one row): then nothing is examined, as
/// [`dependent_rows`] answers such a b with an error.
pub(crate) fn dependent_rows_of_valid(a: &SparseColMatrix, b: &[f64]) -> DependentRows {
    if b.len() != a.nrows || b.iter().any(|v| v.is_nan()) {
        return DependentRows::default();
    }
    examine(a, b)
}

fn examine(a: &SparseColMatrix, b: &[f64]) -> DependentRows {
    let m = a.nrows;
    if m == 0 || !sparse_assembly_pays(a) {
        return DependentRows::default();
    }
    // A column of e entries makes an e-clique in A·Aᵀ, whose factorization alone takes
    // Σₛ s²/2 = e(e+1)(2e+1)/12 multiply-adds: where that already rules the factor out, the
    // pattern (m² entries for the textbook regression's columns) is not built.
    let e = (0..a.ncols).map(|j| a.col_ptr[j + 1] - a.col_ptr[j]).max().unwrap_or(0) as f64;
    if e * (e + 1.0) * (2.0 * e + 1.0) / 12.0 * SPARSE_FACTOR_ADVANTAGE >= (m as f64).powi(3) / 6.0 {
        return DependentRows::default();
    }
    let plan = SparsePlan::new(a.csc(), threads());
    let pattern = plan.pattern(a.csc());
    let Ok(mut chol) = SparseCholesky::analyze(&pattern, Par::rayon(0)) else {
        return DependentRows::default();
    };
    if chol.multiply_adds() * SPARSE_FACTOR_ADVANTAGE >= (m as f64).powi(3) / 6.0 {
        return DependentRows::default();
    }
    let mut values = vec![0.0; pattern.nnz()];
    plan.assemble_on_pattern(a.csc(), &vec![1.0; a.ncols], &pattern, &mut values);
    // Unit diagonal: S·(A·Aᵀ)·S, S = diag(1/√(aᵢ·aᵢ)) (an empty row keeps 1).
    let scale: Vec<f64> = (0..m)
        .map(|k| {
            let d = values[pattern.col_ptr[k]];
            if d > 0.0 {
                1.0 / d.sqrt()
            } else {
                1.0
            }
        })
        .collect();
    for j in 0..m {
        for p in pattern.col_ptr[j]..pattern.col_ptr[j + 1] {
            values[p] *= scale[pattern.row_idx[p]] * scale[j];
        }
    }
    let found = DependentRows { examined: true, ..Default::default() };
    let pivots = match chol.factor(&values, CANDIDATE_PIVOT, DECOUPLING_PIVOT).and_then(|_| chol.pivots()) {
        Ok(p) => p,
        Err(_) => return found,
    };
    let candidates: Vec<usize> = (0..m).filter(|&i| pivots[i] >= DECOUPLING_PIVOT).collect();
    if candidates.is_empty() {
        return found;
    }
    let mut out = found;
    for &i in &candidates {
        match confirm(a, b, &plan, &mut chol, &scale, i) {
            Some(true) => out.rows.push(i),
            _ => out.kept_candidates += 1,
        }
    }
    out
}

/// Whether candidate row `i` is a combination of the rows outside the candidates with the
/// same combination of right-hand sides; `None` on a failed solve.
fn confirm(
    a: &SparseColMatrix,
    b: &[f64],
    rows: &SparsePlan,
    chol: &mut SparseCholesky,
    scale: &[f64],
    i: usize,
) -> Option<bool> {
    let m = a.nrows;
    // r = S·A·aᵢ (the scaled column i of A·Aᵀ), then y = S·(S·A·Aᵀ·S)⁻¹·r.
    let mut y = vec![0.0; m];
    for &(j, p) in rows.row(i) {
        let aij = a.values[p];
        for q in a.col_ptr[j]..a.col_ptr[j + 1] {
            y[a.row_idx[q]] += a.values[q] * aij;
        }
    }
    for (v, s) in y.iter_mut().zip(scale) {
        *v *= s;
    }
    chol.solve_in_place(&mut y).ok()?;
    for (v, s) in y.iter_mut().zip(scale) {
        *v *= s;
    }
    // Row i itself is decoupled, so y[i] ≈ 0; the combination is of the other rows only.
    y[i] = 0.0;
    // aᵢ − Aᵀ·y and the size of its terms, over the columns A·y touches or row i has.
    let mut residual = 0.0f64;
    let mut terms = 0.0f64;
    let mut row_i = vec![0.0; a.ncols];
    for &(j, p) in rows.row(i) {
        row_i[j] = a.values[p];
    }
    for (j, &aij) in row_i.iter().enumerate() {
        let (mut sum, mut abs) = (aij, aij.abs());
        for q in a.col_ptr[j]..a.col_ptr[j + 1] {
            let t = a.values[q] * y[a.row_idx[q]];
            sum -= t;
            abs += t.abs();
        }
        residual = residual.max(sum.abs());
        terms = terms.max(abs);
    }
    let (mut rhs, mut rhs_terms) = (b[i], b[i].abs());
    for (bk, yk) in b.iter().zip(&y) {
        rhs -= bk * yk;
        rhs_terms += (bk * yk).abs();
    }
    let finite = residual.is_finite() && rhs.is_finite();
    Some(finite && residual <= DEPENDENCE_TOLERANCE * terms && rhs.abs() <= DEPENDENCE_TOLERANCE * rhs_terms)
}
