//! The whole pipeline: standard form, the MPC loop on the chosen backend, mapping back.

use crate::gl::{GlError, Gpu};
use crate::lp::backend::NormalEquationsBackend;
use crate::lp::backend::{BackendError, FaultInjection, GpuFault};
use crate::lp::backends::{CpuBackend, GpuBackend, HybridBackend};
use crate::lp::log::{IterationInfo, Logger};
use crate::lp::model::LpModel;
use crate::lp::mpc::{self, MpcProblem, MpcTimings};
use crate::lp::settings::{BackendKind, Settings, SettingsError};
use crate::lp::standard_form::{standard_form, Presolved, StandardForm};
use crate::lp::status::Status;
use crate::lp::verify::{self, Accuracy, CertificateCheck, CertificateKind, Verification, VERIFY_FACTOR};
use std::time::{Duration, Instant};
use thiserror::Error;

/// Errors that prevent a solve from starting (a non-optimal outcome is a [`Status`], not this).
#[derive(Debug, Error)]
pub enum SolveError {
    #[error("invalid settings: {0}")]
    Settings(#[from] SettingsError),
    /// The `gpu` backend needs a GL context and none could be made (`hybrid` falls back to the
    /// CPU instead).
    #[error("the gpu backend needs OpenGL: {0}")]
    Gl(#[from] GlError),
    /// The `gpu` backend could not be set up (e.g. A exceeds the texture size limit).
    #[error("the gpu backend could not be set up: {0}")]
    Backend(BackendError),
}

/// Time per phase of a solve.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Timings {
    /// Building the dense standard form (and scaling).
    pub standard_form: Duration,
    /// Backend construction (uploading A).
    pub setup: Duration,
    /// The MPC loop, split by kernel.
    pub mpc: MpcTimings,
    /// Mapping the answer back to the original model.
    pub postsolve: Duration,
    pub total: Duration,
}

/// The answer, in terms of the original model.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Solution {
    pub status: Status,
    /// cᵀx + objective constant, in the model's sense (meaningful when optimal).
    pub objective: f64,
    /// Values of the original columns.
    pub x: Vec<f64>,
    /// Row duals y (∂objective/∂row activity, in the model's sense).
    pub row_duals: Vec<f64>,
    /// Reduced costs c − Aᵀy of the original columns.
    pub reduced_costs: Vec<f64>,
    pub iterations: usize,
    pub backend: BackendKind,
    /// Standard-form size (m, n) that the backend worked on.
    pub standard_form_size: (usize, usize),
    /// The last row of the iteration log.
    pub last_iteration: IterationInfo,
    /// Why a non-optimal status was given.
    pub detail: String,
    /// GPU backends: iterations whose normal equations were factored on the GPU (Table 4.1's
    /// parenthesized count).
    pub gpu_iterations: Option<usize>,
    /// Notices for the user (a hybrid solve's switch to the CPU, a missing GL driver, …).
    pub notes: Vec<String>,
    /// The independent double-precision check of (x, row_duals) on the original model (`None`
    /// when presolve decided the status without a point).
    pub verification: Option<Verification>,
    /// The infeasibility certificate and its check, for the infeasible statuses.
    pub certificate: Option<Certificate>,
    /// Whether x and the duals are the best iterate by `mpc::merit` (limits and failures)
    /// rather than the last one.
    pub best_iterate: bool,
    pub timings: Timings,
}

/// A ray proving infeasibility, in terms of the original model, with its check.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Certificate {
    pub kind: CertificateKind,
    /// Farkas: one multiplier per original row; primal ray: one entry per original column.
    pub ray: Vec<f64>,
    pub check: CertificateCheck,
}

/// Solves `model` with `settings`, writing the iteration log to `log`. GPU backends make a
/// headless GL context; where none can be made, `hybrid` runs on the CPU with a notice and `gpu`
/// is an error.
pub fn solve(model: &LpModel, settings: &Settings, log: &mut Logger) -> Result<Solution, SolveError> {
    settings.validate()?;
    if !settings.backend.uses_gl() {
        return solve_on(model, settings, log, None);
    }
    match Gpu::headless() {
        Ok(gpu) => solve_on(model, settings, log, Some(&gpu)),
        Err(e) if settings.backend == BackendKind::Hybrid => {
            log.line(&format!("notice: no GL context ({e}); the hybrid backend runs on the CPU"));
            solve_on(model, settings, log, None)
        }
        Err(e) => Err(SolveError::Gl(e)),
    }
}

