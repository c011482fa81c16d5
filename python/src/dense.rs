//! Dense factorizations and solves: `backend="gpu"` runs the library's single-precision GL
//! kernels (with double-precision refinement where the function has it) on the GL thread;
//! `backend="cpu"` runs nalgebra in double precision on a thread of its own. Matrices arrive
//! row-major (`rows × cols` float64 bytes); shapes and finiteness are checked in Python first
//! and again by the library on the gpu path.

use crate::arrays::{f64s, to_bytes};
use crate::errors::{dense_error, lin_alg_error, no_gl};
use crate::names::{cholesky_variant, dense_backend, DenseBackend};
use crate::worker::{run, Place};
use glsolve::Format;
use glsolve::{least_squares, linsolve, Cholesky, CholeskyOptions, DenseError};
use nalgebra::{DMatrix, DVector};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

/// Why a job gave no answer: the library's error, the mathematics (CPU path), or no GL.
enum Failure {
    Dense(DenseError),
    LinAlg(String),
    NoGl(String),
}

type Outcome = Result<(Vec<f64>, String, usize, f64), Failure>;

fn place(b: DenseBackend) -> Place {
    match b {
        DenseBackend::Gpu => Place::Gl,
        DenseBackend::Cpu => Place::Cpu,
    }
}

fn matrix(what: &str, bytes: &Bound<'_, PyBytes>, rows: usize, cols: usize) -> PyResult<DMatrix<f64>> {
    Ok(DMatrix::from_row_slice(rows, cols, &f64s(what, bytes.as_bytes(), rows * cols)?))
}

fn vector(what: &str, bytes: &Bound<'_, PyBytes>, len: usize) -> PyResult<DVector<f64>> {
    Ok(DVector::from_vec(f64s(what, bytes.as_bytes(), len)?))
}

/// Runs `job` and turns its outcome into `(values, method, iterations, measure)` in a dict.
fn answer<'py>(
    py: Python<'py>,
    at: Place,
    job: impl FnOnce(Result<&glsolve::Gpu, &str>) -> Outcome + Send + 'static,
) -> PyResult<Bound<'py, PyDict>> {
    let out = run(py, at, false, move |gl, _| job(gl), |_| Ok(()))?;
    match out {
        Ok((values, method, iterations, measure)) => {
            let d = PyDict::new(py);
            d.set_item("values", to_bytes(py, &values)?)?;
            d.set_item("method", method)?;
            d.set_item("iterations", iterations)?;
            d.set_item("measure", measure)?;
            Ok(d)
        }
        Err(Failure::Dense(e)) => Err(dense_error(py, e)),
        Err(Failure::LinAlg(msg)) => Err(lin_alg_error(py, msg)),
        Err(Failure::NoGl(why)) => Err(no_gl(&why)),
    }
}

fn column_major_to_row_major(m: &DMatrix<f64>) -> Vec<f64> {
    m.transpose().as_slice().to_vec()
}

/// `_glsolve.cholesky`: the lower factor L of C = L·Lᵀ (only C's lower triangle is read).
#[pyfunction]
pub fn cholesky<'py>(
    py: Python<'py>,
    c: Bound<'py, PyBytes>,
    n: usize,
    variant: &str,
    backend: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let (backend, variant) = (dense_backend(backend)?, cholesky_variant(variant)?);
    let c = matrix("C", &c, n, n)?;
    answer(py, place(backend), move |gl| match backend {
        DenseBackend::Gpu => {
            let gpu = gl.map_err(|w| Failure::NoGl(w.to_string()))?;
            let options = CholeskyOptions { variant, format: Format::Full };
            let l = Cholesky::with_options(gpu, &c, options).map_err(Failure::Dense)?;
            Ok((column_major_to_row_major(l.l()), format!("gpu {variant} (single precision)"), 0, 0.0))
        }
        DenseBackend::Cpu => match c.cholesky() {
            Some(ch) => Ok((column_major_to_row_major(&ch.unpack()), "cpu (double precision)".into(), 0, 0.0)),
            None => Err(Failure::LinAlg("the matrix is not positive definite (in double precision)".into())),
        },
    })
}

