//! The normal equations with dense columns beside sparse ones, A·D²·Aᵀ = P + Z·W·Zᵀ
//! ([`super::dense_columns`]): the sparse part factored sparse, the dense columns through the
//! k×k matrix of their own side (as [`super::DualNormal`] does with a diagonal P), the rows
//! the dense columns dominate through an r×r Schur complement.
//!
//! Both sides are scaled by S = diag(1/√Mⱼⱼ) of the whole matrix M, so that a pivot of
//! P̂ = S·P·S measures how much of row j the sparse columns explain. The rows "0" are those
//! with a pivot below [`DOMINATED_PIVOT`], least explained first, up to
//! [`super::dense_columns::DenseColumnCosts::rows_limit`] (near the optimum the active rows,
//! whose sparse weights go to 0: both rows of each observation the textbook L1 regression
//! interpolates). Eliminating through P̂ there would lose every digit, as the Woodbury
//! formula does. With P̃ = P̂₁₁ ⊕ I (the rows "0" taken out), B = P̂₁₀, v = W·Ẑᵀ·y:
//!
//! * K = W⁻¹ + Ẑ₁ᵀ·P̃⁻¹·Ẑ₁ (k×k), a sum of positive terms;
//! * S₀ = P̂₀₀ − Bᵀ·P̃⁻¹·B + Z̃₀·K⁻¹·Z̃₀ᵀ with Z̃₀ = Ẑ₀ − Bᵀ·P̃⁻¹·Ẑ₁ (r×r): the Schur
//!   complement of everything else, the sparse part's own (within P's scale) plus a positive
//!   term, never the difference of two large ones;
//! * y₀ = S₀⁻¹·(r₀ − Bᵀ·u − Z̃₀·K⁻¹·Ẑ₁ᵀ·u) with u = P̃⁻¹·r₁, v = K⁻¹·(Ẑ₁ᵀ·u + Z̃₀ᵀ·y₀),
//!   y₁ = u − P̃⁻¹·B·y₀ − P̃⁻¹·Ẑ₁·v.
//!
//! K and S₀ take the unit-diagonal scaling and pivot rule of [`CpuNormal`] (S₀ the deflating
//! retry after a breakdown, as the full matrix does). K's conditioning is bounded by P̃'s
//! pivots (at least the threshold); S₀'s is the whole matrix's own. When more rows are
//! dominated than the limit and one left in P̃ loses its pivot, or a factorization breaks
//! down, that iteration falls back to the full m×m matrix ([`CpuNormal`], dense) and says so
//! in its name ("cpu full (fallback)" in the iteration log). The loop refines every direction
//! against the exact A·D²·Aᵀ either way.

use super::dense_columns::{ColumnSplit, Fallback};
use super::gpu_dense_columns::GramFactor;
use super::scaled_cholesky::Factored;
use super::sparse_normal::SparseNormal;
use super::{BackendError, CpuNormal, CpuVectors, FactorInfo, NormalEquations, VectorKernels};
use super::{REPLACED_PIVOT, RETRY_TINY_PIVOT, SMALLEST_WEIGHT, TINY_PIVOT};
use crate::cpu::cholesky::PivotRule;
use crate::cpu::products::{self, CpuPaths, SparsePlan};
use crate::cpu::sparse_cholesky::SparseCholesky;
use crate::lp::model::SparseColMatrix;
use faer::{Accum, Mat, MatRef, Par};

mod solve;

/// A row whose pivot in P̂ (scaled by the whole matrix's diagonal) is below this is one the
/// dense columns dominate: through P̂ it would lose more than about eight digits, which is
/// what the loop's refinement recovers in a step or two. The textbook L1 and quantile
/// regressions 2000 × 200 took the same iterations at 1e-4, 1e-6 and 1e-8, and 2.1–2.4 times
/// less time at 1e-8 (fewer rows in S₀).
pub const DOMINATED_PIVOT: f64 = 1e-8;

