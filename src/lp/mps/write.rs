//! MPS writer (free format, full precision), so other solvers can read the very same problem.
//!
//! Values are written with Rust's shortest round-trip formatting, so reading the file back gives
//! bit-identical data. Equality rows are written as E, one-sided rows as L or G, two-sided rows
//! as E with a RANGES entry; bounds as LO/UP/FX/FR/MI. The objective constant k is written as
//! the RHS −k on the objective row (the reader's convention).

use crate::lp::model::ModelError;
use crate::lp::model::{LpModel, Sense};
use std::fmt::Write as _;

/// The model as free-format MPS text; a malformed model ([`LpModel::validate`]) is an error.
/// Rows and columns without names are written as `R{i}` and `C{j}`.
pub fn to_mps_string(model: &LpModel) -> Result<String, ModelError> {
    model.validate()?;
    let mut s = String::new();
    let obj = if model.objective_name.is_empty() { "COST" } else { model.objective_name.as_str() };
    let _ = writeln!(s, "NAME {}", if model.name.is_empty() { "LP" } else { model.name.as_str() });
    if model.sense == Sense::Maximize {
        let _ = writeln!(s, "OBJSENSE\n    MAX");
    }
    let _ = writeln!(s, "ROWS\n N  {obj}");
    let m = model.num_rows();
    for i in 0..m {
        let (l, u) = (model.row_lower[i], model.row_upper[i]);
        let t = if l == u || (l.is_finite() && u.is_finite()) {
            "E"
        } else if l.is_finite() {
            "G"
        } else {
            "L"
        };
        let _ = writeln!(s, " {t}  {}", model.row_name(i));
    }
    let _ = writeln!(s, "COLUMNS");
    for j in 0..model.num_cols() {
        let name = model.col_name(j);
        if model.c[j] != 0.0 {
            let _ = writeln!(s, "    {name}  {obj}  {:?}", model.c[j]);
        }
        for (i, v) in model.a.col(j) {
            let _ = writeln!(s, "    {name}  {}  {:?}", model.row_name(i), v);
        }
    }
    let _ = writeln!(s, "RHS");
    if model.obj_constant != 0.0 {
        let _ = writeln!(s, "    RHS  {obj}  {:?}", -model.obj_constant);
    }
    let mut ranges = String::new();
    for i in 0..m {
        let (l, u) = (model.row_lower[i], model.row_upper[i]);
        let h = if l.is_finite() { l } else { u };
        if h.is_finite() && h != 0.0 {
            let _ = writeln!(s, "    RHS  {}  {:?}", model.row_name(i), h);
        }
        if l.is_finite() && u.is_finite() && l != u {
            let _ = writeln!(ranges, "    RNG  {}  {:?}", model.row_name(i), u - l);
        }
    }
    if !ranges.is_empty() {
        let _ = write!(s, "RANGES\n{ranges}");
    }
    let mut bounds = String::new();
    for j in 0..model.num_cols() {
        let (l, u, name) = (model.col_lower[j], model.col_upper[j], model.col_name(j));
        if l == u {
            let _ = writeln!(bounds, " FX BND  {name}  {l:?}");
            continue;
        }
        match (l.is_finite(), u.is_finite()) {
            (false, false) => {
                let _ = writeln!(bounds, " FR BND  {name}");
            }
            (false, true) => {
                let _ = writeln!(bounds, " MI BND  {name}\n UP BND  {name}  {u:?}");
            }
            (true, fu) => {
                if l != 0.0 {
                    let _ = writeln!(bounds, " LO BND  {name}  {l:?}");
                }
                if fu {
                    let _ = writeln!(bounds, " UP BND  {name}  {u:?}");
                }
            }
        }
    }
    if !bounds.is_empty() {
        let _ = write!(s, "BOUNDS\n{bounds}");
    }
    let _ = writeln!(s, "ENDATA");
    Ok(s)
}
