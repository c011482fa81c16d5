//! The configurations the NETLIB tables run: each column of a table is a [`Setup`], and each run
//! records the [`Config`] its solver was actually given.

use crate::gpu::cholesky::{Domain, IndexSource, Variant};
use crate::layout::Format;
use crate::lp::settings::PAPERS_STEP_FACTOR;
use crate::lp::{BackendKind, HybridRules, Settings, StoppingRule, Substitution};

/// What a solve was run with (recorded from the settings the solver got).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Config {
    pub backend: BackendKind,
    /// The GPU Cholesky variant (GPU backends).
    pub variant: Option<Variant>,
    /// Storage of the papers' variant's normal matrix (GPU backends).
    pub format: Option<Format>,
    pub substitution: Option<Substitution>,
    pub stopping: StoppingRule,
    /// gpu backend: whether its single-precision directions were refined.
    #[serde(default)]
    pub gpu_refinement: Option<bool>,
}

impl Config {
    /// The configuration `st` gives (what the GPU backends use of it only for them).
    pub fn of(st: &Settings) -> Config {
        let gl = st.backend.uses_gl();
        let format = if st.gpu_variant == Variant::PAPER { st.normal_format } else { Format::Full };
        Config {
            backend: st.backend,
            variant: gl.then_some(st.gpu_variant),
            format: gl.then_some(format),
            substitution: gl.then_some(st.substitution),
            stopping: st.stopping,
            gpu_refinement: (st.backend == BackendKind::Gpu).then_some(st.gpu_refinement),
        }
    }

    /// What a table heading says about it.
    pub fn describe(&self) -> String {
        let mut parts = vec![self.backend.name().to_string()];
        if let Some(v) = self.variant {
            parts.push(v.name().to_string());
        }
        if let Some(f) = self.format.filter(|_| self.variant == Some(Variant::PAPER)) {
            parts.push(f.name().to_string());
        }
        if let Some(s) = self.substitution {
            parts.push(match s {
                Substitution::Gpu => "GPU subst.".into(),
                Substitution::Cpu => "CPU subst.".into(),
            });
        }
        parts.push(format!("stop ({})", self.stopping.name()));
        if let Some(r) = self.gpu_refinement {
            parts.push(if r { "refined directions" } else { "no refinement (the paper's method)" }.into());
        }
        parts.join(", ")
    }
}

/// A column of a table: its label and the settings its runs use (the tolerance aside).
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    pub label: &'static str,
    pub backend: BackendKind,
    pub variant: Variant,
    pub substitution: Substitution,
    pub stopping: StoppingRule,
}

impl Setup {
    /// The settings of a run at tolerance `eps`.
    pub fn settings(&self, eps: f64) -> Settings {
        Settings {
            backend: self.backend,
            tolerance: eps,
            gpu_variant: self.variant,
            substitution: self.substitution,
            stopping: self.stopping,
            normal_format: Format::Packed,
            // The papers' tables: the hybrid backend switches by the paper's rules only.
            hybrid: HybridRules::papers(),
            // The papers' variants run the papers' method; the blocked default refines.
            gpu_refinement: !self.variant.is_paper(),
            step_factor: if self.variant.is_paper() {
                PAPERS_STEP_FACTOR
            } else {
                Settings::default_step_factor(self.backend)
            },
            long_step_factor: if self.variant.is_paper() {
                None
            } else {
                Settings::default_long_step_factor(self.backend)
            },
            ..Settings::default()
        }
    }

    pub fn config(&self) -> Config {
        Config::of(&self.settings(1e-8))
    }
}

const SQUARE: Variant = Variant::Outer { domain: Domain::Square, index: IndexSource::Pair };

/// Table 4.1 as the 2008 IPM paper ran it: the packed triangle-pair variant, GPU or CPU
/// substitution, the stopping rule (3.15), ε = 1e-8; and the double-precision solver.
pub const TABLE41_SETUPS: [Setup; 3] = [
    Setup {
        label: "hybrid, GPU subst.",
        backend: BackendKind::Hybrid,
        variant: Variant::PAPER,
        substitution: Substitution::Gpu,
        stopping: StoppingRule::Combined315,
    },
    Setup {
        label: "hybrid, CPU subst.",
        backend: BackendKind::Hybrid,
        variant: Variant::PAPER,
        substitution: Substitution::Cpu,
        stopping: StoppingRule::Combined315,
    },
    Setup {
        label: "cpu",
        backend: BackendKind::Cpu,
        variant: Variant::PAPER,
        substitution: Substitution::Cpu,
        stopping: StoppingRule::Combined315,
    },
];

/// Table 3 as the 2006 paper ran it (the square-domain update, substitution on the GPU, its ε
/// per problem, its stopping rule (6.1)–(6.3)), then the triangle and inner-product variants the
/// same way, and the square variant with CPU substitution, labelled as such.
pub const TABLE3_SETUPS: [Setup; 4] = [
    Setup {
        label: "gpu, square",
        backend: BackendKind::Gpu,
        variant: SQUARE,
        substitution: Substitution::Gpu,
        stopping: StoppingRule::Separate,
    },
    Setup {
        label: "gpu, triangle",
        backend: BackendKind::Gpu,
        variant: Variant::PAPER,
        substitution: Substitution::Gpu,
        stopping: StoppingRule::Separate,
    },
    Setup {
        label: "gpu, inner",
        backend: BackendKind::Gpu,
        variant: Variant::Inner,
        substitution: Substitution::Gpu,
        stopping: StoppingRule::Separate,
    },
    Setup {
        label: "gpu, square, CPU subst.",
        backend: BackendKind::Gpu,
        variant: SQUARE,
        substitution: Substitution::Cpu,
        stopping: StoppingRule::Separate,
    },
];

/// Beyond the papers: the solver's defaults (blocked kernels, GPU substitution, (6.1)–(6.3)).
pub const DEFAULT_SETUPS: [Setup; 2] = [
    Setup {
        label: "hybrid, blocked (default)",
        backend: BackendKind::Hybrid,
        variant: Variant::FASTEST,
        substitution: Substitution::Gpu,
        stopping: StoppingRule::Separate,
    },
    Setup {
        label: "cpu (default)",
        backend: BackendKind::Cpu,
        variant: Variant::FASTEST,
        substitution: Substitution::Gpu,
        stopping: StoppingRule::Separate,
    },
];

/// Every setup a run may carry, by label.
pub fn setup(label: &str) -> Option<Setup> {
    TABLE41_SETUPS.into_iter().chain(TABLE3_SETUPS).chain(DEFAULT_SETUPS).find(|s| s.label == label)
}
