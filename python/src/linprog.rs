//! LP solves: a model from Python's arrays (`solve_arrays`) or from an MPS file
//! (`solve_mps_file`), solved off the GIL by the library, answered as a dict of the library's
//! facts. glsolve/_linprog.py shapes that dict into scipy's OptimizeResult.

use crate::arrays::{f64s, to_bytes};
use crate::errors::{no_gl, raised};
use crate::model::{blocks as blocks_of, Parts};
use crate::names::lp_backend;
use crate::worker::{run, Event, GlContext, Iteration, JobContext, Place};
use glsolve::binding::SolveOptions;
use glsolve::lp::{solve_on, LpModel, Solution, SolveError};
use glsolve::BackendKind;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

/// The options every LP solve takes: the library's record (`None`: the backend's default,
/// every value checked by the library), and whether each iteration's record carries the
/// iterate's x (a scipy-style callback reads it).
pub struct Options {
    pub record: SolveOptions,
    pub points: bool,
}

impl Options {
    fn new(
        backend: &str,
        tol: Option<f64>,
        max_iter: Option<usize>,
        time_limit: Option<f64>,
        points: bool,
    ) -> PyResult<Self> {
        let backend = Some(lp_backend(backend)?);
        Ok(Options { record: SolveOptions { backend, tolerance: tol, max_iterations: max_iter, time_limit }, points })
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
    let kind = opts.record.backend();
    let place = if kind == BackendKind::Cpu { Place::Cpu } else { Place::Gl };
    let job = move |gl: GlContext<'_>, job: JobContext| -> Answer {
        let settings = match opts.record.settings_with(Some(job.interrupt.clone())) {
            Ok(s) => s,
            Err(e) => return Answer::Failed(e.into()),
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
        match (missing, kind) {
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
        Answer::Failed(e) => Err(raised(py, e)),
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
    let opts = Options::new(backend, tol, max_iter, time_limit, points)?;
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
    let opts = Options::new(backend, tol, max_iter, time_limit, points)?;
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
    py.detach(|| glsolve::lp::mps::read_bytes(&bytes)).map_err(|e| raised(py, e))
}

/// The library's answer as a dict: its record (`SolutionRecord`, through Python's `json`, so
/// that names and values are the library's) with the vectors beside it as float64 bytes.
fn solution_dict<'py>(py: Python<'py>, s: &Solution) -> PyResult<Bound<'py, PyDict>> {
    let text = serde_json::to_string(&s.record())
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("the solution's record: {e}")))?;
    let d = py.import("json")?.call_method1("loads", (text,))?.cast_into::<PyDict>()?;
    for (name, _, values) in s.vectors() {
        d.set_item(name, to_bytes(py, values)?)?;
    }
    Ok(d)
}
