//! The kernels the MPC loop is written over (2006 paper §4: level 1, 2 and 3 kernels), split by
//! what they do, as Clarabel splits its solver into replaceable parts:
//!
//! * [`VectorKernels`]: the iteration's vectors and every level-1/2 kernel on them (saxpy
//!   variants, reductions, the line search, A·x and Aᵀ·y). [`CpuVectors`] keeps them in `Vec<f64>`;
//!   [`GpuVectors`] keeps them in textures and brings back only scalars.
//! * [`NormalEquations`]: the level-3 part, A·D²·Aᵀ·u = r — assemble, factor, solve — over some
//!   vector type. [`CpuNormal`] (double precision, faer) and [`GpuNormal`] (single precision,
//!   every pass on the GPU; shared by the gpu and hybrid backends) are the two implementations;
//!   [`HybridNormal`] is a *policy* over the two (the 2008 IPM paper's switching rules). For A
//!   with columns of one entry the cpu backend may instead form [`DiagonalNormal`] (a dense
//!   block's product plus a diagonal) or [`DualNormal`] (the smaller side, k×k), as
//!   [`CpuPlan`]'s cost model ([`shape`]) decides; for a sparse A with a few dense columns,
//!   [`DenseColumnNormal`] (the sparse columns' factor and a Schur complement of the dense
//!   ones, [`dense_columns`]).
//!
//! The loop in [`crate::lp::mpc`] never indexes a vector; it only calls these kernels.

mod cpu_normal;
mod cpu_plan;
mod cpu_vectors;
mod dense_column_normal;
#[cfg(test)]
mod dense_column_tests;
pub mod dense_columns;
mod dependent_rows;
mod diagonal_normal;
mod dual_normal;
mod error;
mod gpu_dense_columns;
mod gpu_normal;
mod gpu_side;
mod gpu_vectors;
mod hybrid;
mod limits;
mod mixed;
mod probe;
mod scaled_cholesky;
pub mod shape;
mod sparse_normal;

pub use cpu_normal::{CpuNormal, REPLACED_PIVOT, RETRY_TINY_PIVOT, SPARSE_FACTOR_ADVANTAGE, TINY_PIVOT};
pub use cpu_plan::CpuPlan;
pub use cpu_vectors::{sparse_assembly_pays, CpuVectors, Storage, DENSE_SPEEDUP};
pub use dense_column_normal::{DenseColumnNormal, DOMINATED_PIVOT};
pub use dense_columns::Fallback;
pub(crate) use dependent_rows::dependent_rows_of_valid;
pub use dependent_rows::{dependent_rows, DependentRows, CANDIDATE_PIVOT, DEPENDENCE_TOLERANCE};
pub use diagonal_normal::DiagonalNormal;
pub use dual_normal::{DualNormal, SMALLEST_WEIGHT};
pub use error::{BackendError, GpuFault};
pub use gpu_dense_columns::{GpuDenseColumns, GramFactor, GramOnGpu};
pub use gpu_normal::GpuNormal;
pub use gpu_vectors::GpuVectors;
pub use gpu_side::GpuSide;
pub use hybrid::{
    cost_rule_fires, rule_3_16_fires, rule_3_17_fires, rule_3_18_fires, CpuSide, HybridNormal, Switch,
    COST_RULE_ITERATIONS,
};
pub use limits::{check_gpu_limits, host_bytes, texture_sides};
pub use mixed::{MixedPrecision, MIXED_MAX_REFINEMENTS, MIXED_MIN_ROWS};
pub use probe::{cpu_iteration_estimate, cpu_rate, iteration_flops, probe_device, DeviceProbe, PROBE_M, PROBE_N};

/// What `factor` reports besides success.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FactorInfo {
    /// Pivots replaced because they were tiny or negative (dependent rows of A, or rows whose
    /// columns all have d² → 0); see the implementation's documentation for the replacement.
    pub replaced_pivots: usize,
    /// The factor is of reduced-precision products ([`MixedPrecision`]): it preconditions, and
    /// the loop refines directions to the inexact-Newton target.
    pub inexact: bool,
}

/// Factorizations counted by the normal equations over a solve, for the outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FactorCounts {
    /// Done on the GPU from the first iteration on (Table 4.1's parenthesized count); `None`
    /// without a GPU.
    pub gpu: Option<usize>,
    /// Of reduced-precision products; `None` without mixed precision.
    pub single: Option<usize>,
}

/// The reductions of [`VectorKernels::reduce`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// Σ xᵢ.
    Sum,
    /// ‖x‖∞ (abs-max).
    MaxAbs,
    /// min xᵢ (+∞ for an empty vector).
    Min,
    /// max xᵢ (−∞ for an empty vector).
    Max,
}

/// What [`VectorKernels::normal_product`] returns.
pub struct NormalProduct<T> {
    /// Aᵀ·y.
    pub u: T,
    /// θ ⊙ u − t.
    pub v: T,
    /// A·v, or r − A·v.
    pub av: T,
}

