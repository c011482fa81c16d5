//! The names Python passes for backends and variants. Each kind of name is parsed by one
//! function here, so that the library's own parsers can take their place in one spot.

use glsolve::gpu::cholesky::Variant;
use glsolve::BackendKind;
use pyo3::exceptions::PyValueError;
use pyo3::PyResult;

/// The LP backends a caller may name, in the order the error message lists them.
const LP_BACKENDS: [BackendKind; 4] = [BackendKind::Auto, BackendKind::Cpu, BackendKind::Hybrid, BackendKind::Gpu];

/// Where a dense factorization or solve runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DenseBackend {
    /// Single precision on the GL pipeline (refined to double precision where the function says so).
    Gpu,
    /// Double precision on the CPU (nalgebra).
    Cpu,
}

/// `backend=` of `linprog` and `solve_mps`.
pub fn lp_backend(name: &str) -> PyResult<BackendKind> {
    LP_BACKENDS.into_iter().find(|b| b.name() == name).ok_or_else(|| {
        let known: Vec<String> = LP_BACKENDS.iter().map(|b| format!("'{}'", b.name())).collect();
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

/// `variant=` of `cholesky` (the command line's `--variant` names).
pub fn cholesky_variant(name: &str) -> PyResult<Variant> {
    Variant::from_name(name).ok_or_else(|| {
        let known: Vec<String> = Variant::ALL.iter().map(|v| format!("'{}'", v.name())).collect();
        PyValueError::new_err(format!("variant = '{name}' is not a Cholesky variant: use one of {}", known.join(", ")))
    })
}

/// The names of the Cholesky variants (for the Python docstrings and tests).
pub fn cholesky_variants() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.name()).collect()
}
