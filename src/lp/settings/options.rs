//! What each backend can be told, and nothing it would ignore: [`Backend`] holds, per backend,
//! exactly the options that backend reads.

use super::kinds::{BackendKind, NormalFactorization, Substitution};
use crate::cpu::paths::CpuPaths;
use crate::gl::GlApi;
use crate::gpu::cholesky::Variant;
use crate::layout::Format;
use crate::lp::hybrid_rules::HybridRules;

/// The cpu backend's normal equations (also `auto`'s, when it chooses the cpu backend).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuOptions {
    /// With dense A of at least 256 rows: form the early iterations' A·D²·Aᵀ with
    /// reduced-precision products (bf16 pairs on AMX tiles where the CPU and the operating
    /// system allow them, about three times as fast; elsewhere single precision, twice as fast)
    /// and refine every direction in double precision against the exact operator, switching to
    /// double-precision products for good when the refinement stops paying (see
    /// `lp::backend::MixedPrecision`); from then on only the columns whose weights have
    /// fallen far below the others' are summed in reduced precision, their error at most the
    /// f64 sum's own error bound on the diagonal (`cpu::products::split_columns`). The
    /// answer is verified in double precision either way.
    pub mixed_precision: bool,
    /// With sparse A: how A·D²·Aᵀ is factored (see [`NormalFactorization`]).
    pub factorization: NormalFactorization,
}

impl Default for CpuOptions {
    fn default() -> Self {
        Self { mixed_precision: true, factorization: NormalFactorization::Auto }
    }
}

/// The GPU side of the `gpu` and `hybrid` backends (and `auto`'s, when it chooses hybrid): how
/// A·D²·Aᵀ is stored, factored and solved, and the context made for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuOptions {
    /// The Cholesky variant of the normal equations, which also decides the layout of every GPU
    /// vector and kernel. Default: the fastest verified one ([`Variant::FASTEST`], tiled-16);
    /// any of the papers' variants can be chosen to run the LP as the papers did.
    pub variant: Variant,
    /// Storage of A·D²·Aᵀ for the 2008 papers' variant ([`Variant::PAPER`], triangle-pair),
    /// the only one with a choice: packed (`None`, the papers') or full. The other papers'
    /// variants store it in full and the blocked and tiled ones in their own blocks, so giving
    /// a format with them is a [`super::SettingsError::NormalFormat`].
    pub normal_format: Option<Format>,
    /// Where the triangular solves run.
    pub substitution: Substitution,
    /// Blocked variants: columns of A per assembly pass (`usize::MAX`: one pass; at least 1).
    pub assembly_columns: usize,
    /// A pivot at or below this fraction of its original diagonal entry is rounding noise in
    /// single precision and is replaced by a huge one (the row drops out). In (0, 1).
    pub pivot_tolerance: f64,
    /// Which OpenGL the context made for a solve speaks: desktop OpenGL where the driver offers
    /// it, else OpenGL ES (`Auto`), or one of them only. A context given to
    /// [`crate::lp::solve_on`] is used as it is.
    pub gl: GlApi,
}

impl Default for GpuOptions {
    fn default() -> Self {
        Self {
            variant: Variant::FASTEST,
            normal_format: None,
            substitution: Substitution::Gpu,
            assembly_columns: usize::MAX,
            pivot_tolerance: 1e-6,
            gl: GlApi::Auto,
        }
    }
}

impl GpuOptions {
    /// The storage of A·D²·Aᵀ these options give: the chosen (or packed) format for the 2008
    /// papers' variant, full for the others (the blocked variants' 2×2 blocks ignore it).
    pub fn format(&self) -> Format {
        if self.variant == Variant::PAPER {
            self.normal_format.unwrap_or(Format::Packed)
        } else {
            Format::Full
        }
    }
}

