//! Mehrotra's predictor-corrector method on the normal equations, written once over
//! [`NormalEquationsBackend`] (2006 paper, Algorithm 3; 2008 paper, Algorithm 2).
//!
//! Problem: min cᵀx s.t. A·x = b, x ≥ 0, dual max bᵀλ s.t. Aᵀλ + s = c, s ≥ 0.
//! Residuals use the papers' signs: r_b = b − A·x, r_c = c − Aᵀλ − s.
//! Each iteration solves (4.12)–(4.14) twice with one factorization:
//!
//! * (4.12) A·D²·Aᵀ·Δλ = r_b + A·(D²·r_c + S⁻¹·r_xs), D² = X·S⁻¹,
//! * (4.13) Δs = r_c − Aᵀ·Δλ,
//! * (4.14) Δx = −S⁻¹·(r_xs + X·Δs) = −S⁻¹·r_xs − D²·Δs,
//!
//! with r_xs = X·S·e for the affine predictor and r_xs = X·S·e + ΔX_aff·ΔS_aff·e − σμe for the
//! combined step (by linearity, solving with the combined r_xs gives the sum of the predictor and
//! the corrector directions that Algorithm 3 adds), σ = (μ_aff/μ)³.
//!
//! Termination: (6.1)–(6.3) with ε = [`Settings::tolerance`]. Infeasibility: see
//! [`certificates`] and [`stalled_residual`]; numerical failure: a factorization breakdown, a non-finite scalar, or both
//! step lengths below [`STEP_COLLAPSE`].

use crate::lp::backend::{BackendError, NormalEquationsBackend};
use crate::lp::log::{IterationInfo, Logger};
use crate::lp::settings::Settings;
use crate::lp::status::Status;
use std::time::{Duration, Instant};

/// Both step lengths below this means no representable progress: numerical failure.
pub const STEP_COLLAPSE: f64 = 1e-12;

/// κ of [`NormalEquationsBackend::recenter_free_pairs`]: the smaller part of a split free
/// variable is kept below κ·(1 + |x|), so x⁺ − x⁻ loses at most a factor ≈ κ in relative
/// precision while the pair stays well inside the positive orthant.
pub const FREE_PAIR_CAP: f64 = 10.0;

/// In single precision, iterations without a new best iterate (by [`merit`]) after which the
/// loop stops: the arithmetic's floor has been reached and further steps only wander (seen on
/// the random family at m = 512: within 4% of ε = 1e-4 at iteration 11, then 190 iterations
/// without progress). The best iterate is returned and graded by verification like any
/// numerical failure. Double precision has no such rule: there a stalling merit is what the
/// infeasibility tests need time to see.
pub const NO_PROGRESS_ITERATIONS: usize = 10;

/// Stagnation test of [`stalled_residual`]: μ has fallen this much further than the residual.
pub const STALL_RATIO: f64 = 1e-10;
/// ... and the relative residual is still above this multiple of the tolerance.
pub const STALL_FLOOR: f64 = 1e3;

/// The data the loop needs besides A (which the backend holds).
#[derive(Clone, Debug)]
pub struct MpcProblem {
    pub b: Vec<f64>,
    pub c: Vec<f64>,
    /// ‖A‖∞ (max absolute row sum), the scale of the infeasibility certificates.
    pub a_norm_inf: f64,
    /// Stop with [`Status::TimeLimit`] once this instant has passed.
    pub deadline: Option<Instant>,
}

/// The merit by which the best iterate is kept for limits and failures: the largest of the
/// three relative measures of (6.1)–(6.3) (primal residual, dual residual, gap).
pub fn merit(info: &IterationInfo) -> f64 {
    let m = info.primal_infeasibility.max(info.dual_infeasibility).max(info.relative_gap);
    if m.is_nan() {
        f64::INFINITY
    } else {
        m
    }
}

/// The best iterate so far by [`merit`], downloaded to the host.
#[derive(Clone, Debug)]
struct Best {
    merit: f64,
    iterate: Iterate,
}

