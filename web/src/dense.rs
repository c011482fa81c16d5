//! Dense factorizations and solves for the package: the library's single-precision GL kernels
//! (refined to double precision where the function has refinement) or, on the `cpu` backend and
//! where there is no WebGL2, double precision in wasm (nalgebra; for least squares faer's QR, the
//! gpu path's fallback). Matrices arrive row-major; a matrix wider than the context's textures is
//! refused by the library before any pass runs.

use crate::errors::ApiError;
use glsolve::Format;
use glsolve::Gpu;
use glsolve::Variant;
use glsolve::{least_squares, linsolve, Cholesky, CholeskyOptions, DenseError};
use js_sys::{Float64Array, Reflect};
use nalgebra::{DMatrix, DVector};
use wasm_bindgen::JsValue;

/// Where a dense call runs: the GPU it was given, or double precision on the CPU.
pub enum Place<'a> {
    Gpu(&'a Gpu),
    Cpu,
}

/// `backend` ("auto", "gpu" or "cpu") on this context (`gpu` None: `missing` says why).
pub fn place<'a>(backend: &str, gpu: Option<&'a Gpu>, missing: Option<&ApiError>) -> Result<Place<'a>, ApiError> {
    match (backend, gpu) {
        ("cpu", _) | ("auto", None) => Ok(Place::Cpu),
        ("gpu" | "auto", Some(g)) => Ok(Place::Gpu(g)),
        ("gpu", None) => {
            let why = missing.cloned().unwrap_or_else(|| ApiError::new("no-webgl2", "no WebGL2 context"));
            Err(ApiError::new(why.code, format!("backend \"gpu\" needs WebGL2: {}", why.message)))
        }
        (other, _) => Err(ApiError::invalid(format!("backend {other:?} is not one of auto, gpu, cpu"))),
    }
}

fn matrix(what: &str, rows: usize, cols: usize, data: &[f64]) -> Result<DMatrix<f64>, ApiError> {
    if rows.checked_mul(cols) != Some(data.len()) {
        return Err(ApiError::invalid(format!(
            "{what} has {} entries, but it is {rows}×{cols} (row-major: {} entries)",
            data.len(),
            rows.saturating_mul(cols)
        )));
    }
    Ok(DMatrix::from_row_slice(rows, cols, data))
}

fn vector(what: &str, len: usize, data: &[f64]) -> Result<DVector<f64>, ApiError> {
    if data.len() != len {
        return Err(ApiError::invalid(format!("{what} has {} entries, but it needs {len}", data.len())));
    }
    Ok(DVector::from_column_slice(data))
}