/// Multiply-adds from which K's and S₀'s products run on rayon's threads (as
/// [`super::DualNormal`]'s: below it one thread was faster on two shared cores).
const PARALLEL_PRODUCT: usize = 1 << 28;

const RULE: PivotRule = PivotRule { tiny: TINY_PIVOT, huge: REPLACED_PIVOT, deflate: false };
const RETRY: PivotRule = PivotRule { tiny: RETRY_TINY_PIVOT, huge: REPLACED_PIVOT, deflate: true };

/// The normal equations of the module documentation.
pub struct DenseColumnNormal {
    split: ColumnSplit,
    /// Z, m × k.
    z: Mat<f64>,
    /// The sparse columns, their product's plan, and P on its pattern with its factor.
    s: SparseColMatrix,
    plan: SparsePlan,
    p: SparseNormal,
    /// P̂'s values (then P̃'s).
    scaled: Vec<f64>,
    /// Z's weights and S of the current matrix.
    w: Vec<f64>,
    scale: Vec<f64>,
    /// The rows "0", their places, and B's columns (row, value) from P̂'s pattern.
    rows0: Vec<usize>,
    place: Vec<Option<usize>>,
    couplings: Vec<Vec<(usize, f64)>>,
    /// Ẑ₁ (m × k), H = P̃⁻¹·[Ẑ₁, B] (m × (k + r)), K, Z̃₀ (r × k), T = K⁻¹·Z̃₀ᵀ, S₀.
    z1: Mat<f64>,
    h: Mat<f64>,
    k: Factored,
    zt0: Mat<f64>,
    t: Mat<f64>,
    s0: Factored,
    rows_limit: usize,
    /// Rows below the threshold at the last factorization (taken or not).
    dominated: usize,
    /// The fallback's full matrix (made on first use).
    full: Option<CpuNormal>,
    paths: CpuPaths,
    /// The last factorization fell back to the full matrix.
    on_full: bool,
    /// What the log's backend column says: the path, and the rows taken as dominated.
    label: String,
    /// The fallbacks so far and the last one's reason; the last d² (the fallback assembles it).
    fallbacks: usize,
    last_fallback: Option<Fallback>,
    last_d2: Vec<f64>,
}

fn device(e: impl std::fmt::Display) -> BackendError {
    BackendError::Device(e.to_string())
}

impl DenseColumnNormal {
    /// The normal equations of `a` split as `split`, taking up to `rows_limit` dominated rows.
    pub fn new(a: &SparseColMatrix, split: ColumnSplit, rows_limit: usize, paths: CpuPaths) -> Result<Self, BackendError> {
        let m = a.nrows;
        let mut z = Mat::zeros(m, split.dense.len());
        for (c, &(j, _)) in split.dense.iter().enumerate() {
            for (i, v) in a.col(j) {
                z[(i, c)] = v;
            }
        }
        let s = split.sparse_part(a);
        let plan = SparsePlan::new(s.csc(), products::threads());
        let pattern = plan.pattern(s.csc());
        // On one thread: P is as sparse as its columns (2×2 blocks in the textbook regression),
        // and rayon's wake-ups cost more than its factor and solves.
        let chol = SparseCholesky::analyze(&pattern, Par::Seq)
            .map_err(|e| BackendError::Device(format!("sparse Cholesky analysis: {e}")))?;
        let p = SparseNormal { values: vec![0.0; pattern.nnz()], pattern, chol };
        Ok(Self {
            split,
            z,
            s,
            plan,
            p,
            scaled: Vec::new(),
            w: Vec::new(),
            scale: vec![1.0; m],
            rows0: Vec::new(),
            place: vec![None; m],
            couplings: Vec::new(),
            z1: Mat::zeros(0, 0),
            h: Mat::zeros(0, 0),
            k: Factored::default(),
            zt0: Mat::zeros(0, 0),
            t: Mat::zeros(0, 0),
            s0: Factored::default(),
            rows_limit,
            dominated: 0,
            full: None,
            paths,
            on_full: false,
            label: "cpu dense columns".into(),
            fallbacks: 0,
            last_fallback: None,
            last_d2: Vec::new(),
        })
    }

