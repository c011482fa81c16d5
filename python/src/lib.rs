//! `glsolve._glsolve`: the extension module under the Python package `glsolve`. Each file binds
//! one concern of the library's public API; the Python half (python/glsolve/) checks arguments
//! with their names and shapes the answers into scipy's and CVXPY's forms.
//!
//! * `linprog`: LP solves from arrays or MPS files, off the GIL, interruptible;
//! * `model`: constraint blocks in, MPS models out;
//! * `dense`: Cholesky, linear solves, least squares on the gpu or cpu backend;
//! * `info`: the driver's capability record, the papers' random LP family;
//! * `worker`: the threads solves run on, signals, log lines;
//! * `names`, `arrays`, `errors`: names, bytes and exceptions at the boundary.

mod arrays;
mod dense;
mod errors;
mod info;
mod linprog;
mod model;
mod names;
mod worker;

use pyo3::prelude::*;

/// `_glsolve.read_mps(path)`: the model of an MPS file (gzip too) as a dict of arrays.
#[pyfunction]
fn read_mps(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Bound<'_, pyo3::types::PyDict>> {
    let m = linprog::read_model(py, &path)?;
    model::to_dict(py, &m)
}

/// The names `backend=` of `linprog` and `solve_mps` accepts: the library's one list.
#[pyfunction]
fn lp_backends() -> Vec<&'static str> {
    glsolve::binding::lp_backends()
}

/// The names `variant=` of `cholesky` accepts.
#[pyfunction]
fn cholesky_variants() -> Vec<&'static str> {
    names::cholesky_variants()
}

#[pymodule]
fn _glsolve(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(linprog::linprog, m)?)?;
    m.add_function(wrap_pyfunction!(linprog::solve_mps, m)?)?;
    m.add_function(wrap_pyfunction!(read_mps, m)?)?;
    m.add_function(wrap_pyfunction!(dense::cholesky, m)?)?;
    m.add_function(wrap_pyfunction!(dense::solve, m)?)?;
    m.add_function(wrap_pyfunction!(dense::lstsq, m)?)?;
    m.add_function(wrap_pyfunction!(info::info, m)?)?;
    m.add_function(wrap_pyfunction!(info::random_lp, m)?)?;
    m.add_function(wrap_pyfunction!(cholesky_variants, m)?)?;
    m.add_function(wrap_pyfunction!(lp_backends, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
