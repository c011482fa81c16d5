//! RHS, RANGES and BOUNDS: values attached to rows and columns already declared.

use super::error::{parse_number, parse_value, MpsError, MpsErrorKind};
use super::finish::infinite;
use super::parser::{err, Parser};

impl Parser {
    /// The numbers of (name, value) pairs, all parsed before anything is stored, so that a
    /// line that fails (and may be re-read by fixed columns) leaves no trace.
    pub(super) fn pair_values(ln: usize, pairs: &[&str]) -> Result<Vec<f64>, MpsError> {
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

    /// The (row, value) pairs of one RHS or RANGES line (`None`: the line belongs to a set
    /// that is ignored). Both sections share this form: `[set] row value [row value]`.
    fn row_values<'a>(
        &mut self,
        ln: usize,
        t: &'a [&'a str],
        what: RowSection,
    ) -> Result<Option<Vec<(&'a str, f64)>>, MpsError> {
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
        let current = match what {
            RowSection::Rhs => &mut self.rhs_set,
            RowSection::Ranges => &mut self.range_set,
        };
        if !Self::use_set(current, set, &mut self.warnings, ln, what.name()) {
            return Ok(None);
        }
        Ok(Some(pairs.chunks(2).zip(values).map(|(pair, v)| (pair[0], infinite(v))).collect()))
    }

    pub(super) fn rhs(&mut self, ln: usize, t: &[&str]) -> Result<(), MpsError> {
        let Some(values) = self.row_values(ln, t, RowSection::Rhs)? else { return Ok(()) };
        for (row, v) in values {
            let duplicate = || MpsErrorKind::DuplicateRowValue { what: "RHS", row: row.to_string() };
            if self.objective.as_deref() == Some(row) {
                if self.obj_constant_set {
                    return err(ln, duplicate());
                }
                self.obj_constant_set = true;
                self.obj_constant = -v;
            } else if let Some(&i) = self.row_index.get(row) {
                if self.rhs_given[i] {
                    return err(ln, duplicate());
                }
                self.rhs_given[i] = true;
                self.rhs[i] = v;
            } else if self.free_rows.contains_key(row) {
                self.warnings.push(format!("line {ln}: RHS on extra N row `{row}` ignored"));
            } else {
                return err(ln, MpsErrorKind::UnknownRow(row.to_string()));
            }
        }
        Ok(())
    }

    pub(super) fn ranges(&mut self, ln: usize, t: &[&str]) -> Result<(), MpsError> {
        let Some(values) = self.row_values(ln, t, RowSection::Ranges)? else { return Ok(()) };
        for (row, v) in values {
            match self.row_index.get(row) {
                Some(&i) if self.range[i].is_some() => {
                    return err(ln, MpsErrorKind::DuplicateRowValue { what: "RANGES", row: row.to_string() })
                }
                Some(&i) => self.range[i] = Some(v),
                None if self.free_rows.contains_key(row) || self.objective.as_deref() == Some(row) => {
                    self.warnings.push(format!("line {ln}: range on N row `{row}` ignored"));
                }
                None => return err(ln, MpsErrorKind::UnknownRow(row.to_string())),
            }
        }
        Ok(())
    }

    pub(super) fn bounds(&mut self, ln: usize, t: &[&str]) -> Result<(), MpsError> {
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
}

/// The two sections whose lines give values to rows.
#[derive(Clone, Copy)]
enum RowSection {
    Rhs,
    Ranges,
}

impl RowSection {
    fn name(self) -> &'static str {
        match self {
            RowSection::Rhs => "RHS",
            RowSection::Ranges => "RANGES",
        }
    }
}