/// Time spent per phase of the loop.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct MpcTimings {
    /// Forming A·D²·Aᵀ (the adat kernel).
    pub assemble: Duration,
    /// Cholesky.
    pub factor: Duration,
    /// Forward and back substitutions.
    pub solve: Duration,
    /// Everything else: level 1 and 2 kernels, reductions, transfers.
    pub other: Duration,
}

/// The iterate, downloaded to the host: transferable to another backend.
#[derive(Clone, Debug, Default)]
pub struct Iterate {
    pub x: Vec<f64>,
    pub lambda: Vec<f64>,
    pub s: Vec<f64>,
}

/// The outcome of the loop, in standard-form (scaled) coordinates.
#[derive(Clone, Debug)]
pub struct MpcOutcome {
    pub status: Status,
    pub iterate: Iterate,
    pub iterations: usize,
    pub last: IterationInfo,
    pub timings: MpcTimings,
    /// Why a non-optimal status was given, for the log.
    pub detail: String,
    /// Iterations whose normal equations were factored on the GPU (GPU backends only).
    pub gpu_iterations: Option<usize>,
    /// For the infeasible statuses: the residual of the iterate (r_b = b − A·x for primal, −r_c
    /// for dual infeasibility). At a point where the residual has stalled it is the gradient of
    /// the least-squares infeasibility, whose optimality conditions make it a ray: for
    /// min ½‖b − A·x‖² over x ≥ 0, r = b − A·x* has Aᵀr ≤ 0 and bᵀr = ‖r‖² > 0 (Farkas); for
    /// min ½‖Aᵀλ + s − c‖² over s ≥ 0, ρ = Aᵀλ + s − c has A·ρ = 0, ρ ≥ 0, cᵀρ = −‖ρ‖² < 0.
    pub residual_ray: Option<Vec<f64>>,
    /// Whether `iterate` is the best iterate by [`merit`] rather than the last one (limits and
    /// numerical failures return the best; `last` then still describes the last iteration).
    pub best_returned: bool,
    /// The best iterate by [`merit`] when `iterate` is the last one (an infeasibility claim
    /// whose certificate fails its check is graded on this point instead).
    pub best_iterate: Option<Iterate>,
}

/// Loop errors are backend errors; they become [`Status::NumericalFailure`].
type R<T> = Result<T, BackendError>;

struct Clock {
    t: MpcTimings,
    /// The residual ray of an infeasible outcome (see [`MpcOutcome::residual_ray`]).
    ray: Option<Vec<f64>>,
}

impl Clock {
    fn time<T>(slot: &mut Duration, f: impl FnOnce() -> T) -> T {
        let t0 = Instant::now();
        let r = f();
        *slot += t0.elapsed();
        r
    }
}

/// Runs the method from Mehrotra's starting point.
pub fn solve<B: NormalEquationsBackend>(
    be: &mut B,
    p: &MpcProblem,
    settings: &Settings,
    log: &mut Logger,
) -> MpcOutcome {
    let mut clock = Clock { t: MpcTimings::default(), ray: None };
    let start = Instant::now();
    let mut iterations = 0;
    let mut last = IterationInfo::default();
    let mut best: Option<Best> = None;
    let r = run(be, p, settings, log, &mut clock, &mut iterations, &mut last, &mut best);
    let mut timings = clock.t;
    let kernels = timings.assemble + timings.factor + timings.solve;
    timings.other = start.elapsed().saturating_sub(kernels);
    let (status, iterate, detail, residual_ray) = match r {
        Ok((s, i, d)) => (s, i, d, clock.ray.take()),
        Err(e) => (Status::NumericalFailure, Iterate::default(), e.to_string(), None),
    };
    // Limits and failures hand back the best point seen, which verification then grades.
    let use_best = matches!(status, Status::NumericalFailure) || status.is_limit();
    let (iterate, best_returned, best_iterate) = match best {
        Some(b) if use_best => (b.iterate, true, None),
        Some(b) => (iterate, false, Some(b.iterate)),
        None => (iterate, false, None),
    };
    let gpu_iterations = be.gpu_factorizations();
    MpcOutcome {
        status,
        iterate,
        iterations,
        last,
        timings,
        detail,
        gpu_iterations,
        residual_ray,
        best_returned,
        best_iterate,
    }
}

