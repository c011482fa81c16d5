//! Dense factorizations and solves: `backend="cpu"` (the default) runs faer in double
//! precision on a thread of its own, one factorization for every right-hand side;
//! `backend="gpu"` runs the library's single-precision GL kernels (with double-precision
//! refinement where the function has it) on the GL thread, one refined solve per right-hand
//! side. Matrices arrive row-major (`rows × cols` float64 bytes, right-hand sides `rows × k`);
//! shapes and finiteness are checked in Python first and again by the library on the gpu path.

use crate::arrays::{f64s, to_bytes};
use crate::errors::{lin_alg_error, no_gl, raised};
use crate::names::{cholesky_variant, dense_backend, DenseBackend};
use crate::worker::{run, Place};
use faer::linalg::solvers::{Solve, SolveLstsq};
use faer::{Mat, Side};
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

/// What one solve (one right-hand side) says about itself: `method` ("Mixed", "DoubleFallback",
/// "Double", "Single"), the fallback's reason, refinement steps, and its measures by name.
struct Info {
    method: &'static str,
    reason: Option<String>,
    iterations: usize,
    measures: Vec<(&'static str, f64)>,
}

/// The answer's values (row-major), how they were computed, and each column's [`Info`].
type Outcome = Result<(Vec<f64>, String, Vec<Info>), Failure>;

fn place(b: DenseBackend) -> Place {
    match b {
        DenseBackend::Gpu => Place::Gl,
        DenseBackend::Cpu => Place::Cpu,
    }
}

/// A row-major block of float64 bytes, checked for its size.
struct RowMajor {
    rows: usize,
    cols: usize,
    values: Vec<f64>,
}

impl RowMajor {
    fn new(what: &str, bytes: &Bound<'_, PyBytes>, rows: usize, cols: usize) -> PyResult<Self> {
        let len = rows.checked_mul(cols).ok_or_else(|| {
            pyo3::exceptions::PyValueError::new_err(format!("{what} is {rows}x{cols}: too many entries"))
        })?;
        Ok(Self { rows, cols, values: f64s(what, bytes.as_bytes(), len)? })
    }
    fn at(&self, i: usize, j: usize) -> f64 {
        self.values[i * self.cols + j]
    }
    fn faer(&self) -> Mat<f64> {
        Mat::from_fn(self.rows, self.cols, |i, j| self.at(i, j))
    }
    fn nalgebra(&self) -> DMatrix<f64> {
        DMatrix::from_row_slice(self.rows, self.cols, &self.values)
    }
    fn column(&self, j: usize) -> DVector<f64> {
        DVector::from_fn(self.rows, |i, _| self.at(i, j))
    }
}

fn faer_row_major(m: &Mat<f64>) -> Vec<f64> {
    (0..m.nrows()).flat_map(|i| (0..m.ncols()).map(move |j| m[(i, j)])).collect()
}

/// Columns (one vector per right-hand side) as one row-major `rows × k` block.
fn columns_row_major(columns: &[DVector<f64>], rows: usize) -> Vec<f64> {
    (0..rows).flat_map(|i| columns.iter().map(move |c| c[i])).collect()
}

/// Runs `job` and turns its outcome into `{"values": bytes, "method": str, "info": [dict]}`
/// (one dict per right-hand side: method, reason, iterations and the measures).
fn answer<'py>(
    py: Python<'py>,
    at: Place,
    job: impl FnOnce(Result<&glsolve::Gpu, &str>) -> Outcome + Send + 'static,
) -> PyResult<Bound<'py, PyDict>> {
    match run(py, at, false, move |gl, _| job(gl), |_| Ok(()))? {
        Ok((values, method, info)) => {
            let d = PyDict::new(py);
            d.set_item("values", to_bytes(py, &values)?)?;
            d.set_item("method", method)?;
            let columns = pyo3::types::PyList::empty(py);
            for i in info {
                let c = PyDict::new(py);
                c.set_item("method", i.method)?;
                c.set_item("reason", i.reason)?;
                c.set_item("iterations", i.iterations)?;
                for (name, value) in i.measures {
                    c.set_item(name, value)?;
                }
                columns.append(c)?;
            }
            d.set_item("info", columns)?;
            Ok(d)
        }
        Err(Failure::Dense(e)) => Err(raised(py, e)),
        Err(Failure::LinAlg(msg)) => Err(lin_alg_error(py, msg)),
        Err(Failure::NoGl(why)) => Err(no_gl(&why)),
    }
}

