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
use crate::lp::verify::verdict::{Certificate, Verdict};
use crate::lp::verify::{grade, Accuracy, CertificateKind, Checker};
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
    /// when it could not start or no time was left for it. Serialized by its name.
    #[serde(serialize_with = "status_name")]
    pub solve_status: Option<Status>,
    /// Iterations of the feasibility solve.
    pub iterations: usize,
    /// Wall-clock time of the feasibility solve (serialized as `time_seconds`).
    #[serde(rename = "time_seconds", serialize_with = "seconds")]
    pub time: Duration,
    /// The feasible point's componentwise backward error β on the original model (Established):
    /// each row against its own data ([`crate::lp::Verification`]).
    pub backward_error: f64,
    /// The tolerance ε it was graded against.
    pub tolerance: f64,
    /// The Farkas ray of a refutation, checked on the original model.
    pub certificate: Option<Certificate>,
}

fn status_name<S: serde::Serializer>(status: &Option<Status>, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&status.map(Status::name), s)
}

fn seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
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
                "primal feasibility established by {how}: backward error {:.2e} ({} at ε = {:.1e})",
                self.backward_error,
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

/// What the feasibility solve (the model with c = 0 on the cpu backend) tells the check.
pub(crate) struct ZeroCostAnswer {
    pub status: Status,
    /// Iterations of the feasibility solve.
    pub iterations: usize,
    pub x: Vec<f64>,
    pub row_duals: Vec<f64>,
    pub certificate: Option<Certificate>,
}

/// The driver's solve, given by `lp::pipeline` (which calls this module: a function, not an import,
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
        backward_error: f64::NAN,
        tolerance: tol,
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
    // Any other end (optimal, a limit's best point, a failure's) is graded by the point alone:
    // its backward error, each row against its own data (the same test as an optimum's).
    let beta = if sol.x.len() == model.num_cols() { Checker::new(model).backward_error(&sol.x) } else { f64::NAN };
    let accuracy = grade(beta, tol);
    if accuracy == Accuracy::Failed {
        return FeasibilityResult { check: FeasibilityCheck { backward_error: beta, ..base }, point: None };
    }
    let check = FeasibilityCheck { outcome: Feasibility::Established, accuracy, backward_error: beta, ..base };
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
/// makes the LP `unbounded` ([`crate::lp::verify::feasibility`]): the status, the detail and, when one
/// is established, the returned point change with it. A model without a cost cannot have a
/// ray, so the feasibility solve itself never comes here. After a ray that failed its check
/// the same solve is run: a model that is both primal and dual infeasible leaves the loop with a
/// ray spoilt by the rows it cannot satisfy, and the solve's Farkas ray then proves the primal
/// infeasible (otherwise the status stays as it was).
pub(crate) fn ray_feasibility(
    model: &LpModel,
    v: &mut Verdict,
    settings: &Settings,
    deadline: Option<Instant>,
    solve: ZeroCostSolve<'_>,
) -> Option<FeasibilityCheck> {
    let rejected_ray = v
        .certificate
        .as_ref()
        .is_some_and(|c| c.kind == CertificateKind::PrimalRay && c.check.accuracy == Accuracy::Failed);
    let ray = match v.status {
        Status::DualInfeasible => Accuracy::Tolerance,
        Status::DualInfeasibleReducedAccuracy => Accuracy::Reduced,
        _ if rejected_ray => {
            let found = check_feasibility(model, settings, deadline, solve);
            if found.check.outcome == Feasibility::Refuted {
                // Its certificate (or its presolve, which proves without one).
                v.status = match found.check.certificate.as_ref().map(|c| c.check.accuracy) {
                    Some(Accuracy::Reduced) => Status::PrimalInfeasibleReducedAccuracy,
                    _ => Status::PrimalInfeasible,
                };
                v.detail = format!("{}; the feasibility solve proves the rows and bounds contradictory", v.detail);
                v.certificate = found.check.certificate.clone();
            }
            return Some(found.check);
        }
        _ => return None,
    };
    let found = check_feasibility(model, settings, deadline, solve);
    v.status = ray_status(ray, &found.check);
    let said = format!("primal feasibility {}", found.check.outcome.name());
    v.detail = if v.detail.is_empty() { said } else { format!("{}; {said}", v.detail) };
    if let Some((x, y)) = found.point {
        v.verification = Checker::new(model).verify(&x, &y, settings.tolerance());
        (v.x, v.row_duals) = (x, y);
    }
    Some(found.check)
}
