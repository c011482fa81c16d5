//! LP solves for the package: a model (MPS text or arrays), options as JSON, and a JavaScript
//! function called with every iteration's record as it is computed. The function's answer is the
//! interrupt: `true` raises the solve's interrupt flag (`SettingsBuilder::interrupt`), which the
//! loop reads right after the iteration's record, so the solve stops within the iteration. The
//! answer is a plain object: status, objective, x and the duals as `Float64Array`s, the
//! independent check's verdict, the log, the timings, the backend that ran.
//!
//! The log's lines and the iteration records come through the library's own sinks
//! (`Logger::lines`, `Logger::with_progress`). They take `Send` closures, and JavaScript values
//! are not `Send`: the closures reach the callback through a thread-local, which on wasm32 (one
//! thread) is the solve's own.

use crate::errors::ApiError;
use crate::progress::Row;
use glsolve::lp::solve_on;
use glsolve::{BackendKind, Gpu, Logger, LpModel, Progress, Settings};
use js_sys::{Float64Array, Function, Reflect};
use serde::Deserialize;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use wasm_bindgen::JsValue;

/// The options JavaScript passes (callbacks and the signal stay on its side).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LpOptions {
    #[serde(default)]
    backend: Option<String>,
    #[serde(default)]
    tolerance: Option<f64>,
    #[serde(default)]
    max_iterations: Option<usize>,
    /// Seconds.
    #[serde(default)]
    time_limit: Option<f64>,
}

impl LpOptions {
    pub fn parse(json: &str) -> Result<LpOptions, ApiError> {
        serde_json::from_str(json).map_err(|e| ApiError::invalid(format!("LP options {json}: {e}")))
    }

    /// The backend named (the library's own names), `auto` when none is.
    pub fn backend(&self) -> Result<BackendKind, ApiError> {
        Ok(self.backend.as_deref().unwrap_or("auto").parse::<BackendKind>()?)
    }

    /// Refuses, on the sizes alone, a standard form of at most `m` rows and `n` columns whose
    /// textures the gpu backend could not make on `gpu` (the library's own check, which the
    /// solve repeats on the exact sizes): nothing of the model has been sent or built yet.
    pub fn check_size(&self, gpu: Option<&Gpu>, m: usize, n: usize) -> Result<(), ApiError> {
        let settings = self.settings(Arc::new(AtomicBool::new(false)))?;
        match (gpu, settings.gpu()) {
            (Some(gpu), Some(options)) if settings.backend() == BackendKind::Gpu => {
                glsolve::lp::backend::check_gpu_limits(gpu, m, n, options).map_err(|e| {
                    ApiError::from(glsolve::SolveError::Backend(e)).with_prefix(&format!(
                        "an LP whose standard form has up to {m} rows and {n} columns (slack columns included) does not fit the gpu backend"
                    ))
                })
            }
            _ => Ok(()),
        }
    }

    /// The library's settings, validated by its builder (a value out of range is its error).
    fn settings(&self, interrupt: Arc<AtomicBool>) -> Result<Settings, ApiError> {
        let mut b = Settings::builder(self.backend()?).interrupt(interrupt);
        if let Some(t) = self.tolerance {
            b = b.tolerance(t);
        }
        if let Some(k) = self.max_iterations {
            b = b.max_iterations(k);
        }
        if let Some(s) = self.time_limit {
            let limit = std::time::Duration::try_from_secs_f64(s)
                .map_err(|_| ApiError::invalid(format!("timeLimit = {s}: seconds must be finite and ≥ 0")))?;
            b = b.time_limit(limit);
        }
        Ok(b.build()?)
    }
}

/// What the sinks need while a solve runs.
struct Hook {
    on_row: Function,
    interrupt: Arc<AtomicBool>,
    log: String,
    /// What `on_row` threw (the solve is interrupted, and the call rejects with it).
    thrown: Option<JsValue>,
}

thread_local! {
    static HOOK: RefCell<Option<Hook>> = const { RefCell::new(None) };
}