    /// (m, k): A's rows and the dense columns.
    pub fn dims(&self) -> (usize, usize) {
        self.z.shape()
    }

    /// The rows the last factorization took as dominated, ascending.
    pub fn dominated_rows(&self) -> &[usize] {
        &self.rows0
    }

    /// The factorizations that fell back to the full matrix, and the last one's reason.
    pub fn fallbacks(&self) -> (usize, Option<Fallback>) {
        (self.fallbacks, self.last_fallback)
    }

    /// rayon's threads for products of at least [`PARALLEL_PRODUCT`] multiply-adds.
    fn par(&self) -> Par {
        let (m, k, r) = (self.z.nrows(), self.z.ncols(), self.rows0.len());
        if m * k * k + r * r * k >= PARALLEL_PRODUCT {
            Par::rayon(0)
        } else {
            Par::Seq
        }
    }

    /// Forms P on its pattern and Z's weights from d² (length n).
    pub(in crate::lp::backend) fn assemble_host(&mut self, d2: &[f64]) -> Result<(), BackendError> {
        let n = self.s.ncols + self.split.dense.iter().map(|d| 1 + usize::from(d.1.is_some())).sum::<usize>();
        if d2.len() != n {
            return Err(BackendError::Dimension { op: "assemble", expected: n, got: d2.len() });
        }
        self.last_d2 = d2.to_vec();
        let ds: Vec<f64> = self.split.sparse.iter().map(|&j| d2[j].max(0.0)).collect();
        self.plan.assemble_on_pattern(self.s.csc(), &ds, &self.p.pattern, &mut self.p.values);
        self.w = self.split.dense_weights(d2);
        Ok(())
    }

    /// P̂ = S·P·S with S from M's diagonal, factored for its pivots: the rows "0".
    fn choose_rows0(&mut self) -> Result<bool, BackendError> {
        let (m, k) = (self.z.nrows(), self.z.ncols());
        let pat = &self.p.pattern;
        for (j, s) in self.scale.iter_mut().enumerate() {
            let dense: f64 = (0..k).map(|c| self.z[(j, c)].powi(2) * self.w[c]).sum();
            let d = self.p.values[pat.col_ptr[j]] + dense;
            *s = if d > 0.0 && d.is_finite() { 1.0 / d.sqrt() } else { 1.0 };
        }
        self.scaled.clone_from(&self.p.values);
        for j in 0..m {
            let (a, b) = (pat.col_ptr[j], pat.col_ptr[j + 1]);
            for (v, &i) in self.scaled[a..b].iter_mut().zip(&pat.row_idx[a..b]) {
                *v *= self.scale[i] * self.scale[j];
            }
        }
        // Only pivots ≤ 0 are replaced (by 2, above any true pivot): such rows rank first.
        if self.p.chol.factor(&self.scaled, f64::MIN_POSITIVE, 2.0).is_err() {
            return Ok(false);
        }
        let pivots = self.p.chol.pivots().map_err(device)?;
        let rank = |d: f64| if d > 1.5 { 0.0 } else { d };
        let mut weak: Vec<_> = (0..m).map(|j| (rank(pivots[j]), j)).filter(|w| w.0 < DOMINATED_PIVOT).collect();
        let cap = self.rows_limit.min(weak.len());
        if weak.len() > cap {
            weak.select_nth_unstable_by(cap, |a, b| a.0.total_cmp(&b.0));
        }
        self.dominated = weak.len();
        self.rows0 = weak[..cap].iter().map(|&(_, j)| j).collect();
        self.rows0.sort_unstable();
        self.place = vec![None; m];
        for (t, &j) in self.rows0.iter().enumerate() {
            self.place[j] = Some(t);
        }
        Ok(true)
    }

