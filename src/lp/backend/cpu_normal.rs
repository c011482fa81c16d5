//! The normal equations on the CPU, solved in double precision (the early iterations' matrices
//! and their factors' trailing updates in a reduced precision: [`MixedPrecision`]).
//!
//! * `assemble`: the lower triangle of A·D²·Aᵀ, dense or from A's nonzeros ([`crate::cpu::products`],
//!   chosen by how [`CpuVectors`] holds A), into one m×m buffer reused across iterations — or,
//!   when A is sparse and its normal matrix's Cholesky factor is predicted to be sparse enough
//!   ([`NormalFactorization`], [`SPARSE_FACTOR_ADVANTAGE`]), into the values of its lower
//!   triangle's pattern, factored by [`crate::cpu::sparse_cholesky`] (AMD ordering, supernodes).
//! * `factor`: the matrix is first scaled symmetrically to unit diagonal, M̂ = S·M·S with
//!   S = diag(1/√Mₖₖ), so that a pivot measures how much of row k is *not* explained by the
//!   previous rows. A pivot of M̂ below [`TINY_PIVOT`] (or negative, from rounding) means row k
//!   is numerically dependent on earlier rows (redundant equality rows, or rows whose columns
//!   all have d² → 0 near the optimum, or whose information was lost to rounding). It is
//!   replaced by [`REPLACED_PIVOT`] (see there why not by a huge value). The count is returned
//!   in [`FactorInfo`]. The factorization itself is [`crate::cpu::cholesky::cholesky_lower_in`].
//!   When the factorization breaks down (a non-finite pivot) the matrix is assembled again and
//!   factored with the stricter, deflating rule of [`RETRY_TINY_PIVOT`] (the sparse factor
//!   applies the stricter threshold without deflating).
//! * `solve`: forward and back substitution on the scaled factor, u = S·L⁻ᵀ·L⁻¹·S·r.

use super::cpu_vectors::Storage;
use super::sparse_normal::SparseNormal;
use super::{BackendError, CpuVectors, FactorCounts, FactorInfo, MixedPrecision, NormalEquations, VectorKernels};
use crate::cpu::cholesky::{cholesky_lower_in, PivotRule};
use crate::cpu::products::{self, assemble_split, ColumnMaxima, CpuPaths, Precision, SparsePlan};
use crate::cpu::sparse_cholesky::SparseCholesky;
use crate::lp::settings::NormalFactorization;
use faer::linalg::triangular_solve::{solve_lower_triangular_in_place, solve_upper_triangular_in_place};
use faer::{MatMut, MatRef, Par};
use std::borrow::Cow;

/// Pivot threshold of the unit-diagonal normal matrix (relative cancellation beyond ~100 ulps).
pub const TINY_PIVOT: f64 = 1e-14;
/// Value a tiny pivot is replaced by: 1, the row's own (scaled) diagonal, as if the row were
/// independent of the earlier ones. Its Schur complement is rounding noise, bounded by the
/// pivot, so the column of L stays bounded and the factor positive definite. The factor is
/// then a preconditioner that is wrong in a few directions, which the loop's conjugate-gradient
/// refinement recovers (one or two steps per replaced pivot). The classical replacement by a
/// huge value (1e64, Wright ch. 11) instead *deflates* the row — its component of Δλ is zero —
/// and no refinement can bring back a row whose rounding, not dependence, made the pivot tiny
/// (greenbea, scfxm3: the primal residual then grew from 1e-4 to 1 in the next steps).
pub const REPLACED_PIVOT: f64 = 1.0;

/// Pivot threshold of the factorization that follows a breakdown. There rows were accepted
/// whose pivots were rounding noise (≈ m·ε, 1e-13 at m = 3000), and their columns of L then grew
/// each later pivot by its square (qap12, qap15: −9e2, −2e4, …, −∞ within fifteen columns). The
/// retry replaces pivots up to 1e-11 and deflates them ([`PivotRule::deflate`]): no replaced row
/// feeds a later one, and the loop's refinement recovers what the preconditioner lost.
pub const RETRY_TINY_PIVOT: f64 = 1e-11;

