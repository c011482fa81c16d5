//! The library's typed errors as Python exceptions: malformed input is ValueError (its message
//! names the field, the index and the value or limit), a matrix the mathematics refuses (not
//! positive definite, singular, rank deficient) is numpy's LinAlgError (a ValueError), a
//! missing or failing GL driver is RuntimeError.

use glsolve::lp::mps::MpsError;
use glsolve::{DenseError, SolveError};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// An LP solve's error.
pub fn solve_error(e: SolveError) -> PyErr {
    match e {
        SolveError::Model(_) | SolveError::Settings(_) => PyValueError::new_err(e.to_string()),
        _ => PyRuntimeError::new_err(e.to_string()),
    }
}

/// A dense solve's error.
pub fn dense_error(py: Python<'_>, e: DenseError) -> PyErr {
    match e {
        DenseError::Shape { .. }
        | DenseError::Length { .. }
        | DenseError::NonFinite { .. }
        | DenseError::Weight { .. } => PyValueError::new_err(e.to_string()),
        DenseError::NotPositiveDefinite { .. } | DenseError::Singular { .. } | DenseError::RankDeficient => {
            lin_alg_error(py, e.to_string())
        }
        _ => PyRuntimeError::new_err(e.to_string()),
    }
}

/// numpy.linalg.LinAlgError(message), or ValueError where numpy cannot be imported.
pub fn lin_alg_error(py: Python<'_>, message: String) -> PyErr {
    let class = py.import("numpy.linalg").and_then(|m| m.getattr("LinAlgError"));
    match class.and_then(|c| c.call1((message.clone(),))) {
        Ok(instance) => PyErr::from_value(instance),
        Err(_) => PyValueError::new_err(message),
    }
}

/// An MPS file that does not parse: ValueError with the line.
pub fn mps_error(e: MpsError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A GL context that could not be made, for a call that needs one.
pub fn no_gl(why: &str) -> PyErr {
    PyRuntimeError::new_err(format!(
        "backend 'gpu' needs an OpenGL driver reachable through EGL, and none could be used: {why}"
    ))
}
