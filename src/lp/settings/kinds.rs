//! The named choices of the settings: which backend, where the GPU's substitutions run, the
//! stopping rule, how a sparse A·D²·Aᵀ is factored. Each has one list of names ([`Named`]) that
//! its `FromStr` and `Display`, the command line, the browser page and Python all use.

use crate::names::{by_name, Named};

/// Which implementation of the normal-equations kernels the MPC loop runs on.
///
/// Chosen by an enum, not a string, so that a misspelt backend is a compile or parse error.
/// The library's default is `Cpu`: it needs no GL driver and gives double-precision answers.
/// `Auto` (the command line's default for `solve FILE`) picks `Cpu` or `Hybrid` per problem and
/// per device ([`crate::lp::auto`]); the default job shows `Hybrid`, the 2008 paper's method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum BackendKind {
    /// Double precision, dense, faer (multi-threaded BLAS-3 assembly and Cholesky).
    #[default]
    Cpu,
    /// Every kernel in single precision on the GL pipeline (2006 paper): A uploaded once,
    /// vectors in textures, only scalars read back.
    Gpu,
    /// The 2008 IPM paper's Algorithm 2: vectors in double precision on the CPU; the normal
    /// equations assembled, factored and solved on the GPU until a switching rule (3.16)–(3.18)
    /// fires, in double precision on the CPU from then on.
    Hybrid,
    /// `Cpu` or `Hybrid`, whichever this problem on this device is expected to finish sooner
    /// (both answer in double precision at the same ε): small or sparse problems, software
    /// rasterizers and textures too small go to `Cpu` without a probe; otherwise a short probe
    /// of the context against the CPU, cached per device for the process, decides
    /// ([`crate::lp::auto`]). The solution names the backend that ran and why.
    Auto,
}

impl BackendKind {
    /// The backends that run a solve themselves (`Auto` chooses one of them).
    pub const ALL: &'static [BackendKind] = &[BackendKind::Cpu, BackendKind::Gpu, BackendKind::Hybrid];

    /// The name used on the command line and in the log.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Cpu => "cpu",
            BackendKind::Gpu => "gpu",
            BackendKind::Hybrid => "hybrid",
            BackendKind::Auto => "auto",
        }
    }

    /// Whether the backend needs a GL context (`Auto` makes one only when its problem needs
    /// the device's facts, see [`crate::lp::auto`]).
    pub fn uses_gl(self) -> bool {
        matches!(self, BackendKind::Gpu | BackendKind::Hybrid)
    }
}

impl Named for BackendKind {
    const WHAT: &'static str = "backend";
    fn all() -> &'static [Self] {
        &[BackendKind::Auto, BackendKind::Cpu, BackendKind::Hybrid, BackendKind::Gpu]
    }
    fn name(self) -> &'static str {
        BackendKind::name(self)
    }
    fn description(self) -> &'static str {
        match self {
            BackendKind::Auto => {
                "cpu or hybrid, whichever this problem on this GL device should finish sooner (small, sparse or \
                 software-rendered: cpu; otherwise a short probe decides); the log says which and why"
            }
            BackendKind::Cpu => "double precision, dense or sparse, faer",
            BackendKind::Gpu => "every kernel in single precision on the GL pipeline (2006 paper)",
            BackendKind::Hybrid => {
                "GPU normal equations while trustworthy, CPU double precision after (2008 Algorithm 2)"
            }
        }
    }
}
by_name!(BackendKind);

/// Where the triangular solves of the GPU backends run (2008 IPM paper Table 4.1's two columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Substitution {
    /// Read the factor back once per factorization and substitute on the CPU ("CPU subst."):
    /// faster, as the paper's Figure 4.1 and our `bench solve` show, but the right-hand sides
    /// and solutions then cross between GPU and CPU.
    Cpu,
    /// Forward and back substitution as passes on the GPU ("GPU subst."): the default, which
    /// keeps the `gpu` backend's vectors in textures from the first iteration to the last.
    #[default]
    Gpu,
}

