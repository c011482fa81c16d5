//! Arrays cross the boundary as the bytes of contiguous native-endian float64 (or int64) numpy
//! arrays: the Python side makes them with `numpy.ascontiguousarray(...).tobytes()` and reads
//! answers back with `numpy.frombuffer`. Sizes are checked here too, so a caller that skips
//! the Python layer gets a ValueError, never a wrong shape.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// The float64 values in `bytes`, which must hold exactly `expected` of them.
pub fn f64s(what: &str, bytes: &[u8], expected: usize) -> PyResult<Vec<f64>> {
    if bytes.len() != expected * 8 {
        return Err(PyValueError::new_err(format!(
            "{what} has {} bytes, but {expected} float64 values need {}",
            bytes.len(),
            expected * 8
        )));
    }
    Ok(bytes.chunks_exact(8).map(|c| f64::from_ne_bytes(c.try_into().unwrap_or_default())).collect())
}

/// The int64 values in `bytes` (`expected` of them) as indices.
pub fn indices(what: &str, bytes: &[u8], expected: usize) -> PyResult<Vec<usize>> {
    if bytes.len() != expected * 8 {
        return Err(PyValueError::new_err(format!(
            "{what} has {} bytes, but {expected} int64 values need {}",
            bytes.len(),
            expected * 8
        )));
    }
    bytes
        .chunks_exact(8)
        .enumerate()
        .map(|(k, c)| {
            let v = i64::from_ne_bytes(c.try_into().unwrap_or_default());
            usize::try_from(v).map_err(|_| PyValueError::new_err(format!("{what}[{k}] = {v}: indices must be ≥ 0")))
        })
        .collect()
}

/// `values` as the bytes of a float64 array.
pub fn to_bytes<'py>(py: Python<'py>, values: &[f64]) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, values.len() * 8, |buf| {
        for (dst, v) in buf.chunks_exact_mut(8).zip(values) {
            dst.copy_from_slice(&v.to_ne_bytes());
        }
        Ok(())
    })
}
