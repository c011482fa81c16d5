//! The verdict on a solve: which status, which point, which certificate. It reads the loop's
//! proposal ([`MpcOutcome`]) and the independent checks on the original model ([`crate::lp::verify`])
//! and decides; nothing else in the solver grades an answer.

use crate::lp::model::LpModel;
use crate::lp::mpc::{Iterate, MpcOutcome};
use crate::lp::settings::Settings;
use crate::lp::standard_form::StandardForm;
use crate::lp::status::Status;
use crate::lp::verify::{self, Accuracy, CertificateCheck, CertificateKind, Checker, Verification};

/// A ray proving infeasibility, in terms of the original model, with its check.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Certificate {
    /// A Farkas ray on the rows or a primal ray on the columns.
    pub kind: CertificateKind,
    /// Farkas: one multiplier per original row; primal ray: one entry per original column.
    pub ray: Vec<f64>,
    /// The ray's check in double precision on the original model.
    pub check: CertificateCheck,
}

/// The decided status with the point it is about (original model's x and row duals).
pub struct Verdict {
    pub status: Status,
    pub detail: String,
    pub x: Vec<f64>,
    pub row_duals: Vec<f64>,
    pub verification: Verification,
    pub certificate: Option<Certificate>,
}

/// Decides the outcome of a loop run on `sf` (the standard form of `model`).
pub fn verdict(model: &LpModel, sf: &StandardForm, out: &MpcOutcome, st: &Settings) -> Verdict {
    verdict_checked(&Checker::new(model), sf, out, st)
}

/// [`verdict`] with the model's checker, made once per solve.
pub(crate) fn verdict_checked(checker: &Checker<'_>, sf: &StandardForm, out: &MpcOutcome, st: &Settings) -> Verdict {
    // A certificate's point only says how far it got: its multipliers are not repaired.
    let repair = out.status.is_limit() || matches!(out.status, Status::Optimal | Status::OptimalReducedAccuracy | Status::NumericalFailure);
    // An optimum's quick candidates (those the loop judged) first; the targeted ones, a pass
    // over A each, only where none of them passes.
    let graded = |full: bool| {
        let (xs, y) = original_points(checker, sf, &out.iterate, st.tolerance(), full);
        let best = checker.verify_best(&xs, &y, st.tolerance(), repair);
        (best.unwrap_or_else(|| (0, verify::verify_point(checker.model(), &[], &y, st.tolerance()))), xs, y)
    };
    let claimed = matches!(out.status, Status::Optimal | Status::OptimalReducedAccuracy);
    let quick = claimed.then(|| graded(false)).filter(|g| g.0 .1.accuracy == Accuracy::Tolerance);
    let (best, xs, row_duals) = quick.unwrap_or_else(|| graded(true));
    let mut v = decide(checker, sf, out, xs, row_duals, best, st);
    // An infeasibility claim whose certificate fails leaves a point to grade: the best iterate
    // seen may be far better than the last (a stalled residual drifts once μ underflows).
    let certificate_failed = v.certificate.as_ref().is_some_and(|c| c.check.accuracy == Accuracy::Failed);
    if let (true, Some(best)) = (certificate_failed, &out.best_iterate) {
        let (bxs, by) = original_points(checker, sf, best, st.tolerance(), true);
        let Some((k, bv)) = checker.verify_best(&bxs, &by, st.tolerance(), true) else { return v };
        let bx = bxs[k].clone();
        if bv.accuracy < v.verification.accuracy {
            v.status = point_status(&bv);
            if v.status == Status::Optimal {
                v.detail = format!("the best iterate passes the check on the original model at {}", at_tol(&bv));
            } else {
                v.detail.push_str("; the best iterate is returned");
            }
            v.verification = bv;
            (v.x, v.row_duals) = (bx, by);
        }
    }
    v
}

/// The row duals of the original model an iterate stands for: those of rows of one entry
/// completed (`StandardForm::complete_duals`); zero for a model without cost, whose optimal dual
/// is y = 0 (the loop's y only shrinks towards it).
fn original_duals(model: &LpModel, sf: &StandardForm, it: &Iterate) -> Vec<f64> {
    if model.c.iter().all(|&c| c == 0.0) {
        return vec![0.0; model.num_rows()];
    }
    let mut y = sf.original_duals(&it.lambda);
    sf.complete_duals(model, &mut y);
    y
}

