//! The names Python passes for backends and variants: the library's own names (`FromStr`),
//! with errors worded as Python reports them.

use glsolve::BackendKind;
use glsolve::Variant;
use pyo3::exceptions::PyValueError;
use pyo3::PyResult;

/// Where a dense factorization or solve runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DenseBackend {
    /// Single precision on the GL pipeline (refined to double precision where the function says so).
    Gpu,
    /// Double precision on the CPU (nalgebra).
    Cpu,
}

/// `backend=` of `linprog` and `solve_mps`: the library's names (its `FromStr`).
pub fn lp_backend(name: &str) -> PyResult<BackendKind> {
    name.parse::<BackendKind>().map_err(|e| {
        let known: Vec<String> = e.expected.iter().map(|b| format!("'{b}'")).collect();
        PyValueError::new_err(format!("backend = '{name}' is not a backend: use one of {}", known.join(", ")))
    })
}

/// `backend=` of `cholesky`, `solve` and `lstsq`.
pub fn dense_backend(name: &str) -> PyResult<DenseBackend> {
    match name {
        "gpu" => Ok(DenseBackend::Gpu),
        "cpu" => Ok(DenseBackend::Cpu),
        _ => Err(PyValueError::new_err(format!("backend = '{name}' is not a backend: use 'gpu' or 'cpu'"))),
    }
}

/// `variant=` of `cholesky` (the command line's `--variant` names: the library's `FromStr`).
pub fn cholesky_variant(name: &str) -> PyResult<Variant> {
    name.parse::<Variant>().map_err(|e| {
        let known: Vec<String> = e.expected.iter().map(|v| format!("'{v}'")).collect();
        PyValueError::new_err(format!("variant = '{name}' is not a Cholesky variant: use one of {}", known.join(", ")))
    })
}

/// The names of the Cholesky variants (for the Python docstrings and tests).
pub fn cholesky_variants() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.name()).collect()
}
