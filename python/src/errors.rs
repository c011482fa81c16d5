//! The library's errors as Python exceptions, by their class (`glsolve::binding::ErrorKind`):
//! invalid input is ValueError (its message names the field, the index and the value or
//! limit), a matrix the mathematics refuses (not positive definite, singular, rank deficient)
//! is numpy's LinAlgError (a ValueError), a missing or failing GL driver is RuntimeError, a
//! stopped call KeyboardInterrupt.

use glsolve::binding::{Classify, ErrorKind};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// Any of the library's errors as the exception of its class.
pub fn raised<E: Classify + std::fmt::Display>(py: Python<'_>, e: E) -> PyErr {
    let message = e.to_string();
    match e.error_kind() {
        ErrorKind::InvalidInput(_) => PyValueError::new_err(message),
        ErrorKind::Math(_) => lin_alg_error(py, message),
        ErrorKind::Device(_) => PyRuntimeError::new_err(message),
        ErrorKind::Interrupted => PyKeyboardInterrupt::new_err(message),
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

/// A GL context that could not be made, for a call that needs one.
pub fn no_gl(why: &str) -> PyErr {
    PyRuntimeError::new_err(format!(
        "backend 'gpu' needs an OpenGL driver reachable through EGL, and none could be used: {why}"
    ))
}