/// Mehrotra's starting point (Wright, ch. 10): least-norm x̃ = Aᵀ(AAᵀ)⁻¹b and least-squares
/// (λ̃, s̃), shifted to be positive and then balanced so that xᵀs is spread evenly.
fn starting_point<B: NormalEquationsBackend>(
    be: &mut B,
    p: &MpcProblem,
    b: &B::Vector,
    c: &B::Vector,
    clock: &mut Clock,
) -> R<(B::Vector, B::Vector, B::Vector)> {
    let (_, n) = be.dims();
    let ones = be.fill(n, 1.0)?;
    Clock::time(&mut clock.t.assemble, || be.assemble(&ones))?;
    Clock::time(&mut clock.t.factor, || be.factor())?;
    let u = Clock::time(&mut clock.t.solve, || be.solve(b))?;
    let x_t = be.at_mul(1.0, &u, None)?;
    let ac = be.a_mul(1.0, c, None)?;
    let lambda = Clock::time(&mut clock.t.solve, || be.solve(&ac))?;
    let s_t = be.at_mul(-1.0, &lambda, Some((1.0, c)))?;
    let dx = (-1.5 * be.min(&x_t)?).max(0.0);
    let ds = (-1.5 * be.min(&s_t)?).max(0.0);
    let x_h = be.add_scalar(&x_t, dx)?;
    let s_h = be.add_scalar(&s_t, ds)?;
    let xs = be.dot(&x_h, &s_h)?;
    let (sum_x, sum_s) = (be.sum(&x_h)?, be.sum(&s_h)?);
    let (mut dx2, mut ds2) = (0.5 * xs / sum_s, 0.5 * xs / sum_x);
    // Degenerate data (b = 0 gives x̃ = 0, c in range(Aᵀ) gives s̃ = 0): xᵀs = 0 would leave a
    // zero iterate; shift by one instead, which keeps the point interior.
    if !(xs > 0.0 && dx2.is_finite() && ds2.is_finite()) {
        dx2 = 1.0;
        ds2 = 1.0;
    }
    let _ = p;
    Ok((be.add_scalar(&x_h, dx2)?, lambda, be.add_scalar(&s_h, ds2)?))
}

