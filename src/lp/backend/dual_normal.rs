//! The normal equations through their smaller side, for the tall shape: A = [A_D | U] with a
//! dense block A_D of k columns (k ≪ m) and columns of one entry U, so that
//! A·D²·Aᵀ = Δ + A_D·W·A_Dᵀ with Δ = U·D_U²·Uᵀ diagonal and W the block's weights (a split
//! free column's pair as one column of weight w⁺ + w⁻:
//! [`crate::cpu::products::DiagonalSplit`]).
//!
//! The rows split into the m₁ rows "1" whose unit columns dominate them (Δᵢ ≥
//! [`DOMINANCE`]·(A_D·W·A_Dᵀ)ᵢᵢ) and the m₀ rows "0": those without a unit column and, up to
//! [`extra_rows`]`(k)` of them, the rows Δ does not dominate (near the optimum: the active
//! rows, whose unit column's weight goes to 0). With v = W·A_Dᵀ·y the system
//! (Δ + A_D·W·A_Dᵀ)·y = r is Δ₁y₁ + A₁v = r₁, Δ₀y₀ + A₀v = r₀, A₁ᵀy₁ + A₀ᵀy₀ − W⁻¹v = 0;
//! eliminating y₁:
//!
//! * K·v = g + A₀ᵀ·y₀ with K = W⁻¹ + A₁ᵀ·Δ₁⁻¹·A₁ (k×k, the dual's normal matrix) and
//!   g = A₁ᵀ·Δ₁⁻¹·r₁;
//! * (Δ₀ + A₀·K⁻¹·A₀ᵀ)·y₀ = r₀ − A₀·K⁻¹·g (m₀×m₀: the Schur complement of the rows "1" in
//!   A·D²·Aᵀ);
//! * y₁ = Δ₁⁻¹·(r₁ − A₁·v).
//!
//! Forming K costs k²m₁/2 multiply-adds and a solve 2k·m: the Chebyshev fit 2000 × 200 forms
//! a 201 × 201 matrix where A·D²·Aᵀ is 4000 × 4000. Eliminating y₁ through Δ₁⁻¹ loses about
//! (A_D·W·A_Dᵀ)ᵢᵢ/Δᵢ of y₁'s digits to cancellation in r₁ − A₁·v; near the optimum that ratio
//! grows like 1/μ² on the active rows (their y then lost every digit and the primal residual
//! grew from 3e-7 to 40 in two steps on the Chebyshev fit), which is why those rows are kept
//! in the exact Schur complement. Both factors take the unit-diagonal scaling and the pivot
//! rule of [`super::CpuNormal`], and the loop refines every direction by conjugate gradients
//! on the exact A·Θ·Aᵀ.

use super::scaled_cholesky::Factored;
use super::shape::extra_rows;
use super::{BackendError, CpuVectors, FactorInfo, NormalEquations, REPLACED_PIVOT, RETRY_TINY_PIVOT, TINY_PIVOT};
use crate::cpu::cholesky::PivotRule;
use crate::cpu::products::DiagonalSplit;
use faer::linalg::matmul::triangular::{self, BlockStructure};
use faer::{Accum, Mat, MatMut, MatRef, Par};
use std::sync::Arc;

/// Smallest Δᵢ and block weight taken as they are (√ of the smallest normal f64): a weight that
/// rounding of x/s left at 0 would make Δ⁻¹ or W⁻¹ infinite.
pub const SMALLEST_WEIGHT: f64 = 1.4916681462400413e-154;

/// Multiply-adds above which K's product, the Schur complement and the block's products run on
/// rayon's threads. Below it one thread is faster on this machine's two shared cores: K of the
/// Chebyshev fit 2000 × 200 (201 × 201 over 3582 rows, 7e7 multiply-adds) took 17–20 ms on one
/// thread and 58–88 ms on two (faer's triangular product, three runs each, load ≈ 10).
const PARALLEL_PRODUCT: usize = 1 << 28;