/// What the affine predictor's t = Θ ⊙ ρ is made of besides Aᵀλ:
/// ρ = ((((c − Aᵀλ) − s) + z) + q) − p, each operation in that order (z and p only with upper
/// bounds): the pieces [`VectorKernels::residual_products`] takes.
pub struct PredictorParts<'a, T> {
    pub theta: &'a T,
    pub c: &'a T,
    pub s: &'a T,
    /// z (with upper bounds).
    pub z: Option<&'a T>,
    /// r_xs/x.
    pub q: &'a T,
    /// (r_wz + z ⊙ r_u)/w (with upper bounds).
    pub p: Option<&'a T>,
}

/// What [`VectorKernels::residual_products`] returns.
pub struct ResidualProducts<T> {
    /// A·x.
    pub ax: T,
    /// Aᵀ·y.
    pub aty: T,
    /// The affine predictor's (t, A·t), where the backend fused them into the same read of A.
    pub predictor: Option<(T, T)>,
}

/// The iteration's vectors and the level-1 and level-2 kernels on them.
///
/// Lengths: vectors in the primal space have length n (columns of A), in the dual space m.
/// [`VectorKernels::download`] and [`VectorKernels::upload`] move an iterate between backends.
pub trait VectorKernels {
    /// A vector living on the backend (host memory for the CPU, a texture for the GPU).
    type Vector;

    /// Name shown in the iteration log.
    fn name(&self) -> &str;
    /// (m, n): rows and columns of A.
    fn dims(&self) -> (usize, usize);

    // ---- transfers -------------------------------------------------------------------------
    /// Copies host values into a new backend vector.
    fn upload(&mut self, v: &[f64]) -> Result<Self::Vector, BackendError>;
    /// Copies a backend vector back to the host (full precision of the backend, as f64).
    fn download(&mut self, v: &Self::Vector) -> Result<Vec<f64>, BackendError>;
    /// A vector of length `len` with every entry `value` (scalar broadcast).
    fn fill(&mut self, len: usize, value: f64) -> Result<Self::Vector, BackendError>;
    /// A copy of `x` on the backend (the best iterate is kept this way, without a download).
    fn copy(&mut self, x: &Self::Vector) -> Result<Self::Vector, BackendError>;

    // ---- level 1: saxpy and its variants (single pass) ---------------------------------------
    /// α·x + β·y.
    fn lincomb(
        &mut self,
        alpha: f64,
        x: &Self::Vector,
        beta: f64,
        y: &Self::Vector,
    ) -> Result<Self::Vector, BackendError>;
    /// x + α (scalar added to every entry).
    fn add_scalar(&mut self, x: &Self::Vector, alpha: f64) -> Result<Self::Vector, BackendError>;
    /// x ⊙ y (element-wise product).
    fn mul(&mut self, x: &Self::Vector, y: &Self::Vector) -> Result<Self::Vector, BackendError>;
    /// x ⊘ y (element-wise quotient).
    fn div(&mut self, x: &Self::Vector, y: &Self::Vector) -> Result<Self::Vector, BackendError>;

    // ---- level 1: reductions (multipass on a GPU) --------------------------------------------
    /// xᵀy.
    fn dot(&mut self, x: &Self::Vector, y: &Self::Vector) -> Result<f64, BackendError>;
    /// One reduction of x to a scalar (see [`Reduction`]).
    fn reduce(&mut self, op: Reduction, x: &Self::Vector) -> Result<f64, BackendError>;
    /// Line search: the largest α ∈ [0, 1] with x + α·Δx ≥ 0 (x > 0 assumed), i.e.
    /// min(1, min_{Δxᵢ<0} −xᵢ/Δxᵢ).
    fn max_step(&mut self, x: &Self::Vector, dx: &Self::Vector) -> Result<f64, BackendError>;

    /// Free-variable pairs (x⁺ⱼ, x⁻ⱼ), fixed at construction: where min(x⁺, x⁻) exceeds
    /// κ·(1 + |x⁺ − x⁻|), subtracts the excess from both parts (x = x⁺ − x⁻ and A·x unchanged),
    /// so that x is never the small difference of two huge numbers. κ = `cap`.
    fn recenter_free_pairs(&mut self, x: &Self::Vector, cap: f64) -> Result<Self::Vector, BackendError>;

    // ---- level 2: sgemv with optional vector addition ----------------------------------------
    /// α·A·x + β·y (y of length m; `None` means β·y = 0).
    fn a_mul(
        &mut self,
        alpha: f64,
        x: &Self::Vector,
        add: Option<(f64, &Self::Vector)>,
    ) -> Result<Self::Vector, BackendError>;
    /// α·Aᵀ·y + β·z (z of length n; `None` means β·z = 0).
    fn at_mul(
        &mut self,
        alpha: f64,
        y: &Self::Vector,
        add: Option<(f64, &Self::Vector)>,
    ) -> Result<Self::Vector, BackendError>;