/// How an answer was obtained: `kind` ('mixed', 'double-fallback', 'double' or 'single'), the
/// fallback's reason, and the check's measures by name (camelCase, as the result carries them).
struct How {
    kind: &'static str,
    reason: Option<String>,
    accuracy: Vec<(&'static str, f64)>,
}

impl How {
    fn double() -> Self {
        Self { kind: "double", reason: None, accuracy: Vec::new() }
    }
}

/// The answer: `{[key]: Float64Array, method, kind, fallback, reason, accuracy, iterations,
/// measure}` (`accuracy` null where nothing was measured; a measure that is not finite is null).
fn answer(
    key: &str,
    values: &[f64],
    method: String,
    iterations: usize,
    measure: f64,
    how: How,
) -> Result<JsValue, JsValue> {
    let o = js_sys::Object::new();
    Reflect::set(&o, &key.into(), &Float64Array::from(values))?;
    Reflect::set(&o, &"method".into(), &method.into())?;
    Reflect::set(&o, &"kind".into(), &how.kind.into())?;
    Reflect::set(&o, &"fallback".into(), &(how.kind == "double-fallback").into())?;
    Reflect::set(&o, &"reason".into(), &how.reason.map_or(JsValue::NULL, JsValue::from))?;
    let number = |v: f64| if v.is_finite() { JsValue::from(v) } else { JsValue::NULL };
    let accuracy = if how.accuracy.is_empty() {
        JsValue::NULL
    } else {
        let a = js_sys::Object::new();
        for (name, value) in how.accuracy {
            Reflect::set(&a, &name.into(), &number(value))?;
        }
        a.into()
    };
    Reflect::set(&o, &"accuracy".into(), &accuracy)?;
    Reflect::set(&o, &"iterations".into(), &(iterations as f64).into())?;
    Reflect::set(&o, &"measure".into(), &number(measure))?;
    Ok(o.into())
}

fn row_major(m: &DMatrix<f64>) -> Vec<f64> {
    m.transpose().as_slice().to_vec()
}

/// The lower factor L of C = L·Lᵀ (only C's lower triangle is read), row-major.
pub fn cholesky(at: Place<'_>, n: usize, c: &[f64], variant: &str) -> Result<JsValue, JsValue> {
    let variant: Variant = variant.parse().map_err(ApiError::from)?;
    let c = matrix("C", n, n, c)?;
    match at {
        Place::Gpu(gpu) => {
            let options = CholeskyOptions { variant, format: Format::Full };
            let l = Cholesky::with_options(gpu, &c, options).map_err(ApiError::from)?;
            let backward = l.backward_error();
            let how = How { kind: "single", reason: None, accuracy: vec![("backwardError", backward)] };
            answer("L", &row_major(l.l()), format!("gpu {variant} (single precision)"), 0, backward, how)
        }
        Place::Cpu => {
            let ch = c.cholesky().ok_or_else(|| {
                ApiError::new("not-positive-definite", "the matrix is not positive definite (in double precision)")
            })?;
            answer("L", &row_major(&ch.unpack()), "cpu (double precision)".into(), 0, 0.0, How::double())
        }
    }
}

/// x with A·x = b.
pub fn solve(at: Place<'_>, n: usize, a: &[f64], b: &[f64]) -> Result<JsValue, JsValue> {
    let (a, b) = (matrix("A", n, n, a)?, vector("b", n, b)?);
    match at {
        Place::Gpu(gpu) => {
            let s = linsolve(gpu, &a, &b).map_err(ApiError::from)?;
            let accuracy = vec![("backwardError", s.criterion), ("threshold", s.threshold)];
            let (method, how) = match s.method {
                glsolve::refine::Method::Mixed => (
                    "gpu single-precision LU, refined to double precision".to_string(),
                    How { kind: "mixed", reason: None, accuracy },
                ),
                glsolve::refine::Method::DoubleFallback(why) => (
                    format!("cpu double-precision LU ({why})"),
                    How { kind: "double-fallback", reason: Some(why), accuracy },
                ),
            };
            answer("x", s.x.as_slice(), method, s.iterations, s.criterion, how)
        }
        Place::Cpu => {
            if let Some((row, col, value)) = non_finite(&a) {
                return Err(ApiError::from(DenseError::NonFinite { what: "A", row, col, value }).into());
            }
            match a.lu().solve(&b) {
                Some(x) if x.iter().all(|v| v.is_finite()) => {
                    answer("x", x.as_slice(), "cpu double-precision LU".into(), 0, 0.0, How::double())
                }
                _ => Err(ApiError::new("singular", "the matrix is singular to double precision").into()),
            }
        }
    }
}

fn non_finite(a: &DMatrix<f64>) -> Option<(usize, usize, f64)> {
    (0..a.nrows())
        .flat_map(|i| (0..a.ncols()).map(move |j| (i, j)))
        .map(|(i, j)| (i, j, a[(i, j)]))
        .find(|e| !e.2.is_finite())
}

/// The x minimizing Σₖ (wₖ·(bₖ − (A·x)ₖ))², A `rows × cols`.
pub fn lstsq(
    at: Place<'_>,
    rows: usize,
    cols: usize,
    a: &[f64],
    b: &[f64],
    w: Option<&[f64]>,
) -> Result<JsValue, JsValue> {
    let (a, b) = (matrix("A", rows, cols, a)?, vector("b", rows, b)?);
    let w = w.map(|w| vector("weights", rows, w)).transpose()?;
    match at {
        Place::Gpu(gpu) => {
            let s = least_squares(gpu, &a, &b, w.as_ref()).map_err(ApiError::from)?;
            let acc = &s.accuracy;
            let accuracy = vec![
                ("forwardError", acc.forward_error),
                ("threshold", acc.threshold),
                ("backwardError", acc.backward_error),
                ("contraction", acc.contraction),
            ];
            let forward = acc.forward_error;
            let (method, how) = match s.method {
                glsolve::lsq::Method::DoubleFallback(why) => (
                    format!("cpu double-precision QR ({why})"),
                    How { kind: "double-fallback", reason: Some(why), accuracy },
                ),
                // Mixed, the one other method of the gpu path.
                _ => (
                    "gpu single-precision normal equations, refined and checked".to_string(),
                    How { kind: "mixed", reason: None, accuracy },
                ),
            };
            answer("x", s.x.as_slice(), method, s.iterations, forward, how)
        }
        Place::Cpu => {
            let x = cpu_lstsq(a, b, w)?;
            answer("x", &x, "cpu double-precision QR".into(), 0, 0.0, How::double())
        }
    }
}

/// Householder QR of W·A in double precision; a diagonal of R at rounding level of the largest
/// (or fewer rows than unknowns) is rank deficiency, as the gpu path reports it.
fn cpu_lstsq(a: DMatrix<f64>, b: DVector<f64>, w: Option<DVector<f64>>) -> Result<Vec<f64>, ApiError> {
    let (rows, cols) = a.shape();
    if let Some((row, col, value)) = non_finite(&a) {
        return Err(DenseError::NonFinite { what: "A", row, col, value }.into());
    }
    let w = w.unwrap_or_else(|| DVector::from_element(rows, 1.0));
    if let Some((index, &value)) = w.iter().enumerate().find(|(_, v)| !(v.is_finite() && **v >= 0.0)) {
        return Err(DenseError::Weight { index, value }.into());
    }
    if cols == 0 {
        return Ok(Vec::new());
    }
    if rows < cols {
        return Err(DenseError::RankDeficient.into());
    }
    // The gpu backend's fallback, faer's Householder QR of W·A, so that the two backends give one
    // answer wherever the gpu's cannot be proven (the papers' layout: nalgebra's column-major A
    // is Aᵀ row-major, one row per unknown; d² = w²).
    let d2: Vec<f64> = w.iter().map(|v| v * v).collect();
    let s = glsolve::lsq::solve_qr(a.as_slice(), cols, rows, &d2, b.as_slice(), &Default::default())
        .map_err(DenseError::from)?;
    Ok(s.x)
}
