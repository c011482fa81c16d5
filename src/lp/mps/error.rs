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
pub enum MpsErrorKind {
    /// What was read does not make a well-formed model (a reader bug, never a panic).
    #[error("the model read is malformed: {0}")]
    Model(crate::lp::model::ModelError),
    /// The input could not be read (the system's message).
    #[error("cannot read input: {0}")]
    Io(String),
    /// A header that is no MPS section (the word read).
    #[error("unknown section header `{0}`")]
    UnknownSection(String),
    /// A data line before the first section header.
    #[error("data line outside any section (expected NAME, ROWS, COLUMNS, ... header)")]
    DataOutsideSection,
    /// A section the model needs is absent (its name).
    #[error("missing {0} section")]
    MissingSection(&'static str),
    /// A section header out of the order NAME, OBJSENSE, ROWS, COLUMNS, RHS, RANGES, BOUNDS,
    /// ENDATA.
    #[error("section {found} out of order: expected {expected}")]
    SectionOrder {
        /// The header read.
        found: String,
        /// The sections that may come next.
        expected: &'static str,
    },
    /// A data line with the wrong number of fields for its section.
    #[error("expected {expected}, found {found} field(s)")]
    FieldCount {
        /// The fields the section's lines hold.
        expected: &'static str,
        /// Fields on the line.
        found: usize,
    },
    /// A row type other than N, E, L or G (the type read).
    #[error("unknown row type `{0}` (expected N, E, L or G)")]
    RowType(String),
    /// A bound type the reader does not know (the type read).
    #[error("unknown bound type `{0}` (expected UP, LO, FX, FR, MI, PL, BV, LI or UI)")]
    BoundType(String),
    /// A row name declared twice in ROWS.
    #[error("duplicate row name `{0}`")]
    DuplicateRow(String),
    /// A column whose entries are split by another column's.
    #[error("duplicate column name `{0}` (its entries must be contiguous)")]
    DuplicateColumn(String),
    /// Two entries for one row of a column.
    #[error("duplicate entry for column `{col}` in row `{row}`")]
    DuplicateEntry {
        /// The row's name.
        row: String,
        /// The column's name.
        col: String,
    },
    /// A row name not declared in ROWS.
    #[error("unknown row `{0}`")]
    UnknownRow(String),
    /// A column name (in BOUNDS) not declared in COLUMNS.
    #[error("unknown column `{0}`")]
    UnknownColumn(String),
    /// A field that should be a number is not (the text read).
    #[error("`{0}` is not a number")]
    BadNumber(String),
    /// OBJSENSE gives neither MAX nor MIN (the word read).
    #[error("expected MAX or MIN in OBJSENSE, found `{0}`")]
    BadSense(String),
    /// A MARKER line other than INTORG or INTEND (the word read).
    #[error("unknown MARKER `{0}` (expected INTORG or INTEND)")]
    BadMarker(String),
    /// A section of an MPS extension for another problem class (its name).
    #[error("section {0} is not supported: glsolve solves linear programs only (no quadratic, SOS or indicator data)")]
    UnsupportedSection(String),
    /// A value written as NaN.
    #[error("NaN is not a valid value")]
    NaN,
    /// A matrix or cost entry of magnitude 1e15 or more ([`MAX_COEFFICIENT`]).
    #[error("coefficient {value:e} of column `{col}` in row `{row}` is too large (|value| ≥ 1e15 is refused)")]
    AbsurdCoefficient {
        /// The row's name.
        row: String,
        /// The column's name.
        col: String,
        /// The coefficient read.
        value: f64,
    },
    /// A bound type that needs a value is given none.
    #[error("bound {bound} on column `{col}` needs a value")]
    MissingValue {
        /// The bound type.
        bound: String,
        /// The column's name.
        col: String,
    },
    /// A row given a second RHS or RANGES value.
    #[error("second {what} value for row `{row}`")]
    DuplicateRowValue {
        /// "RHS" or "RANGES".
        what: &'static str,
        /// The row's name.
        row: String,
    },
}

/// An MPS error at a 1-based line (0 when it concerns the whole file).
#[derive(Debug, Error, Clone, PartialEq)]
#[error("MPS line {line}: {kind}")]
pub struct MpsError {
    /// 1-based line of the file (0: the whole file).
    pub line: usize,
    /// What went wrong.
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