/// How many times fewer multiply-adds the sparse factorization must need than the dense one
/// (m³/6) to be chosen by [`NormalFactorization::Auto`]: supernodal updates on small, ragged
/// blocks run at a fraction of the dense factorization's rate, and the dense path has the
/// deflating retry.
pub const SPARSE_FACTOR_ADVANTAGE: f64 = 8.0;

/// Rows below which the dense factorization runs on one thread: its blocks are too small for
/// a second thread's wake-up. On rayon's pool m = 512 took 1.06 ms on one thread and 1.48 on
/// two (median of 15); the threshold of 500 was set for a spinning worker thread since
/// replaced by rayon (see docs/design.md). The factor is the same either way.
pub const PARALLEL_FACTOR_ROWS: usize = 500;

/// f64 normal equations, dense or sparse.
pub struct CpuNormal {
    m: usize,
    /// The normal matrix (lower triangle, column-major m×m), then its Cholesky factor; empty
    /// while the matrix is held sparse.
    normal: Vec<f64>,
    /// The sparse normal matrix and factor, when chosen ([`Self::with_factorization`]).
    sparse: Option<SparseNormal>,
    /// S of the unit-diagonal scaling.
    scale: Vec<f64>,
    /// The sparse assembly's plan, made on the first sparse assembly.
    plan: Option<SparsePlan>,
    factored: bool,
    par: Par,
    /// Single-precision products in the early iterations ([`MixedPrecision`]).
    mixed: MixedPrecision,
    /// The d² of the last assembly, kept to assemble again when a factorization breaks down.
    last_d2: Vec<f64>,
    /// maxᵢ a²ᵢⱼ of dense A, for the exact assemblies' column split (computed on first use).
    col_max: ColumnMaxima,
    /// Columns of the current matrix summed in reduced precision by the split.
    reduced_columns: usize,
    /// A factorization is being retried: the matrix is assembled without the split.
    retrying: bool,
    /// The code the products and the factorization run.
    paths: CpuPaths,
}

/// d² with negative entries (which rounding can produce) counted as 0.
fn nonnegative(d2: &[f64]) -> Cow<'_, [f64]> {
    if d2.iter().all(|&v| v >= 0.0) {
        Cow::Borrowed(d2)
    } else {
        Cow::Owned(d2.iter().map(|&v| v.max(0.0)).collect())
    }
}

impl CpuNormal {
    /// Buffers for an m×n A; uses all rayon threads.
    pub fn new(m: usize, n: usize) -> Self {
        let _ = n;
        Self {
            m,
            // Allocated by the first dense assembly (a sparse one never needs it).
            normal: Vec::new(),
            sparse: None,
            scale: vec![1.0; m],
            plan: None,
            factored: false,
            par: Par::rayon(0),
            mixed: MixedPrecision::default(),
            last_d2: Vec::new(),
            col_max: ColumnMaxima::default(),
            reduced_columns: 0,
            retrying: false,
            paths: CpuPaths::default(),
        }
    }

    /// The products and the factorization on `paths` (default: [`CpuPaths::default`]), which
    /// also decide the mixed-precision iterations' reduced precision.
    pub fn with_paths(mut self, paths: CpuPaths) -> Self {
        self.paths = paths;
        self
    }

    /// With mixed precision (see [`MixedPrecision`]) when `asked`, A is held dense by `vk` and
    /// has at least [`super::MIXED_MIN_ROWS`] rows.
    pub fn with_mixed_precision(mut self, asked: bool, vk: &CpuVectors) -> Self {
        let (m, _) = vk.dims();
        self.mixed = MixedPrecision::new(asked, matches!(vk.storage(), Storage::Dense(_)), m);
        self
    }

