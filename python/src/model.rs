//! Linear programs across the boundary: constraint blocks in (dense numpy or scipy CSC data,
//! stacked in order), [`LpModel`] built and validated by the library; a model read from MPS out
//! as a dict of arrays.

use crate::arrays::{f64s, indices, to_bytes};
use glsolve::lp::{LpModel, ModelError, Sense, SparseColMatrix};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

/// One block of rows of the constraint matrix, as Python hands it over.
pub enum Block {
    /// Row-major values, `nrows × ncols`.
    Dense { nrows: usize, ncols: usize, values: Vec<f64> },
    /// Compressed columns (scipy's CSC, indices sorted, no duplicates).
    Csc(SparseColMatrix),
}

impl Block {
    pub fn nrows(&self) -> usize {
        match self {
            Block::Dense { nrows, .. } => *nrows,
            Block::Csc(a) => a.nrows,
        }
    }
    pub fn ncols(&self) -> usize {
        match self {
            Block::Dense { ncols, .. } => *ncols,
            Block::Csc(a) => a.ncols,
        }
    }
}

/// The blocks of `list`, each with `ncols` columns (one per entry of c).
pub fn blocks(list: &Bound<'_, pyo3::types::PyList>, ncols: usize) -> PyResult<Vec<Block>> {
    let mut out = Vec::with_capacity(list.len());
    for (k, item) in list.iter().enumerate() {
        let b = block(&item)?;
        if b.ncols() != ncols {
            return Err(PyValueError::new_err(format!(
                "constraint block {k} has {} columns, but c has {ncols} entries",
                b.ncols()
            )));
        }
        out.push(b);
    }
    Ok(out)
}

