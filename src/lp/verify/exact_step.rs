//! Step 2 of the multipliers' repair ([`super::repair`]): the free columns' reduced costs made
//! exactly zero by an enclosed shift of the multipliers of as many rows.

use super::dual::DualIntervals;
use super::interval::verified_solve;
use super::point::{Checker, Need};
use super::products::Sums;
use super::rounding::{down, sum_error, up};
use faer::Mat;

/// The rows the exact step's pivots are sought among first, per free column (see
/// [`Checker::exact_zeros`]).
const SHORTLIST: usize = 3;

impl Checker<'_> {
    /// Step 2 of the module documentation: the free columns `free` exactly zero, the intervals
    /// `d` widened by the enclosed shift.
    pub(super) fn exact_zeros(
        &self,
        free: &[usize],
        y: &[f64],
        red: &Sums,
        pinned: &[bool],
        need: &[Need],
        d: &mut DualIntervals,
    ) -> Result<(), String> {
        let model = self.model();
        let m = model.num_rows();
        let k = free.len();
        // The rows the free columns touch, as a dense candidates × k matrix.
        let mut local = vec![usize::MAX; m];
        let mut rows: Vec<usize> = Vec::new();
        for &j in free {
            for (i, _) in model.a.col(j).filter(|&(_, v)| v != 0.0) {
                if local[i] == usize::MAX && !pinned[i] && (self.two_sided(i) || y[i] != 0.0) {
                    local[i] = rows.len();
                    rows.push(i);
                }
            }
        }
        let p = rows.len();
        let mut b = vec![0.0; p * k];
        for (c, &j) in free.iter().enumerate() {
            for (i, v) in model.a.col(j) {
                if local[i] != usize::MAX {
                    b[local[i] * k + c] = v;
                }
            }
        }
        // Partial pivoting (faer's LU of B) on rows weighted by their room: scaling a row
        // changes the choice of pivots and nothing else. A chosen row's multiplier becomes an
        // interval, which widens every column in the row: the rows whose columns have room for
        // that come first (near an optimum, a column at its bound has rⱼ of order μ, and a row
        // of it would spoil its sign), and two-sided rows before one-sided ones (scaled by 1e-3).
        if p < k {
            return Err(format!("free column {} has no row left to make its reduced cost exactly zero", model.col_name(free[p])));
        }
        let mut room = self.room(&rows, &local, red, need);
        // A one-sided row's multiplier has room up to zero.
        for (q, &i) in rows.iter().enumerate() {
            if !self.two_sided(i) {
                room[q] = room[q].min(y[i].abs());
            }
        }
        let mut sorted: Vec<f64> = room.clone();
        sorted.sort_by(|a, b| b.total_cmp(a));
        let enough = sorted[k - 1];
        let weight = |r: usize| {
            let w = if enough > 0.0 && enough.is_finite() { (room[r] / enough).clamp(1e-30, 1.0) } else { 1.0 };
            if self.two_sided(rows[r]) {
                w
            } else {
                1e-3 * w
            }
        };
        // The pivots come from the rows with the most room first: the LU of those alone
        // (SHORTLIST·k of them) is far cheaper, and all rows are taken where they leave a
        // column without a pivot.
        let mut by_weight: Vec<usize> = (0..p).collect();
        by_weight.sort_by(|&a, &b| weight(b).total_cmp(&weight(a)));
        let pivots = |candidates: &[usize]| -> Result<Vec<usize>, usize> {
            let scaled = Mat::from_fn(candidates.len(), k, |r, c| weight(candidates[r]) * b[candidates[r] * k + c]);
            let lu = scaled.partial_piv_lu();
            let u = lu.U();
            if let Some(c) = (0..k).find(|&c| u[(c, c)] == 0.0 || !u[(c, c)].is_finite()) {
                return Err(c);
            }
            Ok(lu.P().arrays().0[..k].iter().map(|&r| rows[candidates[r]]).collect())
        };
        let short = &by_weight[..p.min(SHORTLIST * k)];
        let sel = pivots(short)
            .or_else(|c| if short.len() < p { pivots(&by_weight) } else { Err(c) })
            .map_err(|c| format!("free column {} has no row left to make its reduced cost exactly zero", model.col_name(free[c])))?;
        // M·t = r_F with M[c][s] = a(sel[s], free[c]).
        let mut slot = vec![usize::MAX; m];
        for (s, &i) in sel.iter().enumerate() {
            slot[i] = s;
        }
        let mut mat = Mat::<f64>::zeros(k, k);
        for (c, &j) in free.iter().enumerate() {
            for (i, v) in model.a.col(j) {
                if slot[i] != usize::MAX {
                    mat[(c, slot[i])] = v;
                }
            }
        }
        let (lo, hi): (Vec<f64>, Vec<f64>) = free.iter().map(|&j| d.cols[j]).unzip();
        let t = verified_solve(&mat, &lo, &hi)
            .ok_or_else(|| "the free columns' rows are too close to dependent for the verified solve".to_string())?;
        for (s, &i) in sel.iter().enumerate() {
            let (c, r) = (t.center[s], t.radius[s]);
            let sum = y[i] + c;
            let iv = (down(down(sum) - r), up(up(sum) + r));
            if !self.row_interval_allows(i, iv) {
                return Err(format!("row {}'s multiplier would cross zero in the exact step", model.row_name(i)));
            }
            d.rows[i] = iv;
        }
        // Every column with entries in the chosen rows: r − Σᵢ aᵢⱼ·t*ᵢ, enclosed.
        let mut is_free = vec![false; model.num_cols()];
        for &j in free {
            is_free[j] = true;
        }
        for (j, &free) in is_free.iter().enumerate() {
            if free {
                d.cols[j] = (0.0, 0.0);
                continue;
            }
            let (mut shift, mut size, mut spread, mut terms) = (0.0, 0.0, 0.0, 0usize);
            for (i, v) in model.a.col(j).filter(|&(i, _)| slot[i] != usize::MAX) {
                let s = slot[i];
                let p = v * t.center[s];
                shift += p;
                size += p.abs();
                spread += v.abs() * t.radius[s];
                terms += 1;
            }
            if terms == 0 {
                continue;
            }
            let e = self.col_error(red, j);
            let slack = up(up(up(e + sum_error(terms + 2, size)) + up(spread * (1.0 + 4.0 * sum_error(terms, 1.0)))));
            let centre = red.value[j] - shift;
            d.cols[j] = (down(down(centre) - slack), up(up(centre) + slack));
        }
        Ok(())
    }

    /// How far each of the candidate `rows` can move its multiplier before a column with a
    /// sign to keep (by `need`) reaches zero: min over its entries of |rⱼ|/|aᵢⱼ| on the right
    /// side of zero (0 on the wrong side), ∞ for a row without such columns. `local` maps a row
    /// to its candidate index.
    fn room(&self, rows: &[usize], local: &[usize], red: &Sums, need: &[Need]) -> Vec<f64> {
        let mut room = vec![f64::INFINITY; rows.len()];
        for (j, n) in need.iter().enumerate() {
            let r = match n {
                Need::AtLeastZero => red.value[j],
                Need::AtMostZero => -red.value[j],
                Need::Zero | Need::Any => continue,
            };
            for (i, a) in self.model().a.col(j).filter(|&(i, a)| a != 0.0 && local[i] != usize::MAX) {
                let q = local[i];
                room[q] = room[q].min(r.max(0.0) / a.abs());
            }
        }
        room
    }
}