impl Named for Substitution {
    const WHAT: &'static str = "substitution";
    fn all() -> &'static [Self] {
        &[Substitution::Gpu, Substitution::Cpu]
    }
    fn name(self) -> &'static str {
        match self {
            Substitution::Cpu => "cpu",
            Substitution::Gpu => "gpu",
        }
    }
    fn description(self) -> &'static str {
        match self {
            Substitution::Cpu => "read the factor back and substitute on the CPU (2008 Table 4.1 \"CPU subst.\")",
            Substitution::Gpu => "substitute with passes on the GPU (\"GPU subst.\")",
        }
    }
}
by_name!(Substitution);

/// The loop's termination test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum StoppingRule {
    /// The 2006 paper's (6.1)–(6.3): ‖r_b‖∞/(1 + ‖b‖∞) ≤ ε, ‖r_c‖∞/(1 + ‖c‖∞) ≤ ε and
    /// |cᵀx − bᵀλ|/(1 + |cᵀx|) ≤ ε, each on its own.
    #[default]
    Separate,
    /// The 2008 IPM paper's (3.15): max{max(‖r_b‖∞, ‖r_c‖∞)/max(‖b‖∞, ‖c‖∞, ‖A‖∞),
    /// |cᵀx − bᵀλ|/(1 + |cᵀx|)} ≤ ε — residuals relative to the largest of the data's norms.
    Combined315,
}

impl StoppingRule {
    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            StoppingRule::Separate => "6.1-6.3",
            StoppingRule::Combined315 => "3.15",
        }
    }
}

impl Named for StoppingRule {
    const WHAT: &'static str = "stopping rule";
    fn all() -> &'static [Self] {
        &[StoppingRule::Separate, StoppingRule::Combined315]
    }
    fn name(self) -> &'static str {
        StoppingRule::name(self)
    }
    fn description(self) -> &'static str {
        match self {
            StoppingRule::Separate => {
                "(6.1)–(6.3): primal and dual residuals and the gap, each relative to its own data"
            }
            StoppingRule::Combined315 => "(3.15): the residuals relative to max(‖b‖∞, ‖c‖∞, ‖A‖∞), and the gap",
        }
    }
}
by_name!(StoppingRule);

/// How the cpu backend factors A·D²·Aᵀ when it holds A sparse (dense A is factored dense).
/// Only `Auto` lets the backend take a shaped path (the dense block plus a diagonal, the
/// smaller side, the dense columns' Schur complement): `Dense` and `Sparse` name the full m×m
/// matrix's factorization, and the log says which shape was passed over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum NormalFactorization {
    /// Sparse when the analysis (AMD ordering, supernodes) predicts
    /// `lp::backend::SPARSE_FACTOR_ADVANTAGE` times fewer multiply-adds than the dense
    /// factorization's m³/6, dense otherwise.
    #[default]
    Auto,
    /// Always the dense m×m matrix and blocked Cholesky.
    Dense,
    /// Always the sparse matrix and supernodal Cholesky.
    Sparse,
}

impl Named for NormalFactorization {
    const WHAT: &'static str = "factorization";
    fn all() -> &'static [Self] {
        &[NormalFactorization::Auto, NormalFactorization::Dense, NormalFactorization::Sparse]
    }
    fn name(self) -> &'static str {
        match self {
            NormalFactorization::Auto => "auto",
            NormalFactorization::Dense => "dense",
            NormalFactorization::Sparse => "sparse",
        }
    }
    fn description(self) -> &'static str {
        match self {
            NormalFactorization::Auto => "sparse when its predicted work is well below the dense factorization's",
            NormalFactorization::Dense => "always the dense m×m matrix and blocked Cholesky",
            NormalFactorization::Sparse => "always the sparse matrix and supernodal Cholesky",
        }
    }
}
by_name!(NormalFactorization);
