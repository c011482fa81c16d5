//! The whole pipeline, orchestrated: standard form, the backend the settings ask for, the MPC
//! loop, and the verdict on the original model.

use crate::clock::Instant;
use crate::gl::Gpu;
use crate::lp::auto;
use crate::lp::backend::dependent_rows_of_valid;
use crate::lp::verify::feasibility::{check_feasibility, ray_feasibility, ray_status, ZeroCostAnswer};
use crate::lp::log::{log_dependent_rows, log_make_up, log_ranges, log_tiny_entries, IterationInfo, Logger};
use crate::lp::model::LpModel;
use crate::lp::mpc::{Iterate, MpcProblem, Weights};
use crate::lp::chosen_backend::{free_column_split, run_backend};
use crate::lp::settings::{BackendKind, Settings};
pub use crate::lp::solution::{Solution, Timings};
pub use crate::lp::solve_error::SolveError;
use crate::lp::standard_form::{original_columns, standard_form, standard_form_in, FreeColumns, Presolved};
use crate::lp::status::Status;
use crate::lp::verify::verdict::{original_points, verdict_checked};
use crate::lp::verify::{objective, reduced_costs, Checker};
use std::time::Duration;


/// Failed judgements with the quick candidates before the loop's judge also tries the targeted
/// ones ([`original_points`]' full set).
const QUICK_JUDGEMENTS: usize = 2;

