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

use crate::lp::model::{LpModel, Sense, SparseColMatrix};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use thiserror::Error;

/// Magnitudes at or above this are infinite.
pub const MPS_INFINITY: f64 = 1e20;

/// Matrix and cost entries at or above this magnitude are refused.
pub const MAX_COEFFICIENT: f64 = 1e15;

/// Sections of MPS extensions for problem classes an LP solver does not handle.
const UNSUPPORTED_SECTIONS: &[&str] = &[
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
pub struct MpsError {
    pub line: usize,
    pub kind: MpsErrorKind,
}

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

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
enum Section {
    #[default]
    None,
    Name,
    ObjSense,
    Rows,
    Columns,
    Rhs,
    Ranges,
    Bounds,
    End,
}

#[derive(Clone, Copy, PartialEq)]
enum RowKind {
    E,
    L,
    G,
}

#[derive(Default)]
struct Parser {
    /// Number of the last line read (end-of-file errors point just past it).
    last_line: usize,
    section: Section,
    seen_rows: bool,
    seen_columns: bool,
    name: String,
    sense: Sense,
    objective: Option<String>,
    row_index: HashMap<String, usize>,
    free_rows: HashMap<String, ()>,
    row_names: Vec<String>,
    row_kind: Vec<RowKind>,
    rhs: Vec<f64>,
    rhs_given: Vec<bool>,
    obj_constant_set: bool,
    range: Vec<Option<f64>>,
    col_index: HashMap<String, usize>,
    col_names: Vec<String>,
    c: Vec<f64>,
    triplets: Vec<(usize, usize, f64)>,
    col_rows: Vec<usize>,
    integer: Vec<bool>,
    in_integer: bool,
    lower: Vec<f64>,
    upper: Vec<f64>,
    lower_set: Vec<bool>,
    obj_constant: f64,
    rhs_set: Option<String>,
    range_set: Option<String>,
    bound_set: Option<String>,
    warnings: Vec<String>,
}

fn err<T>(line: usize, kind: MpsErrorKind) -> Result<T, MpsError> {
    Err(MpsError { line, kind })
}

/// Fixed-format fields (1-based columns 2–3, 5–12, 15–22, 25–36, 40–47, 50–61).
fn fixed_fields(line: &str) -> Vec<String> {
    const SPANS: [(usize, usize); 6] = [(1, 3), (4, 12), (14, 22), (24, 36), (39, 47), (49, 61)];
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    for (a, b) in SPANS {
        if a >= chars.len() {
            break;
        }
        let f: String = chars[a..b.min(chars.len())].iter().collect();
        out.push(f.trim().to_string());
    }
    // Keep positions for fields 2..: the type field may be empty in COLUMNS/RHS/RANGES.
    while out.last().is_some_and(|s| s.is_empty()) {
        out.pop();
    }
    out
}

/// Whether the blank separator columns of fixed MPS (1, 4, 13–14, 23–24, 37–39, 48–49) are blank.
fn looks_fixed(line: &str) -> bool {
    const SEPARATORS: [usize; 11] = [0, 3, 12, 13, 22, 23, 36, 37, 38, 47, 48];
    let b = line.as_bytes();
    SEPARATORS.iter().all(|&i| b.get(i).is_none_or(|c| *c == b' '))
}

impl Parser {
    fn line(&mut self, ln: usize, raw: &str) -> Result<(), MpsError> {
        self.last_line = ln;
        let line = raw.trim_end();
        if line.is_empty() || line.starts_with('*') {
            return Ok(());
        }
        if !line.starts_with(' ') && !line.starts_with('\t') {
            return self.header(ln, line);
        }
        let toks: Vec<&str> = line.split_whitespace().collect();
        match self.section {
            Section::None | Section::Name | Section::End => err(ln, MpsErrorKind::DataOutsideSection),
            Section::ObjSense => self.objsense(ln, toks.first().copied().unwrap_or("")),
            Section::Rows => self.with_fixed_fallback(ln, line, toks, &[2], Self::rows),
            Section::Columns => self.with_fixed_fallback(ln, line, toks, &[3, 5], Self::columns),
            Section::Rhs => self.with_fixed_fallback(ln, line, toks, &[2, 3, 4, 5], Self::rhs),
            Section::Ranges => self.with_fixed_fallback(ln, line, toks, &[2, 3, 4, 5], Self::ranges),
            Section::Bounds => self.with_fixed_fallback(ln, line, toks, &[2, 3, 4], Self::bounds),
        }
    }

    /// Runs `f` on the whitespace fields, or on the fixed-column fields when the count is off.
    fn with_fixed_fallback(
        &mut self,
        ln: usize,
        line: &str,
        toks: Vec<&str>,
        counts: &[usize],
        f: fn(&mut Self, usize, &[&str]) -> Result<(), MpsError>,
    ) -> Result<(), MpsError> {
        let is_marker = toks.get(1).is_some_and(|t| t.trim_matches('\'') == "MARKER");
        let fixed = fixed_fields(line);
        // In fixed format field 1 (type) is empty except in ROWS and BOUNDS.
        let typed = matches!(self.section, Section::Rows | Section::Bounds);
        let fx: Vec<&str> = fixed.iter().map(String::as_str).skip(usize::from(!typed)).collect();
        let fixed_ok =
            looks_fixed(line) && fx.iter().all(|t| !t.is_empty()) && counts.contains(&fx.len()) && fx != toks;
        if counts.contains(&toks.len()) || is_marker {
            // A name with a space can still give a plausible count: retry by columns on error.
            return match f(self, ln, &toks) {
                Err(e) if fixed_ok => f(self, ln, &fx).map_err(|_| e),
                r => r,
            };
        }
        if fixed_ok {
            return f(self, ln, &fx);
        }
        f(self, ln, &toks)
    }

    fn header(&mut self, ln: usize, line: &str) -> Result<(), MpsError> {
        let mut it = line.split_whitespace();
        let word = it.next().unwrap_or("").to_ascii_uppercase();
        let next = match word.as_str() {
            "NAME" => {
                self.name = it.collect::<Vec<_>>().join(" ");
                if self.name.is_empty() {
                    self.warnings.push(format!("line {ln}: NAME without a name; the model is unnamed"));
                }
                Section::Name
            }
            "OBJSENSE" => {
                if let Some(s) = it.next() {
                    self.objsense(ln, s)?;
                }
                Section::ObjSense
            }
            "ROWS" => Section::Rows,
            "COLUMNS" => Section::Columns,
            "RHS" => Section::Rhs,
            "RANGES" => Section::Ranges,
            "BOUNDS" => Section::Bounds,
            "ENDATA" => Section::End,
            w if UNSUPPORTED_SECTIONS.contains(&w) => return err(ln, MpsErrorKind::UnsupportedSection(word)),
            _ => return err(ln, MpsErrorKind::UnknownSection(word)),
        };
        if next < self.section || (next == self.section && next != Section::ObjSense) {
            return err(ln, MpsErrorKind::SectionOrder { found: word, expected: self.expected_next() });
        }
        if next >= Section::Columns && !self.seen_rows {
            return err(ln, MpsErrorKind::MissingSection("ROWS"));
        }
        if next >= Section::Rhs && !self.seen_columns {
            return err(ln, MpsErrorKind::MissingSection("COLUMNS"));
        }
        match next {
            Section::Rows => self.seen_rows = true,
            Section::Columns => self.seen_columns = true,
            _ => {}
        }
        self.section = next;
        Ok(())
    }

    fn expected_next(&self) -> &'static str {
        match self.section {
            Section::None | Section::Name | Section::ObjSense => "ROWS",
            Section::Rows => "COLUMNS",
            _ => "RHS, RANGES, BOUNDS or ENDATA",
        }
    }

    fn objsense(&mut self, ln: usize, s: &str) -> Result<(), MpsError> {
        self.sense = match s.to_ascii_uppercase().as_str() {
            "MAX" | "MAXIMIZE" => Sense::Maximize,
            "MIN" | "MINIMIZE" => Sense::Minimize,
            _ => return err(ln, MpsErrorKind::BadSense(s.to_string())),
        };
        Ok(())
    }

    fn rows(&mut self, ln: usize, t: &[&str]) -> Result<(), MpsError> {
        if t.len() != 2 {
            return err(ln, MpsErrorKind::FieldCount { expected: "2 fields (type, row name)", found: t.len() });
        }
        let name = t[1].to_string();
        if self.row_index.contains_key(&name)
            || self.free_rows.contains_key(&name)
            || self.objective.as_ref() == Some(&name)
        {
            return err(ln, MpsErrorKind::DuplicateRow(name));
        }
        let kind = match t[0].to_ascii_uppercase().as_str() {
            "N" => {
                if self.objective.is_none() {
                    self.objective = Some(name);
                } else {
                    self.warnings.push(format!("line {ln}: extra N row `{name}` ignored"));
                    self.free_rows.insert(name, ());
                }
                return Ok(());
            }
            "E" => RowKind::E,
            "L" => RowKind::L,
            "G" => RowKind::G,
            other => return err(ln, MpsErrorKind::RowType(other.to_string())),
        };
        self.row_index.insert(name.clone(), self.row_names.len());
        self.row_names.push(name);
        self.row_kind.push(kind);
        self.rhs.push(0.0);
        self.rhs_given.push(false);
        self.range.push(None);
        Ok(())
    }

    fn number(ln: usize, tok: &str) -> Result<f64, MpsError> {
        parse_value(tok).map_err(|kind| MpsError { line: ln, kind })
    }

    fn columns(&mut self, ln: usize, t: &[&str]) -> Result<(), MpsError> {
        if t.len() >= 3 && t[1].trim_matches('\'') == "MARKER" {
            match t[2].trim_matches('\'') {
                "INTORG" => self.in_integer = true,
                "INTEND" => self.in_integer = false,
                other => return err(ln, MpsErrorKind::BadMarker(other.to_string())),
            }
            return Ok(());
        }
        if t.len() != 3 && t.len() != 5 {
            return err(
                ln,
                MpsErrorKind::FieldCount {
                    expected: "3 or 5 fields (column, row, value[, row, value])",
                    found: t.len(),
                },
            );
        }
        let name = t[0];
        let values = Self::pair_values(ln, &t[1..])?;
        if let Some(row) = t[1..].iter().step_by(2).find(|r| {
            self.objective.as_deref() != Some(**r)
                && !self.row_index.contains_key(**r)
                && !self.free_rows.contains_key(**r)
        }) {
            return err(ln, MpsErrorKind::UnknownRow(row.to_string()));
        }
        let j = match self.col_index.get(name) {
            Some(&j) if j + 1 == self.col_names.len() => j,
            Some(_) => return err(ln, MpsErrorKind::DuplicateColumn(name.to_string())),
            None => {
                let j = self.col_names.len();
                self.col_index.insert(name.to_string(), j);
                self.col_names.push(name.to_string());
                self.c.push(0.0);
                self.integer.push(self.in_integer);
                if self.in_integer {
                    self.warnings.push(format!("line {ln}: integer column `{name}` read as continuous"));
                }
                self.lower.push(0.0);
                self.upper.push(f64::INFINITY);
                self.lower_set.push(false);
                self.col_rows.clear();
                j
            }
        };
        for (pair, &v) in t[1..].chunks(2).zip(&values) {
            let row = pair[0];
            if v.is_nan() || v.abs() >= MAX_COEFFICIENT {
                return err(ln, MpsErrorKind::AbsurdCoefficient { row: row.into(), col: name.into(), value: v });
            }
            if self.objective.as_deref() == Some(row) {
                if self.col_rows.contains(&usize::MAX) {
                    return err(ln, MpsErrorKind::DuplicateEntry { row: row.into(), col: name.into() });
                }
                self.col_rows.push(usize::MAX);
                self.c[j] = v;
            } else if let Some(&i) = self.row_index.get(row) {
                if self.col_rows.contains(&i) {
                    return err(ln, MpsErrorKind::DuplicateEntry { row: row.into(), col: name.into() });
                }
                self.col_rows.push(i);
                self.triplets.push((i, j, v));
            }
        }
        Ok(())
    }

    /// The numbers of (name, value) pairs, all parsed before anything is stored, so that a
    /// line that fails (and may be re-read by fixed columns) leaves no trace.
    fn pair_values(ln: usize, pairs: &[&str]) -> Result<Vec<f64>, MpsError> {
        pairs.chunks(2).map(|p| Self::number(ln, p.get(1).copied().unwrap_or(""))).collect()
    }

    /// Splits off an optional set name: with `pairs` (name, value) pairs after it.
    fn set_and_pairs<'a>(t: &'a [&'a str]) -> (Option<&'a str>, &'a [&'a str]) {
        if t.len() % 2 == 1 {
            (Some(t[0]), &t[1..])
        } else {
            (None, t)
        }
    }

    fn use_set(
        current: &mut Option<String>,
        name: Option<&str>,
        warnings: &mut Vec<String>,
        ln: usize,
        what: &str,
    ) -> bool {
        let name = name.unwrap_or("").to_string();
        match current {
            None => {
                *current = Some(name);
                true
            }
            Some(c) if *c == name => true,
            Some(_) => {
                warnings.push(format!("line {ln}: {what} set `{name}` ignored (only the first set is used)"));
                false
            }
        }
    }

    fn rhs(&mut self, ln: usize, t: &[&str]) -> Result<(), MpsError> {
        if !(2..=5).contains(&t.len()) {
            return err(
                ln,
                MpsErrorKind::FieldCount {
                    expected: "2 to 5 fields ([set], row, value[, row, value])",
                    found: t.len(),
                },
            );
        }
        let (set, pairs) = Self::set_and_pairs(t);
        let values = Self::pair_values(ln, pairs)?;
        if !Self::use_set(&mut self.rhs_set, set, &mut self.warnings, ln, "RHS") {
            return Ok(());
        }
        for (pair, &v) in pairs.chunks(2).zip(&values) {
            let v = infinite(v);
            if self.objective.as_deref() == Some(pair[0]) {
                if self.obj_constant_set {
                    return err(ln, MpsErrorKind::DuplicateRowValue { what: "RHS", row: pair[0].to_string() });
                }
                self.obj_constant_set = true;
                self.obj_constant = -v;
            } else if let Some(&i) = self.row_index.get(pair[0]) {
                if self.rhs_given[i] {
                    return err(ln, MpsErrorKind::DuplicateRowValue { what: "RHS", row: pair[0].to_string() });
                }
                self.rhs_given[i] = true;
                self.rhs[i] = v;
            } else if self.free_rows.contains_key(pair[0]) {
                self.warnings.push(format!("line {ln}: RHS on extra N row `{}` ignored", pair[0]));
            } else {
                return err(ln, MpsErrorKind::UnknownRow(pair[0].to_string()));
            }
        }
        Ok(())
    }

    fn ranges(&mut self, ln: usize, t: &[&str]) -> Result<(), MpsError> {
        if !(2..=5).contains(&t.len()) {
            return err(
                ln,
                MpsErrorKind::FieldCount {
                    expected: "2 to 5 fields ([set], row, value[, row, value])",
                    found: t.len(),
                },
            );
        }
        let (set, pairs) = Self::set_and_pairs(t);
        let values = Self::pair_values(ln, pairs)?;
        if !Self::use_set(&mut self.range_set, set, &mut self.warnings, ln, "RANGES") {
            return Ok(());
        }
        for (pair, &v) in pairs.chunks(2).zip(&values) {
            let v = infinite(v);
            match self.row_index.get(pair[0]) {
                Some(&i) if self.range[i].is_some() => {
                    return err(ln, MpsErrorKind::DuplicateRowValue { what: "RANGES", row: pair[0].to_string() })
                }
                Some(&i) => self.range[i] = Some(v),
                None if self.free_rows.contains_key(pair[0]) || self.objective.as_deref() == Some(pair[0]) => {
                    self.warnings.push(format!("line {ln}: range on N row `{}` ignored", pair[0]));
                }
                None => return err(ln, MpsErrorKind::UnknownRow(pair[0].to_string())),
            }
        }
        Ok(())
    }

    fn bounds(&mut self, ln: usize, t: &[&str]) -> Result<(), MpsError> {
        if t.is_empty() {
            return err(ln, MpsErrorKind::FieldCount { expected: "bound type, [set], column[, value]", found: 0 });
        }
        let ty = t[0].to_ascii_uppercase();
        let needs_value = matches!(ty.as_str(), "UP" | "LO" | "FX" | "LI" | "UI" | "SC");
        let known = needs_value || matches!(ty.as_str(), "FR" | "MI" | "PL" | "BV");
        if !known {
            return err(ln, MpsErrorKind::BoundType(ty));
        }
        // Fields after the type: [set] column [value].
        let rest = &t[1..];
        // "UP BND X" (set and column, no value): the last field names a column, not a number.
        let missing_value = |col: &str| MpsError {
            line: ln,
            kind: MpsErrorKind::MissingValue { bound: ty.clone(), col: col.to_string() },
        };
        let set_and_column = rest.len() == 2 && parse_value(rest[1]).is_err() && self.col_index.contains_key(rest[1]);
        if needs_value && set_and_column && ty != "SC" {
            return Err(missing_value(rest[1]));
        }
        if needs_value && rest.len() == 1 && ty != "SC" {
            return Err(missing_value(rest[0]));
        }
        let (set, col, value) = match (needs_value, rest.len()) {
            (true, 1) => (None, rest[0], None),
            (true, 2) if set_and_column => (Some(rest[0]), rest[1], None),
            (true, 3) => (Some(rest[0]), rest[1], Some(rest[2])),
            (true, 2) => (None, rest[0], Some(rest[1])),
            (false, 1) => (None, rest[0], None),
            (false, 2) if ty == "BV" && parse_number(rest[1]).is_some() => (None, rest[0], None),
            (false, 2) => (Some(rest[0]), rest[1], None),
            (false, 3) => (Some(rest[0]), rest[1], None),
            _ => {
                let expected = if needs_value { "type, [set], column, value" } else { "type, [set], column" };
                return err(ln, MpsErrorKind::FieldCount { expected, found: t.len() });
            }
        };
        let v = match value {
            Some(tok) => infinite(Self::number(ln, tok)?),
            None if ty == "SC" => f64::INFINITY,
            None => 0.0,
        };
        let j = *self
            .col_index
            .get(col)
            .ok_or_else(|| MpsError { line: ln, kind: MpsErrorKind::UnknownColumn(col.to_string()) })?;
        if !Self::use_set(&mut self.bound_set, set, &mut self.warnings, ln, "BOUNDS") {
            return Ok(());
        }
        match ty.as_str() {
            "UP" | "UI" => {
                self.upper[j] = v;
                if v < 0.0 && !self.lower_set[j] && self.lower[j] == 0.0 {
                    self.lower[j] = f64::NEG_INFINITY;
                    self.warnings
                        .push(format!("line {ln}: negative UP bound on `{col}` with no LO: lower bound set to -inf"));
                }
            }
            "LO" | "LI" => {
                self.lower[j] = v;
                self.lower_set[j] = true;
            }
            "FX" => {
                self.lower[j] = v;
                self.upper[j] = v;
                self.lower_set[j] = true;
            }
            "FR" => {
                self.lower[j] = f64::NEG_INFINITY;
                self.upper[j] = f64::INFINITY;
                self.lower_set[j] = true;
            }
            "MI" => {
                self.lower[j] = f64::NEG_INFINITY;
                self.lower_set[j] = true;
            }
            "PL" => self.upper[j] = f64::INFINITY,
            "SC" => {
                self.lower[j] = 0.0;
                self.upper[j] = v;
                self.lower_set[j] = true;
                self.warnings.push(format!(
                    "line {ln}: semi-continuous bound SC on `{col}` relaxed to [0, {v}] (an LP solver cannot keep x = 0 or x ≥ l)"
                ));
            }
            _ => {
                // BV
                self.lower[j] = 0.0;
                self.upper[j] = 1.0;
                self.lower_set[j] = true;
            }
        }
        if matches!(ty.as_str(), "BV" | "LI" | "UI") && !self.integer[j] {
            self.integer[j] = true;
            self.warnings.push(format!("line {ln}: integer bound {ty} on `{col}`: column read as continuous"));
        }
        Ok(())
    }

    fn finish(self) -> Result<LpModel, MpsError> {
        if self.section != Section::End {
            let missing = if !self.seen_rows {
                "ROWS"
            } else if !self.seen_columns {
                "COLUMNS"
            } else {
                "ENDATA"
            };
            return err(self.last_line + 1, MpsErrorKind::MissingSection(missing));
        }
        let mut warnings = self.warnings;
        let objective_name = match self.objective {
            Some(o) => o,
            None => {
                warnings.push("no N (objective) row: the objective is zero (a feasibility problem)".to_string());
                String::new()
            }
        };
        for (j, name) in self.col_names.iter().enumerate() {
            if self.lower[j] > self.upper[j] {
                warnings.push(format!(
                    "column `{name}` has conflicting bounds: lower {} > upper {} (the LP is infeasible)",
                    self.lower[j], self.upper[j]
                ));
            }
        }
        let m = self.row_names.len();
        let mut row_lower = vec![0.0; m];
        let mut row_upper = vec![0.0; m];
        for i in 0..m {
            let h = self.rhs[i];
            let (l, u) = match (self.row_kind[i], self.range[i]) {
                (RowKind::E, None) => (h, h),
                (RowKind::L, None) => (f64::NEG_INFINITY, h),
                (RowKind::G, None) => (h, f64::INFINITY),
                (RowKind::G, Some(r)) => (h, h + r.abs()),
                (RowKind::L, Some(r)) => (h - r.abs(), h),
                (RowKind::E, Some(r)) if r >= 0.0 => (h, h + r),
                (RowKind::E, Some(r)) => (h + r, h),
            };
            row_lower[i] = l;
            row_upper[i] = u;
        }
        let a = SparseColMatrix::from_triplets(m, self.col_names.len(), &self.triplets);
        Ok(LpModel {
            name: self.name,
            sense: self.sense,
            objective_name,
            c: self.c,
            obj_constant: self.obj_constant,
            row_names: self.row_names,
            col_names: self.col_names,
            a,
            row_lower,
            row_upper,
            col_lower: self.lower,
            col_upper: self.upper,
            integer: self.integer,
            warnings,
        })
    }
}

/// |v| ≥ 1e20 → ±∞.
fn infinite(v: f64) -> f64 {
    if v >= MPS_INFINITY {
        f64::INFINITY
    } else if v <= -MPS_INFINITY {
        f64::NEG_INFINITY
    } else {
        v
    }
}

/// Reads from any reader (used by `read_bytes`; exposed for streams).
pub fn read<R: Read>(mut r: R) -> Result<LpModel, MpsError> {
    let mut bytes = Vec::new();
    r.read_to_end(&mut bytes).map_err(|e| MpsError { line: 0, kind: MpsErrorKind::Io(e.to_string()) })?;
    read_bytes(&bytes)
}
