//! The end of the file: the model, with row bounds from RHS and RANGES.

use super::error::{MpsError, MpsErrorKind, MPS_INFINITY};
use super::parser::{err, Parser, RowKind, Section};
use crate::lp::model::{LpModel, SparseColMatrix};

impl Parser {
    pub(super) fn finish(self) -> Result<LpModel, MpsError> {
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
        // The reader checks names and values as it goes; a failure here is a reader bug, reported as
        // a malformed model rather than a panic.
        let a = SparseColMatrix::from_triplets(m, self.col_names.len(), &self.triplets)
            .map_err(|e| MpsError { line: 0, kind: MpsErrorKind::Model(e) })?;
        let model = LpModel {
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
        };
        model.validate().map_err(|e| MpsError { line: 0, kind: MpsErrorKind::Model(e) })?;
        Ok(model)
    }
}

/// |v| ≥ 1e20 → ±∞.
pub(super) fn infinite(v: f64) -> f64 {
    if v >= MPS_INFINITY {
        f64::INFINITY
    } else if v <= -MPS_INFINITY {
        f64::NEG_INFINITY
    } else {
        v
    }
}
