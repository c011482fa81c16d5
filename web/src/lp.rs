//! LP solves for the package: a model (MPS text or arrays), options as JSON, and a JavaScript
//! function called with every iteration's record as it is computed. The function's answer is the
//! interrupt: `true` raises the solve's interrupt flag (`SettingsBuilder::interrupt`), which the
//! loop reads right after the iteration's record, so the solve stops within the iteration. The
//! answer is the library's solution record (`glsolve::binding::SolutionRecord`) in camelCase,
//! with x and the duals as `Float64Array`s, the model's size and the log.
//!
//! The log's lines and the iteration records come through the library's own sinks
//! (`Logger::lines`, `Logger::with_progress`). They take `Send` closures, and JavaScript values
//! are not `Send`: the closures reach the callback through a thread-local, which on wasm32 (one
//! thread) is the solve's own.

use crate::case::{camel, rename_keys, snake};
use crate::errors::ApiError;
use crate::progress::Row;
use glsolve::binding::SolveOptions;
use glsolve::lp::solve_on;
use glsolve::{BackendKind, Gpu, Logger, LpModel, Progress, Settings};
use js_sys::{Float64Array, Function, Reflect};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use wasm_bindgen::JsValue;

/// The options JavaScript passes (callbacks and the signal stay on its side): the library's
/// record, its keys in the package's camelCase.
pub struct LpOptions(SolveOptions);

impl LpOptions {
    pub fn parse(json: &str) -> Result<LpOptions, ApiError> {
        let invalid = |e: serde_json::Error| ApiError::invalid(format!("LP options {json}: {e}"));
        let value: serde_json::Value = serde_json::from_str(json).map_err(invalid)?;
        Ok(LpOptions(serde_json::from_value(rename_keys(value, &snake)).map_err(invalid)?))
    }

    /// The backend named, `auto` when none is.
    pub fn backend(&self) -> BackendKind {
        self.0.backend()
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
        Ok(self.0.settings_with(Some(interrupt))?)
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
    let kind = options.backend();
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
    let mut record = serde_json::to_value(sol.record()).map_err(|e| ApiError::new("internal", e.to_string()))?;
    if let Some(fields) = record.as_object_mut() {
        fields.insert("rows".into(), model.num_rows().into());
        fields.insert("columns".into(), model.num_cols().into());
        fields.insert("log".into(), log.into());
    }
    let out = js_sys::JSON::parse(&rename_keys(record, &camel).to_string())?;
    for (name, _, values) in sol.vectors() {
        Reflect::set(&out, &camel(name).into(), &Float64Array::from(values))?;
    }
    Ok(out)
}
