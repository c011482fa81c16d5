//! Unbounded or only dual infeasible: a verified primal ray proves that the dual is infeasible,
//! and the LP is unbounded only when a primal feasible point exists as well. cplex1 (HiGHS's
//! check instances) has such a ray and no feasible point at all. When a ray is found, the same
//! model with c = 0 is solved on the cpu backend (double precision), whose optimal duals are zero
//! and whose loop therefore stops at the first point the primal checks pass: its answer establishes
//! feasibility (a point whose rows and bounds pass the check on the original model), refutes it
//! (a verified Farkas ray), or leaves it unknown (a limit, the interrupt, a numerical failure).

use crate::clock::Instant;
use crate::lp::log::Logger;
use crate::lp::model::LpModel;
use crate::lp::settings::Settings;
use crate::lp::status::Status;
use crate::lp::verdict::{Certificate, Verdict};
use crate::lp::verify::{verify_valid, Accuracy, VERIFY_FACTOR};
use std::time::Duration;

/// What is known about the primal once a primal ray has been verified.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Feasibility {
    /// A point passes the primal checks (row violation and bound violation) on the original
    /// model: with the ray, the LP is unbounded.
    Established,
    /// The feasibility solve ended primal infeasible with a checked Farkas ray: the LP is both
    /// primal and dual infeasible.
    Refuted,
    /// The feasibility solve stopped before deciding (time or iteration limit, interrupt,
    /// numerical failure).
    Unknown,
}

impl Feasibility {
    /// The outcome in one word (`established`, `refuted`, `unknown`).
    pub fn name(self) -> &'static str {
        match self {
            Feasibility::Established => "established",
            Feasibility::Refuted => "refuted",
            Feasibility::Unknown => "unknown",
        }
    }
}

/// The feasibility solve that follows a verified primal ray, and what it showed.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FeasibilityCheck {
    /// Whether a primal feasible point was established, refuted or left unknown.
    pub outcome: Feasibility,
    /// How well the feasible point passed (Established only): at the tolerance
    /// (`VERIFY_FACTOR`·ε) or only at its square root.
    pub accuracy: Accuracy,
    /// The status of the feasibility solve (the model with c = 0 on the cpu backend); `None`
    /// when it could not start or no time was left for it.
    pub solve_status: Option<Status>,
    /// Iterations of the feasibility solve.
    pub iterations: usize,
    /// Wall-clock time of the feasibility solve.
    pub time: Duration,
    /// Of the feasible point (Established), on the original model, in its units.
    pub primal_residual: f64,
    /// Of the feasible point (Established), on the original model.
    pub bound_violation: f64,
    /// The tolerance they were graded against (`VERIFY_FACTOR`·ε).
    pub tolerance: f64,
    /// The Farkas ray of a refutation, checked on the original model.
    pub certificate: Option<Certificate>,
}

impl FeasibilityCheck {
    /// One line for the log, the summary and the status detail.
    pub fn summary(&self) -> String {
        let how = match self.solve_status {
            None => "no feasibility solve".to_string(),
            Some(s) => format!(
                "the feasibility solve (c = 0, cpu backend: {s}, {} iterations, {:.3} s)",
                self.iterations,
                self.time.as_secs_f64()
            ),
        };
        match self.outcome {
            Feasibility::Established => format!(
                "primal feasibility established by {how}: primal {:.2e}, bounds {:.2e} ({} at tol {:.1e})",
                self.primal_residual,
                self.bound_violation,
                self.accuracy.name(),
                self.tolerance
            ),
            Feasibility::Refuted => format!(
                "primal feasibility refuted by {how}: {}",
                self.certificate.as_ref().map_or_else(|| "presolve".to_string(), |c| c.check.summary())
            ),
            Feasibility::Unknown => format!("primal feasibility unknown: {how} did not decide it"),
        }
    }
}

/// A feasible point and its check, or what refuted or left open its existence.
pub struct FeasibilityResult {
    pub check: FeasibilityCheck,
    /// The feasible point's x and row duals (Established only).
    pub point: Option<(Vec<f64>, Vec<f64>)>,
}

/// Grades x's primal measures on `model` at [`VERIFY_FACTOR`]·`tol` (and its square root).
fn primal_grade(model: &LpModel, x: &[f64], tol: f64) -> (f64, f64, Accuracy) {
    let zeros = vec![0.0; model.num_rows()];
    let v = verify_valid(model, x, &zeros, tol);
    let worst = [v.primal_residual, v.bound_violation].into_iter().map(|m| if m.is_nan() { f64::INFINITY } else { m });
    let worst = worst.fold(0.0, f64::max);
    let accuracy = if worst <= v.tolerance {
        Accuracy::Tolerance
    } else if worst <= v.tolerance.sqrt() {
        Accuracy::Reduced
    } else {
        Accuracy::Failed
    };
    (v.primal_residual, v.bound_violation, accuracy)
}

/// What the feasibility solve (the model with c = 0 on the cpu backend) tells the check.
pub(crate) struct ZeroCostAnswer {
    pub status: Status,
    /// Iterations of the feasibility solve.
    pub iterations: usize,
    pub x: Vec<f64>,
    pub row_duals: Vec<f64>,
    pub certificate: Option<Certificate>,
}