/// A row goes through Δ⁻¹ when Δᵢ is at least this fraction of (A_D·W·A_Dᵀ)ᵢᵢ: y₁ then loses
/// at most about two digits, which refinement recovers.
pub const DOMINANCE: f64 = 1e-2;

/// The normal equations through K (see the module documentation).
pub struct DualNormal {
    split: Arc<DiagonalSplit>,
    /// A_Dᵀ, k × m (its columns are A_D's rows, read whole by every product here).
    g: Mat<f64>,
    /// Rows without a unit column, ascending.
    bare: Vec<usize>,
    /// The rows "0" of the current matrix, ascending, and their Δᵢ.
    rows0: Vec<usize>,
    delta0: Vec<f64>,
    /// Δᵢ⁻¹ on the rows "1", 0 on the rows "0".
    inv_delta: Vec<f64>,
    k: Factored,
    /// K⁻¹·A₀ᵀ (k × m₀, column-major) and Δ₀ + A₀·K⁻¹·A₀ᵀ.
    z: Vec<f64>,
    /// A₁ᵀ·Δ₁^-½ of the last assembly (k × m₁, column-major).
    scaled: Vec<f64>,
    s0: Factored,
    last_d2: Vec<f64>,
    factored: bool,
}

impl DualNormal {
    /// The normal equations of the A that `split` was made from.
    pub fn new(split: Arc<DiagonalSplit>) -> Self {
        let block = split.block();
        let m = block.nrows();
        let g = block.transpose().to_owned();
        let bare = split.kinds().bare_rows.clone();
        Self {
            split,
            g,
            bare,
            rows0: Vec::new(),
            delta0: Vec::new(),
            inv_delta: vec![0.0; m],
            k: Factored::default(),
            z: Vec::new(),
            scaled: Vec::new(),
            s0: Factored::default(),
            last_d2: Vec::new(),
            factored: false,
        }
    }

    /// The rows of the current matrix's Schur complement (see the module documentation).
    pub fn schur_rows(&self) -> &[usize] {
        &self.rows0
    }

    /// The split (block, unit columns, bare rows).
    pub fn split(&self) -> &DiagonalSplit {
        &self.split
    }

    /// Row i of A_D (column i of A_Dᵀ).
    fn row(&self, i: usize) -> &[f64] {
        Self::column(&self.g, i)
    }

    /// Column i of an owned (hence column-major) matrix.
    fn column(g: &Mat<f64>, i: usize) -> &[f64] {
        g.col(i).try_as_col_major().map_or(&[], |c| c.as_slice())
    }

    fn par(&self) -> Par {
        if self.g.nrows() * self.g.ncols() >= PARALLEL_PRODUCT {
            Par::rayon(0)
        } else {
            Par::Seq
        }
    }

    /// The rows "0" for Δ and the block's weights w: the bare rows and, up to
    /// [`extra_rows`], those with Δᵢ < [`DOMINANCE`]·(A_D·W·A_Dᵀ)ᵢᵢ, least dominated first.
    fn choose_rows0(&mut self, delta: &[f64], w: &[f64]) {
        let (k, m) = (self.g.nrows(), self.g.ncols());
        let mut is_bare = vec![false; m];
        for &i in &self.bare {
            is_bare[i] = true;
        }
        let mut weak: Vec<(f64, usize)> = (0..m)
            .filter(|&i| !is_bare[i])
            .filter_map(|i| {
                let dense: f64 = self.row(i).iter().zip(w).map(|(a, wj)| a * a * wj.max(0.0)).sum();
                (delta[i] < DOMINANCE * dense).then_some((delta[i] / dense, i))
            })
            .collect();
        let cap = extra_rows(k).min(weak.len());
        if weak.len() > cap {
            weak.select_nth_unstable_by(cap, |a, b| a.0.total_cmp(&b.0));
        }
        self.rows0 = self.bare.iter().copied().chain(weak[..cap].iter().map(|&(_, i)| i)).collect();
        self.rows0.sort_unstable();
        self.delta0 = self.rows0.iter().map(|&i| delta[i]).collect();
    }

