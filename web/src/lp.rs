//! LP solves for the page: an MPS file the user opened or a random dense LP of the papers'
//! family, on any backend but the ones that need threads of their own; the result as JSON with
//! the iteration log and the independent check's verdict.

use glsolve::clock::Instant;
use glsolve::gl::Gpu;
use glsolve::lp::log::Logger;
use glsolve::lp::{mps, random, solve_on, BackendKind, Settings};
use serde::Deserialize;
use std::sync::{Arc, Mutex};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LpSpec {
    #[serde(default)]
    m: Option<usize>,
    #[serde(default = "seven")]
    seed: u64,
    #[serde(default = "gpu")]
    backend: String,
    #[serde(default)]
    tolerance: Option<f64>,
    #[serde(default)]
    max_iterations: Option<usize>,
}

fn seven() -> u64 {
    7
}
fn gpu() -> String {
    "gpu".into()
}

/// What a solve hands the page as it runs: the log's lines and one record per iteration.
#[derive(Clone, Default)]
struct Collected {
    lines: Arc<Mutex<String>>,
    progress: Arc<Mutex<Vec<serde_json::Value>>>,
}

impl Collected {
    /// The logger that fills these (the library's line and progress sinks).
    fn logger(&self) -> Logger {
        let (lines, progress) = (self.lines.clone(), self.progress.clone());
        Logger::lines(move |line| {
            if let Ok(mut text) = lines.lock() {
                text.push_str(line);
                text.push('\n');
            }
        })
        .with_progress(move |p| {
            if let Ok(mut rows) = progress.lock() {
                rows.push(serde_json::json!({
                    "iteration": p.info.iteration,
                    "primal_objective": p.primal_objective,
                    "dual_objective": p.dual_objective,
                    "primal_infeasibility": p.info.primal_infeasibility,
                    "dual_infeasibility": p.info.dual_infeasibility,
                    "gap": p.info.relative_gap,
                    "mu": p.info.mu,
                    "backend": p.backend,
                }));
            }
        })
    }
}

/// Solves and reports. Errors (a malformed MPS file with its line, bad settings, a model too
/// large for the context's textures) come back as their messages.
pub fn solve(gpu: &Gpu, spec: &str, mps_text: &str) -> Result<String, String> {
    let spec: LpSpec = serde_json::from_str(spec).map_err(|e| format!("bad request {spec}: {e}"))?;
    let backend: BackendKind = spec.backend.parse().map_err(|e| format!("{e}"))?;
    let model = if mps_text.is_empty() {
        let m = spec.m.ok_or("a random LP needs its number of rows m")?;
        if m == 0 {
            return Err("m must be at least 1".into());
        }
        random::random_lp(m, spec.seed).to_model(spec.seed)
    } else {
        mps::read_str(mps_text).map_err(|e| format!("the MPS file cannot be read: {e}"))?
    };
    let mut settings = Settings::builder(backend);
    if let Some(t) = spec.tolerance {
        settings = settings.tolerance(t);
    }
    if let Some(k) = spec.max_iterations {
        settings = settings.max_iterations(k);
    }
    let settings = settings.build().map_err(|e| e.to_string())?;
    let collected = Collected::default();
    let mut log = collected.logger();
    let t = Instant::now();
    let sol = solve_on(&model, &settings, &mut log, Some(gpu)).map_err(|e| e.to_string())?;
    let seconds = t.elapsed().as_secs_f64();
    let log = collected.lines.lock().map_err(|_| "log poisoned")?.clone();
    let progress = std::mem::take(&mut *collected.progress.lock().map_err(|_| "log poisoned")?);
    Ok(serde_json::json!({
        "status": sol.status.name(),
        "optimal": sol.status == glsolve::Status::Optimal,
        "objective": sol.objective,
        "iterations": sol.iterations,
        "gpu_iterations": sol.gpu_iterations,
        "backend": sol.backend.name(),
        "rows": model.num_rows(),
        "columns": model.num_cols(),
        "seconds": seconds,
        "verification": sol.verification.as_ref().map(|v| v.summary()),
        "detail": sol.detail,
        "notes": sol.notes,
        "log": log,
        "progress": progress,
    })
    .to_string())
}
