//! The outcome of a solve.
//!
//! A status is only given after the answer has been checked in double precision on the original
//! model ([`crate::lp::verify`]): the loop's own tests run on the scaled standard form (and, on the
//! `gpu` backend, in single precision), so they propose a status; verification confirms it,
//! downgrades it to a reduced-accuracy one, or rejects it.

use crate::names::{by_name, Named};

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
    /// The status's stable name: the log, the command line's JSON, the npm package and the
    /// Python package all report it, and `FromStr` reads it back.
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

impl Named for Status {
    const WHAT: &'static str = "status";
    fn all() -> &'static [Self] {
        use Status::*;
        &[
            Optimal,
            OptimalReducedAccuracy,
            PrimalInfeasible,
            PrimalInfeasibleReducedAccuracy,
            DualInfeasible,
            DualInfeasibleReducedAccuracy,
            Unbounded,
            UnboundedReducedAccuracy,
            IterationLimit,
            TimeLimit,
            Interrupted,
            NumericalFailure,
        ]
    }
    fn name(self) -> &'static str {
        Status::name(self)
    }
    fn description(self) -> &'static str {
        match self {
            Status::Optimal => "verified optimal at the tolerance",
            Status::OptimalReducedAccuracy => "verified optimal only at the reduced tolerance",
            Status::PrimalInfeasible => "a checked Farkas ray",
            Status::PrimalInfeasibleReducedAccuracy => "a Farkas ray checked only at the reduced tolerance",
            Status::DualInfeasible => "a checked primal ray, primal feasibility not established",
            Status::DualInfeasibleReducedAccuracy => "a primal ray checked only at the reduced tolerance",
            Status::Unbounded => "a checked primal ray and a feasible point",
            Status::UnboundedReducedAccuracy => "unbounded, checked only at the reduced tolerances",
            Status::IterationLimit => "the iteration limit ran out; the best iterate",
            Status::TimeLimit => "the time limit ran out; the best iterate",
            Status::Interrupted => "the interrupt flag was raised; the best iterate",
            Status::NumericalFailure => "nothing passes even the reduced tolerances",
        }
    }
}
by_name!(Status);