/// [`solve`] on a context the caller owns (`None`: GPU backends are unavailable; `hybrid` then
/// runs on the CPU with a notice).
pub fn solve_on(
    model: &LpModel,
    settings: &Settings,
    log: &mut Logger,
    gpu: Option<&Gpu>,
) -> Result<Solution, SolveError> {
    settings.validate()?;
    let t0 = Instant::now();
    let mut timings = Timings::default();
    let presolved = standard_form(model, settings.scaling);
    timings.standard_form = t0.elapsed();
    let sf = match presolved {
        Presolved::Form(sf) => sf,
        Presolved::PrimalInfeasible(why) => {
            return Ok(trivial(model, settings, Status::PrimalInfeasible, why, timings, t0))
        }
        Presolved::DualInfeasible(why) => {
            return Ok(trivial(model, settings, Status::DualInfeasible, why, timings, t0))
        }
    };
    let (m, n) = (sf.a.nrows(), sf.a.ncols());
    log.line(&format!(
        "model {}: {} rows, {} columns, {} nonzeros; standard form {m} x {n} (dense); backend {}",
        model.name,
        model.num_rows(),
        model.num_cols(),
        model.a.nnz(),
        settings.backend.name()
    ));
    log_ranges(log, model, &sf);
    let deadline = settings.time_limit.map(|d| t0 + d);
    let mut problem = MpcProblem { b: sf.b.clone(), c: sf.c.clone(), a_norm_inf: sf.a_norm_inf(), deadline };
    if settings.gpu_fault == Some(FaultInjection::NanInTexture) && settings.backend == BackendKind::Gpu {
        // The gpu backend uploads b into a texture: the NaN lives in GPU memory from then on.
        if let Some(b0) = problem.b.first_mut() {
            *b0 = f64::NAN;
        }
    }
    let t_setup = Instant::now();
    let mut notes = Vec::new();
    let cpu = |timings: &mut Timings, log: &mut Logger| {
        let mut be = CpuBackend::new(sf.a.as_ref(), &sf.free_pairs);
        timings.setup = t_setup.elapsed();
        run_on(&mut be, &problem, settings, log)
    };
    let (fmt, sub, tol) = (settings.normal_format, settings.substitution, settings.gpu_pivot_tolerance);
    let outcome = match (settings.backend, gpu) {
        (BackendKind::Cpu, _) => cpu(&mut timings, log),
        (BackendKind::Gpu, None) => {
            return Err(SolveError::Gl(GlError::NoEgl { detail: "no GL context was given to the gpu backend".into() }))
        }
        (BackendKind::Gpu, Some(g)) => {
            setup_fault(g, settings).map_err(SolveError::Backend)?;
            let mut be =
                GpuBackend::new(g, sf.a.as_ref(), &sf.free_pairs, fmt, sub, tol).map_err(SolveError::Backend)?;
            timings.setup = t_setup.elapsed();
            run_on(&mut be, &problem, settings, log)
        }
        (BackendKind::Hybrid, None) => {
            notes.push("no GL context: the hybrid backend ran on the CPU".to_string());
            cpu(&mut timings, log)
        }
        (BackendKind::Hybrid, Some(g)) => {
            let made = setup_fault(g, settings)
                .and_then(|()| HybridBackend::new(g, sf.a.as_ref(), &sf.free_pairs, fmt, sub, tol, settings.hybrid));
            match made {
                Ok(mut be) => {
                    be.inject(settings.gpu_fault);
                    timings.setup = t_setup.elapsed();
                    let out = run_on(&mut be, &problem, settings, log);
                    if let Some(sw) = be.switch() {
                        let note = format!("hybrid: switched to the CPU at iteration {}: {}", sw.iteration, sw.reason);
                        log.line(&note);
                        notes.push(note);
                    }
                    out
                }
                Err(e) => {
                    let note = format!("hybrid: the GPU could not be set up ({e}); solved on the CPU");
                    log.line(&format!("notice: {note}"));
                    notes.push(note);
                    cpu(&mut timings, log)
                }
            }
        }
    };
    let t_post = Instant::now();
    let mut x = sf.original_x(&outcome.iterate.x);
    let mut row_duals = sf.original_duals(&outcome.iterate.lambda);
    let mut verdict = decide(model, &sf, &outcome, &x, &row_duals, settings);
    // An infeasibility claim whose certificate fails leaves a point to grade: the best iterate
    // seen may be far better than the last (a stalled residual drifts once μ underflows).
    let certificate_failed = verdict.certificate.as_ref().is_some_and(|c| c.check.accuracy == Accuracy::Failed);
    if let (true, Some(best)) = (certificate_failed, &outcome.best_iterate) {
        let (bx, by) = (sf.original_x(&best.x), sf.original_duals(&best.lambda));
        let bv = verify::verify_point(model, &bx, &by, settings.tolerance);
        if bv.accuracy < verdict.verification.accuracy {
            verdict.status = point_status(&bv);
            verdict.detail.push_str("; the best iterate is returned");
            verdict.verification = bv;
            (x, row_duals) = (bx, by);
        }
    }
    let reduced_costs = reduced_costs(model, &row_duals);
    let objective = objective(model, &x);
    log.line(&format!("verification: {}", verdict.verification.summary()));
    if let Some(c) = &verdict.certificate {
        log.line(&format!("certificate: {}", c.check.summary()));
    }
    timings.postsolve = t_post.elapsed();
    timings.mpc = outcome.timings;
    timings.total = t0.elapsed();
    Ok(Solution {
        status: verdict.status,
        objective,
        x,
        row_duals,
        reduced_costs,
        iterations: outcome.iterations,
        backend: settings.backend,
        standard_form_size: (m, n),
        last_iteration: outcome.last,
        detail: verdict.detail,
        gpu_iterations: outcome.gpu_iterations,
        notes,
        verification: Some(verdict.verification),
        certificate: verdict.certificate,
        best_iterate: outcome.best_returned,
        timings,
    })
}

