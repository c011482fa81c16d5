//! The constraint matrix as JavaScript hands it over — dense row-major, compressed rows (CSR)
//! or triplets (COO) — turned into the library's compressed columns. Indices arrive as numbers
//! (a `Float64Array`) and are checked here: a negative, fractional or out-of-range index, a
//! length that does not fit, is an error naming the array and the position. Duplicate triplets
//! are summed (scipy's convention), zeros of a dense matrix dropped, NaN kept for the model's
//! validation to name.

use crate::errors::ApiError;
use glsolve::SparseColMatrix;

/// A matrix in one of the three forms (values as given; indices as f64 to be checked).
pub enum Matrix<'a> {
    Dense { rows: usize, cols: usize, data: &'a [f64] },
    Csr { rows: usize, cols: usize, row_ptr: &'a [f64], col_idx: &'a [f64], values: &'a [f64] },
    Coo { rows: usize, cols: usize, row: &'a [f64], col: &'a [f64], values: &'a [f64] },
}

fn invalid(message: String) -> ApiError {
    ApiError::new("invalid-model", message)
}

/// `v[k]` as an index: a whole number in 0..`bound` (`bound` itself allowed when `inclusive`).
fn index(name: &str, v: &[f64], k: usize, bound: usize, inclusive: bool) -> Result<usize, ApiError> {
    let x = v[k];
    let ok = x >= 0.0 && x.fract() == 0.0 && (x < bound as f64 || (inclusive && x == bound as f64));
    if ok {
        Ok(x as usize)
    } else {
        let range = if inclusive { format!("0..={bound}") } else { format!("0..{bound}") };
        Err(invalid(format!("{name}[{k}] = {x}: an index must be a whole number in {range}")))
    }
}

fn same_length(what: &str, a: (&str, usize), b: (&str, usize)) -> Result<(), ApiError> {
    if a.1 == b.1 {
        Ok(())
    } else {
        Err(invalid(format!("{what}: {} has {} entries but {} has {}", a.0, a.1, b.0, b.1)))
    }
}

impl Matrix<'_> {
    pub fn shape(&self) -> (usize, usize) {
        match *self {
            Matrix::Dense { rows, cols, .. } | Matrix::Csr { rows, cols, .. } | Matrix::Coo { rows, cols, .. } => {
                (rows, cols)
            }
        }
    }

    /// The entries as (row, column, value) triplets, checked.
    pub fn triplets(&self) -> Result<Vec<(usize, usize, f64)>, ApiError> {
        match *self {
            Matrix::Dense { rows, cols, data } => {
                let expected =
                    rows.checked_mul(cols).ok_or_else(|| invalid(format!("A is {rows}×{cols}: too large")))?;
                if data.len() != expected {
                    return Err(invalid(format!(
                        "A.data has {} entries, but A is {rows}×{cols} (row-major: {expected} entries)",
                        data.len()
                    )));
                }
                let mut t = Vec::new();
                for (k, &v) in data.iter().enumerate() {
                    // NaN != 0 holds: kept for validation to name.
                    if v != 0.0 {
                        t.push((k / cols.max(1), k % cols.max(1), v));
                    }
                }
                Ok(t)
            }
            Matrix::Csr { rows, cols, row_ptr, col_idx, values } => {
                if row_ptr.len() != rows + 1 {
                    return Err(invalid(format!(
                        "A.rowPtr has {} entries, but A has {rows} rows (it needs rows + 1 = {})",
                        row_ptr.len(),
                        rows + 1
                    )));
                }
                same_length("A (CSR)", ("A.colIdx", col_idx.len()), ("A.values", values.len()))?;
                let nnz = values.len();
                let mut t = Vec::with_capacity(nnz);
                let mut start = index("A.rowPtr", row_ptr, 0, nnz, true)?;
                if start != 0 {
                    return Err(invalid(format!("A.rowPtr[0] = {start}: it must be 0")));
                }
                for i in 0..rows {
                    let end = index("A.rowPtr", row_ptr, i + 1, nnz, true)?;
                    if end < start {
                        return Err(invalid(format!(
                            "A.rowPtr[{}] = {end} is less than A.rowPtr[{i}] = {start}: it must not decrease",
                            i + 1
                        )));
                    }
                    for (k, &v) in values.iter().enumerate().take(end).skip(start) {
                        t.push((i, index("A.colIdx", col_idx, k, cols, false)?, v));
                    }
                    start = end;
                }
                if start != nnz {
                    return Err(invalid(format!(
                        "A.rowPtr[{rows}] = {start}, but A.values has {nnz} entries (the last pointer is the count)"
                    )));
                }
                Ok(t)
            }
            Matrix::Coo { rows, cols, row, col, values } => {
                same_length("A (triplets)", ("A.row", row.len()), ("A.values", values.len()))?;
                same_length("A (triplets)", ("A.col", col.len()), ("A.values", values.len()))?;
                (0..values.len())
                    .map(|k| {
                        Ok((index("A.row", row, k, rows, false)?, index("A.col", col, k, cols, false)?, values[k]))
                    })
                    .collect()
            }
        }
    }

    /// The library's compressed columns (duplicates summed; a non-finite value named). A dense
    /// matrix goes straight to columns: its triplets and their sorted copy would need 32 bytes
    /// an entry besides, what decides the largest dense model the wasm module can hold.
    pub fn to_sparse(&self) -> Result<SparseColMatrix, ApiError> {
        let (rows, cols) = self.shape();
        if let Matrix::Dense { data, .. } = *self {
            return dense_columns(rows, cols, data);
        }
        Ok(SparseColMatrix::from_triplets(rows, cols, &self.triplets()?)?)
    }
}

/// The non-zero entries of the row-major `rows × cols` `data`, column by column.
fn dense_columns(rows: usize, cols: usize, data: &[f64]) -> Result<SparseColMatrix, ApiError> {
    let expected = rows.checked_mul(cols).ok_or_else(|| invalid(format!("A is {rows}×{cols}: too large")))?;
    if data.len() != expected {
        return Err(invalid(format!(
            "A.data has {} entries, but A is {rows}×{cols} (row-major: {expected} entries)",
            data.len()
        )));
    }
    if let Some(k) = data.iter().position(|v| !v.is_finite()) {
        let e = glsolve::ModelError::MatrixEntry { row: k / cols, col: k % cols, value: data[k] };
        return Err(e.into());
    }
    let mut col_ptr = vec![0usize; cols + 1];
    for row in data.chunks_exact(cols.max(1)) {
        for (j, &v) in row.iter().enumerate() {
            col_ptr[j + 1] += usize::from(v != 0.0);
        }
    }
    for j in 0..cols {
        col_ptr[j + 1] += col_ptr[j];
    }
    let nnz = col_ptr[cols];
    let (mut row_idx, mut values) = (vec![0usize; nnz], vec![0.0; nnz]);
    let mut next = col_ptr[..cols].to_vec();
    for (i, row) in data.chunks_exact(cols.max(1)).enumerate() {
        for (j, &v) in row.iter().enumerate() {
            if v != 0.0 {
                row_idx[next[j]] = i;
                values[next[j]] = v;
                next[j] += 1;
            }
        }
    }
    Ok(SparseColMatrix { nrows: rows, ncols: cols, col_ptr, row_idx, values })
}
