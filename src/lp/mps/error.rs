//! What can be wrong in an MPS file, and the number syntax the reader accepts.

use thiserror::Error;

/// Magnitudes at or above this are infinite.
pub const MPS_INFINITY: f64 = 1e20;

/// Matrix and cost entries at or above this magnitude are refused.
pub const MAX_COEFFICIENT: f64 = 1e15;

/// Sections of MPS extensions for problem classes an LP solver does not handle.
pub(crate) const UNSUPPORTED_SECTIONS: &[&str] = &[
    "QUADOBJ",
    "QSECTION",
    "QMATRIX",
    "QCMATRIX",
    "CSECTION",
    "SOS",
    "SETS",
    "INDICATORS",
    "LAZYCONS",
    "USERCUTS",
    "PWLOBJ",
    "GENCONS",
    "OBJSENSE_MULTI",
    "OBJECTIVES",
    "BRANCH",
];

/// What went wrong, without the line number.
#[derive(Debug, Error, Clone, PartialEq)]
#[allow(missing_docs)] // fields and variants named by the messages; each still to be documented
pub enum MpsErrorKind {
    /// What was read does not make a well-formed model (a reader bug, never a panic).
    #[error("the model read is malformed: {0}")]
    Model(crate::lp::model::ModelError),
    #[error("cannot read input: {0}")]
    Io(String),
    #[error("unknown section header `{0}`")]
    UnknownSection(String),
    #[error("data line outside any section (expected NAME, ROWS, COLUMNS, ... header)")]
    DataOutsideSection,
    #[error("missing {0} section")]
    MissingSection(&'static str),
    #[error("section {found} out of order: expected {expected}")]
    SectionOrder { found: String, expected: &'static str },
    #[error("expected {expected}, found {found} field(s)")]
    FieldCount { expected: &'static str, found: usize },
    #[error("unknown row type `{0}` (expected N, E, L or G)")]
    RowType(String),
    #[error("unknown bound type `{0}` (expected UP, LO, FX, FR, MI, PL, BV, LI or UI)")]
    BoundType(String),
    #[error("duplicate row name `{0}`")]
    DuplicateRow(String),
    #[error("duplicate column name `{0}` (its entries must be contiguous)")]
    DuplicateColumn(String),
    #[error("duplicate entry for column `{col}` in row `{row}`")]
    DuplicateEntry { row: String, col: String },
    #[error("unknown row `{0}`")]
    UnknownRow(String),
    #[error("unknown column `{0}`")]
    UnknownColumn(String),
    #[error("`{0}` is not a number")]
    BadNumber(String),
    #[error("expected MAX or MIN in OBJSENSE, found `{0}`")]
    BadSense(String),
    #[error("unknown MARKER `{0}` (expected INTORG or INTEND)")]
    BadMarker(String),
    #[error("section {0} is not supported: glsolve solves linear programs only (no quadratic, SOS or indicator data)")]
    UnsupportedSection(String),
    #[error("NaN is not a valid value")]
    NaN,
    #[error("coefficient {value:e} of column `{col}` in row `{row}` is too large (|value| ≥ 1e15 is refused)")]
    AbsurdCoefficient { row: String, col: String, value: f64 },
    #[error("bound {bound} on column `{col}` needs a value")]
    MissingValue { bound: String, col: String },
    #[error("second {what} value for row `{row}`")]
    DuplicateRowValue { what: &'static str, row: String },
}

/// An MPS error at a 1-based line (0 when it concerns the whole file).
#[derive(Debug, Error, Clone, PartialEq)]
#[error("MPS line {line}: {kind}")]
#[allow(missing_docs)] // fields and variants named by the messages; each still to be documented
pub struct MpsError {
    pub line: usize,
    pub kind: MpsErrorKind,
}

/// Parses a value of RHS, RANGES or BOUNDS: a [`parse_number`], or `Inf`/`Infinity` with an
/// optional sign (any case) as ±∞. `NaN` is its own error.
pub fn parse_value(tok: &str) -> Result<f64, MpsErrorKind> {
    let lower = tok.to_ascii_lowercase();
    let (sign, body) = match lower.strip_prefix('-') {
        Some(b) => (-1.0, b),
        None => (1.0, lower.strip_prefix('+').unwrap_or(&lower)),
    };
    if body == "inf" || body == "infinity" {
        return Ok(sign * f64::INFINITY);
    }
    if body == "nan" {
        return Err(MpsErrorKind::NaN);
    }
    parse_number(tok).ok_or_else(|| MpsErrorKind::BadNumber(tok.to_string()))
}

/// Parses a number: decimal, optional exponent with E or D; never `inf`/`nan`/hex.
pub fn parse_number(tok: &str) -> Option<f64> {
    let ok = !tok.is_empty() && tok.bytes().all(|c| c.is_ascii_digit() || b"+-.eEdD".contains(&c));
    if !ok {
        return None;
    }
    tok.replace(['d', 'D'], "E").parse::<f64>().ok().filter(|v| v.is_finite())
}
