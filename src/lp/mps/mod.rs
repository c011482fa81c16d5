//! MPS reader (fixed and free format, optionally gzip-compressed).
//!
//! Conventions (documented here because files and solvers differ):
//! * **Format.** Fields are split at whitespace (free MPS). If that gives the wrong number of
//!   fields or the line does not parse (a fixed-format name containing spaces), the line is
//!   re-read by the fixed columns 2–3, 5–12, 15–22, 25–36, 40–47, 50–61.
//! * **Objective.** The first N row is the objective; further N rows are ignored (warning), and
//!   so are RHS and RANGES entries on them (warning). A file with no N row has a zero objective
//!   (warning). `NAME` with no name gives an empty name (warning).
//! * **Sense.** `OBJSENSE` with `MAX`/`MAXIMIZE`/`MIN`/`MINIMIZE`, on the header line or on the
//!   next line.
//! * **Objective constant.** An RHS entry v on the objective row means the constant −v
//!   (objective = cᵀx − v), the convention of CPLEX, Gurobi and HiGHS. For NETLIB e226 this gives
//!   −11.638929066 where the published −18.751929066 omits the constant.
//! * **Ranges** R on a row with right-hand side h: G → [h, h+|R|], L → [h−|R|, h],
//!   E → [h, h+R] if R ≥ 0 and [h+R, h] if R < 0.
//! * **Bounds.** UP, LO, FX, FR, MI, PL, BV ([0, 1]), LI/UI (as LO/UP). UP with a negative
//!   value on a column whose lower bound was not set makes the lower bound −∞ (the standard's
//!   rule, with a warning). Integer columns (MARKER lines, BV, LI, UI) are **relaxed**: read as
//!   continuous with a warning. SC (semi-continuous, x = 0 or l ≤ x ≤ u) is relaxed to [0, u]
//!   with a warning. A column whose bounds conflict (lower > upper) is kept as written, with a
//!   warning; the solver then reports it primal infeasible.
//! * **Duplicates** are errors: a row or column name defined twice, a (column, row) entry given
//!   twice, a column whose entries are split over non-adjacent lines, a second RHS or RANGES value
//!   for one row.
//! * **Infinity.** |value| ≥ 1e20 in RHS, RANGES and BOUNDS means ±∞, and so do `Inf`, `Infinity`
//!   (any case, with a sign). In COLUMNS (matrix and cost) an infinite value is an error, and so
//!   is any |value| ≥ 1e15 (`MAX_COEFFICIENT`: no meaningful LP has such a coefficient; it is a
//!   misread or an infinity in disguise).
//! * **Numbers.** Decimal with optional exponent; Fortran `D` exponents (`1.0D3`) accepted;
//!   anything else (`abc`, `1x5`, hex) is an error, and `NaN` (any case) is its own error.
//! * **Sections** for other problem classes (QUADOBJ, QSECTION, QMATRIX, QCMATRIX, CSECTION,
//!   SOS, INDICATORS, LAZYCONS, USERCUTS, PWLOBJ, …) are refused with an explicit error; RANGES
//!   must follow RHS (a RANGES section before RHS is a section-order error).
//! * Only the first RHS, RANGES and BOUNDS set is used; entries of other sets are ignored with a
//!   warning.

use crate::lp::model::LpModel;
use parser::Parser;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

mod error;
mod fields;
mod finish;
mod parser;
mod sections;
pub mod write;

pub use error::{parse_number, parse_value, MpsError, MpsErrorKind, MAX_COEFFICIENT, MPS_INFINITY};

/// Reads an `.mps` or `.mps.gz` file (gzip recognized by its magic bytes).
pub fn read_file(path: &Path) -> Result<LpModel, MpsError> {
    let io = |e: std::io::Error| MpsError { line: 0, kind: MpsErrorKind::Io(format!("{}: {e}", path.display())) };
    let bytes = std::fs::read(path).map_err(io)?;
    read_bytes(&bytes)
}

/// Reads MPS text from bytes, decompressing gzip transparently.
pub fn read_bytes(bytes: &[u8]) -> Result<LpModel, MpsError> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut text = String::new();
        flate2::read::MultiGzDecoder::new(bytes)
            .read_to_string(&mut text)
            .map_err(|e| MpsError { line: 0, kind: MpsErrorKind::Io(format!("gzip: {e}")) })?;
        read_str(&text)
    } else {
        let r = BufReader::new(bytes);
        let mut p = Parser::default();
        for (k, line) in r.lines().enumerate() {
            let line = line.map_err(|e| MpsError { line: k + 1, kind: MpsErrorKind::Io(e.to_string()) })?;
            p.line(k + 1, &line)?;
        }
        p.finish()
    }
}

/// Reads MPS text.
pub fn read_str(text: &str) -> Result<LpModel, MpsError> {
    let mut p = Parser::default();
    for (k, line) in text.lines().enumerate() {
        p.line(k + 1, line)?;
    }
    p.finish()
}

/// Reads from any reader (used by `read_bytes`; exposed for streams).
pub fn read<R: Read>(mut r: R) -> Result<LpModel, MpsError> {
    let mut bytes = Vec::new();
    r.read_to_end(&mut bytes).map_err(|e| MpsError { line: 0, kind: MpsErrorKind::Io(e.to_string()) })?;
    read_bytes(&bytes)
}
