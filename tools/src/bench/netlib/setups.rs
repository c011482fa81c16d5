//! The configurations the NETLIB tables run: each column of a table is a [`Setup`], and each run
//! records the [`Config`] its solver was actually given.

use glsolve::lp::settings::PAPERS_STEP_FACTOR;
use glsolve::lp::{BackendKind, GpuOptions, HybridRules, Settings, SettingsError, StoppingRule, Substitution};
use glsolve::Domain;
use glsolve::Format;
use glsolve::IndexSource;
use glsolve::Variant;

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
    /// The configuration `st` gives (its GPU options for the GPU backends only).
    pub fn of(st: &Settings) -> Config {
        let gpu = st.gpu().filter(|_| st.backend().uses_gl());
        Config {
            backend: st.backend(),
            variant: gpu.map(|g| g.variant),
            format: gpu.map(|g| g.format()),
            substitution: gpu.map(|g| g.substitution),
            stopping: st.stopping(),
            gpu_refinement: st.gpu_refinement(),
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
    /// The settings of a run at tolerance `eps` (an ε the backend refuses is the error).
    pub fn settings(&self, eps: f64) -> Result<Settings, SettingsError> {
        let paper = self.variant.is_paper();
        let mut b = Settings::builder(self.backend).tolerance(eps).stopping(self.stopping);
        if paper {
            // The papers' variants run the papers' method: their fixed step fraction.
            b = b.step_factor(PAPERS_STEP_FACTOR).long_step_factor(None);
        }
        if self.backend.uses_gl() {
            let normal_format = (self.variant == Variant::PAPER).then_some(Format::Packed);
            b = b.gpu(GpuOptions {
                variant: self.variant,
                substitution: self.substitution,
                normal_format,
                ..GpuOptions::default()
            });
        }
        match self.backend {
            // The papers' tables: the hybrid backend switches by the paper's rules only.
            BackendKind::Hybrid => b = b.hybrid_rules(HybridRules::papers()),
            // The papers' variants run the papers' method; the blocked default refines.
            BackendKind::Gpu => b = b.gpu_refinement(!paper),
            _ => {}
        }
        b.build()
    }

    /// The configuration its runs record (at the backend's own ε, which every backend takes).
    pub fn config(&self) -> Config {
        match self.settings(Settings::default_tolerance(self.backend)) {
            Ok(st) => Config::of(&st),
            Err(_) => Config {
                backend: self.backend,
                variant: None,
                format: None,
                substitution: None,
                stopping: self.stopping,
                gpu_refinement: None,
            },
        }
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

/// Beyond the papers: the solver's defaults (GPU substitution, (6.1)–(6.3)) with the blocked
/// kernels, blocked-16, named rather than `Variant::FASTEST`: the label is the runs' key in
/// docs/bench/netlib.json, measured with blocked-16 (the LP's default is tiled-16 since).
pub const DEFAULT_SETUPS: [Setup; 2] = [
    Setup {
        label: "hybrid, blocked (default)",
        backend: BackendKind::Hybrid,
        variant: Variant::Blocked(glsolve::Block::B16),
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
