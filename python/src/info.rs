//! `glsolve.info()`: the GL driver's capability record, as `glsolve info` prints it, or why
//! there is none; and the papers' random LP family, for benchmarks and tests.

use crate::arrays::to_bytes;
use crate::worker::{run, Place};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `{"driver": [(name, value), …]}`, or `{"error": reason}` where no context can be made.
#[pyfunction]
pub fn info(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let record = run(
        py,
        Place::Gl,
        false,
        |gl, _| match gl {
            Ok(gpu) => Ok(gpu.info().lines().into_iter().map(|(k, v)| (k.to_string(), v)).collect::<Vec<_>>()),
            Err(why) => Err(why.to_string()),
        },
        |_| Ok(()),
    )?;
    let d = PyDict::new(py);
    match record {
        Ok(lines) => d.set_item("driver", lines)?,
        Err(why) => d.set_item("error", why)?,
    }
    Ok(d)
}

/// `_glsolve.random_lp`: the member (m, seed) of the papers' family (n = 4m; `glsolve generate
/// --random M --seed S` writes the same one): A row-major, b, c.
#[pyfunction]
pub fn random_lp(py: Python<'_>, m: usize, seed: u64) -> PyResult<Bound<'_, PyDict>> {
    let lp = py.detach(|| glsolve::lp::random::random_lp(m, seed));
    let d = PyDict::new(py);
    d.set_item("m", lp.m)?;
    d.set_item("n", lp.n)?;
    d.set_item("a", to_bytes(py, &lp.a_row_major)?)?;
    d.set_item("b", to_bytes(py, &lp.b)?)?;
    d.set_item("c", to_bytes(py, &lp.c)?)?;
    Ok(d)
}