    /// Forms K = W⁻¹ + A₁ᵀ·Δ₁⁻¹·A₁ (lower triangle) from d² (length n), choosing the rows "0".
    pub fn assemble_host(&mut self, d2: &[f64]) -> Result<(), BackendError> {
        let n = self.split.ncols();
        if d2.len() != n {
            return Err(BackendError::Dimension { op: "assemble", expected: n, got: d2.len() });
        }
        self.factored = false;
        let (k, m) = (self.g.nrows(), self.g.ncols());
        let mut delta = vec![0.0; m];
        self.split.add_diagonal(d2, &mut delta);
        let w = self.split.slot_weights(d2);
        self.choose_rows0(&delta, &w);
        self.inv_delta = delta.iter().map(|d| 1.0 / d.max(SMALLEST_WEIGHT)).collect();
        for &i in &self.rows0 {
            self.inv_delta[i] = 0.0;
        }
        // K's product as S·Sᵀ with S = A₁ᵀ·Δ₁^-½ (k × m₁), into a buffer kept between
        // assemblies: a fresh one (and the library's gathered copies) cost page faults of
        // their own every iteration.
        let rows1: Vec<usize> = (0..m).filter(|&i| self.inv_delta[i] != 0.0).collect();
        self.scaled.resize(k * rows1.len(), 0.0);
        for (col, &i) in self.scaled.chunks_exact_mut(k.max(1)).zip(&rows1) {
            let f = self.inv_delta[i].sqrt();
            for (v, a) in col.iter_mut().zip(Self::column(&self.g, i)) {
                *v = a * f;
            }
        }
        let sm = MatRef::from_column_major_slice(&self.scaled, k, rows1.len());
        let par = if k * k * rows1.len() / 2 >= PARALLEL_PRODUCT { Par::rayon(0) } else { Par::Seq };
        let out = self.k.zeroed(k);
        triangular::matmul(
            out,
            BlockStructure::TriangularLower,
            Accum::Replace,
            sm,
            BlockStructure::Rectangular,
            sm.transpose(),
            BlockStructure::Rectangular,
            1.0,
            par,
        );
        for (j, wj) in w.iter().enumerate() {
            self.k.lower[j * k + j] += 1.0 / wj.max(SMALLEST_WEIGHT);
        }
        Ok(())
    }

    /// Factors K and, with rows "0", Δ₀ + A₀·K⁻¹·A₀ᵀ under `rule`.
    fn factor_with(&mut self, rule: PivotRule) -> Result<FactorInfo, BackendError> {
        let mut replaced = self.k.factor(rule)?;
        let (k, m0) = (self.g.nrows(), self.rows0.len());
        if m0 > 0 {
            let a0t = Mat::from_fn(k, m0, |j, t| self.g[(j, self.rows0[t])]);
            let par = if k * m0 * m0 >= PARALLEL_PRODUCT { Par::rayon(0) } else { Par::Seq };
            self.z.clear();
            self.z.extend(a0t.col_iter().flat_map(|c| c.iter().copied().collect::<Vec<_>>()));
            self.k.solve_columns(MatMut::from_column_major_slice_mut(&mut self.z, k, m0), par);
            let z = MatRef::from_column_major_slice(&self.z, k, m0);
            let mut s = self.s0.zeroed(m0);
            faer::linalg::matmul::matmul(s.as_mut(), Accum::Replace, a0t.transpose(), z, 1.0, par);
            for (t, d) in self.delta0.iter().enumerate() {
                s[(t, t)] += d;
            }
            replaced += self.s0.factor(rule)?;
        }
        self.factored = true;
        Ok(FactorInfo { replaced_pivots: replaced, inexact: false })
    }