#[allow(clippy::too_many_arguments)]
fn run<B: NormalEquationsBackend>(
    be: &mut B,
    p: &MpcProblem,
    st: &Settings,
    log: &mut Logger,
    clock: &mut Clock,
    iterations: &mut usize,
    last: &mut IterationInfo,
    best: &mut Option<Best>,
) -> R<(Status, Iterate, String)> {
    let (_, n) = be.dims();
    let nf = n.max(1) as f64;
    let b = be.upload(&p.b)?;
    let c = be.upload(&p.c)?;
    let b_norm = be.norm_inf(&b)?;
    let c_norm = be.norm_inf(&c)?;
    let (mut x, mut lambda, mut s) = starting_point(be, p, &b, &c, clock)?;
    log.header(be.name());
    let (mut alpha_p, mut alpha_d) = (0.0, 0.0);
    let mut k = 0;
    let mut first: Option<IterationInfo> = None;
    // The iteration of the best iterate so far (see NO_PROGRESS_ITERATIONS).
    let mut best_k = 0;
    loop {
        // Residuals and objectives: sgemv with vector addition, then reductions (Algorithm 3).
        let ax = be.a_mul(1.0, &x, None)?;
        let r_b = be.lincomb(1.0, &b, -1.0, &ax)?;
        let atl = be.at_mul(1.0, &lambda, None)?;
        let c_minus_atl = be.lincomb(1.0, &c, -1.0, &atl)?;
        let r_c = be.lincomb(1.0, &c_minus_atl, -1.0, &s)?;
        let pobj = be.dot(&c, &x)?;
        let dobj = be.dot(&b, &lambda)?;
        let mu = be.dot(&x, &s)? / nf;
        let info = IterationInfo {
            iteration: k,
            primal_objective: pobj,
            dual_objective: dobj,
            primal_infeasibility: be.norm_inf(&r_b)? / (1.0 + b_norm),
            dual_infeasibility: be.norm_inf(&r_c)? / (1.0 + c_norm),
            relative_gap: (pobj - dobj).abs() / (1.0 + pobj.abs()),
            mu,
            alpha_primal: alpha_p,
            alpha_dual: alpha_d,
        };
        be.begin_iteration(k, mu);
        // The backend column names the solver of the normal equations for the step into this
        // iterate (the hybrid backend reports its current side).
        log.iteration(&info, be.name());
        *iterations = k;
        *last = info.clone();
        let finish = |status, be: &mut B, x: &B::Vector, l: &B::Vector, s: &B::Vector, why: String| -> R<_> {
            Ok((status, Iterate { x: be.download(x)?, lambda: be.download(l)?, s: be.download(s)? }, why))
        };
        let scalars = [pobj, dobj, mu, info.primal_infeasibility, info.dual_infeasibility];
        if scalars.iter().any(|v| !v.is_finite()) {
            let why = "non-finite iterate (NaN or Inf in the residuals or objectives)".to_string();
            return Ok((Status::NumericalFailure, Iterate::default(), why));
        }
        let merit_now = merit(&info);
        if best.as_ref().is_none_or(|b| merit_now < b.merit) {
            let iterate = Iterate { x: be.download(&x)?, lambda: be.download(&lambda)?, s: be.download(&s)? };
            *best = Some(Best { merit: merit_now, iterate });
            best_k = k;
        }
        // (6.1)–(6.3).
        let eps = st.tolerance;
        if info.primal_infeasibility <= eps && info.dual_infeasibility <= eps && info.relative_gap <= eps {
            return finish(Status::Optimal, be, &x, &lambda, &s, String::new());
        }
        let keep_ray = |status, be: &mut B, clock: &mut Clock| -> R<()> {
            clock.ray = match status {
                Status::PrimalInfeasible => Some(be.download(&r_b)?),
                Status::DualInfeasible => Some(be.download(&r_c)?.into_iter().map(|v| -v).collect()),
                _ => None,
            };
            Ok(())
        };
        if let Some((status, why)) = certificates(be, p, st, &ax, &atl, pobj, dobj, b_norm, c_norm)? {
            keep_ray(status, be, clock)?;
            return finish(status, be, &x, &lambda, &s, why);
        }
        let start = first.get_or_insert_with(|| info.clone());
        if let Some((status, why)) = stalled_residual(start, &info, st.tolerance) {
            // In single precision a stalling residual is the arithmetic's floor as often as it
            // is infeasibility: without a certificate, it is not proof of either.
            if be.unit_roundoff() > SINGLE_PRECISION_THRESHOLD {
                let why =
                    format!("{why}; in single precision this proves nothing: try a larger ε or the hybrid backend");
                return finish(Status::NumericalFailure, be, &x, &lambda, &s, why);
            }
            keep_ray(status, be, clock)?;
            return finish(status, be, &x, &lambda, &s, why);
        }
        if be.unit_roundoff() > SINGLE_PRECISION_THRESHOLD && k >= best_k + NO_PROGRESS_ITERATIONS {
            let why = format!(
                "no progress in single precision: the best iterate (iteration {best_k}, merit {:.2e}) was not improved on in {NO_PROGRESS_ITERATIONS} iterations",
                best.as_ref().map_or(f64::NAN, |b| b.merit)
            );
            return finish(Status::NumericalFailure, be, &x, &lambda, &s, why);
        }
        if st.interrupt.as_ref().is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed)) {
            return finish(Status::Interrupted, be, &x, &lambda, &s, format!("interrupted at iteration {k}"));
        }
        if p.deadline.is_some_and(|d| Instant::now() >= d) {
            return finish(Status::TimeLimit, be, &x, &lambda, &s, format!("time limit reached at iteration {k}"));
        }
        if k >= st.max_iterations {
            return finish(Status::IterationLimit, be, &x, &lambda, &s, String::new());
        }
        if k > 0 && alpha_p < STEP_COLLAPSE && alpha_d < STEP_COLLAPSE {
            return finish(Status::NumericalFailure, be, &x, &lambda, &s, "step lengths collapsed".into());
        }

        // Normal matrix for this iterate: D² = X·S⁻¹.
        let d2 = be.div(&x, &s)?;
        Clock::time(&mut clock.t.assemble, || be.assemble(&d2))?;
        Clock::time(&mut clock.t.factor, || be.factor())?;
        let d2_rc = be.mul(&d2, &r_c)?;

        // Predictor: r_xs = X·S·e, so S⁻¹·r_xs = x.
        let t = be.lincomb(1.0, &d2_rc, 1.0, &x)?;
        let (dx_a, _dl_a, ds_a) = direction(be, clock, &t, &r_b, &r_c, &d2, &x)?;
        let ap_aff = be.max_step(&x, &dx_a)?;
        let ad_aff = be.max_step(&s, &ds_a)?;
        let x_aff = be.lincomb(1.0, &x, ap_aff, &dx_a)?;
        let s_aff = be.lincomb(1.0, &s, ad_aff, &ds_a)?;
        let mu_aff = be.dot(&x_aff, &s_aff)? / nf;
        let sigma = (mu_aff / mu).powi(3);

        // Combined predictor-corrector: r_xs = X·S·e + ΔX_aff·ΔS_aff·e − σμe.
        let xs = be.mul(&x, &s)?;
        let dxds = be.mul(&dx_a, &ds_a)?;
        let r_xs = be.lincomb(1.0, &xs, 1.0, &dxds)?;
        let r_xs = be.add_scalar(&r_xs, -sigma * mu)?;
        let r_xs_s = be.div(&r_xs, &s)?;
        let t = be.lincomb(1.0, &d2_rc, 1.0, &r_xs_s)?;
        let (dx, dl, ds) = direction(be, clock, &t, &r_b, &r_c, &d2, &r_xs_s)?;

        alpha_p = (st.step_factor * be.max_step(&x, &dx)?).min(1.0);
        alpha_d = (st.step_factor * be.max_step(&s, &ds)?).min(1.0);
        x = be.lincomb(1.0, &x, alpha_p, &dx)?;
        x = be.recenter_free_pairs(&x, FREE_PAIR_CAP)?;
        lambda = be.lincomb(1.0, &lambda, alpha_d, &dl)?;
        s = be.lincomb(1.0, &s, alpha_d, &ds)?;
        k += 1;
    }
}