    /// The rows "0" out of P̂: B's columns and P̂₀₀ from the pattern, the identity in their place.
    fn take_out_rows0(&mut self) -> Mat<f64> {
        let r = self.rows0.len();
        self.couplings = vec![Vec::new(); r];
        let mut p00 = Mat::zeros(r, r);
        let pat = &self.p.pattern;
        for j in 0..pat.n {
            for p in pat.col_ptr[j]..pat.col_ptr[j + 1] {
                let i = pat.row_idx[p];
                match (self.place[i], self.place[j]) {
                    (None, None) => continue,
                    (Some(ti), Some(tj)) => {
                        p00[(ti, tj)] = self.scaled[p];
                        p00[(tj, ti)] = self.scaled[p];
                    }
                    (None, Some(tj)) => self.couplings[tj].push((i, self.scaled[p])),
                    (Some(ti), None) => self.couplings[ti].push((j, self.scaled[p])),
                }
                self.scaled[p] = if i == j { 1.0 } else { 0.0 };
            }
        }
        p00
    }

    /// Bᵀ·X for X with m rows (r × X's columns), from B's couplings.
    fn bt_times(&self, x: MatRef<'_, f64>) -> Mat<f64> {
        Mat::from_fn(self.rows0.len(), x.ncols(), |t, c| self.couplings[t].iter().map(|&(i, v)| v * x[(i, c)]).sum())
    }

    /// The factorization of the module documentation, or why it cannot stand; with `gram`,
    /// K is formed and factored there (an error of its own is returned as is).
    pub(in crate::lp::backend) fn factor_schur(
        &mut self,
        gram: Option<&mut dyn GramFactor>,
    ) -> Result<Result<FactorInfo, Fallback>, BackendError> {
        if !self.choose_rows0()? {
            return Ok(Err(Fallback::Breakdown));
        }
        let (m, k, r) = (self.z.nrows(), self.z.ncols(), self.rows0.len());
        let par = self.par();
        let p00 = self.take_out_rows0();
        // A pivot of P̃ replaced is a dominated row left in it (beyond the limit): through P̃ it
        // would lose every digit.
        match self.p.chol.factor(&self.scaled, RULE.tiny, RULE.huge) {
            Ok(0) => {}
            Ok(_) => return Ok(Err(Fallback::TooManyRows { dominated: self.dominated, limit: self.rows_limit })),
            Err(_) => return Ok(Err(Fallback::Breakdown)),
        }
        let mut replaced = 0;
        // H = P̃⁻¹·[Ẑ₁, B].
        self.z1 = Mat::from_fn(m, k, |j, c| if self.place[j].is_some() { 0.0 } else { self.z[(j, c)] * self.scale[j] });
        self.h = Mat::zeros(m, k + r);
        self.h.as_mut().subcols_mut(0, k).copy_from(self.z1.as_ref());
        for (t, col) in self.couplings.iter().enumerate() {
            for &(i, v) in col {
                self.h[(i, k + t)] = v;
            }
        }
        self.p.chol.solve_columns_in_place(self.h.as_mut()).map_err(device)?;
        let (hz, hb) = (self.h.as_ref().subcols(0, k), self.h.as_ref().subcols(k, r));
        let w_inv: Vec<f64> = self.w.iter().map(|w| 1.0 / w.max(SMALLEST_WEIGHT)).collect();
        if let Some(gram) = gram {
            // K = W⁻¹ + Gᵀ·G with G = D^{-1/2}·L⁻¹·Π·Ẑ₁, formed and factored by `gram`.
            let mut g = self.z1.clone();
            self.p.chol.half_solve_columns_in_place(g.as_mut()).map_err(device)?;
            let (lower, n) = gram.factor(g.as_ref(), &w_inv)?;
            self.k.set_factor(k, lower);
            replaced += n;
        } else {
            // K = W⁻¹ + Ẑ₁ᵀ·P̃⁻¹·Ẑ₁.
            let out = self.k.zeroed(k);
            faer::linalg::matmul::matmul(out, Accum::Replace, self.z1.transpose(), hz, 1.0, par);
            for (c, w) in w_inv.iter().enumerate() {
                self.k.lower[c * k + c] += w;
            }
            // K is as well conditioned as P̃'s pivots (≥ the threshold) allow; a pivot it
            // replaces comes from dense columns that P̃ leaves dependent, and W⁻¹ bounds it.
            match self.k.factor(RULE) {
                Ok(n) => replaced += n,
                Err(_) => return Ok(Err(Fallback::Breakdown)),
            }
        }
        if r > 0 {
            // Z̃₀ = Ẑ₀ − Bᵀ·P̃⁻¹·Ẑ₁, T = K⁻¹·Z̃₀ᵀ, S₀ = P̂₀₀ − Bᵀ·P̃⁻¹·B + Z̃₀·T.
            let bt_hz = self.bt_times(hz);
            let bt_hb = self.bt_times(hb);
            self.zt0 = Mat::from_fn(r, k, |t, c| self.z[(self.rows0[t], c)] * self.scale[self.rows0[t]] - bt_hz[(t, c)]);
            self.t = self.zt0.transpose().to_owned();
            self.k.solve_columns(self.t.as_mut(), par);
            let mut s0 = self.s0.zeroed(r);
            s0.copy_from(p00.as_ref());
            for t in 0..r {
                for u in 0..r {
                    s0[(u, t)] -= 0.5 * (bt_hb[(u, t)] + bt_hb[(t, u)]);
                }
            }
            faer::linalg::matmul::matmul(s0.as_mut(), Accum::Add, self.zt0.as_ref(), self.t.as_ref(), 1.0, par);
            let kept = self.s0.lower.clone();
            match self.s0.factor(RULE) {
                Ok(n) => replaced += n,
                Err(_) => {
                    // As the full matrix does: factored again, the replaced rows deflated.
                    self.s0.lower = kept;
                    match self.s0.factor(RETRY) {
                        Ok(n) => replaced += n,
                        Err(_) => return Ok(Err(Fallback::Breakdown)),
                    }
                }
            }
        }
        Ok(Ok(FactorInfo { replaced_pivots: replaced, inexact: false }))
    }