/// A block from the tuple `(name, kind, nrows, ncols, data, indptr, indices)`; `kind` is
/// "dense" (data row-major) or "csc" (scipy's `indptr`, `indices`, `data`).
fn block(t: &Bound<'_, PyAny>) -> PyResult<Block> {
    type Raw<'py> =
        (String, String, usize, usize, Bound<'py, PyBytes>, Option<Bound<'py, PyBytes>>, Option<Bound<'py, PyBytes>>);
    let (name, kind, nrows, ncols, data, indptr, idx): Raw<'_> = t.extract()?;
    match (kind.as_str(), indptr, idx) {
        ("dense", _, _) => {
            let values = f64s(&name, data.as_bytes(), nrows * ncols)?;
            Ok(Block::Dense { nrows, ncols, values })
        }
        ("csc", Some(indptr), Some(idx)) => {
            let col_ptr = indices(&format!("{name}.indptr"), indptr.as_bytes(), ncols + 1)?;
            let nnz = col_ptr.last().copied().unwrap_or(0);
            let row_idx = indices(&format!("{name}.indices"), idx.as_bytes(), nnz)?;
            let values = f64s(&format!("{name}.data"), data.as_bytes(), nnz)?;
            let a = SparseColMatrix { nrows, ncols, col_ptr, row_idx, values };
            // Each block is checked on its own, so that an error names its argument.
            a.validate().map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
            Ok(Block::Csc(a))
        }
        _ => Err(PyValueError::new_err(format!("{name}: unknown block kind '{kind}'"))),
    }
}

/// The blocks stacked vertically into one `Σ nrows × ncols` matrix in compressed columns (every
/// block has `ncols` columns: [`blocks`] checks it). The
/// entries of a column stay sorted by row: blocks are copied in order, each row by row (dense)
/// or column by column (CSC). Zeros of dense blocks are dropped; NaN is kept, for validation
/// to name.
pub fn stack(blocks: &[Block], ncols: usize) -> SparseColMatrix {
    let nrows: usize = blocks.iter().map(Block::nrows).sum();
    let mut counts = vec![0usize; ncols + 1];
    for b in blocks {
        match b {
            Block::Dense { values, ncols: bc, .. } => {
                for row in values.chunks_exact((*bc).max(1)) {
                    for (j, v) in row.iter().enumerate() {
                        counts[j + 1] += usize::from(*v != 0.0);
                    }
                }
            }
            Block::Csc(a) => {
                for j in 0..a.ncols.min(ncols) {
                    counts[j + 1] += a.col_ptr[j + 1] - a.col_ptr[j];
                }
            }
        }
    }
    for j in 0..ncols {
        counts[j + 1] += counts[j];
    }
    let nnz = counts[ncols];
    let col_ptr = counts.clone();
    let mut next = counts;
    let (mut row_idx, mut vals) = (vec![0usize; nnz], vec![0.0f64; nnz]);
    let mut offset = 0;
    for b in blocks {
        match b {
            Block::Dense { values, ncols: bc, .. } => {
                for (i, row) in values.chunks_exact((*bc).max(1)).enumerate() {
                    for (j, &v) in row.iter().enumerate() {
                        if v != 0.0 {
                            row_idx[next[j]] = offset + i;
                            vals[next[j]] = v;
                            next[j] += 1;
                        }
                    }
                }
            }
            Block::Csc(a) => {
                for j in 0..a.ncols.min(ncols) {
                    for (i, v) in a.col(j) {
                        row_idx[next[j]] = offset + i;
                        vals[next[j]] = v;
                        next[j] += 1;
                    }
                }
            }
        }
        offset += b.nrows();
    }
    SparseColMatrix { nrows, ncols, col_ptr, row_idx, values: vals }
}

/// The row-bounded data of a model built from Python's arrays.
pub struct Parts {
    pub c: Vec<f64>,
    pub blocks: Vec<Block>,
    pub row_lower: Vec<f64>,
    pub row_upper: Vec<f64>,
    pub col_lower: Vec<f64>,
    pub col_upper: Vec<f64>,
}

impl Parts {
    /// min cᵀx s.t. row_lower ≤ A·x ≤ row_upper, col_lower ≤ x ≤ col_upper, validated.
    pub fn build(self) -> Result<LpModel, ModelError> {
        let a = stack(&self.blocks, self.c.len());
        let mut b = LpModel::builder(a).minimize(self.c).col_bounds(self.col_lower, self.col_upper);
        if !self.row_lower.is_empty() || !self.row_upper.is_empty() {
            b = b.row_bounds(self.row_lower, self.row_upper);
        }
        b.build()
    }
}

/// A model as a dict of plain values and float64/int64 bytes (glsolve/_mps.py makes the arrays).
pub fn to_dict<'py>(py: Python<'py>, m: &LpModel) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let as_i64 = |v: &[usize]| -> Vec<u8> { v.iter().flat_map(|&i| (i as i64).to_ne_bytes()).collect() };
    d.set_item("name", &m.name)?;
    d.set_item("sense", if m.sense == Sense::Maximize { "max" } else { "min" })?;
    d.set_item("objective_name", &m.objective_name)?;
    d.set_item("c", to_bytes(py, &m.c)?)?;
    d.set_item("obj_constant", m.obj_constant)?;
    d.set_item("nrows", m.a.nrows)?;
    d.set_item("ncols", m.a.ncols)?;
    d.set_item("indptr", PyBytes::new(py, &as_i64(&m.a.col_ptr)))?;
    d.set_item("indices", PyBytes::new(py, &as_i64(&m.a.row_idx)))?;
    d.set_item("data", to_bytes(py, &m.a.values)?)?;
    d.set_item("row_lower", to_bytes(py, &m.row_lower)?)?;
    d.set_item("row_upper", to_bytes(py, &m.row_upper)?)?;
    d.set_item("col_lower", to_bytes(py, &m.col_lower)?)?;
    d.set_item("col_upper", to_bytes(py, &m.col_upper)?)?;
    let row_names: Vec<String> = (0..m.num_rows()).map(|i| m.row_name(i).into_owned()).collect();
    let col_names: Vec<String> = (0..m.num_cols()).map(|j| m.col_name(j).into_owned()).collect();
    d.set_item("row_names", row_names)?;
    d.set_item("col_names", col_names)?;
    d.set_item("integer", m.integer.clone())?;
    d.set_item("warnings", m.warnings.clone())?;
    Ok(d)
}
