//! What the log says about the model before the first iteration: coefficient ranges, presolve's make-up.

use super::Logger;
use crate::lp::backend::{DependentRows, CANDIDATE_PIVOT, DEPENDENCE_TOLERANCE};
use crate::lp::model::LpModel;
use crate::lp::standard_form::{StandardForm, SMALL_MATRIX_VALUE};

/// min/max |v| over the finite non-zero values (`None` if there are none).
fn range(parts: &[&[f64]]) -> Option<(f64, f64)> {
    // Four independent minima and maxima, each a select of whole lanes that the compiler keeps
    // in vector registers: a running pair is a chain of dependent compares, and selects on
    // a wider array were spilled to the stack (a dense model's 16.8 million coefficients took
    // 72 ms either way, 22–31 ms like this).
    const LANES: usize = 4;
    let (mut lo, mut hi) = ([f64::INFINITY; LANES], [0.0f64; LANES]);
    for part in parts {
        let chunks = part.chunks_exact(LANES);
        let rest = chunks.remainder();
        for chunk in chunks {
            let a: [f64; LANES] = std::array::from_fn(|k| chunk[k].abs());
            // Zeros, infinities and NaN are not counted.
            let l = a.map(|a| if a > 0.0 { a } else { f64::INFINITY });
            let h = a.map(|a| if a < f64::INFINITY { a } else { 0.0 });
            lo = std::array::from_fn(|k| if l[k] < lo[k] { l[k] } else { lo[k] });
            hi = std::array::from_fn(|k| if h[k] > hi[k] { h[k] } else { hi[k] });
        }
        for &x in rest {
            let a = x.abs();
            if a > 0.0 && a < lo[0] {
                lo[0] = a;
            }
            if a < f64::INFINITY && a > hi[0] {
                hi[0] = a;
            }
        }
    }
    let lo = lo.into_iter().fold(f64::INFINITY, f64::min);
    let hi = hi.into_iter().fold(0.0, f64::max);
    (hi > 0.0).then_some((lo, hi))
}

/// The model's coefficient ranges (HiGHS prints the same four lines): a spread of many orders of
/// magnitude warns of a badly scaled model before the first iteration.
pub fn coefficient_ranges(model: &LpModel) -> Vec<String> {
    let fmt = |name: &str, r: Option<(f64, f64)>| match r {
        Some((lo, hi)) => format!("  {name:<7}[{lo:.0e}, {hi:.0e}]"),
        None => format!("  {name:<7}[none]"),
    };
    vec![
        "coefficient ranges:".to_string(),
        fmt("matrix", range(&[&model.a.values])),
        fmt("cost", range(&[&model.c])),
        fmt("bound", range(&[&model.col_lower, &model.col_upper])),
        fmt("rhs", range(&[&model.row_lower, &model.row_upper])),
    ]
}

/// Writes the coefficient ranges and the scaled matrix range.
pub fn log_ranges(log: &mut Logger, model: &LpModel, sf: &StandardForm) {
    if !log.enabled() {
        return;
    }
    // Two passes over A's entries (the model's and the scaled one), one per thread.
    let (lines, scaled) = rayon::join(|| coefficient_ranges(model), || range(&[&sf.a.values]));
    for l in lines {
        log.line(&l);
    }
    let factors = range(&[&sf.row_scale, &sf.col_scale]);
    if let (Some((lo, hi)), Some((flo, fhi))) = (scaled, factors) {
        log.line(&format!(
            "  scaled matrix [{lo:.0e}, {hi:.0e}] after equilibration (factors in [{flo:.0e}, {fhi:.0e}])"
        ));
    }
}

/// Verbose: what presolve made of the model.
pub fn log_make_up(log: &mut Logger, sf: &StandardForm) {
    use crate::lp::standard_form::ColumnMap;
    let count = |f: fn(&ColumnMap) -> bool| sf.columns.iter().filter(|c| f(c)).count();
    let fixed = count(|c| matches!(c, ColumnMap::Fixed(_)));
    let mirrored = count(|c| matches!(c, ColumnMap::Single { sign, .. } if *sign < 0.0));
    let free = count(|c| matches!(c, ColumnMap::Free { .. }));
    let split = count(|c| matches!(c, ColumnMap::Split { .. }));
    let dropped = sf.row_of.iter().filter(|r| r.is_none()).count();
    log.line(&format!(
        "standard form: {dropped} rows dropped (free or empty), {fixed} columns fixed, {mirrored} mirrored, {free} free (one column each), {split} free split into x⁺ − x⁻"
    ));
}

/// The dependent rows presolve removed (nothing when there were none).
pub fn log_dependent_rows(log: &mut Logger, found: &DependentRows) {
    if found.rows.is_empty() && found.kept_candidates == 0 {
        return;
    }
    log.line(&format!(
        "presolve: {} linearly dependent rows removed (A·Aᵀ pivots ≤ {:.0e}, each a combination of the kept rows to {:.0e}){}",
        found.rows.len(),
        CANDIDATE_PIVOT,
        DEPENDENCE_TOLERANCE,
        match found.kept_candidates {
            0 => String::new(),
            k => format!("; {k} candidates kept (independent, or with an inconsistent right-hand side)"),
        }
    ));
}

/// The warning for the coefficients the standard form treated as zero (`SMALL_MATRIX_VALUE`),
/// logged whatever the verbosity allows; the same text for the solution's notes, if any.
pub fn log_tiny_entries(log: &mut Logger, sf: &StandardForm) -> Option<String> {
    if sf.tiny_entries == 0 {
        return None;
    }
    let note = format!(
        "{} coefficients at most {SMALL_MATRIX_VALUE:e} of their row's and column's largest (in the model's units) were treated as zero",
        sf.tiny_entries
    );
    log.line(&format!("warning: {note}"));
    Some(note)
}

#[cfg(test)]
mod tests {
    use super::range;

    /// The definition, one value at a time.
    fn reference(parts: &[&[f64]]) -> Option<(f64, f64)> {
        let counted: Vec<f64> =
            parts.iter().flat_map(|p| p.iter()).map(|x| x.abs()).filter(|a| *a > 0.0 && a.is_finite()).collect();
        let lo = counted.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = counted.iter().copied().fold(0.0, f64::max);
        (!counted.is_empty()).then_some((lo, hi))
    }

    #[test]
    fn range_counts_every_finite_nonzero_value_at_every_position() {
        let specials = [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 5e-300, -7e250];
        for len in 0..=13 {
            for pos in 0..len {
                for &special in &specials {
                    let v: Vec<f64> =
                        (0..len).map(|k| if k == pos { special } else { (k as f64 - 4.5) * 0.75 }).collect();
                    let (head, tail) = v.split_at(len / 3);
                    assert_eq!(range(&[head, tail]), reference(&[&v]), "len {len}, {special} at {pos}");
                }
            }
        }
        assert_eq!(range(&[&[0.0, f64::NAN, f64::INFINITY]]), None);
        assert_eq!(range(&[]), None);
    }
}