/// The line sink: the log the result carries.
fn line(text: &str) {
    HOOK.with(|h| {
        if let Some(hook) = h.borrow_mut().as_mut() {
            hook.log.push_str(text);
            hook.log.push('\n');
        }
    });
}

/// The progress sink: the iteration's record to the callback, whose truthy answer (or throw)
/// raises the interrupt.
fn progress(p: &Progress<'_>) {
    let Some((on_row, interrupt)) = HOOK.with(|h| h.borrow().as_ref().map(|h| (h.on_row.clone(), h.interrupt.clone())))
    else {
        return;
    };
    // The callback runs with the hook released: it is the caller's own code.
    let json = serde_json::to_string(&Row::from(p)).unwrap_or_default();
    let value = js_sys::JSON::parse(&json).unwrap_or(JsValue::NULL);
    match on_row.call1(&JsValue::NULL, &value) {
        Ok(stop) if stop.is_truthy() => interrupt.store(true, Ordering::Relaxed),
        Ok(_) => {}
        Err(thrown) => {
            interrupt.store(true, Ordering::Relaxed);
            HOOK.with(|h| h.borrow_mut().as_mut().map(|hook| hook.thrown.get_or_insert(thrown)).is_some());
        }
    }
}

/// Solves `model` on `gpu` (None: no WebGL2 here; `missing` says why, for an explicit `gpu`).
pub fn solve(
    model: &LpModel,
    options: &LpOptions,
    gpu: Option<&Gpu>,
    missing: Option<&ApiError>,
    on_row: Function,
) -> Result<JsValue, JsValue> {
    let kind = options.backend()?;
    if let (None, Some(why), BackendKind::Gpu) = (gpu, missing, kind) {
        return Err(ApiError::new(why.code, format!("the gpu backend needs WebGL2: {}", why.message)).into());
    }
    let interrupt = Arc::new(AtomicBool::new(false));
    let settings = options.settings(interrupt.clone())?;
    HOOK.with(|h| *h.borrow_mut() = Some(Hook { on_row, interrupt, log: String::new(), thrown: None }));
    let mut log = Logger::lines(line).with_progress(progress);
    let solved = solve_on(model, &settings, &mut log, gpu);
    drop(log);
    let hook = HOOK.with(|h| h.borrow_mut().take());
    let (log, thrown) = hook.map(|h| (h.log, h.thrown)).unwrap_or_default();
    if let Some(thrown) = thrown {
        return Err(thrown);
    }
    let sol = solved.map_err(ApiError::from)?;
    let t = &sol.timings;
    let timings: serde_json::Map<String, serde_json::Value> = [
        ("total", t.total),
        ("standardForm", t.standard_form),
        ("setup", t.setup),
        ("assemble", t.mpc.assemble),
        ("factor", t.mpc.factor),
        ("solve", t.mpc.solve),
        ("other", t.mpc.other),
        ("postsolve", t.postsolve),
    ]
    .into_iter()
    .map(|(k, d)| (k.to_string(), d.as_secs_f64().into()))
    .collect();
    let scalars = serde_json::json!({
        "status": sol.status.name(),
        "optimal": sol.status == glsolve::Status::Optimal,
        "objective": sol.objective,
        "iterations": sol.iterations,
        "gpuIterations": sol.gpu_iterations,
        "backend": sol.backend.name(),
        "rows": model.num_rows(),
        "columns": model.num_cols(),
        "enclosure": sol.enclosure(),
        "verification": sol.verification,
        "verdict": sol.verification.as_ref().map(|v| v.summary()),
        "certificate": sol.certificate,
        "detail": sol.detail,
        "notes": sol.notes,
        "bestIterate": sol.best_iterate,
        "timings": timings,
        "log": log,
    });
    let out = js_sys::JSON::parse(&scalars.to_string())?;
    for (k, v) in [("x", &sol.x), ("rowDuals", &sol.row_duals), ("reducedCosts", &sol.reduced_costs)] {
        Reflect::set(&out, &k.into(), &Float64Array::from(v.as_slice()))?;
    }
    Ok(out)
}