/// The points of the original model an iterate offers, with its row duals: x as the loop left
/// it, moved into its column bounds (the interior-point method meets implicit upper bounds
/// only to its tolerance); x with every column the iterate holds at a bound put exactly there
/// (x < s in the scaled standard form: the reduced cost outweighs the value; w < z for an upper
/// bound); and x with only the columns of the rows x fails at `tol` put there. The last two are
/// what the optimal face looks like where the loop has not quite reached it: a row that forces
/// its columns to zero (b = 0, terms of one sign) is met exactly instead of at 5e-14, and an
/// optimum of 0 is 0 — the first of them everywhere (which can misjudge a column that is small
/// but belongs), the second only where a row needs it. The proof picks whichever proves most;
/// the loop's judgement (`full` false) takes the first two only, which start the full list.
pub(crate) fn original_points(
    checker: &Checker<'_>,
    sf: &StandardForm,
    it: &Iterate,
    tol: f64,
    full: bool,
) -> (Vec<Vec<f64>>, Vec<f64>) {
    let model = checker.model();
    let y = original_duals(model, sf, it);
    let mut raw = sf.original_x(&it.x);
    verify::into_bounds(model, &mut raw);
    let n = it.x.len();
    if it.s.len() != n || sf.upper.len() != n {
        return (vec![raw], y);
    }
    let bounded = it.w.len() == n && it.z.len() == n;
    let mut free = vec![false; n];
    sf.free.iter().filter(|&&j| j < n).for_each(|&j| free[j] = true);
    let x_size = it.x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    // The bound each standard-form column is held at, with the margin by which its value is
    // outweighed (x/s, or w/z), or None. A free column has no bound and no s: it is held at 0
    // (by every margin) only where it is that already, up to rounding.
    let held: Vec<Option<(f64, f64)>> = (0..n)
        .map(|j| {
            if free[j] {
                return (it.x[j].abs() <= FREE_AT_ZERO * (1.0 + x_size)).then_some((0.0, 0.0));
            }
            let up_ratio = if bounded && sf.upper[j].is_finite() { it.w[j] / it.z[j] } else { f64::INFINITY };
            let low_ratio = if it.x[j] != 0.0 { it.x[j] / it.s[j] } else { f64::INFINITY };
            if up_ratio < 1.0 && up_ratio <= low_ratio {
                Some((sf.upper[j], up_ratio))
            } else if low_ratio < 1.0 {
                Some((0.0, low_ratio))
            } else {
                None
            }
        })
        .collect();
    let snapped = |only: &dyn Fn(usize, f64) -> bool| -> Option<Vec<f64>> {
        let mut x = it.x.clone();
        let mut changed = false;
        for (j, h) in held.iter().enumerate() {
            if let Some((v, ratio)) = *h {
                if only(j, ratio) {
                    x[j] = v;
                    changed = true;
                }
            }
        }
        changed.then(|| {
            let mut x = sf.original_x(&x);
            verify::into_bounds(model, &mut x);
            x
        })
    };
    let mut xs = vec![raw];
    let margins: &[f64] = if full { &SNAP_MARGINS } else { &SNAP_MARGINS[..1] };
    for &margin in margins {
        if let Some(x) = snapped(&|_, ratio| ratio < margin) {
            if !xs.contains(&x) {
                xs.push(x);
            }
        }
    }
    if !full {
        return (xs, y);
    }
    // Only the held columns of the rows the loop's own x fails (in standard-form numbering),
    // then of the rows that this fails in turn, a few times over.
    let mut chosen = vec![false; n];
    let mut current = xs[0].clone();
    for _ in 0..TARGETED_PASSES {
        let errors = checker.row_backward_errors(&current);
        let mut bad = vec![false; sf.b.len()];
        for (i, r) in sf.row_of.iter().enumerate() {
            if let (Some(r), true) = (r, errors[i] > tol) {
                bad[*r] = true;
            }
        }
        let mut grew = false;
        for (j, c) in chosen.iter_mut().enumerate() {
            if !*c && held[j].is_some() && sf.a.col(j).any(|(r, _)| bad[r]) {
                *c = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
        match snapped(&|j, _| chosen[j]) {
            Some(x) => current = x,
            None => break,
        }
        if !xs.contains(&current) {
            xs.push(current.clone());
        }
    }
    (xs, y)
}

/// A free column whose |x| is below this fraction of 1 + ‖x‖∞ is put at 0 in the snapped
/// candidates: a b = 0 row whose other columns are put at their bounds fails by such a column's
/// whole term otherwise (cycle: free columns at 1e-17 beside columns put at 0).
const FREE_AT_ZERO: f64 = 1e-12;

/// Passes of the targeted candidate (each adds the held columns of the rows the last one fails).
const TARGETED_PASSES: usize = 4;

/// The margins x/s (or w/z) below which a column is put at its bound, one candidate point each:
/// every column the iterate holds there, and only those it holds there by a wide margin.
const SNAP_MARGINS: [f64; 3] = [1.0, 1e-3, 1e-6];

/// Turns the loop's proposed status into the reported one (see [`Status`]):
/// * optimal or numerical failure → by the point's verification: `Optimal` at ε,
///   `OptimalReducedAccuracy` at √ε, `NumericalFailure` otherwise;
/// * an infeasibility → by its certificate's check at ε_inf (`…Infeasible`), √ε_inf
///   (`…InfeasibleReducedAccuracy`), or `NumericalFailure` when the ray proves nothing;
/// * a limit stays a limit; the verification says how good the best point is.
fn decide(
    checker: &Checker<'_>,
    sf: &StandardForm,
    out: &MpcOutcome,
    xs: Vec<Vec<f64>>,
    row_duals: Vec<f64>,
    (k, verification): (usize, Verification),
    st: &Settings,
) -> Verdict {
    let model = checker.model();
    let x = xs.into_iter().nth(k).unwrap_or_else(|| vec![f64::NAN; model.num_cols()]);

    let mut detail = out.detail.clone();
    let add = |d: &mut String, s: String| {
        if !d.is_empty() {
            d.push_str("; ");
        }
        d.push_str(&s);
    };
    let status = match out.status {
        Status::Optimal | Status::OptimalReducedAccuracy | Status::NumericalFailure => {
            let loop_failed = out.status == Status::NumericalFailure;
            match verification.accuracy {
                Accuracy::Tolerance if loop_failed => {
                    add(
                        &mut detail,
                        format!("the best point passes the check on the original model at {}", at_tol(&verification)),
                    );
                    Status::Optimal
                }
                Accuracy::Tolerance => Status::Optimal,
                Accuracy::Reduced => {
                    // The measures are in `Solution::verification` (and on their own line of the
                    // log and the summary): the detail says why, not the numbers again.
                    add(&mut detail, "verification passes only at reduced accuracy".into());
                    Status::OptimalReducedAccuracy
                }
                Accuracy::Failed => {
                    if !loop_failed {
                        add(&mut detail, "the point fails verification".into());
                    }
                    Status::NumericalFailure
                }
            }
        }
        Status::PrimalInfeasible | Status::PrimalInfeasibleReducedAccuracy => {
            let (ray, check) = best_ray(
                CertificateKind::Farkas,
                model,
                [Some(&out.iterate.lambda), out.residual_ray.as_ref()],
                || sf.null_space_ray(&out.iterate),
                |r| verify::drop_wrong_signs(model, sf.farkas_ray(r)),
                |r| checker.prove_farkas(r, st.infeasibility_tolerance()),
            );
            let status = match check.accuracy {
                Accuracy::Tolerance => Status::PrimalInfeasible,
                Accuracy::Reduced => Status::PrimalInfeasibleReducedAccuracy,
                Accuracy::Failed => rejected_claim(&mut detail, &verification),
            };
            return Verdict {
                status,
                detail,
                x,
                row_duals,
                verification,
                certificate: Some(Certificate { kind: CertificateKind::Farkas, ray, check }),
            };
        }
        // The loop proposes `DualInfeasible`; `Unbounded` needs the feasibility check after the
        // verdict (`lp::verify::feasibility`).
        Status::DualInfeasible
        | Status::DualInfeasibleReducedAccuracy
        | Status::Unbounded
        | Status::UnboundedReducedAccuracy => {
            let (ray, check) = best_ray(
                CertificateKind::PrimalRay,
                model,
                [Some(&out.iterate.x), out.residual_ray.as_ref()],
                || None,
                |r| verify::ray_into_cone(model, sf.primal_ray(r)),
                |r| (r.to_vec(), verify::check_primal_ray(model, r, st.infeasibility_tolerance())),
            );
            let status = match check.accuracy {
                Accuracy::Tolerance => Status::DualInfeasible,
                Accuracy::Reduced => Status::DualInfeasibleReducedAccuracy,
                Accuracy::Failed => rejected_claim(&mut detail, &verification),
            };
            return Verdict {
                status,
                detail,
                x,
                row_duals,
                verification,
                certificate: Some(Certificate { kind: CertificateKind::PrimalRay, ray, check }),
            };
        }
        s @ (Status::IterationLimit | Status::TimeLimit | Status::Interrupted) => {
            add(&mut detail, format!("best point {}", verification.accuracy.name()));
            s
        }
    };
    Verdict { status, detail, x, row_duals, verification, certificate: None }
}

/// Of the candidate rays (the iterate's λ or x, the stalled residual, and — only where neither
/// passes at the tolerance — the `fallback`, the near-null space: a dense O(m³) computation),
/// each mapped to the original model and also without its negligible parts
/// ([`NEGLIGIBLE_PARTS`]), the one whose check has the best grade, then a proven gain, then the
/// smallest ρ.
pub(super) fn best_ray(
    kind: CertificateKind,
    model: &LpModel,
    candidates: [Option<&Vec<f64>>; 2],
    fallback: impl FnOnce() -> Option<Vec<f64>>,
    map: impl Fn(&[f64]) -> Vec<f64>,
    check: impl Fn(&[f64]) -> (Vec<f64>, CertificateCheck),
) -> (Vec<f64>, CertificateCheck) {
    let key = |c: &CertificateCheck| {
        let rho = if c.backward_error.is_nan() { f64::INFINITY } else { c.backward_error };
        (c.accuracy, c.gain.is_nan() || c.gain <= 0.0, rho)
    };
    // Passed at the tolerance with a proven gain, exact for the model as written: the least
    // key there is, so no later candidate can replace it.
    let least = (Accuracy::Tolerance, false, 0.0);
    let mut best: Option<(Vec<f64>, CertificateCheck)> = None;
    let consider = |cand: &[f64], best: &mut Option<(Vec<f64>, CertificateCheck)>| {
        let mapped = map(cand);
        let mut rays = vec![mapped.clone()];
        for fraction in NEGLIGIBLE_PARTS {
            let cleaned = verify::without_negligible_parts(model, kind, &mapped, fraction);
            if !rays.contains(&cleaned) {
                rays.push(cleaned);
            }
        }
        for ray in rays {
            let (ray, c) = check(&ray);
            if best.as_ref().is_none_or(|(_, b)| key(&c) < key(b)) {
                *best = Some((ray, c));
            }
            if best.as_ref().is_some_and(|(_, b)| key(b) == least) {
                return;
            }
        }
    };
    let reached = |best: &Option<(Vec<f64>, CertificateCheck)>| best.as_ref().is_some_and(|(_, b)| key(b) == least);
    for cand in candidates.into_iter().flatten() {
        if !reached(&best) {
            consider(cand, &mut best);
        }
    }
    if best.as_ref().is_none_or(|(_, b)| b.accuracy != Accuracy::Tolerance) {
        if let Some(cand) = fallback() {
            consider(&cand, &mut best);
        }
    }
    best.unwrap_or_else(|| check(&map(&[])))
}

/// The fractions of the largest part below which a ray's parts are tried as zero.
const NEGLIGIBLE_PARTS: [f64; 3] = [1e-12, 1e-9, 1e-6];

/// A rejected infeasibility claim falls back on the point itself. When the point passes
/// verification at ε the claim was a false alarm (a residual that stalled at a level the
/// verification accepts): the detail then says which check passed, nothing about the claim.
fn rejected_claim(detail: &mut String, v: &Verification) -> Status {
    let status = point_status(v);
    *detail = match status {
        Status::Optimal => format!("the point passes the check on the original model at {}", at_tol(v)),
        _ => format!("{detail}; but the certificate fails its check"),
    };
    status
}

/// The tolerance a passing check was graded at, as the detail states it.
fn at_tol(v: &Verification) -> String {
    format!("ε = {:.1e}", v.tolerance)
}

/// The status a point earns by its verification alone.
fn point_status(v: &Verification) -> Status {
    match v.accuracy {
        Accuracy::Tolerance => Status::Optimal,
        Accuracy::Reduced => Status::OptimalReducedAccuracy,
        Accuracy::Failed => Status::NumericalFailure,
    }
}