/// A kernel that cannot compile, built only for [`FaultInjection::BrokenKernel`].
const BROKEN_KERNEL: crate::gl::Kernel =
    crate::gl::Kernel { file: "fault_injection.frag", source: "void main() { this_is_not_glsl = ; }\n", variants: &[] };

/// Injects the set-up faults of [`FaultInjection`] through the real GL paths.
fn setup_fault(g: &Gpu, settings: &Settings) -> Result<(), BackendError> {
    if settings.gpu_fault == Some(FaultInjection::BrokenKernel) {
        g.prepare(&BROKEN_KERNEL, &[])
            .map_err(|e| BackendError::Gpu { kind: GpuFault::of(&e), detail: e.to_string() })?;
    }
    Ok(())
}

/// The final word on a solve: the loop's proposal, checked on the original model.
struct Verdict {
    status: Status,
    detail: String,
    verification: Verification,
    certificate: Option<Certificate>,
}

/// Turns the loop's proposed status into the reported one (see [`Status`]):
/// * optimal or numerical failure → by the point's verification: `Optimal` at ε,
///   `OptimalReducedAccuracy` at √ε, `NumericalFailure` otherwise;
/// * an infeasibility → by its certificate's check at ε_inf (`…Infeasible`), √ε_inf
///   (`…InfeasibleReducedAccuracy`), or `NumericalFailure` when the ray proves nothing;
/// * a limit stays a limit; the verification says how good the best point is.
fn decide(model: &LpModel, sf: &StandardForm, out: &mpc::MpcOutcome, x: &[f64], y: &[f64], st: &Settings) -> Verdict {
    let verification = verify::verify_point(model, x, y, st.tolerance);
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
                    add(&mut detail, "the best point passes verification at ε".into());
                    Status::Optimal
                }
                Accuracy::Tolerance => Status::Optimal,
                Accuracy::Reduced => {
                    add(
                        &mut detail,
                        format!("verification passes only at reduced accuracy: {}", verification.summary()),
                    );
                    Status::OptimalReducedAccuracy
                }
                Accuracy::Failed => {
                    if !loop_failed {
                        add(&mut detail, format!("the point fails verification: {}", verification.summary()));
                    }
                    Status::NumericalFailure
                }
            }
        }
        Status::PrimalInfeasible | Status::PrimalInfeasibleReducedAccuracy => {
            let null = null_space_ray(sf, &out.iterate);
            let (ray, check) = best_ray(
                [Some(&out.iterate.lambda), out.residual_ray.as_ref(), null.as_ref()],
                |r| verify::drop_wrong_signs(model, sf.farkas_ray(r)),
                |r| verify::check_farkas(model, r, VERIFY_FACTOR * st.infeasibility_tolerance),
            );
            let status = match check.accuracy {
                Accuracy::Tolerance => Status::PrimalInfeasible,
                Accuracy::Reduced => Status::PrimalInfeasibleReducedAccuracy,
                Accuracy::Failed => {
                    add(&mut detail, format!("but the certificate fails its check: {}", check.summary()));
                    point_status(&verification)
                }
            };
            return Verdict {
                status,
                detail,
                verification,
                certificate: Some(Certificate { kind: CertificateKind::Farkas, ray, check }),
            };
        }
        Status::DualInfeasible | Status::DualInfeasibleReducedAccuracy => {
            let (ray, check) = best_ray(
                [Some(&out.iterate.x), out.residual_ray.as_ref(), None],
                |r| sf.primal_ray(r),
                |r| verify::check_primal_ray(model, r, VERIFY_FACTOR * st.infeasibility_tolerance),
            );
            let status = match check.accuracy {
                Accuracy::Tolerance => Status::DualInfeasible,
                Accuracy::Reduced => Status::DualInfeasibleReducedAccuracy,
                Accuracy::Failed => {
                    add(&mut detail, format!("but the certificate fails its check: {}", check.summary()));
                    point_status(&verification)
                }
            };
            return Verdict {
                status,
                detail,
                verification,
                certificate: Some(Certificate { kind: CertificateKind::PrimalRay, ray, check }),
            };
        }
        s @ (Status::IterationLimit | Status::TimeLimit | Status::Interrupted) => {
            add(&mut detail, format!("best point {}", verification.accuracy.name()));
            s
        }
    };
    Verdict { status, detail, verification, certificate: None }
}