    /// The factorization `choice` for A as `vk` holds it: dense A is always factored dense;
    /// sparse A by the sparse factor when asked, or under `Auto` when its predicted
    /// multiply-adds are [`SPARSE_FACTOR_ADVANTAGE`] times fewer than the dense m³/6.
    pub fn with_factorization(mut self, choice: NormalFactorization, vk: &CpuVectors) -> Result<Self, BackendError> {
        let Storage::Sparse(a) = vk.storage() else {
            return Ok(self);
        };
        if choice == NormalFactorization::Dense || a.nrows == 0 {
            return Ok(self);
        }
        let plan = SparsePlan::new(a.csc(), products::threads());
        let pattern = plan.pattern(a.csc());
        let chol = match SparseCholesky::analyze(&pattern, self.par) {
            Ok(chol) => chol,
            Err(e) if choice == NormalFactorization::Sparse => {
                return Err(BackendError::Device(format!("sparse Cholesky analysis: {e}")))
            }
            Err(_) => return Ok(self),
        };
        let dense = (a.nrows as f64).powi(3) / 6.0;
        if choice == NormalFactorization::Sparse || chol.multiply_adds() * SPARSE_FACTOR_ADVANTAGE < dense {
            self.m = a.nrows;
            self.scale = vec![1.0; a.nrows];
            self.normal = Vec::new();
            self.plan = Some(plan);
            self.sparse = Some(SparseNormal { values: vec![0.0; pattern.nnz()], pattern, chol });
        }
        Ok(self)
    }

    /// `Some((entries of the lower triangle, entries of L, multiply-adds of one
    /// factorization))` when the matrix is held sparse.
    pub fn sparse_factor(&self) -> Option<(usize, usize, f64)> {
        self.sparse.as_ref().map(|s| (s.pattern.nnz(), s.chol.factor_nnz(), s.chol.multiply_adds()))
    }

    fn resize(&mut self, m: usize) {
        if self.m != m || self.normal.len() != m * m {
            self.m = m;
            self.normal = vec![0.0; m * m];
            self.scale = vec![1.0; m];
            self.plan = None;
            self.sparse = None;
        }
    }