/// The methods of several right-hand sides' solves, each named once.
fn methods(all: Vec<String>) -> String {
    let mut seen: Vec<String> = Vec::new();
    for m in all {
        if !seen.contains(&m) {
            seen.push(m);
        }
    }
    seen.join("; ")
}

/// ‖C − L·Lᵀ‖_F/‖C‖_F in f64, C symmetric from its lower triangle (row-major), L row-major.
fn backward_error(c: &RowMajor, l: &[f64]) -> f64 {
    let n = c.rows;
    let lm = Mat::from_fn(n, n, |i, j| l[i * n + j]);
    let llt = &lm * lm.transpose();
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..n {
        for j in 0..n {
            let cij = c.at(i.max(j), i.min(j));
            num += (cij - llt[(i, j)]) * (cij - llt[(i, j)]);
            den += cij * cij;
        }
    }
    if den == 0.0 {
        0.0
    } else {
        (num / den).sqrt()
    }
}

/// `_glsolve.cholesky`: the lower factor L of C = L·Lᵀ (only C's lower triangle is read), and
/// with `check` its backward error ‖C − L·Lᵀ‖_F/‖C‖_F computed in f64.
#[pyfunction]
#[pyo3(signature = (c, n, variant, backend, check=false))]
pub fn cholesky<'py>(
    py: Python<'py>,
    c: Bound<'py, PyBytes>,
    n: usize,
    variant: &str,
    backend: &str,
    check: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let (backend, variant) = (dense_backend(backend)?, cholesky_variant(variant)?);
    let c = RowMajor::new("A", &c, n, n)?;
    answer(py, place(backend), move |gl| match backend {
        DenseBackend::Gpu => {
            let gpu = gl.map_err(|w| Failure::NoGl(w.to_string()))?;
            let options = CholeskyOptions { variant, format: Format::Full };
            let f = Cholesky::with_options(gpu, &c.nalgebra(), options).map_err(Failure::Dense)?;
            let l = f.l();
            let values = (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).map(|(i, j)| l[(i, j)]).collect();
            let measures = if check { vec![("backward_error", f.backward_error())] } else { Vec::new() };
            let info = Info { method: "Single", reason: None, iterations: 0, measures };
            Ok((values, format!("gpu {variant} (single precision)"), vec![info]))
        }
        DenseBackend::Cpu => {
            // Side::Lower reads the lower triangle only, as the gpu kernels do.
            let llt = c
                .faer()
                .llt(Side::Lower)
                .map_err(|_| Failure::LinAlg("the matrix is not positive definite (in double precision)".into()))?;
            let l = llt.L();
            let values: Vec<f64> =
                (0..n).flat_map(|i| (0..n).map(move |j| if j <= i { l[(i, j)] } else { 0.0 })).collect();
            let measures = if check { vec![("backward_error", backward_error(&c, &values))] } else { Vec::new() };
            let info = Info { method: "Double", reason: None, iterations: 0, measures };
            Ok((values, "cpu double-precision Cholesky".into(), vec![info]))
        }
    })
}

/// `_glsolve.solve`: X with A·X = B (A n×n, B n×k).
#[pyfunction]
pub fn solve<'py>(
    py: Python<'py>,
    a: Bound<'py, PyBytes>,
    b: Bound<'py, PyBytes>,
    n: usize,
    k: usize,
    backend: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let backend = dense_backend(backend)?;
    let (a, b) = (RowMajor::new("A", &a, n, n)?, RowMajor::new("b", &b, n, k)?);
    answer(py, place(backend), move |gl| match backend {
        DenseBackend::Gpu => {
            let gpu = gl.map_err(|w| Failure::NoGl(w.to_string()))?;
            let a = a.nalgebra();
            let (mut xs, mut how, mut info) = (Vec::with_capacity(k), Vec::with_capacity(k), Vec::with_capacity(k));
            for j in 0..k {
                let s = linsolve(gpu, &a, &b.column(j)).map_err(Failure::Dense)?;
                let measures = vec![("backward_error", s.criterion), ("threshold", s.threshold)];
                let (method, reason) = match s.method {
                    glsolve::LinearMethod::Mixed => {
                        how.push("gpu single-precision LU, refined to double precision".to_string());
                        ("Mixed", None)
                    }
                    glsolve::LinearMethod::DoubleFallback(why) => {
                        how.push(format!("cpu double-precision LU ({why})"));
                        ("DoubleFallback", Some(why))
                    }
                };
                info.push(Info { method, reason, iterations: s.iterations, measures });
                xs.push(s.x);
            }
            Ok((columns_row_major(&xs, n), methods(how), info))
        }
        DenseBackend::Cpu => {
            let lu = a.faer().partial_piv_lu();
            // numpy's rule: singular when elimination meets an exact zero pivot.
            if (0..n).any(|i| lu.U()[(i, i)] == 0.0) {
                return Err(Failure::LinAlg("the matrix is singular (an exact zero pivot in its LU)".into()));
            }
            let x = lu.solve(b.faer());
            if x.col_iter().any(|c| c.iter().any(|v| !v.is_finite())) {
                return Err(Failure::LinAlg("the matrix is singular to double precision".into()));
            }
            let info = (0..k).map(|_| Info { method: "Double", reason: None, iterations: 0, measures: Vec::new() });
            Ok((faer_row_major(&x), "cpu double-precision LU, one factorization".into(), info.collect()))
        }
    })
}