/// Of the candidate rays (the iterate's λ or x, and the stalled residual), the one whose check
/// has the smallest ratio with a positive gain, mapped to the original model.
fn best_ray(
    candidates: [Option<&Vec<f64>>; 3],
    map: impl Fn(&[f64]) -> Vec<f64>,
    check: impl Fn(&[f64]) -> CertificateCheck,
) -> (Vec<f64>, CertificateCheck) {
    let mut best: Option<(Vec<f64>, CertificateCheck)> = None;
    for cand in candidates.into_iter().flatten() {
        let ray = map(cand);
        let c = check(&ray);
        let key = |c: &CertificateCheck| if c.value > 0.0 && c.ratio.is_finite() { c.ratio } else { f64::INFINITY };
        if best.as_ref().is_none_or(|(_, b)| key(&c) < key(b)) {
            best = Some((ray, c));
        }
    }
    best.unwrap_or_else(|| {
        let ray = map(&[]);
        let c = check(&ray);
        (ray, c)
    })
}

/// A rejected infeasibility claim falls back on the point itself.
fn point_status(v: &Verification) -> Status {
    match v.accuracy {
        Accuracy::Tolerance => Status::Optimal,
        Accuracy::Reduced => Status::OptimalReducedAccuracy,
        Accuracy::Failed => Status::NumericalFailure,
    }
}

/// min/max |v| over the finite non-zero values (`None` if there are none).
fn range(v: impl IntoIterator<Item = f64>) -> Option<(f64, f64)> {
    v.into_iter()
        .filter(|x| x.is_finite() && *x != 0.0)
        .map(f64::abs)
        .fold(None, |r, x| Some(r.map_or((x, x), |(lo, hi): (f64, f64)| (lo.min(x), hi.max(x)))))
}

/// The model's coefficient ranges (HiGHS prints the same four lines): a spread of many orders of
/// magnitude warns of a badly scaled model before the first iteration.
pub fn coefficient_ranges(model: &LpModel) -> Vec<String> {
    let fmt = |name: &str, r: Option<(f64, f64)>| match r {
        Some((lo, hi)) => format!("  {name:<7}[{lo:.0e}, {hi:.0e}]"),
        None => format!("  {name:<7}[none]"),
    };
    vec![
        "coefficient ranges:".to_string(),
        fmt("matrix", range(model.a.values.iter().copied())),
        fmt("cost", range(model.c.iter().copied())),
        fmt("bound", range(model.col_lower.iter().chain(&model.col_upper).copied())),
        fmt("rhs", range(model.row_lower.iter().chain(&model.row_upper).copied())),
    ]
}