/// A backend with its options: each variant holds what that backend reads, and nothing else.
#[derive(Clone, Debug, PartialEq)]
pub enum Backend {
    /// Double precision on the CPU.
    Cpu {
        /// The cpu backend's options.
        cpu: CpuOptions,
        /// The code of the CPU's products, factorization and joins (hand-written kernels or
        /// library calls; see `CpuPaths`).
        paths: CpuPaths,
    },
    /// Every kernel in single precision on the GPU.
    Gpu {
        /// The GPU kernels' options.
        gpu: GpuOptions,
        /// One preconditioned conjugate-gradient step on each Newton direction against the
        /// primal equation A·Δx = r_b, with the same factor. Without it the primal residual
        /// drifts once D² spans many orders of magnitude and single precision stalls a few
        /// digits short of ε; `false` runs the 2006 paper's method as published (the NETLIB
        /// Table 3 setups do). The double-precision backends always refine.
        refinement: bool,
    },
    /// The GPU's normal equations while the switching rules allow, the CPU's after.
    Hybrid {
        /// The GPU kernels' options.
        gpu: GpuOptions,
        /// When the solve leaves the GPU.
        rules: HybridRules,
        /// The code of the CPU side's products and factorization.
        paths: CpuPaths,
    },
    /// `Cpu` or `Hybrid`, chosen per problem and device: the options of both.
    Auto {
        /// The options if `cpu` is chosen.
        cpu: CpuOptions,
        /// The GPU kernels' options if `hybrid` is chosen.
        gpu: GpuOptions,
        /// The switching rules if `hybrid` is chosen.
        rules: HybridRules,
        /// The code of the CPU's products and factorization, either way.
        paths: CpuPaths,
    },
}

impl Backend {
    /// `kind` with its default options.
    pub fn defaults(kind: BackendKind) -> Backend {
        let (cpu, gpu, rules, paths) =
            (CpuOptions::default(), GpuOptions::default(), HybridRules::default(), CpuPaths::default());
        match kind {
            BackendKind::Cpu => Backend::Cpu { cpu, paths },
            BackendKind::Gpu => Backend::Gpu { gpu, refinement: true },
            BackendKind::Hybrid => Backend::Hybrid { gpu, rules, paths },
            BackendKind::Auto => Backend::Auto { cpu, gpu, rules, paths },
        }
    }

    /// Which backend this is.
    pub fn kind(&self) -> BackendKind {
        match self {
            Backend::Cpu { .. } => BackendKind::Cpu,
            Backend::Gpu { .. } => BackendKind::Gpu,
            Backend::Hybrid { .. } => BackendKind::Hybrid,
            Backend::Auto { .. } => BackendKind::Auto,
        }
    }

    /// The cpu backend's options (`cpu` and `auto`).
    pub fn cpu(&self) -> Option<&CpuOptions> {
        match self {
            Backend::Cpu { cpu, .. } | Backend::Auto { cpu, .. } => Some(cpu),
            _ => None,
        }
    }

    /// The GPU side's options (`gpu`, `hybrid` and `auto`).
    pub fn gpu(&self) -> Option<&GpuOptions> {
        match self {
            Backend::Gpu { gpu, .. } | Backend::Hybrid { gpu, .. } | Backend::Auto { gpu, .. } => Some(gpu),
            Backend::Cpu { .. } => None,
        }
    }

    /// The switching rules (`hybrid` and `auto`).
    pub fn rules(&self) -> Option<&HybridRules> {
        match self {
            Backend::Hybrid { rules, .. } | Backend::Auto { rules, .. } => Some(rules),
            _ => None,
        }
    }

    /// The CPU paths (every backend with double-precision vectors: all but `gpu`).
    pub fn paths(&self) -> Option<&CpuPaths> {
        match self {
            Backend::Cpu { paths, .. } | Backend::Hybrid { paths, .. } | Backend::Auto { paths, .. } => Some(paths),
            Backend::Gpu { .. } => None,
        }
    }

    /// Whether the `gpu` backend refines its directions (`None` for the others).
    pub fn refinement(&self) -> Option<bool> {
        match self {
            Backend::Gpu { refinement, .. } => Some(*refinement),
            _ => None,
        }
    }
}