    /// The full matrix from `vk`'s A and the last d², factored.
    fn factor_full(&mut self, vk: &mut CpuVectors) -> Result<FactorInfo, BackendError> {
        let (m, n) = vk.dims();
        let paths = self.paths;
        let full = self.full.get_or_insert_with(|| CpuNormal::new(m, n).with_paths(paths));
        full.assemble(vk, &self.last_d2)?;
        full.factor(vk)
    }
}

impl NormalEquations<CpuVectors> for DenseColumnNormal {
    fn name(&self) -> &str {
        &self.label
    }
    fn assemble(&mut self, _vk: &mut CpuVectors, d2: &Vec<f64>) -> Result<(), BackendError> {
        self.assemble_host(d2)
    }
    fn factor(&mut self, vk: &mut CpuVectors) -> Result<FactorInfo, BackendError> {
        match self.factor_schur(None)? {
            Ok(info) => {
                self.on_full = false;
                let rows = self.rows0.len();
                self.label = format!("cpu dense columns, {rows} dominated row{}", if rows == 1 { "" } else { "s" });
                Ok(info)
            }
            Err(why) => {
                self.fallbacks += 1;
                self.last_fallback = Some(why);
                self.on_full = true;
                self.label = "cpu full (fallback)".into();
                self.factor_full(vk)
            }
        }
    }
    fn solve(&mut self, _vk: &mut CpuVectors, r: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        let m = self.z.nrows();
        if r.len() != m {
            return Err(BackendError::Dimension { op: "solve", expected: m, got: r.len() });
        }
        match self.full.as_mut() {
            Some(full) if self.on_full => full.solve_host(r),
            _ => self.solve_schur(r),
        }
    }
}