/// `_glsolve.lstsq`: the X minimizing Σₖ (wₖ·(Bₖⱼ − (A·X)ₖⱼ))² for every column j of B (A is
/// rows × cols, B rows × k).
#[pyfunction]
#[pyo3(signature = (a, b, w, rows, cols, k, backend))]
#[allow(clippy::too_many_arguments)]
pub fn lstsq<'py>(
    py: Python<'py>,
    a: Bound<'py, PyBytes>,
    b: Bound<'py, PyBytes>,
    w: Option<Bound<'py, PyBytes>>,
    rows: usize,
    cols: usize,
    k: usize,
    backend: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let backend = dense_backend(backend)?;
    let (a, b) = (RowMajor::new("A", &a, rows, cols)?, RowMajor::new("b", &b, rows, k)?);
    let w = w.map(|w| f64s("weights", w.as_bytes(), rows)).transpose()?;
    answer(py, place(backend), move |gl| match backend {
        DenseBackend::Gpu => {
            let gpu = gl.map_err(|w| Failure::NoGl(w.to_string()))?;
            let (a_na, w) = (a.nalgebra(), w.map(DVector::from_vec));
            let (mut xs, mut how, mut info) = (Vec::with_capacity(k), Vec::with_capacity(k), Vec::with_capacity(k));
            for j in 0..k {
                let s = least_squares(gpu, &a_na, &b.column(j), w.as_ref()).map_err(Failure::Dense)?;
                let acc = &s.accuracy;
                let measures = vec![
                    ("forward_error", acc.forward_error),
                    ("threshold", acc.threshold),
                    ("backward_error", acc.backward_error),
                    ("contraction", acc.contraction),
                ];
                let (method, reason) = match s.method {
                    glsolve::LeastSquaresMethod::DoubleFallback(why) => {
                        how.push(format!("cpu double-precision QR ({why})"));
                        ("DoubleFallback", Some(why))
                    }
                    // Mixed (the one other method this path returns).
                    _ => {
                        how.push("gpu single-precision normal equations, refined and checked".to_string());
                        ("Mixed", None)
                    }
                };
                info.push(Info { method, reason, iterations: s.iterations, measures });
                xs.push(s.x);
            }
            Ok((columns_row_major(&xs, cols), methods(how), info))
        }
        DenseBackend::Cpu => cpu_lstsq(&a, &b, w.as_deref()),
    })
}

/// Weighted least squares by Householder QR of W·A in double precision, one factorization for
/// every right-hand side; a column of R whose diagonal is at rounding level of the largest (or
/// fewer weighted rows than unknowns) means the minimizer is not unique, as the gpu path
/// reports it.
fn cpu_lstsq(a: &RowMajor, b: &RowMajor, w: Option<&[f64]>) -> Outcome {
    let (rows, cols, k) = (a.rows, a.cols, b.cols);
    let weight = |i: usize| w.map_or(1.0, |w| w[i]);
    let rank_deficient = || Failure::Dense(DenseError::RankDeficient);
    if rows < cols {
        return Err(rank_deficient());
    }
    let wa = Mat::from_fn(rows, cols, |i, j| weight(i) * a.at(i, j));
    let wb = Mat::from_fn(rows, k, |i, j| weight(i) * b.at(i, j));
    let qr = wa.qr();
    let r = qr.thin_R();
    let largest = (0..cols).map(|i| r[(i, i)].abs()).fold(0.0, f64::max);
    let floor = largest * (cols.max(rows) as f64) * f64::EPSILON;
    if largest == 0.0 || (0..cols).any(|i| r[(i, i)].abs() <= floor) {
        return Err(rank_deficient());
    }
    let x = qr.solve_lstsq(&wb);
    let info = (0..k).map(|_| Info { method: "Double", reason: None, iterations: 0, measures: Vec::new() });
    Ok((faer_row_major(&x), "cpu double-precision QR, one factorization".into(), info.collect()))
}