/// Solves `model` with `settings`, writing the iteration log to `log` (as its
/// [`Logger::verbosity`] allows; [`Logger::quiet`] says nothing). GPU backends make a headless GL context for this call; where
/// none can be made, `hybrid` runs on the CPU with a notice and `gpu` is an error. `auto` makes
/// one only for a problem its shape does not decide ([`crate::lp::auto`]).
/// [`crate::LpSolver`] keeps one context for many solves.
pub fn solve(model: &LpModel, settings: &Settings, log: &mut Logger) -> Result<Solution, SolveError> {
    model.validate()?;
    if settings.backend() == BackendKind::Auto {
        if let Some(choice) = auto::without_device(model) {
            return solve_chosen(model, settings, log, None, choice);
        }
        let gpu = Gpu::headless_with(crate::gl::HeadlessOptions { api: settings.gl(), ..Default::default() });
        let choice = match &gpu {
            Ok(g) => auto::with_device(model, settings, Some(g)),
            Err(e) => auto::Choice { backend: BackendKind::Cpu, reason: format!("no GL context ({e})") },
        };
        return solve_chosen(model, settings, log, gpu.as_ref().ok(), choice);
    }
    if !settings.backend().uses_gl() {
        return solve_valid(model, settings, log, None);
    }
    match Gpu::headless_with(crate::gl::HeadlessOptions { api: settings.gl(), ..Default::default() }) {
        Ok(gpu) => solve_valid(model, settings, log, Some(&gpu)),
        Err(e) if settings.backend() == BackendKind::Hybrid => {
            log.line(&format!("notice: no GL context ({e}); the hybrid backend runs on the CPU"));
            solve_valid(model, settings, log, None)
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
    model.validate()?;
    if settings.backend() == BackendKind::Auto {
        let choice = auto::without_device(model).unwrap_or_else(|| auto::with_device(model, settings, gpu));
        return solve_chosen(model, settings, log, gpu, choice);
    }
    solve_valid(model, settings, log, gpu)
}

/// The `auto` backend's solve once it has chosen: the settings resolved to the chosen backend,
/// the choice in one line of the log and first among the notes.
pub(crate) fn solve_chosen(
    model: &LpModel,
    settings: &Settings,
    log: &mut Logger,
    gpu: Option<&Gpu>,
    choice: auto::Choice,
) -> Result<Solution, SolveError> {
    let line = format!("auto: {} ({})", choice.backend.name(), choice.reason);
    log.line(&line);
    let mut sol = solve_valid(model, &settings.resolved(choice.backend), log, gpu)?;
    sol.notes.insert(0, line);
    Ok(sol)
}

/// The feasibility solve of [`crate::lp::verify::feasibility`]: `model` (its cost zeroed) on the cpu
/// backend with `settings`, both already validated through the solve that asks.
fn solve_feasibility(model: &LpModel, settings: &Settings, log: &mut Logger) -> Option<ZeroCostAnswer> {
    let sol = solve_valid(model, settings, log, None).ok()?;
    Some(ZeroCostAnswer {
        status: sol.status,
        iterations: sol.iterations,
        x: sol.x,
        row_duals: sol.row_duals,
        certificate: sol.certificate,
    })
}

/// [`solve_on`] once the model and the settings have passed validation (a pass over A, made
/// once per solve).
fn solve_valid(
    model: &LpModel,
    settings: &Settings,
    log: &mut Logger,
    gpu: Option<&Gpu>,
) -> Result<Solution, SolveError> {
    let t0 = Instant::now();
    let mut timings = Timings::default();
    let (presolved, split) = standard_form_for(model, settings);
    let mut sf = match presolved {
        Presolved::Form(sf) => sf,
        Presolved::PrimalInfeasible(why) => {
            return Ok(trivial(model, settings, Status::PrimalInfeasible, why, timings, t0))
        }
        Presolved::DualInfeasible(why) => {
            let mut sol = trivial(model, settings, Status::DualInfeasible, why, timings, t0);
            let deadline = settings.time_limit().map(|d| t0 + d);
            let found = check_feasibility(model, settings, deadline, &solve_feasibility);
            log.line(&found.check.summary());
            sol.status = ray_status(crate::lp::verify::Accuracy::Tolerance, &found.check);
            sol.detail = format!("{}; primal feasibility {}", sol.detail, found.check.outcome.name());
            if let Some((x, y)) = found.point {
                sol.verification = Some(Checker::new(model).verify(&x, &y, settings.tolerance()));
                sol.objective = objective(model, &x);
                sol.reduced_costs = reduced_costs(model, &y);
                (sol.x, sol.row_duals) = (x, y);
            }
            sol.timings.feasibility = found.check.time;
            sol.timings.total = t0.elapsed();
            sol.feasibility = Some(found.check);
            return Ok(sol);
        }
    };
    match split {
        Some(why) => log.line(&format!("free columns: {} split into x⁺ − x⁻ ({why})", sf.free_pairs.len())),
        None if !sf.free.is_empty() => {
            log.line(&format!("free columns: {} kept whole, each one column with no bound", sf.free.len()))
        }
        None => {}
    }
    // The standard form of a validated model has a valid A by construction (b is checked there).
    let dependent = dependent_rows_of_valid(&sf.a, &sf.b);
    sf.drop_rows(&dependent.rows);
    timings.standard_form = t0.elapsed();
    let (m, n) = sf.dims();
    let bounded = sf.upper.iter().filter(|u| u.is_finite()).count();
    log.line(&format!(
        "model {}: {} rows, {} columns, {} nonzeros; standard form {m} x {n}, {} nonzeros, {bounded} upper bounds; backend {}",
        model.name,
        model.num_rows(),
        model.num_cols(),
        model.a.nnz(),
        sf.a.nnz(),
        settings.backend().name()
    ));
    log_ranges(log, model, &sf);
    log_dependent_rows(log, &dependent);
    if log.verbose() {
        log_make_up(log, &sf);
    }
    log.set_objective_map(sf.sense_sign / sf.cost_scale, sf.sense_sign * sf.offset, model.obj_constant);
    if log.wants_points() {
        let (columns, col_scale) = (sf.columns.clone(), sf.col_scale.clone());
        log.set_point_map(move |x| original_columns(&columns, &col_scale, x));
    }
    let mut notes: Vec<String> = log_tiny_entries(log, &sf).into_iter().collect();
    let deadline = settings.time_limit().map(|d| t0 + d);
    let w = sf.measure_weights(model);
    let weights = Weights { primal: w.primal, dual: w.dual, bound: w.bound, objective_offset: w.objective_offset };
    let upper = if bounded > 0 { sf.upper.clone() } else { Vec::new() };
    let problem = MpcProblem {
        b: sf.b.clone(),
        c: sf.c.clone(),
        upper,
        free: sf.free.clone(),
        a_norm_inf: sf.a_norm_inf(),
        deadline,
        weights: Some(weights),
    };
    // The gpu backend uploads b into a texture: an injected NaN lives in GPU memory from then on.
    #[cfg(feature = "fault-injection")]
    let problem = crate::lp::faults::poison_b(problem, settings.backend() == BackendKind::Gpu);
    // The loop stops where the proof on the original model passes, on every backend.
    let checker = Checker::new(model);
    let judging = std::cell::Cell::new(Duration::ZERO);
    let failed = std::cell::Cell::new(0usize);
    let judge = |it: &Iterate, decisive: bool| {
        let t = Instant::now();
        let (xs, y) = original_points(&checker, &sf, it, settings.tolerance(), false);
        let quick = xs.len();
        let mut ratio = checker.judge(&xs, &y, settings.tolerance(), decisive);
        // The quick candidates (the point, and its columns held at a bound put there) have
        // failed more than the last iterations before a pass usually do: the targeted ones too
        // (a b = 0 row whose terms are all of μ's size fails by its whole size until the
        // columns it holds at 0 are put there, and only those).
        if ratio > 1.0 {
            failed.set(failed.get() + 1);
            if failed.get() > QUICK_JUDGEMENTS {
                // The full list starts with the quick candidates, judged already: their primal
                // sides and the dual side are remembered by the checker, as are those of the
                // targeted candidates, built from their rows' backward errors.
                let (xs, y) = original_points(&checker, &sf, it, settings.tolerance(), true);
                if xs.len() > quick {
                    ratio = ratio.min(checker.judge(&xs, &y, settings.tolerance(), decisive));
                }
            }
        }
        judging.set(judging.get() + t.elapsed());
        ratio
    };
    let outcome = run_backend(&sf, &problem, settings, log, gpu, &mut timings.setup, &mut notes, &judge)?;
    let t_post = Instant::now();
    let mut v = verdict_checked(&checker, &sf, &outcome, settings);
    timings.proof = judging.get() + t_post.elapsed();
    let feasibility = ray_feasibility(model, &mut v, settings, deadline, &solve_feasibility);
    timings.feasibility = feasibility.as_ref().map_or(Duration::ZERO, |f| f.time);
    let reduced_costs = reduced_costs(model, &v.row_duals);
    let objective = objective(model, &v.x);
    log.line(&format!("verification: {}", v.verification.summary()));
    if let Some(c) = &v.certificate {
        log.line(&format!("certificate: {}", c.check.summary()));
    }
    if let Some(f) = &feasibility {
        log.line(&f.summary());
    }
    timings.postsolve = t_post.elapsed().saturating_sub(timings.feasibility);
    timings.mpc = outcome.timings;
    timings.total = t0.elapsed();
    if log.verbose() {
        log_timings(log, &timings);
    }
    Ok(Solution {
        status: v.status,
        objective,
        x: v.x,
        row_duals: v.row_duals,
        reduced_costs,
        iterations: outcome.iterations,
        backend: settings.backend(),
        standard_form_size: (m, n),
        last_iteration: outcome.last,
        detail: v.detail,
        gpu_iterations: outcome.gpu_iterations,
        single_factorizations: outcome.single_factorizations,
        notes,
        verification: Some(v.verification),
        certificate: v.certificate,
        feasibility,
        best_iterate: outcome.best_returned,
        timings,
    })
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
        backend: st.backend(),
        standard_form_size: (0, 0),
        last_iteration: IterationInfo::default(),
        detail: format!("presolve: {why}"),
        gpu_iterations: None,
        single_factorizations: None,
        notes: Vec::new(),
        verification: None,
        certificate: None,
        feasibility: None,
        best_iterate: false,
        timings,
    }
}

/// Verbose: the time of each phase.
fn log_timings(log: &mut Logger, t: &Timings) {
    log.line(&format!(
        "time: {:.3} s (standard form {:.3}, setup {:.3}, assemble {:.3}, factor {:.3}, solve {:.3}, other {:.3}, postsolve {:.3}; proof {:.3} of it)",
        t.total.as_secs_f64(),
        t.standard_form.as_secs_f64(),
        t.setup.as_secs_f64(),
        t.mpc.assemble.as_secs_f64(),
        t.mpc.factor.as_secs_f64(),
        t.mpc.solve.as_secs_f64(),
        t.mpc.other.as_secs_f64(),
        t.postsolve.as_secs_f64(),
        t.proof.as_secs_f64()
    ));
}

/// The standard form `solve` would build (for tests and tools that inspect it), of a valid
/// `model` (see [`standard_form`]; free columns kept whole or split as the solve would).
pub fn presolve(model: &LpModel, settings: &Settings) -> Presolved {
    standard_form_for(model, settings).0
}

/// The standard form of `model` for `settings`, with the reason its free columns were split
/// (`None`: kept whole, or there are none): written whole first, split where
/// [`free_column_split`] says the path the settings take needs it.
fn standard_form_for(model: &LpModel, settings: &Settings) -> (Presolved, Option<&'static str>) {
    let kept = standard_form(model, settings.scaling());
    let why = match &kept {
        Presolved::Form(sf) => free_column_split(sf, settings),
        _ => None,
    };
    match why {
        Some(why) => {
            let units = crate::lp::units::Units::of(model);
            (standard_form_in(model, &units, settings.scaling(), FreeColumns::Split), Some(why))
        }
        None => (kept, None),
    }
}
