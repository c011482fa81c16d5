//! The kernels the MPC loop is written over (2006 paper, section 4: level 1, 2 and 3 kernels).
//!
//! A backend owns the standard-form matrix A (dense m×n, uploaded once at construction) and the
//! vectors of the iteration ([`NormalEquationsBackend::Vector`]). On a GPU those vectors are
//! textures: only scalars (dot products, norms, minima, step lengths) come back to the CPU. The
//! loop in [`crate::lp::mpc`] therefore never indexes a vector; it only calls these kernels.
//! [`NormalEquationsBackend::download`] and [`NormalEquationsBackend::upload`] exist so that the
//! iterate can be moved between backends (a hybrid solver switching precision mid-solve).

use thiserror::Error;

/// A failure inside a backend kernel.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum BackendError {
    /// Cholesky broke down: the pivot of column `column` was not positive (or not finite) even
    /// after the tiny-pivot treatment.
    #[error("Cholesky factorization of A·D²·Aᵀ broke down at pivot {column} (value {pivot:e})")]
    Factorization { column: usize, pivot: f64 },
    /// `solve` was called before a successful `factor`.
    #[error("solve called without a valid factorization")]
    NotFactored,
    /// Operands of incompatible lengths (a programming error in the caller, reported not panicked).
    #[error("dimension mismatch in {op}: expected {expected}, got {got}")]
    Dimension { op: &'static str, expected: usize, got: usize },
    /// A backend-specific failure that is not a GPU fault.
    #[error("{0}")]
    Device(String),
    /// A fault of the GL driver or device, classified so that callers (and tests) can tell
    /// which one happened; `detail` is the driver's message.
    #[error("GPU fault ({}): {detail}", kind.name())]
    Gpu { kind: GpuFault, detail: String },
}

/// The GL faults the LP backends detect and report (the hybrid backend continues on the CPU
/// after any of them; the gpu backend stops with a status or an error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum GpuFault {
    /// A texture would exceed GL_MAX_TEXTURE_SIZE (e.g. A has more columns than the limit).
    TextureTooLarge,
    /// A kernel failed to compile or link.
    ShaderFailure,
    /// Float render targets are unavailable.
    FloatTargets,
    /// The context was lost (GL_CONTEXT_LOST from glGetError, or a reset reported by
    /// glGetGraphicsResetStatus).
    ContextLost,
    /// A value read back from the GPU was NaN or infinite.
    NonFinite,
    /// Any other driver error.
    Driver,
}

impl GpuFault {
    pub fn name(self) -> &'static str {
        match self {
            GpuFault::TextureTooLarge => "texture too large",
            GpuFault::ShaderFailure => "shader failure",
            GpuFault::FloatTargets => "no float render targets",
            GpuFault::ContextLost => "context lost",
            GpuFault::NonFinite => "NaN/Inf read back",
            GpuFault::Driver => "driver error",
        }
    }

    /// Classifies a GL-layer error.
    pub fn of(e: &crate::gl::GlError) -> Self {
        use crate::gl::GlError as G;
        match e {
            G::TextureTooLarge { .. } => GpuFault::TextureTooLarge,
            G::ShaderCompile { .. } | G::ShaderLink { .. } => GpuFault::ShaderFailure,
            G::FloatTargetUnsupported { .. } => GpuFault::FloatTargets,
            G::ContextLost { .. } => GpuFault::ContextLost,
            _ => GpuFault::Driver,
        }
    }
}

/// Faults a test can inject into the GPU backends on purpose (never set by the CLI), so that
/// each failure path is exercised on a healthy driver: see [`crate::lp::Settings::gpu_fault`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultInjection {
    /// A NaN is written into the first entry of a texture the GPU computes with: the gpu
    /// backend's right-hand side b, the hybrid backend's D².
    NanInTexture,
    /// A kernel that does not compile is requested when the backend is set up.
    BrokenKernel,
    /// The context reports itself lost after the first factorization.
    ContextLost,
}

/// What `factor` reports besides success.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FactorInfo {
    /// Pivots replaced because they were tiny or negative (dependent rows of A, or rows whose
    /// columns all have d² → 0); see the backend's documentation for the replacement value.
    pub replaced_pivots: usize,
}

/// The papers' kernels for one normal-equations interior-point iteration.
///
/// Lengths: vectors in the primal space have length n (columns of A), in the dual space m.
pub trait NormalEquationsBackend {
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
    /// Σ xᵢ.
    fn sum(&mut self, x: &Self::Vector) -> Result<f64, BackendError>;
    /// ‖x‖∞ (abs-max reduction).
    fn norm_inf(&mut self, x: &Self::Vector) -> Result<f64, BackendError>;
    /// min xᵢ (+∞ for an empty vector).
    fn min(&mut self, x: &Self::Vector) -> Result<f64, BackendError>;
    /// max xᵢ (−∞ for an empty vector).
    fn max(&mut self, x: &Self::Vector) -> Result<f64, BackendError>;
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

    // ---- level 3: adat and chol; level 2: substitutions --------------------------------------
    /// Forms the normal matrix A·D²·Aᵀ from the diagonal d² (length n), replacing any previous
    /// one and invalidating the factorization.
    fn assemble(&mut self, d2: &Self::Vector) -> Result<(), BackendError>;
    /// Cholesky-factors the assembled matrix in place.
    fn factor(&mut self) -> Result<FactorInfo, BackendError>;
    /// Solves A·D²·Aᵀ·u = r with the current factor (forward and back substitution).
    fn solve(&mut self, r: &Self::Vector) -> Result<Self::Vector, BackendError>;

    // ---- bookkeeping -------------------------------------------------------------------------
    /// Unit roundoff of the backend's vector arithmetic (2⁻⁵³ for double precision, 2⁻²⁴ on the
    /// GPU): the loop does not read stagnation as infeasibility in single precision.
    fn unit_roundoff(&self) -> f64 {
        f64::EPSILON / 2.0
    }
    /// Called at the start of every iteration with the complementarity measure μ (the hybrid
    /// backend's rule (3.18) needs it). Default: nothing.
    fn begin_iteration(&mut self, _k: usize, _mu: f64) {}
    /// Factorizations done on the GPU so far (Table 4.1's parenthesized iteration count); `None`
    /// for backends without a GPU.
    fn gpu_factorizations(&self) -> Option<usize> {
        None
    }
}