/// The driver's solve, given by `lp::solve` (which calls this module: a function, not an import,
/// keeps the two apart). `None`: the solve could not start.
pub(crate) type ZeroCostSolve<'a> = &'a dyn Fn(&LpModel, &Settings, &mut Logger) -> Option<ZeroCostAnswer>;

/// Decides whether `model` has a primal feasible point: the model with c = 0 is solved on the cpu
/// backend with the caller's tolerances, its remaining time (`deadline`), its iteration limit and
/// its interrupt flag. The loop's own iterate is never taken for one: after a ray it lies far out
/// along it, where the rows' terms are so large that a violation of the size of the bounds is a
/// rounding error of them (x₁ − x₂ ≥ 1 and ≤ −1 at x₁ ≈ x₂ ≈ 10⁸ passed the relative measures).
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_feasibility(
    model: &LpModel,
    settings: &Settings,
    deadline: Option<Instant>,
    solve: ZeroCostSolve<'_>,
) -> FeasibilityResult {
    let tol = settings.tolerance();
    let empty = |outcome| FeasibilityCheck {
        outcome,
        accuracy: Accuracy::Failed,
        solve_status: None,
        iterations: 0,
        time: Duration::ZERO,
        primal_residual: f64::NAN,
        bound_violation: f64::NAN,
        tolerance: VERIFY_FACTOR * tol,
        certificate: None,
    };
    let t0 = Instant::now();
    let remaining = deadline.map(|d| d.saturating_duration_since(t0));
    if remaining.is_some_and(|r| r.is_zero()) {
        let check = FeasibilityCheck { solve_status: Some(Status::TimeLimit), ..empty(Feasibility::Unknown) };
        return FeasibilityResult { check, point: None };
    }
    let mut zero_cost = model.clone();
    zero_cost.c.iter_mut().for_each(|c| *c = 0.0);
    zero_cost.obj_constant = 0.0;
    let st = settings.on_cpu(remaining);
    let Some(sol) = solve(&zero_cost, &st, &mut Logger::quiet()) else {
        return FeasibilityResult { check: empty(Feasibility::Unknown), point: None };
    };
    let base = FeasibilityCheck {
        solve_status: Some(sol.status),
        iterations: sol.iterations,
        time: t0.elapsed(),
        ..empty(Feasibility::Unknown)
    };
    let refuted = matches!(sol.status, Status::PrimalInfeasible | Status::PrimalInfeasibleReducedAccuracy);
    if refuted {
        let check = FeasibilityCheck { outcome: Feasibility::Refuted, certificate: sol.certificate, ..base };
        return FeasibilityResult { check, point: None };
    }
    // Any other end (optimal, a limit's best point, a failure's) is graded by the point alone.
    let (primal, bounds, accuracy) = primal_grade(model, &sol.x, tol);
    if accuracy == Accuracy::Failed {
        return FeasibilityResult { check: base, point: None };
    }
    let check = FeasibilityCheck {
        outcome: Feasibility::Established,
        accuracy,
        primal_residual: primal,
        bound_violation: bounds,
        ..base
    };
    FeasibilityResult { check, point: Some((sol.x, sol.row_duals)) }
}

/// The status of a verified primal ray (`ray` graded at the tolerance or at its square root)
/// given what the feasibility check found.
pub fn ray_status(ray: Accuracy, check: &FeasibilityCheck) -> Status {
    let established = check.outcome == Feasibility::Established;
    match (ray, established, check.accuracy) {
        (Accuracy::Tolerance, true, Accuracy::Tolerance) => Status::Unbounded,
        (Accuracy::Tolerance | Accuracy::Reduced, true, _) => Status::UnboundedReducedAccuracy,
        (Accuracy::Tolerance, false, _) => Status::DualInfeasible,
        _ => Status::DualInfeasibleReducedAccuracy,
    }
}

/// After a verified primal ray (`dual infeasible`), the check for a primal feasible point that
/// makes the LP `unbounded` ([`crate::lp::feasibility`]): the status, the detail and, when one
/// is established, the returned point change with it. A model without a cost cannot have a
/// ray, so the feasibility solve itself never comes here.
pub(crate) fn ray_feasibility(
    model: &LpModel,
    v: &mut Verdict,
    settings: &Settings,
    deadline: Option<Instant>,
    solve: ZeroCostSolve<'_>,
) -> Option<FeasibilityCheck> {
    let ray = match v.status {
        Status::DualInfeasible => Accuracy::Tolerance,
        Status::DualInfeasibleReducedAccuracy => Accuracy::Reduced,
        _ => return None,
    };
    let found = check_feasibility(model, settings, deadline, solve);
    v.status = ray_status(ray, &found.check);
    let said = format!("primal feasibility {}", found.check.outcome.name());
    v.detail = if v.detail.is_empty() { said } else { format!("{}; {said}", v.detail) };
    if let Some((x, y)) = found.point {
        v.verification = verify_valid(model, &x, &y, settings.tolerance());
        (v.x, v.row_duals) = (x, y);
    }
    Some(found.check)
}
