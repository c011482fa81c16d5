//! The hybrid backend's switching rules: the 2008 IPM paper's (3.16)–(3.18) and a cost rule.

/// The hybrid backend's switching rules: the 2008 IPM paper's (3.16)–(3.18) with the paper's
/// thresholds, and the cost rule ([`HybridRules::papers`] leaves it out).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HybridRules {
    /// θ_r of (3.16): switch when ‖r − A·D²·Aᵀ·Δλ‖/‖r‖ ≥ θ_r for a GPU solution.
    pub theta_r: f64,
    /// ε_d of (3.17): switch when more than n − m entries of D² fall below ε_d.
    pub eps_d: f64,
    /// θ_d of (3.18): the entries of D² above μ·θ_d are the diverging ones …
    pub theta_d: f64,
    /// … and θ_a bounds their spread max/min before switching.
    pub theta_a: f64,
    /// The cost rule beside the paper's: switch when a GPU iteration costs more than the CPU's
    /// estimated one by a factor. `None` runs the paper's rules alone (the papers' setups).
    pub cost: Option<CostRule>,
}

/// The hybrid backend's cost rule: a GPU iteration of `t_gpu` seconds (assembly,
/// factorization and solves of the normal equations) is too slow when `t_gpu ≥ min_seconds` and
/// `t_gpu > factor · t_cpu`, where `t_cpu` is what the hybrid backend's CPU side would take
/// (`lp::backend::cpu_iteration_estimate`: the dense work m²n + m³/3 at the CPU's
/// measured rate); after `lp::backend::COST_RULE_ITERATIONS` such iterations in a row
/// the solve leaves the GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostRule {
    /// A GPU iteration slower than `factor` times the CPU side's estimate counts toward a switch.
    pub factor: f64,
    /// GPU iterations shorter than this never switch: the rule is for minutes lost, not
    /// milliseconds (a small problem's GPU iteration is pass overhead, whatever the CPU's).
    pub min_seconds: f64,
}

impl Default for CostRule {
    fn default() -> Self {
        Self { factor: 3.0, min_seconds: 0.2 }
    }
}

impl HybridRules {
    /// The paper's rules alone, as its experiments ran (no cost rule).
    pub fn papers() -> Self {
        Self { cost: None, ..Self::default() }
    }
}

impl Default for HybridRules {
    /// The paper's thresholds and the cost rule.
    fn default() -> Self {
        Self { theta_r: 1e-2, eps_d: 1e-4, theta_d: 1e3, theta_a: 1e5, cost: Some(CostRule::default()) }
    }
}