    fn view(&mut self) -> MatMut<'_, f64> {
        MatMut::from_column_major_slice_mut(&mut self.normal, self.m, self.m)
    }

    /// The assembled matrix or its factor (lower triangle); empty while it is held sparse.
    pub fn matrix(&self) -> MatRef<'_, f64> {
        if self.normal.len() != self.m * self.m {
            return MatRef::from_column_major_slice(&[], 0, 0);
        }
        MatRef::from_column_major_slice(&self.normal, self.m, self.m)
    }

    /// Forms A·D²·Aᵀ (lower triangle) from dense A and d².
    pub fn assemble_from(&mut self, a: MatRef<'_, f64>, d2: &[f64]) -> Result<(), BackendError> {
        let (m, n) = (a.nrows(), a.ncols());
        if d2.len() != n {
            return Err(BackendError::Dimension { op: "assemble", expected: n, got: d2.len() });
        }
        self.resize(m);
        self.factored = false;
        let precision = self.mixed.next_precision(Precision::reduced(&self.paths));
        let w = nonnegative(d2);
        self.reduced_columns = 0;
        let paths = self.paths;
        if precision == Precision::Double && self.mixed.splits_exact() && !self.retrying {
            let mut maxima = std::mem::take(&mut self.col_max);
            let split = assemble_split(&paths, a, &w, self.view(), &mut maxima);
            self.col_max = maxima;
            if let Some(k) = split.map_err(BackendError::from_gram)? {
                self.reduced_columns = k;
                return Ok(());
            }
        }
        products::normal_lower(&paths, a, &w, self.view(), precision).map_err(BackendError::from_gram)?;
        Ok(())
    }

    /// Forms A·D²·Aᵀ (lower triangle) from A as `vk` holds it.
    pub fn assemble_on(&mut self, vk: &CpuVectors, d2: &[f64]) -> Result<(), BackendError> {
        match vk.storage() {
            Storage::Dense(a) => self.assemble_from(a.as_ref(), d2),
            Storage::Sparse(a) => {
                if d2.len() != a.ncols {
                    return Err(BackendError::Dimension { op: "assemble", expected: a.ncols, got: d2.len() });
                }
                if let (Some(sp), Some(plan)) = (self.sparse.as_mut(), self.plan.as_ref()) {
                    if sp.pattern.n == a.nrows {
                        self.factored = false;
                        plan.assemble_on_pattern(a.csc(), &nonnegative(d2), &sp.pattern, &mut sp.values);
                        return Ok(());
                    }
                }
                self.resize(a.nrows);
                self.factored = false;
                let plan = self.plan.get_or_insert_with(|| SparsePlan::new(a.csc(), products::threads()));
                plan.assemble(a.csc(), d2, &mut self.normal);
                Ok(())
            }
        }
    }

    /// Multiply-adds of one assembly on `vk`'s A (for the benchmarks' rates).
    pub fn assembly_multiply_adds(vk: &CpuVectors) -> f64 {
        match vk.storage() {
            Storage::Dense(a) => (a.nrows() as f64).powi(2) * a.ncols() as f64 / 2.0,
            Storage::Sparse(a) => SparsePlan::new(a.csc(), 1).multiply_adds,
        }
    }

    /// Adds `diag` to the assembled dense matrix's diagonal (a diagonal formed beside the
    /// product: [`crate::cpu::products::DiagonalSplit`]).
    pub(crate) fn add_diagonal(&mut self, diag: &[f64]) {
        let m = self.m;
        for (k, d) in diag.iter().enumerate().take(if self.normal.len() == m * m { m } else { 0 }) {
            self.normal[k * m + k] += d;
        }
    }

    /// After a breakdown: `assemble` forms the matrix again (the column split off), factored
    /// with the deflating rule of [`RETRY_TINY_PIVOT`].
    pub(crate) fn refactor_deflating(
        &mut self,
        assemble: impl FnOnce(&mut Self) -> Result<(), BackendError>,
    ) -> Result<FactorInfo, BackendError> {
        self.retrying = true;
        let assembled = assemble(self);
        self.retrying = false;
        assembled?;
        self.factor_with(PivotRule { tiny: RETRY_TINY_PIVOT, huge: REPLACED_PIVOT, deflate: true })
    }

    /// Mixed precision (see [`MixedPrecision`]) when `asked`, for a dense block of m rows
    /// that the assemblies read instead of `vk`'s A.
    pub(crate) fn with_block_mixed_precision(mut self, asked: bool, m: usize) -> Self {
        self.mixed = MixedPrecision::new(asked, true, m);
        self
    }

    /// Factors the assembled matrix (see the module documentation).
    pub fn factor_assembled(&mut self) -> Result<FactorInfo, BackendError> {
        self.factor_with(PivotRule { tiny: TINY_PIVOT, huge: REPLACED_PIVOT, deflate: false })
    }

    fn factor_with(&mut self, rule: PivotRule) -> Result<FactorInfo, BackendError> {
        if let Some(sp) = self.sparse.as_mut() {
            let info = sp.factor(&mut self.scale, rule)?;
            self.factored = true;
            return Ok(info);
        }
        let m = self.m;
        for k in 0..m {
            let d = self.normal[k * m + k];
            self.scale[k] = if d > 0.0 && d.is_finite() { 1.0 / d.sqrt() } else { 1.0 };
        }
        for j in 0..m {
            let sj = self.scale[j];
            // Slices from row j zipped (not a zip skipped to row j), so that the loop vectorizes:
            // at m = 1024 the scaling took 0.81–0.96 ms per factorization, now 0.23–0.25 ms.
            let col = &mut self.normal[j * m + j..(j + 1) * m];
            for (v, si) in col.iter_mut().zip(&self.scale[j..]) {
                *v *= sj * si;
            }
        }
        let par = if m < PARALLEL_FACTOR_ROWS { Par::Seq } else { self.par };
        // The factor of reduced-precision products only preconditions: its trailing updates
        // run in the same precision (`solve --random 1024 --seed 7`: its factorizations took
        // 55 against 68 ms in all).
        let updates = match self.mixed.current() {
            Some(reduced) if self.mixed.current_is_single() => reduced,
            _ => Precision::Double,
        };
        let paths = self.paths;
        let replaced = cholesky_lower_in(&paths, self.view(), rule, par, updates)
            .map_err(|e| BackendError::Factorization { column: e.column, pivot: e.pivot })?;
        // A NaN/∞ pivot passes the sign test; find it here rather than in a later solve.
        if let Some(k) = (0..m).find(|&k| !self.normal[k * m + k].is_finite()) {
            return Err(BackendError::Factorization { column: k, pivot: self.normal[k * m + k] });
        }
        self.factored = true;
        Ok(FactorInfo { replaced_pivots: replaced, inexact: false })
    }

    /// Whether the current factor is of reduced-precision products ([`FactorInfo::inexact`]).
    pub fn factor_is_inexact(&self) -> bool {
        self.mixed.current_is_single()
    }

    /// Solves with the current factor.
    pub fn solve_host(&mut self, r: &[f64]) -> Result<Vec<f64>, BackendError> {
        if !self.factored {
            return Err(BackendError::NotFactored);
        }
        let m = self.m;
        if r.len() != m {
            return Err(BackendError::Dimension { op: "solve", expected: m, got: r.len() });
        }
        let mut u: Vec<f64> = r.iter().zip(&self.scale).map(|(v, s)| v * s).collect();
        if let Some(sp) = self.sparse.as_mut() {
            sp.chol.solve_in_place(&mut u).map_err(|e| BackendError::Device(e.to_string()))?;
            for (v, s) in u.iter_mut().zip(&self.scale) {
                *v *= s;
            }
            return Ok(u);
        }
        let l = self.matrix();
        // On one thread: a substitution reads L once (m²/2 entries) in a dependent chain, and
        // waking a second thread cost more than it saved (pairs of solves 50 µs after other
        // work, median of 100: m = 512 0.05 ms against 0.15 on two threads, m = 1024 0.36
        // against 0.82, m = 2048 1.39 against 1.86).
        let seq = Par::Seq;
        solve_lower_triangular_in_place(l, faer::ColMut::from_slice_mut(&mut u).as_mat_mut(), seq);
        solve_upper_triangular_in_place(l.transpose(), faer::ColMut::from_slice_mut(&mut u).as_mat_mut(), seq);
        for (v, s) in u.iter_mut().zip(&self.scale) {
            *v *= s;
        }
        Ok(u)
    }
}