fn log_ranges(log: &mut Logger, model: &LpModel, sf: &StandardForm) {
    if !log.enabled() {
        return;
    }
    for l in coefficient_ranges(model) {
        log.line(&l);
    }
    let scaled = range((0..sf.a.ncols()).flat_map(|j| sf.a.col_as_slice(j).to_vec()));
    let factors = range(sf.row_scale.iter().chain(&sf.col_scale).copied());
    if let (Some((lo, hi)), Some((flo, fhi))) = (scaled, factors) {
        log.line(&format!(
            "  scaled matrix [{lo:.0e}, {hi:.0e}] after equilibration (factors in [{flo:.0e}, {fhi:.0e}])"
        ));
    }
}

fn run_on<B: NormalEquationsBackend>(be: &mut B, p: &MpcProblem, st: &Settings, log: &mut Logger) -> mpc::MpcOutcome {
    mpc::solve(be, p, st, log)
}

/// cᵀx + constant in the model's sense.
pub fn objective(model: &LpModel, x: &[f64]) -> f64 {
    model.c.iter().zip(x).map(|(c, x)| c * x).sum::<f64>() + model.obj_constant
}

/// c − Aᵀy for the original columns.
pub fn reduced_costs(model: &LpModel, y: &[f64]) -> Vec<f64> {
    (0..model.num_cols()).map(|j| model.c[j] - model.a.col(j).map(|(i, v)| v * y[i]).sum::<f64>()).collect()
}

fn trivial(model: &LpModel, st: &Settings, status: Status, why: String, mut timings: Timings, t0: Instant) -> Solution {
    timings.total = t0.elapsed();
    Solution {
        status,
        objective: f64::NAN,
        x: vec![f64::NAN; model.num_cols()],
        row_duals: vec![f64::NAN; model.num_rows()],
        reduced_costs: vec![f64::NAN; model.num_cols()],
        iterations: 0,
        backend: st.backend,
        standard_form_size: (0, 0),
        last_iteration: IterationInfo::default(),
        detail: format!("presolve: {why}"),
        gpu_iterations: None,
        notes: Vec::new(),
        verification: None,
        certificate: None,
        best_iterate: false,
        timings,
    }
}

/// The standard form `solve` would build (for tests and tools that inspect it).
pub fn presolve(model: &LpModel, settings: &Settings) -> Presolved {
    standard_form(model, settings.scaling)
}

/// A Farkas candidate for infeasibility found by stagnation, where the iterate's λ is no ray:
/// the component of b̄ in the near-null space of Ā·D²·Āᵀ at the final iterate (eigenvalues below
/// 1e-10 of the largest). Contradictory dependent rows (what the tiny-pivot treatment drops) are
/// exactly such directions: y with Āᵀy ≈ 0 on the columns that carry weight and b̄ᵀy > 0.
/// O(m³) on the CPU in double precision, run only after the loop declared infeasibility.
fn null_space_ray(sf: &StandardForm, it: &mpc::Iterate) -> Option<Vec<f64>> {
    let (m, n) = (sf.a.nrows(), sf.a.ncols());
    if it.x.len() != n || it.s.len() != n || m == 0 {
        return None;
    }
    let d2: Vec<f64> = it.x.iter().zip(&it.s).map(|(x, s)| x / s).collect();
    let mut ad = sf.a.clone();
    for (j, d) in d2.iter().enumerate() {
        let w = d.sqrt();
        for v in ad.col_as_slice_mut(j) {
            *v *= w;
        }
    }
    let normal = &ad * ad.transpose();
    let evd = normal.self_adjoint_eigen(faer::Side::Lower).ok()?;
    let (u, s) = (evd.U(), evd.S());
    let top = (0..m).map(|k| s[k].abs()).fold(0.0, f64::max);
    let mut y = vec![0.0; m];
    for k in (0..m).filter(|&k| s[k].abs() <= 1e-10 * top) {
        let proj: f64 = (0..m).map(|i| u[(i, k)] * sf.b[i]).sum();
        for (i, yi) in y.iter_mut().enumerate() {
            *yi += proj * u[(i, k)];
        }
    }
    y.iter().any(|v| *v != 0.0).then_some(y)
}
