//! The outcome of a solve.
//!
//! A status is only given after the answer has been checked in double precision on the original
//! model ([`crate::lp::verify`]): the loop's own tests run on the scaled standard form (and, on the
//! `gpu` backend, in single precision), so they propose a status; verification confirms it,
//! downgrades it to a reduced-accuracy one, or rejects it.

/// Why the solver stopped. Every status except [`Status::Optimal`] makes the CLI exit non-zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Status {
    /// The point passes verification on the original model at the tolerance ε: relative row
    /// violation, bound violation, dual residual and duality gap all ≤
    /// `lp::verify::VERIFY_FACTOR`·ε.
    Optimal,
    /// The point passes verification only at the reduced tolerance √ε (same measures): the loop
    /// stopped on numerical trouble (a factorization breakdown, collapsed steps, the single
    /// precision floor) or its scaled-space tests held but the unscaled check at ε did not.
    OptimalReducedAccuracy,
    /// A Farkas ray y (row duals of the original model) passes
    /// `lp::verify::check_farkas` at the infeasibility tolerance; or a presolve proof
    /// (contradictory bounds, an empty row with a non-zero right-hand side).
    PrimalInfeasible,
    /// The loop's infeasibility test fired (a Farkas ray, or a stalled primal residual) but the
    /// ray passes the check only at the reduced tolerance √ε_inf.
    PrimalInfeasibleReducedAccuracy,
    /// A primal ray r passes `lp::verify::check_primal_ray` at the infeasibility tolerance
    /// (or presolve found a column that improves the objective without limit), so the dual is
    /// infeasible, and no primal feasible point was established: the feasibility solve that
    /// follows a ray ([`crate::lp::FeasibilityCheck`]) refuted one (the LP is primal and dual
    /// infeasible) or could not decide (a limit, the interrupt, a numerical failure).
    /// [`crate::lp::Solution::feasibility`] says which.
    DualInfeasible,
    /// As [`Status::DualInfeasible`], with a ray that passes only at √ε_inf.
    DualInfeasibleReducedAccuracy,
    /// Unbounded: a verified primal ray (as for [`Status::DualInfeasible`]) and a primal feasible
    /// point whose row and bound violations pass the check on the original model at
    /// `lp::verify::VERIFY_FACTOR`·ε. The point is [`crate::lp::Solution::x`], the ray
    /// [`crate::lp::Solution::certificate`] (none when presolve found the ray).
    Unbounded,
    /// As [`Status::Unbounded`], with the ray or the feasible point passing only at the reduced
    /// tolerances (√ε_inf, √(10ε)).
    UnboundedReducedAccuracy,
    /// The iteration limit was reached; the best iterate is returned (see
    /// [`crate::lp::Solution::verification`] for how good it is).
    IterationLimit,
    /// The time limit ([`crate::lp::Settings::time_limit`]) ran out; best iterate returned.
    TimeLimit,
    /// The interrupt flag ([`crate::lp::Settings::interrupt`], Ctrl-C in the CLI) was raised;
    /// best iterate returned.
    Interrupted,
    /// No point or certificate passes even the reduced tolerances: the normal equations could not
    /// be factored, an iterate became non-finite (NaN/Inf, e.g. read back from a GPU), the steps
    /// collapsed, or a point the loop called optimal failed verification.
    NumericalFailure,
}

impl Status {
    /// Short name for logs and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::OptimalReducedAccuracy => "optimal (reduced accuracy)",
            Status::PrimalInfeasible => "primal infeasible",
            Status::PrimalInfeasibleReducedAccuracy => "primal infeasible (reduced accuracy)",
            Status::DualInfeasible => "dual infeasible",
            Status::DualInfeasibleReducedAccuracy => "dual infeasible (reduced accuracy)",
            Status::Unbounded => "unbounded",
            Status::UnboundedReducedAccuracy => "unbounded (reduced accuracy)",
            Status::IterationLimit => "iteration limit",
            Status::TimeLimit => "time limit",
            Status::Interrupted => "interrupted",
            Status::NumericalFailure => "numerical failure",
        }
    }

    /// Whether the solver stopped on a user limit (iterations, time, interrupt).
    pub fn is_limit(self) -> bool {
        matches!(self, Status::IterationLimit | Status::TimeLimit | Status::Interrupted)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
