//! LP solves: a model from Python's arrays (`solve_arrays`) or from an MPS file
//! (`solve_mps_file`), solved off the GIL by the library, answered as a dict of the library's
//! facts. glsolve/_linprog.py shapes that dict into scipy's OptimizeResult.

use crate::arrays::{f64s, to_bytes};
use crate::errors::{mps_error, no_gl, solve_error};
use crate::model::{blocks as blocks_of, Parts};
use crate::names::lp_backend;
use crate::worker::{run, Event, GlContext, Iteration, JobContext, Place};
use glsolve::lp::{solve_on, LpModel, Solution, SolveError};
use glsolve::{BackendKind, Settings};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::time::Duration;

/// The options every LP solve takes (`None`: the backend's default).
pub struct Options {
    pub backend: BackendKind,
    pub tol: Option<f64>,
    pub max_iter: Option<usize>,
    pub time_limit: Option<Duration>,
    /// Whether each iteration's record carries the iterate's x (a scipy-style callback reads it).
    pub points: bool,
}

/// A time limit in seconds as the library takes it: finite and > 0, or a `ValueError` that says
/// what it got (never a limit dropped in silence).
fn time_limit_of(seconds: Option<f64>) -> PyResult<Option<Duration>> {
    let Some(s) = seconds else { return Ok(None) };
    match Duration::try_from_secs_f64(s) {
        Ok(d) if s > 0.0 => Ok(Some(d)),
        _ => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "time_limit = {s}: the time limit must be > 0 seconds and finite"
        ))),
    }
}

impl Options {
    /// The library's settings (a value it refuses is the solve's error, as Python reports it).
    fn settings(&self, job: &JobContext) -> Result<Settings, SolveError> {
        let mut b = Settings::builder(self.backend).interrupt(job.interrupt.clone());
        if let Some(t) = self.tol {
            b = b.tolerance(t);
        }
        if let Some(k) = self.max_iter {
            b = b.max_iterations(k);
        }
        if let Some(limit) = self.time_limit {
            b = b.time_limit(limit);
        }
        Ok(b.build()?)
    }
}

/// What a solve job hands back.
enum Answer {
    /// The library's answer, with the reason no GL context exists where a backend wanted one.
    Solved(Box<Solution>, Option<String>),
    Failed(SolveError),
    /// The `gpu` backend without a GL context.
    NoGl(String),
}

/// Solves `model` with `opts` on the right thread; log lines go to `sink.line(text)` and each
/// iteration's record to `sink.iteration(dict)` as they come.
fn solve_model<'py>(
    py: Python<'py>,
    model: impl FnOnce() -> Result<LpModel, SolveError> + Send + 'static,
    opts: Options,
    sink: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let place = if opts.backend == BackendKind::Cpu { Place::Cpu } else { Place::Gl };
    let job = move |gl: GlContext<'_>, job: JobContext| -> Answer {
        let settings = match opts.settings(&job) {
            Ok(s) => s,
            Err(e) => return Answer::Failed(e),
        };
        let mut log = job.logger(opts.points);
        let model = match model() {
            Ok(m) => m,
            Err(e) => return Answer::Failed(e),
        };
        let (gpu, missing) = match (place, gl) {
            (Place::Gl, Ok(g)) => (Some(g), None),
            (Place::Gl, Err(why)) => (None, Some(why.to_string())),
            (Place::Cpu, _) => (None, None),
        };
        match (missing, opts.backend) {
            (Some(why), BackendKind::Gpu) => Answer::NoGl(why),
            (missing, _) => match solve_on(&model, &settings, &mut log, gpu) {
                Ok(s) => Answer::Solved(Box::new(s), missing),
                Err(e) => Answer::Failed(e),
            },
        }
    };
    let forward = |event: Event| -> PyResult<()> {
        let Some(sink) = &sink else { return Ok(()) };
        match event {
            Event::Line(text) => sink.call_method1("line", (text,))?,
            Event::Iteration(it) => sink.call_method1("iteration", (iteration_dict(py, &it)?,))?,
        };
        Ok(())
    };
    match run(py, place, true, job, forward)? {
        Answer::Solved(solution, missing) => {
            let d = solution_dict(py, &solution)?;
            d.set_item("gl_missing", missing)?;
            Ok(d)
        }
        Answer::Failed(e) => Err(solve_error(e)),
        Answer::NoGl(why) => Err(no_gl(&why)),
    }
}

/// One iteration's record as the dict `glsolve._result.iteration` shapes for `callback`.
fn iteration_dict<'py>(py: Python<'py>, it: &Iteration) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("nit", it.nit)?;
    d.set_item("fun", it.primal_objective)?;
    d.set_item("dual_objective", it.dual_objective)?;
    d.set_item("primal_infeasibility", it.primal_infeasibility)?;
    d.set_item("dual_infeasibility", it.dual_infeasibility)?;
    d.set_item("gap", it.gap)?;
    d.set_item("mu", it.mu)?;
    d.set_item("alpha_primal", it.alpha_primal)?;
    d.set_item("alpha_dual", it.alpha_dual)?;
    d.set_item("backend", &it.backend)?;
    if let Some(x) = &it.x {
        d.set_item("x", to_bytes(py, x)?)?;
    }
    Ok(d)
}