    // ---- level 2, fused: several products in one pass over A ------------------------------------
    /// (A·x, Aᵀ·y): the two products of the residuals — and, given the affine predictor's
    /// parts (see [`PredictorParts`], y = λ), its t and A·t from the same read of A, each bit
    /// for bit what the separate kernels give, where the backend fuses them. Backends that can
    /// read A once override this; the default is the two products and no predictor.
    fn residual_products(
        &mut self,
        x: &Self::Vector,
        y: &Self::Vector,
        parts: Option<&PredictorParts<'_, Self::Vector>>,
    ) -> Result<ResidualProducts<Self::Vector>, BackendError> {
        let _ = parts;
        Ok(ResidualProducts { ax: self.a_mul(1.0, x, None)?, aty: self.at_mul(1.0, y, None)?, predictor: None })
    }

    /// u = Aᵀ·y, v = θ ⊙ u − t (θ ⊙ u without t), and A·v — or, with `r`, r − A·v: the
    /// back-substitution of a normal-equations solution y = Δλ (v = Δx, and the primal error
    /// r_b − A·Δx) and the operator A·Θ·Aᵀ of conjugate gradients (no t, no r). Each entry of v
    /// depends only on the same entry of u, so a backend can read a block of A's columns once for
    /// Aᵀ·y and again, from cache, for A·v; the default is the separate kernels.
    fn normal_product(
        &mut self,
        y: &Self::Vector,
        theta: &Self::Vector,
        t: Option<&Self::Vector>,
        r: Option<&Self::Vector>,
    ) -> Result<NormalProduct<Self::Vector>, BackendError> {
        let u = self.at_mul(1.0, y, None)?;
        let tu = self.mul(theta, &u)?;
        let v = match t {
            Some(t) => self.lincomb(1.0, &tu, -1.0, t)?,
            None => tu,
        };
        let av = match r {
            Some(r) => self.a_mul(-1.0, &v, Some((1.0, r)))?,
            None => self.a_mul(1.0, &v, None)?,
        };
        Ok(NormalProduct { u, v, av })
    }

    /// Unit roundoff of the vector arithmetic (2⁻⁵³ for double precision, 2⁻²⁴ on the GPU):
    /// the loop does not read stagnation as infeasibility in single precision.
    fn unit_roundoff(&self) -> f64 {
        f64::EPSILON / 2.0
    }

    /// Gondzio's centrality target for complementarity products v: t = P(v) − v, where P
    /// projects each entry onto [lo, hi], and entries of t below −hi are raised to −hi (so that
    /// one very large product does not dominate the corrector). `None` when the backend has no
    /// such kernel: the loop then takes no centrality correctors (the GPU backends, whose
    /// results thus stay those of the papers' method).
    fn centrality_target(&mut self, v: &Self::Vector, lo: f64, hi: f64) -> Result<Option<Self::Vector>, BackendError> {
        let _ = (v, lo, hi);
        Ok(None)
    }
}

/// The normal equations A·D²·Aᵀ·u = r of one iteration, over the vectors of `V`.
pub trait NormalEquations<V: VectorKernels> {
    /// Who solves them, for the iteration log (the hybrid policy names its current side).
    fn name(&self) -> &str;
    /// Forms A·D²·Aᵀ from the diagonal d² (length n), replacing any previous one and
    /// invalidating the factorization.
    fn assemble(&mut self, vk: &mut V, d2: &V::Vector) -> Result<(), BackendError>;
    /// Cholesky-factors the assembled matrix.
    fn factor(&mut self, vk: &mut V) -> Result<FactorInfo, BackendError>;
    /// Solves A·D²·Aᵀ·u = r with the current factor.
    fn solve(&mut self, vk: &mut V, r: &V::Vector) -> Result<V::Vector, BackendError>;
    /// Called at the start of every iteration with the complementarity measure μ (the hybrid
    /// policy's rule (3.18) needs it). Default: nothing.
    fn begin_iteration(&mut self, _k: usize, _mu: f64) {}
    /// Exact (double-precision) matrices from the next assembly on; `true` when that changes
    /// anything (the current factor was inexact, or later ones would have been).
    fn require_exact(&mut self) -> bool {
        false
    }
    /// The factorizations counted so far. Default: none counted.
    fn counts(&self) -> FactorCounts {
        FactorCounts::default()
    }
}

/// Normal equations chosen at run time (the cpu backend's by A's shape: [`CpuPlan`]).
impl<V: VectorKernels, T: NormalEquations<V> + ?Sized> NormalEquations<V> for Box<T> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn assemble(&mut self, vk: &mut V, d2: &V::Vector) -> Result<(), BackendError> {
        (**self).assemble(vk, d2)
    }
    fn factor(&mut self, vk: &mut V) -> Result<FactorInfo, BackendError> {
        (**self).factor(vk)
    }
    fn solve(&mut self, vk: &mut V, r: &V::Vector) -> Result<V::Vector, BackendError> {
        (**self).solve(vk, r)
    }
    fn begin_iteration(&mut self, k: usize, mu: f64) {
        (**self).begin_iteration(k, mu)
    }
    fn require_exact(&mut self) -> bool {
        (**self).require_exact()
    }
    fn counts(&self) -> FactorCounts {
        (**self).counts()
    }
}