/// Backends whose unit roundoff exceeds this compute in single precision.
const SINGLE_PRECISION_THRESHOLD: f64 = 1e-10;

/// Infeasibility by stagnation (Wright, *Primal-Dual Interior-Point Methods*, ch. 6 and 11):
/// on a problem with a solution, infeasible-interior-point iterates reduce the residuals at
/// least in proportion to μ, ‖r_k‖/‖r_0‖ = O(μ_k/μ_0). When μ has shrunk [`STALL_RATIO`] times
/// more than the relative primal (dual) residual, and that residual is still above
/// [`STALL_FLOOR`]·ε, the iterates converge to a complementary point of a relaxed problem: the
/// equations Ax = b (dual equations) cannot be met. This catches infeasibility the certificate
/// test cannot see, e.g. contradictory equality rows that the tiny-pivot treatment drops.
fn stalled_residual(start: &IterationInfo, now: &IterationInfo, eps: f64) -> Option<(Status, String)> {
    let mu_ratio = now.mu / start.mu;
    let test = |r_now: f64, r_start: f64| r_now > STALL_FLOOR * eps && mu_ratio < STALL_RATIO * r_now / r_start;
    if test(now.primal_infeasibility, start.primal_infeasibility) {
        return Some((
            Status::PrimalInfeasible,
            format!("primal residual stalls at {:.2e} while μ fell by {mu_ratio:.1e}", now.primal_infeasibility),
        ));
    }
    if test(now.dual_infeasibility, start.dual_infeasibility) {
        return Some((
            Status::DualInfeasible,
            format!("dual residual stalls at {:.2e} while μ fell by {mu_ratio:.1e}", now.dual_infeasibility),
        ));
    }
    None
}

