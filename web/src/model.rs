//! An LP from JavaScript: the text of an MPS file, or the package's arrays object (the package
//! has already turned every array into a `Float64Array`): `{sense, c, A: {kind, rows, cols, …},
//! rowLower, rowUpper, colLower, colUpper, objectiveConstant}`. The library's builder validates
//! the model; what it refuses comes back with code `invalid-model` and the field and index.

use crate::errors::ApiError;
use crate::matrix::Matrix;
use glsolve::lp::{mps, random};
use glsolve::LpModel;
use js_sys::{Float64Array, Reflect};
use wasm_bindgen::{JsCast, JsValue};

fn get(obj: &JsValue, name: &str) -> Result<Option<JsValue>, ApiError> {
    let v = Reflect::get(obj, &name.into()).map_err(|_| ApiError::invalid(format!("{name} cannot be read")))?;
    Ok((!v.is_undefined() && !v.is_null()).then_some(v))
}

/// A `Float64Array` field as a vector (absent: `None`).
fn floats(obj: &JsValue, name: &str) -> Result<Option<Vec<f64>>, ApiError> {
    match get(obj, name)? {
        None => Ok(None),
        Some(v) => v
            .dyn_into::<Float64Array>()
            .map(|a| Some(a.to_vec()))
            .map_err(|_| ApiError::new("invalid-model", format!("{name} must be an array of numbers"))),
    }
}

/// A size field: a whole number ≥ 0.
fn size(obj: &JsValue, name: &str) -> Result<usize, ApiError> {
    let v = get(obj, name)?.and_then(|v| v.as_f64());
    match v {
        Some(x) if x >= 0.0 && x.fract() == 0.0 && x <= u32::MAX as f64 => Ok(x as usize),
        _ => Err(ApiError::new("invalid-model", format!("{name} must be a whole number ≥ 0 (got {v:?})"))),
    }
}

/// The model of `value`: MPS text or the arrays object.
pub fn from_js(value: &JsValue) -> Result<LpModel, ApiError> {
    if let Some(text) = value.as_string() {
        return Ok(mps::read_str(&text)?);
    }
    let a = get(value, "A")?.ok_or_else(|| ApiError::new("invalid-model", "the model has no constraint matrix A"))?;
    let (rows, cols) = (size(&a, "rows")?, size(&a, "cols")?);
    let kind = get(&a, "kind")?.and_then(|k| k.as_string()).unwrap_or_default();
    let need = |name: &str| -> Result<Vec<f64>, ApiError> {
        floats(&a, name)?.ok_or_else(|| ApiError::new("invalid-model", format!("A ({kind}) has no {name}")))
    };
    let sparse = match kind.as_str() {
        "dense" => Matrix::Dense { rows, cols, data: &need("data")? }.to_sparse()?,
        "csr" => {
            let (p, i, v) = (need("rowPtr")?, need("colIdx")?, need("values")?);
            Matrix::Csr { rows, cols, row_ptr: &p, col_idx: &i, values: &v }.to_sparse()?
        }
        "coo" => {
            let (r, c, v) = (need("row")?, need("col")?, need("values")?);
            Matrix::Coo { rows, cols, row: &r, col: &c, values: &v }.to_sparse()?
        }
        other => return Err(ApiError::new("invalid-model", format!("A has an unknown kind {other:?}"))),
    };
    let c = floats(value, "c")?.ok_or_else(|| ApiError::new("invalid-model", "the model has no objective c"))?;
    let sense = get(value, "sense")?.and_then(|s| s.as_string()).unwrap_or_else(|| "min".into());
    let mut b = LpModel::builder(sparse);
    b = match sense.as_str() {
        "min" => b.minimize(c),
        "max" => b.maximize(c),
        other => return Err(ApiError::new("invalid-model", format!("sense {other:?} is neither \"min\" nor \"max\""))),
    };
    let inf = |n: usize, v: f64| vec![v; n];
    let row_lower = floats(value, "rowLower")?;
    let row_upper = floats(value, "rowUpper")?;
    if row_lower.is_some() || row_upper.is_some() {
        b = b.row_bounds(
            row_lower.unwrap_or_else(|| inf(rows, f64::NEG_INFINITY)),
            row_upper.unwrap_or_else(|| inf(rows, f64::INFINITY)),
        );
    }
    let col_lower = floats(value, "colLower")?;
    let col_upper = floats(value, "colUpper")?;
    if col_lower.is_some() || col_upper.is_some() {
        b = b.col_bounds(
            col_lower.unwrap_or_else(|| inf(cols, 0.0)),
            col_upper.unwrap_or_else(|| inf(cols, f64::INFINITY)),
        );
    }
    if let Some(k) = get(value, "objectiveConstant")?.and_then(|k| k.as_f64()) {
        b = b.objective_constant(k);
    }
    Ok(b.build()?)
}

/// The papers' random dense LP (m rows, n = 4m, seed): min 1ᵀx, A·x = b, x ≥ 0.
pub fn random_model(m: usize, seed: u64) -> Result<LpModel, ApiError> {
    if m == 0 {
        return Err(ApiError::invalid("m must be at least 1"));
    }
    Ok(random::random_lp(m, seed).to_model(seed))
}

/// A model as the package's arrays object, the inverse of [`from_js`]: A dense (row-major) for
/// the dense LPs [`random_model`] makes, in triplets otherwise.
pub fn to_js(m: &LpModel, dense: bool) -> JsValue {
    let o = js_sys::Object::new();
    let set = |o: &JsValue, k: &str, v: JsValue| {
        let _ = Reflect::set(o, &k.into(), &v);
    };
    let f = |v: &[f64]| JsValue::from(Float64Array::from(v));
    let (rows, cols) = (m.a.nrows, m.a.ncols);
    let a = js_sys::Object::new();
    set(&a, "rows", (rows as f64).into());
    set(&a, "cols", (cols as f64).into());
    if dense {
        let mut data = vec![0.0; rows * cols];
        for j in 0..cols {
            for k in m.a.col_ptr[j]..m.a.col_ptr[j + 1] {
                data[m.a.row_idx[k] * cols + j] = m.a.values[k];
            }
        }
        set(&a, "data", f(&data));
    } else {
        let (mut row, mut col) = (Vec::with_capacity(m.a.values.len()), Vec::with_capacity(m.a.values.len()));
        for j in 0..cols {
            for k in m.a.col_ptr[j]..m.a.col_ptr[j + 1] {
                row.push(m.a.row_idx[k] as f64);
                col.push(j as f64);
            }
        }
        set(&a, "row", f(&row));
        set(&a, "col", f(&col));
        set(&a, "values", f(&m.a.values));
    }
    let sense = if m.sense == glsolve::Sense::Maximize { "max" } else { "min" };
    set(&o, "sense", sense.into());
    set(&o, "c", f(&m.c));
    set(&o, "A", a.into());
    set(&o, "rowLower", f(&m.row_lower));
    set(&o, "rowUpper", f(&m.row_upper));
    set(&o, "colLower", f(&m.col_lower));
    set(&o, "colUpper", f(&m.col_upper));
    set(&o, "objectiveConstant", m.obj_constant.into());
    o.into()
}