impl NormalEquations<CpuVectors> for CpuNormal {
    fn name(&self) -> &str {
        // The iteration log names the factor the step into an iterate came from.
        match self.mixed.current() {
            Some(Precision::Single) => "cpu f32",
            Some(Precision::Bf16Pair) => "cpu bf16",
            _ if self.reduced_columns > 0 => "cpu split",
            _ => "cpu",
        }
    }
    fn assemble(&mut self, vk: &mut CpuVectors, d2: &Vec<f64>) -> Result<(), BackendError> {
        self.last_d2.clone_from(d2);
        self.assemble_on(vk, d2)
    }
    fn factor(&mut self, vk: &mut CpuVectors) -> Result<FactorInfo, BackendError> {
        let info = match self.factor_assembled() {
            Err(BackendError::Factorization { .. }) if self.last_d2.len() == vk.dims().1 => {
                // Rounding made the matrix indefinite enough for the replaced pivots' rows to
                // grow without bound in later ones: assemble again and deflate those rows.
                let d2 = std::mem::take(&mut self.last_d2);
                let info = self.refactor_deflating(|ne| ne.assemble_on(vk, &d2));
                self.last_d2 = d2;
                info
            }
            other => other,
        };
        info.map(|i| FactorInfo { inexact: self.factor_is_inexact(), ..i })
    }
    fn solve(&mut self, _vk: &mut CpuVectors, r: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        self.solve_host(r)
    }
    fn require_exact(&mut self) -> bool {
        self.mixed.require_exact()
    }
    fn counts(&self) -> FactorCounts {
        FactorCounts { gpu: None, single: self.mixed.single_factorizations() }
    }
}
