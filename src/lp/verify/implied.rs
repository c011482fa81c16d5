//! Column bounds that the rows imply, proven with rounding accounted for: what the dual bound
//! needs where a column's own bound is infinite and its reduced cost cannot be proven to have
//! the sign that makes the bound unnecessary (Neumaier & Shcherbina's safe bound holds "for
//! variables that can be bounded rigorously"; these are such bounds, from the model's own data).
//!
//! Row i with a finite upper bound uᵢ and an entry aᵢₖ > 0 gives, for every x satisfying it and
//! the column bounds, aᵢₖ·xₖ ≤ uᵢ − Σⱼ≠ₖ min(aᵢⱼlⱼ, aᵢⱼuⱼ) (the row's least activity without
//! column k) — an upper bound on xₖ where that least activity is finite; aᵢₖ < 0 gives a lower
//! bound, and a finite lower bound of the row the mirror images. A few sweeps let bounds found in
//! one row tighten others. Every bound holds for each point that satisfies the model (and says
//! nothing when none does), so the dual bound built on them is a bound on the model as written.

use super::rounding::{div_down, div_up, down, mul_down, mul_up, sum_error, up};
use crate::lp::model::LpModel;

/// Sweeps over the rows: each lets a bound found in one row reach the rows of its column.
pub const SWEEPS: usize = 4;

/// Proven bounds on every column over the model's feasible set: at least as tight as the
/// model's own (`lower[j] ≥ col_lower[j]`, `upper[j] ≤ col_upper[j]`).
#[derive(Clone, Debug, PartialEq)]
pub struct ImpliedBounds {
    pub lower: Vec<f64>,
    pub upper: Vec<f64>,
}

/// A's rows: (column, value) of each row's nonzero entries, row i's at `ptr[i]..ptr[i + 1]`.
fn rows_of(model: &LpModel) -> (Vec<usize>, Vec<(usize, f64)>) {
    let m = model.num_rows();
    let mut ptr = vec![0usize; m + 1];
    for j in 0..model.num_cols() {
        for (i, _) in model.a.col(j).filter(|&(_, v)| v != 0.0) {
            ptr[i + 1] += 1;
        }
    }
    for i in 0..m {
        ptr[i + 1] += ptr[i];
    }
    let mut next = ptr.clone();
    let mut entries = vec![(0usize, 0.0f64); ptr[m]];
    for j in 0..model.num_cols() {
        for (i, v) in model.a.col(j).filter(|&(_, v)| v != 0.0) {
            entries[next[i]] = (j, v);
            next[i] += 1;
        }
    }
    (ptr, entries)
}

/// The least and the greatest value of the term a·x over x ∈ [lo, up], each rounded outwards
/// (±∞ where the bound it needs is infinite).
fn term_range(a: f64, lo: f64, up: f64) -> (f64, f64) {
    if a > 0.0 {
        (mul_down(a, lo), mul_up(a, up))
    } else {
        (mul_down(a, up), mul_up(a, lo))
    }
}

/// The proven bounds of a validated model (see the module documentation).
pub fn implied_bounds(model: &LpModel) -> ImpliedBounds {
    swept(model, true, SWEEPS)
}

