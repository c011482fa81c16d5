//! The line-by-line state machine: section headers, ROWS and COLUMNS.

use super::error::{parse_value, MpsError, MpsErrorKind, MAX_COEFFICIENT, UNSUPPORTED_SECTIONS};
use super::fields::{fixed_fields, looks_fixed};
use crate::lp::model::Sense;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(super) enum Section {
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
pub(super) enum RowKind {
    E,
    L,
    G,
}

#[derive(Default)]
pub(super) struct Parser {
    /// Number of the last line read (end-of-file errors point just past it).
    pub(super) last_line: usize,
    pub(super) section: Section,
    pub(super) seen_rows: bool,
    pub(super) seen_columns: bool,
    pub(super) name: String,
    pub(super) sense: Sense,
    pub(super) objective: Option<String>,
    pub(super) row_index: HashMap<String, usize>,
    pub(super) free_rows: HashMap<String, ()>,
    pub(super) row_names: Vec<String>,
    pub(super) row_kind: Vec<RowKind>,
    pub(super) rhs: Vec<f64>,
    pub(super) rhs_given: Vec<bool>,
    pub(super) obj_constant_set: bool,
    pub(super) range: Vec<Option<f64>>,
    pub(super) col_index: HashMap<String, usize>,
    pub(super) col_names: Vec<String>,
    pub(super) c: Vec<f64>,
    pub(super) triplets: Vec<(usize, usize, f64)>,
    pub(super) col_rows: Vec<usize>,
    pub(super) integer: Vec<bool>,
    pub(super) in_integer: bool,
    pub(super) lower: Vec<f64>,
    pub(super) upper: Vec<f64>,
    pub(super) lower_set: Vec<bool>,
    pub(super) obj_constant: f64,
    pub(super) rhs_set: Option<String>,
    pub(super) range_set: Option<String>,
    pub(super) bound_set: Option<String>,
    pub(super) warnings: Vec<String>,
}

pub(super) fn err<T>(line: usize, kind: MpsErrorKind) -> Result<T, MpsError> {
    Err(MpsError { line, kind })
}

impl Parser {
    pub(super) fn line(&mut self, ln: usize, raw: &str) -> Result<(), MpsError> {
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

    pub(super) fn number(ln: usize, tok: &str) -> Result<f64, MpsError> {
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
}