/// (4.12)–(4.14) given t = D²·r_c + S⁻¹·r_xs and S⁻¹·r_xs.
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn direction<B: NormalEquationsBackend>(
    be: &mut B,
    clock: &mut Clock,
    t: &B::Vector,
    r_b: &B::Vector,
    r_c: &B::Vector,
    d2: &B::Vector,
    rxs_over_s: &B::Vector,
) -> R<(B::Vector, B::Vector, B::Vector)> {
    let rhs = be.a_mul(1.0, t, Some((1.0, r_b)))?; // (4.12) right-hand side
    let dl = Clock::time(&mut clock.t.solve, || be.solve(&rhs))?;
    let ds = be.at_mul(-1.0, &dl, Some((1.0, r_c)))?; // (4.13)
    let d2ds = be.mul(d2, &ds)?;
    let dx = be.lincomb(-1.0, rxs_over_s, -1.0, &d2ds)?; // (4.14)
    Ok((dx, dl, ds))
}

/// Infeasibility detection by certificates read off the iterate (the method, not a guess):
///
/// * **Primal infeasible** (Farkas): λ with bᵀλ > 0 and Aᵀλ ≤ 0. When the primal is infeasible
///   the dual objective bᵀλ grows without bound while Aᵀλ = c − s − r_c stays bounded above, so
///   the normalized ray λ/bᵀλ satisfies the test
///   `max(Aᵀλ)₊ / ‖A‖∞ ≤ ε_inf · bᵀλ / ‖b‖∞`.
/// * **Dual infeasible**: x ≥ 0 (always, interior iterate) with cᵀx < 0 and A·x ≈ 0, tested as
///   `‖A·x‖∞ / ‖A‖∞ ≤ ε_inf · (−cᵀx) / ‖c‖∞`; on a bounded problem ‖A·x‖ ≈ ‖b‖ while cᵀx stays
///   bounded, so this cannot hold.
///
/// Both tests are invariant to scaling the ray, so they do not depend on how far the iterate
/// has diverged, only on how exactly it points along a ray.
#[allow(clippy::too_many_arguments)]
fn certificates<B: NormalEquationsBackend>(
    be: &mut B,
    p: &MpcProblem,
    st: &Settings,
    ax: &B::Vector,
    atl: &B::Vector,
    pobj: f64,
    dobj: f64,
    b_norm: f64,
    c_norm: f64,
) -> R<Option<(Status, String)>> {
    let eps = st.infeasibility_tolerance;
    let a_norm = p.a_norm_inf.max(f64::MIN_POSITIVE);
    if dobj > 0.0 && b_norm > 0.0 {
        let viol = be.max(atl)?.max(0.0);
        if viol / a_norm <= eps * dobj / b_norm {
            return Ok(Some((
                Status::PrimalInfeasible,
                format!("Farkas ray: bᵀλ = {dobj:.3e}, max(Aᵀλ)₊ = {viol:.3e}"),
            )));
        }
    }
    if pobj < 0.0 && c_norm > 0.0 {
        let res = be.norm_inf(ax)?;
        if res / a_norm <= eps * (-pobj) / c_norm {
            return Ok(Some((Status::DualInfeasible, format!("primal ray: cᵀx = {pobj:.3e}, ‖Ax‖∞ = {res:.3e}"))));
        }
    }
    Ok(None)
}