    /// Factors the assembled K (see the module documentation).
    pub fn factor_assembled(&mut self) -> Result<FactorInfo, BackendError> {
        self.factor_with(PivotRule { tiny: TINY_PIVOT, huge: REPLACED_PIVOT, deflate: false })
    }

    /// y = (A·D²·Aᵀ)⁻¹·r through K.
    pub fn solve_host(&self, r: &[f64]) -> Result<Vec<f64>, BackendError> {
        if !self.factored {
            return Err(BackendError::NotFactored);
        }
        let (k, m) = (self.g.nrows(), self.g.ncols());
        if r.len() != m {
            return Err(BackendError::Dimension { op: "solve", expected: m, got: r.len() });
        }
        let par = self.par();
        // g = A₁ᵀ·Δ₁⁻¹·r₁, then v = K⁻¹·g.
        let t: Vec<f64> = r.iter().zip(&self.inv_delta).map(|(r, d)| r * d).collect();
        let mut v = vec![0.0; k];
        let (vm, tm) = (faer::ColMut::from_slice_mut(&mut v).as_mat_mut(), faer::ColRef::from_slice(&t).as_mat());
        faer::linalg::matmul::matmul(vm, Accum::Replace, self.g.as_ref(), tm, 1.0, par);
        self.k.solve(&mut v);
        // y₀ = (Δ₀ + A₀·K⁻¹·A₀ᵀ)⁻¹·(r₀ − A₀·K⁻¹·g), v += K⁻¹·A₀ᵀ·y₀.
        let dot = |i: usize, v: &[f64]| self.row(i).iter().zip(v).map(|(a, b)| a * b).sum::<f64>();
        let mut y0: Vec<f64> = self.rows0.iter().map(|&i| r[i] - dot(i, &v)).collect();
        if !y0.is_empty() {
            self.s0.solve(&mut y0);
            for (u, &yu) in y0.iter().enumerate() {
                for (vj, zj) in v.iter_mut().zip(&self.z[u * k..(u + 1) * k]) {
                    *vj += zj * yu;
                }
            }
        }
        // y₁ = Δ₁⁻¹·(r₁ − A₁·v).
        let mut av = vec![0.0; m];
        let (am, vr) = (faer::ColMut::from_slice_mut(&mut av).as_mat_mut(), faer::ColRef::from_slice(&v).as_mat());
        faer::linalg::matmul::matmul(am, Accum::Replace, self.g.transpose(), vr, 1.0, par);
        let mut y: Vec<f64> = r.iter().zip(&av).zip(&self.inv_delta).map(|((r, a), d)| d * (r - a)).collect();
        for (&i, &yi) in self.rows0.iter().zip(&y0) {
            y[i] = yi;
        }
        Ok(y)
    }
}

impl NormalEquations<CpuVectors> for DualNormal {
    fn name(&self) -> &str {
        "cpu dual"
    }
    fn assemble(&mut self, _vk: &mut CpuVectors, d2: &Vec<f64>) -> Result<(), BackendError> {
        self.last_d2.clone_from(d2);
        self.assemble_host(d2)
    }
    fn factor(&mut self, _vk: &mut CpuVectors) -> Result<FactorInfo, BackendError> {
        match self.factor_assembled() {
            Err(BackendError::Factorization { .. }) if self.last_d2.len() == self.split.ncols() => {
                // As the m×m path does: form the matrices again and deflate the replaced rows.
                let d2 = std::mem::take(&mut self.last_d2);
                let assembled = self.assemble_host(&d2);
                self.last_d2 = d2;
                assembled?;
                self.factor_with(PivotRule { tiny: RETRY_TINY_PIVOT, huge: REPLACED_PIVOT, deflate: true })
            }
            other => other,
        }
    }
    fn solve(&mut self, _vk: &mut CpuVectors, r: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        self.solve_host(r)
    }
}
