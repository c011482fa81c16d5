//! `bench families --backends hybrid,gpu`: the GL backends on the families, each with its own
//! defaults (tolerance, rules), timed as the cpu rows are, and the passes and fragments they
//! draw per iteration counted in one more, untimed run (occlusion queries synchronize every
//! pass). `--compare-full` adds each GL backend with the shapes turned off
//! ([`with_forced_shape`]`(Full)`): the hybrid's two sides and the gpu backend then form the
//! m×m matrix over every column, as before the shapes.

use super::family_case::{Case, Timed};
use glsolve::gl::Measure;
use glsolve::lp::backend::shape::{with_forced_shape, NormalShape};
use glsolve::lp::BackendKind;
use glsolve::lp::LpModel;
use glsolve::lp::Settings;
use glsolve::Gpu;
use glsolve::Logger;

/// One GL backend on one case.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct GlRow {
    pub case: Case,
    pub backend: String,
    /// Solved with the shapes off (`--compare-full`).
    pub full: bool,
    pub timed: Timed,
    /// Iterations whose normal equations were factored on the GPU.
    pub gpu_iterations: Option<usize>,
    pub passes_per_iteration: f64,
    pub fragments_per_iteration: f64,
    /// The solve's own note on a status other than optimal.
    pub detail: String,
}

/// (seconds, status, objective, iterations, GPU iterations, detail) of one solve.
type Run = (f64, String, f64, Option<usize>, Option<usize>, String);

fn once(model: &LpModel, st: &Settings, gpu: &Gpu, full: bool) -> Run {
    let solve = || match glsolve::lp::solve_on(model, st, &mut Logger::quiet(), Some(gpu)) {
        Ok(s) => (
            s.timings.total.as_secs_f64(),
            s.status.to_string(),
            s.objective,
            Some(s.iterations),
            s.gpu_iterations,
            s.detail,
        ),
        Err(e) => (f64::NAN, format!("error: {e}"), f64::NAN, None, None, String::new()),
    };
    if full {
        with_forced_shape(NormalShape::Full, solve)
    } else {
        solve()
    }
}

/// `backend` on `model` (case `case`): a one-iteration warm-up (the kernels compiled), `reps`
/// timed solves, then one counting solve.
pub fn run_case(case: Case, model: &LpModel, backend: BackendKind, full: bool, reps: usize, gpu: &Gpu) -> GlRow {
    let st = Settings::for_backend(backend);
    let warm = st.to_builder().max_iterations(1).build().unwrap_or_else(|_| st.clone());
    let _ = once(model, &warm, gpu, full);
    let mut runs: Vec<Run> = (0..reps.max(1)).map(|_| once(model, &st, gpu, full)).collect();
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let med = runs[runs.len() / 2].clone();
    let (counted, log) = gpu.logged(Measure::FRAGMENTS, |g| once(model, &st, g, full));
    let its = counted.3.unwrap_or(0).max(1) as f64;
    GlRow {
        case,
        backend: backend.name().to_string(),
        full,
        timed: Timed {
            solver: format!("glsolve {}", backend.name()),
            median_s: med.0,
            min_s: runs[0].0,
            max_s: runs[runs.len() - 1].0,
            reps: runs.len(),
            status: med.1,
            objective: med.2,
            iterations: med.3,
        },
        gpu_iterations: med.4,
        passes_per_iteration: log.passes() as f64 / its,
        fragments_per_iteration: log.fragments() as f64 / its,
        detail: med.5,
    }
}

/// The Markdown table of `rows`, each row's time and objective against `cpu`'s (seconds,
/// objective) for its case.
pub fn markdown(rows: &[GlRow], cpu: impl Fn(&Case) -> Option<(f64, f64)>) -> String {
    let mut s = String::from(
        "| family | data | backend | shapes | status | iterations (on the GPU) | time | passes / iteration | fragments / iteration | time / cpu backend | objective vs cpu |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let t = &r.timed;
        let (ratio, agree) = match cpu(&r.case) {
            Some((secs, obj)) if t.median_s.is_finite() => (
                format!("{:.1}", t.median_s / secs),
                format!("{:.1e}", (t.objective - obj).abs() / obj.abs().max(1e-300)),
            ),
            _ => ("–".into(), "–".into()),
        };
        let its = match (t.iterations, r.gpu_iterations) {
            (Some(i), Some(g)) => format!("{i} ({g})"),
            (Some(i), None) => i.to_string(),
            _ => "–".into(),
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {its} | {:.3} s | {:.0} | {:.3e} | {ratio} | {agree} |\n",
            r.case.title(),
            r.case.data(),
            r.backend,
            if r.full { "off" } else { "on" },
            t.status,
            t.median_s,
            r.passes_per_iteration,
            r.fragments_per_iteration,
        ));
    }
    s
}
