//! The outcome of a solve.

/// Why the solver stopped. Every status except [`Status::Optimal`] makes the CLI exit non-zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Status {
    /// The termination tests (6.1)–(6.3) hold: relative primal residual, relative dual residual
    /// and relative duality gap are all below the tolerance.
    Optimal,
    /// A Farkas certificate was found: a dual ray λ with bᵀλ > 0 and Aᵀλ ≤ 0 (within the
    /// infeasibility tolerance); or the primal residual stalls while μ → 0 (see
    /// `mpc::stalled_residual`); or a presolve proof (an empty row with a non-zero right-hand
    /// side, contradictory bounds).
    PrimalInfeasible,
    /// A primal ray z ≥ 0 with A·z ≈ 0 and cᵀz < 0 was found (the dual is infeasible; if the
    /// primal is feasible it is unbounded); or the dual residual stalls while μ → 0; or
    /// presolve found a column that can improve the objective without limit.
    DualInfeasible,
    /// The iteration limit was reached before any test above held.
    IterationLimit,
    /// The normal equations could not be factored or solved, an iterate became non-finite, or
    /// both step lengths collapsed (no progress is possible in floating point).
    NumericalFailure,
}

impl Status {
    /// Short name for logs and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::PrimalInfeasible => "primal infeasible",
            Status::DualInfeasible => "dual infeasible (unbounded)",
            Status::IterationLimit => "iteration limit",
            Status::NumericalFailure => "numerical failure",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
