//! LP solves for the page: an MPS file the user opened or a random dense LP of the papers'
//! family, on any backend but the ones that need threads of their own; the result as JSON with
//! the iteration log and the independent check's verdict.

use glsolve::clock::Instant;
use glsolve::gl::Gpu;
use glsolve::lp::log::Logger;
use glsolve::lp::{mps, random, solve_on, BackendKind, Settings, Verbosity};
use serde::Deserialize;
use std::io::Write;
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

/// The log's lines, collected for the page.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().map_err(|_| std::io::Error::other("log poisoned"))?.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Solves and reports. Errors (a malformed MPS file with its line, bad settings, a model too
/// large for the context's textures) come back as their messages.
pub fn solve(gpu: &Gpu, spec: &str, mps_text: &str) -> Result<String, String> {
    let spec: LpSpec = serde_json::from_str(spec).map_err(|e| format!("bad request {spec}: {e}"))?;
    let backend = match spec.backend.as_str() {
        "gpu" => BackendKind::Gpu,
        "hybrid" => BackendKind::Hybrid,
        "cpu" => BackendKind::Cpu,
        other => return Err(format!("unknown backend {other:?} (gpu, hybrid, cpu)")),
    };
    let model = if mps_text.is_empty() {
        let m = spec.m.ok_or("a random LP needs its number of rows m")?;
        if m == 0 {
            return Err("m must be at least 1".into());
        }
        random::random_lp(m, spec.seed).to_model(spec.seed)
    } else {
        mps::read_str(mps_text).map_err(|e| format!("the MPS file cannot be read: {e}"))?
    };
    let mut settings = Settings { verbosity: Verbosity::Normal, ..Settings::for_backend(backend) };
    if let Some(t) = spec.tolerance {
        settings.tolerance = t;
    }
    if let Some(k) = spec.max_iterations {
        settings.max_iterations = k;
    }
    let lines = Lines::default();
    let mut log = Logger::to_writer(Box::new(lines.clone()));
    let t = Instant::now();
    let sol = solve_on(&model, &settings, &mut log, Some(gpu)).map_err(|e| e.to_string())?;
    let seconds = t.elapsed().as_secs_f64();
    let log = String::from_utf8_lossy(&lines.0.lock().map_err(|_| "log poisoned")?).into_owned();
    Ok(serde_json::json!({
        "status": sol.status.name(),
        "optimal": sol.status == glsolve::Status::Optimal,
        "objective": sol.objective,
        "iterations": sol.iterations,
        "gpu_iterations": sol.gpu_iterations,
        "backend": backend.name(),
        "rows": model.num_rows(),
        "columns": model.num_cols(),
        "seconds": seconds,
        "verification": sol.verification.as_ref().map(|v| v.summary()),
        "detail": sol.detail,
        "notes": sol.notes,
        "log": log,
    })
    .to_string())
}