/// [`implied_bounds`] with at most `sweeps` sweeps, reading again after the first only the rows
/// with a changed column (`skip_clean`) or every row.
fn swept(model: &LpModel, skip_clean: bool, sweeps: usize) -> ImpliedBounds {
    let (ptr, all) = rows_of(model);
    let mut ranges: Vec<(f64, f64)> = Vec::new();
    let mut lower = model.col_lower.clone();
    let mut upper = model.col_upper.clone();
    // A row whose columns' bounds have not changed since it was last read gives what it gave
    // then (nothing new): after the first sweep only rows with a changed column are read again.
    // Stamps count rows read; a column's is that of the row whose reading changed it.
    let (mut stamp, mut read_at, mut changed_at) = (0usize, vec![0usize; model.num_rows()], vec![0usize; model.num_cols()]);
    for sweep in 0..sweeps {
        let mut changed = false;
        for i in 0..model.num_rows() {
            let entries = &all[ptr[i]..ptr[i + 1]];
            let (rl, ru) = (model.row_lower[i], model.row_upper[i]);
            if entries.is_empty() || !(rl.is_finite() || ru.is_finite()) {
                continue;
            }
            if skip_clean && sweep > 0 && entries.iter().all(|&(j, _)| changed_at[j] < read_at[i]) {
                continue;
            }
            stamp += 1;
            read_at[i] = stamp;
            // Two infinite bounds among a side's terms leave no column of the row a bound from
            // that side (the products below only add overflows to them): most rows of a model
            // with free columns end here, before their products.
            let (mut below, mut above) = (0, 0);
            for &(j, a) in entries {
                let (least, greatest) = if a > 0.0 { (-lower[j], upper[j]) } else { (upper[j], -lower[j]) };
                below += usize::from(least == f64::INFINITY);
                above += usize::from(greatest == f64::INFINITY);
                if below > 1 && above > 1 {
                    break;
                }
            }
            if (below > 1 || !ru.is_finite()) && (above > 1 || !rl.is_finite()) {
                continue;
            }
            // The row's least and greatest activity from the finite terms, with the count of
            // infinite ones and their column (the only column that can then gain a bound).
            let (mut least, mut greatest) = (0.0, 0.0);
            let (mut least_mag, mut greatest_mag) = (0.0, 0.0);
            // (How many, the last one): only "none" and "just k" matter below.
            let (mut least_inf, mut greatest_inf) = ((0usize, 0usize), (0usize, 0usize));
            ranges.clear();
            ranges.extend(entries.iter().map(|&(j, a)| term_range(a, lower[j], upper[j])));
            for (k, &(lo, hi)) in ranges.iter().enumerate() {
                if lo == f64::NEG_INFINITY {
                    least_inf = (least_inf.0 + 1, k);
                } else {
                    least += lo;
                    least_mag += lo.abs();
                }
                if hi == f64::INFINITY {
                    greatest_inf = (greatest_inf.0 + 1, k);
                } else {
                    greatest += hi;
                    greatest_mag += hi.abs();
                }
            }
            let terms = entries.len() + 1;
            for (k, &(j, a)) in entries.iter().enumerate() {
                // aₖ·xₖ ≤ ru − (least activity of the others).
                if ru.is_finite() && (least_inf.0 == 0 || least_inf == (1, k)) {
                    let others = if least_inf.0 == 0 { least - ranges[k].0 } else { least };
                    let others = down(down(others) - sum_error(terms, least_mag));
                    let room = up(ru - others);
                    if tighten(a, room, true, &mut lower[j], &mut upper[j]) {
                        (changed, changed_at[j]) = (true, stamp);
                    }
                }
                // aₖ·xₖ ≥ rl − (greatest activity of the others).
                if rl.is_finite() && (greatest_inf.0 == 0 || greatest_inf == (1, k)) {
                    let others = if greatest_inf.0 == 0 { greatest - ranges[k].1 } else { greatest };
                    let others = up(up(others) + sum_error(terms, greatest_mag));
                    let room = down(rl - others);
                    if tighten(a, room, false, &mut lower[j], &mut upper[j]) {
                        (changed, changed_at[j]) = (true, stamp);
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    // Bounds that cross prove the model infeasible; for the dual side they are worth nothing (a
    // bound of an empty set), and the column keeps its own.
    for j in 0..model.num_cols() {
        if lower[j] > upper[j] {
            (lower[j], upper[j]) = (model.col_lower[j], model.col_upper[j]);
        }
    }
    ImpliedBounds { lower, upper }
}

/// Applies a·x ≤ room (`at_most`; room an upper bound on the exact right-hand side) or
/// a·x ≥ room (room a lower bound) to x's bounds, where the new bound is finite and tighter;
/// true when one changed. Bounds that cross (an infeasible model) are kept as found: every bound
/// holds vacuously there.
fn tighten(a: f64, room: f64, at_most: bool, lower: &mut f64, upper: &mut f64) -> bool {
    if !room.is_finite() || a == 0.0 {
        return false;
    }
    // Dividing by a < 0 flips the inequality; (−room)/(−a) keeps the divisor positive.
    let (bound, is_upper) = match (at_most, a > 0.0) {
        (true, true) => (div_up(room, a), true),
        (true, false) => (div_down(-room, -a), false),
        (false, true) => (div_down(room, a), false),
        (false, false) => (div_up(-room, -a), true),
    };
    if !bound.is_finite() {
        return false;
    }
    if is_upper && bound < *upper {
        *upper = bound;
        true
    } else if !is_upper && bound > *lower {
        *lower = bound;
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::dmatrix;

    fn model(a: nalgebra::DMatrix<f64>, rows: (Vec<f64>, Vec<f64>), cols: (Vec<f64>, Vec<f64>)) -> LpModel {
        let n = a.ncols();
        let mut m = LpModel::new(a, vec![0.0; n], rows.0, rows.1).expect("a valid model");
        (m.col_lower, m.col_upper) = cols;
        m
    }

    #[test]
    fn a_row_bounds_its_columns_and_a_second_sweep_carries_the_bound_on() {
        let inf = f64::INFINITY;
        // x + 2y ≤ 4 with x, y ≥ 0: x ≤ 4, y ≤ 2. Then y − z = 0 with z free: z ≤ 2, z ≥ 0.
        let m = model(
            dmatrix![1.0, 2.0, 0.0; 0.0, 1.0, -1.0],
            (vec![-inf, 0.0], vec![4.0, 0.0]),
            (vec![0.0, 0.0, -inf], vec![inf, inf, inf]),
        );
        let b = implied_bounds(&m);
        assert!(b.upper[0] >= 4.0 && b.upper[0] <= 4.0 + 1e-14, "{:?}", b);
        assert!(b.upper[1] >= 2.0 && b.upper[1] <= 2.0 + 1e-14, "{:?}", b);
        assert!(b.upper[2] >= 2.0 && b.upper[2] <= 2.0 + 1e-14, "{:?}", b);
        assert!(b.lower[2] <= 0.0 && b.lower[2] >= -1e-14, "{:?}", b);
        assert_eq!((b.lower[0], b.lower[1]), (0.0, 0.0));
    }

    #[test]
    fn reading_only_the_rows_with_a_changed_column_finds_the_same_bounds() {
        // Random sparse models whose bounds travel from row to row over several sweeps (chains
        // of equalities and inequalities, free and half-bounded columns): skipping the rows
        // whose columns did not change since they were read must give every bound bit for bit.
        let inf = f64::INFINITY;
        let mut state = 987654321u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut differ_from_one_sweep = 0;
        for _ in 0..300 {
            let (m, n) = (2 + (next() * 7.0) as usize, 2 + (next() * 7.0) as usize);
            let a = nalgebra::DMatrix::from_fn(m, n, |_, _| {
                if next() < 0.45 { (next() - 0.5) * 10f64.powf(next() * 4.0 - 2.0) } else { 0.0 }
            });
            let pick = |v: f64, r: f64| if r < 0.3 { -inf } else if r < 0.5 { inf } else { v };
            let rows: (Vec<f64>, Vec<f64>) = (0..m)
                .map(|_| {
                    let (l, w) = ((next() - 0.5) * 10.0, next() * 5.0);
                    if next() < 0.3 { (l, l) } else { (pick(l, next()), (l + w).max(l)) }
                })
                .unzip();
            let cols: (Vec<f64>, Vec<f64>) = (0..n)
                .map(|_| {
                    let l = -next() * 5.0;
                    (pick(l, next()), if next() < 0.5 { inf } else { l + next() * 10.0 })
                })
                .unzip();
            let model = model(a, rows, cols);
            let (skipping, every) = (swept(&model, true, SWEEPS), swept(&model, false, SWEEPS));
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&skipping.lower), bits(&every.lower), "{model:?}");
            assert_eq!(bits(&skipping.upper), bits(&every.upper), "{model:?}");
            // Count the models where later sweeps found something: those the skipping is about.
            differ_from_one_sweep += usize::from(every != swept(&model, false, 1));
        }
        assert!(differ_from_one_sweep >= 10, "only {differ_from_one_sweep} models needed a second sweep");
    }

    #[test]
    fn no_bound_from_a_row_with_two_unbounded_terms_or_none_of_its_own() {
        let inf = f64::INFINITY;
        // x − y ≤ 1 with x, y ≥ 0 bounds neither from above; x + y ≥ 1 bounds nothing above.
        let m = model(
            dmatrix![1.0, -1.0; 1.0, 1.0],
            (vec![-inf, 1.0], vec![1.0, inf]),
            (vec![0.0, 0.0], vec![inf, inf]),
        );
        let b = implied_bounds(&m);
        assert_eq!(b.upper, vec![inf, inf]);
        assert_eq!(b.lower, vec![0.0, 0.0]);
    }

    #[test]
    fn every_implied_bound_holds_at_feasible_points_of_random_rows() {
        // Rows Σ aⱼxⱼ ≤ u over a box, with random signs and magnitudes over six orders: the bound
        // found for each column holds at every corner of the feasible box the sampler reaches.
        let mut state = 12345u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..200 {
            let n = 3;
            let a: Vec<f64> = (0..n).map(|_| (next() - 0.5) * 10f64.powf(next() * 6.0 - 3.0)).collect();
            let lo: Vec<f64> = (0..n).map(|_| -next() * 10.0).collect();
            let hi: Vec<f64> = lo.iter().map(|l| l + next() * 20.0).collect();
            // Feasible points: sampled in the box; the row's bound is their largest activity's half.
            let points: Vec<Vec<f64>> =
                (0..400).map(|_| (0..n).map(|j| lo[j] + next() * (hi[j] - lo[j])).collect()).collect();
            let act = |p: &Vec<f64>| p.iter().zip(&a).map(|(x, a)| x * a).sum::<f64>();
            let u = points.iter().map(act).fold(f64::NEG_INFINITY, f64::max) * 0.5;
            let m = model(
                nalgebra::DMatrix::from_row_slice(1, n, &a),
                (vec![f64::NEG_INFINITY], vec![u]),
                (lo.clone(), hi.clone()),
            );
            let b = implied_bounds(&m);
            for p in points.iter().filter(|p| act(p) <= u) {
                for (j, &v) in p.iter().enumerate().take(n) {
                    assert!(v <= b.upper[j] && v >= b.lower[j], "x{j} = {v} outside {b:?}");
                }
            }
        }
    }
}