/// `_glsolve.linprog`: min cᵀx s.t. row_lower ≤ A·x ≤ row_upper, col_lower ≤ x ≤ col_upper,
/// A the row blocks stacked (see `model::block`).
#[pyfunction]
#[pyo3(signature = (c, blocks, row_lower, row_upper, col_lower, col_upper, backend, tol, max_iter, time_limit, sink, points=false))]
#[allow(clippy::too_many_arguments)]
pub fn linprog<'py>(
    py: Python<'py>,
    c: Bound<'py, PyBytes>,
    blocks: Bound<'py, PyList>,
    row_lower: Bound<'py, PyBytes>,
    row_upper: Bound<'py, PyBytes>,
    col_lower: Bound<'py, PyBytes>,
    col_upper: Bound<'py, PyBytes>,
    backend: &str,
    tol: Option<f64>,
    max_iter: Option<usize>,
    time_limit: Option<f64>,
    sink: Option<Bound<'py, PyAny>>,
    points: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = Options { backend: lp_backend(backend)?, tol, max_iter, time_limit: time_limit_of(time_limit)?, points };
    let n = c.as_bytes().len() / 8;
    let c = f64s("c", c.as_bytes(), n)?;
    let blocks = blocks_of(&blocks, n)?;
    let m: usize = blocks.iter().map(|b| b.nrows()).sum();
    let parts = Parts {
        c,
        blocks,
        row_lower: f64s("row_lower", row_lower.as_bytes(), m)?,
        row_upper: f64s("row_upper", row_upper.as_bytes(), m)?,
        col_lower: f64s("col_lower", col_lower.as_bytes(), n)?,
        col_upper: f64s("col_upper", col_upper.as_bytes(), n)?,
    };
    solve_model(py, move || parts.build().map_err(SolveError::Model), opts, sink)
}

/// `_glsolve.solve_mps`: the model of an MPS file (gzip too), in its own sense and form.
#[pyfunction]
#[pyo3(signature = (path, backend, tol, max_iter, time_limit, sink, points=false))]
#[allow(clippy::too_many_arguments)]
pub fn solve_mps<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    backend: &str,
    tol: Option<f64>,
    max_iter: Option<usize>,
    time_limit: Option<f64>,
    sink: Option<Bound<'py, PyAny>>,
    points: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = Options { backend: lp_backend(backend)?, tol, max_iter, time_limit: time_limit_of(time_limit)?, points };
    let model = read_model(py, &path)?;
    let (sense, constant) = (model.sense, model.obj_constant);
    let d = solve_model(py, move || Ok(model), opts, sink)?;
    d.set_item("sense", if sense == glsolve::Sense::Maximize { "max" } else { "min" })?;
    d.set_item("obj_constant", constant)?;
    Ok(d)
}

/// The model of an MPS file: OSError for a file that cannot be read, ValueError with the line
/// for one that does not parse. Read off the GIL.
pub fn read_model(py: Python<'_>, path: &std::path::Path) -> PyResult<LpModel> {
    let bytes = py.detach(|| std::fs::read(path))?;
    py.detach(|| glsolve::lp::mps::read_bytes(&bytes)).map_err(mps_error)
}

/// The library's answer as a dict: vectors as float64 bytes, plain facts as values, and under
/// `"json"` the structured ones as JSON text, which glsolve/_result.py decodes into result
/// fields of the same names (a new serializable field of [`Solution`] is one line there).
fn solution_dict<'py>(py: Python<'py>, s: &Solution) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("status", format!("{:?}", s.status))?;
    d.set_item("status_name", s.status.name())?;
    d.set_item("objective", s.objective)?;
    d.set_item("x", to_bytes(py, &s.x)?)?;
    d.set_item("row_duals", to_bytes(py, &s.row_duals)?)?;
    d.set_item("reduced_costs", to_bytes(py, &s.reduced_costs)?)?;
    d.set_item("iterations", s.iterations)?;
    d.set_item("gpu_iterations", s.gpu_iterations)?;
    d.set_item("backend", s.backend.name())?;
    d.set_item("detail", &s.detail)?;
    d.set_item("notes", s.notes.clone())?;
    d.set_item("best_iterate", s.best_iterate)?;
    d.set_item("standard_form_size", s.standard_form_size)?;
    let structured = PyDict::new(py);
    structured.set_item("enclosure", json(&s.enclosure()))?;
    structured.set_item("verification", json(&s.verification))?;
    structured.set_item("certificate", json(&s.certificate))?;
    structured.set_item("feasibility", json(&s.feasibility))?;
    d.set_item("json", structured)?;
    let t = &s.timings;
    let timings = PyDict::new(py);
    for (name, v) in [
        ("total", t.total),
        ("standard_form", t.standard_form),
        ("setup", t.setup),
        ("assemble", t.mpc.assemble),
        ("factor", t.mpc.factor),
        ("solve", t.mpc.solve),
        ("other", t.mpc.other),
        ("postsolve", t.postsolve),
        ("feasibility", t.feasibility),
    ] {
        timings.set_item(name, v.as_secs_f64())?;
    }
    d.set_item("timings", timings)?;
    Ok(d)
}

/// JSON text of a serializable value (`null` for `None`), for Python's `json.loads`.
fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