/// `_glsolve.solve`: x with A·x = b (A square).
#[pyfunction]
pub fn solve<'py>(
    py: Python<'py>,
    a: Bound<'py, PyBytes>,
    b: Bound<'py, PyBytes>,
    n: usize,
    backend: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let backend = dense_backend(backend)?;
    let (a, b) = (matrix("A", &a, n, n)?, vector("b", &b, n)?);
    answer(py, place(backend), move |gl| match backend {
        DenseBackend::Gpu => {
            let gpu = gl.map_err(|w| Failure::NoGl(w.to_string()))?;
            let s = linsolve(gpu, &a, &b).map_err(Failure::Dense)?;
            let method = match s.method {
                glsolve::LinearMethod::Mixed => "gpu single-precision LU, refined to double precision".to_string(),
                glsolve::LinearMethod::DoubleFallback(why) => format!("cpu double-precision LU ({why})"),
            };
            Ok((s.x.as_slice().to_vec(), method, s.iterations, s.criterion))
        }
        DenseBackend::Cpu => {
            let lu = a.clone().lu();
            match lu.solve(&b) {
                Some(x) if x.iter().all(|v| v.is_finite()) => {
                    Ok((x.as_slice().to_vec(), "cpu double-precision LU".into(), 0, 0.0))
                }
                _ => Err(Failure::LinAlg("the matrix is singular to double precision".into())),
            }
        }
    })
}

/// `_glsolve.lstsq`: the x minimizing Σₖ (wₖ·(bₖ − (A·x)ₖ))² (A is rows × cols).
#[pyfunction]
#[pyo3(signature = (a, b, w, rows, cols, backend))]
pub fn lstsq<'py>(
    py: Python<'py>,
    a: Bound<'py, PyBytes>,
    b: Bound<'py, PyBytes>,
    w: Option<Bound<'py, PyBytes>>,
    rows: usize,
    cols: usize,
    backend: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let backend = dense_backend(backend)?;
    let (a, b) = (matrix("A", &a, rows, cols)?, vector("b", &b, rows)?);
    let w = w.map(|w| vector("weights", &w, rows)).transpose()?;
    answer(py, place(backend), move |gl| match backend {
        DenseBackend::Gpu => {
            let gpu = gl.map_err(|w| Failure::NoGl(w.to_string()))?;
            let s = least_squares(gpu, &a, &b, w.as_ref()).map_err(Failure::Dense)?;
            let method = match s.method {
                glsolve::LeastSquaresMethod::Refined => "gpu single-precision normal equations, refined".to_string(),
                glsolve::LeastSquaresMethod::DoubleFallback(why) => {
                    format!("cpu double-precision normal equations ({why})")
                }
            };
            Ok((s.x.as_slice().to_vec(), method, s.iterations, 0.0))
        }
        DenseBackend::Cpu => cpu_lstsq(a, b, w),
    })
}

/// Weighted least squares by Householder QR of W·A in double precision; a column of R whose
/// diagonal is at rounding level of the largest (or fewer weighted rows than unknowns) means the
/// minimizer is not unique, as the gpu path reports it.
fn cpu_lstsq(a: DMatrix<f64>, b: DVector<f64>, w: Option<DVector<f64>>) -> Outcome {
    let (rows, cols) = a.shape();
    if cols == 0 {
        return Ok((Vec::new(), "cpu double-precision QR".into(), 0, 0.0));
    }
    let w = w.unwrap_or_else(|| DVector::from_element(rows, 1.0));
    let wa = DMatrix::from_fn(rows, cols, |i, j| w[i] * a[(i, j)]);
    let wb = b.component_mul(&w);
    let rank_deficient = || Failure::Dense(DenseError::RankDeficient);
    if rows < cols {
        return Err(rank_deficient());
    }
    let qr = wa.qr();
    let r = qr.r();
    let largest = r.diagonal().amax();
    let floor = largest * (cols.max(rows) as f64) * f64::EPSILON;
    if largest == 0.0 || r.diagonal().iter().any(|d| d.abs() <= floor) {
        return Err(rank_deficient());
    }
    let qtb = qr.q().transpose() * wb;
    let x = r.solve_upper_triangular(&qtb).ok_or_else(rank_deficient)?;
    Ok((x.as_slice().to_vec(), "cpu double-precision QR".into(), 0, 0.0))
}
