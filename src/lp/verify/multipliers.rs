//! The dual side at the loop's multipliers (see [`super`]): as given, without their negligible
//! parts, repaired where no finite bound is proven, and without their cost-negligible parts
//! where the width does not pass; the same for a Farkas ray.

use super::certificate::{without_negligible_parts, CertificateKind};
use super::dual::{dual_side, Dual, DualSide};
use super::point::{Checker, Need, RepairKey};
use super::DualBound;

/// The fractions of the largest multiplier's effect below which multipliers are tried as zero
/// ([`without_negligible_parts`]).
const NEGLIGIBLE_MULTIPLIERS: [f64; 2] = [1e-12, 1e-9];

/// A multiplier whose effect |yᵢ|·maxⱼ|aᵢⱼ| is at most this share of its row's largest cost
/// is dropped in the second try of the dual side ([`Checker::cost_cleaned`]).
const COST_NEGLIGIBLE: f64 = 1e-9;


impl Checker<'_> {
    /// [`Self::dual_uncached`], with the last repaired one remembered (the loop's judge repairs
    /// the multipliers of the point it passes, and the verdict asks for the same again) and the
    /// last one estimated at a point (the judge's full list starts with its quick candidates).
    pub(super) fn dual(&self, cost: &[f64], constant: f64, y: &[f64], tol: f64, repair: bool, x: Option<&[f64]>) -> Dual {
        let key = |k: &RepairKey| k.cost == cost && k.constant.to_bits() == constant.to_bits() && k.tol.to_bits() == tol.to_bits() && k.y == y;
        if let (false, Some(x)) = (repair, x) {
            if let Some((_, _, d)) = self.last_estimated().as_ref().filter(|(k, at, _)| key(k) && at == x) {
                return d.clone();
            }
            let d = self.dual_uncached(cost, constant, y, tol, repair, Some(x));
            *self.last_estimated() = Some((RepairKey { cost: cost.to_vec(), constant, tol, y: y.to_vec() }, x.to_vec(), d.clone()));
            return d;
        }
        if !repair || x.is_some() {
            return self.dual_uncached(cost, constant, y, tol, repair, x);
        }
        if let Some((_, d)) = self.last_repaired().as_ref().filter(|(k, _)| key(k)) {
            return d.clone();
        }
        let d = self.dual_uncached(cost, constant, y, tol, repair, x);
        *self.last_repaired() = Some((RepairKey { cost: cost.to_vec(), constant, tol, y: y.to_vec() }, d.clone()));
        d
    }

    /// The dual side of the min-sense multipliers `y` for the min-sense `cost` (σc for a point,
    /// 0 for a Farkas ray) plus `constant`. The multipliers are tried as given and without
    /// their negligible parts ([`NEGLIGIBLE_MULTIPLIERS`]: the loop leaves noise of 1e-13 on rows
    /// whose exact multiplier is 0, and that noise is what keeps the columns there from an exact
    /// zero); the best finite bound wins. `repair`: where none is finite even with the implied
    /// column bounds, correct the multipliers; otherwise the estimate at `x` stands in for it.
    /// `x` is the judge's point: with it, the multipliers are tried as given only.
    fn dual_uncached(&self, cost: &[f64], constant: f64, y: &[f64], tol: f64, repair: bool, x: Option<&[f64]>) -> Dual {
        let model = self.model;
        let rows = (&model.row_lower[..], &model.row_upper[..]);
        let given = self.project(y);
        let mut candidates = vec![given.clone()];
        let mut tried = Vec::new();
        let mut k = 0;
        while k < candidates.len() {
            let y = candidates[k].clone();
            k += 1;
            let (red, d) = self.reduced_and_intervals(cost, &y);
            let mut side = dual_side(&d, rows, (&model.col_lower, &model.col_upper), constant);
            let mut how = DualBound::Direct { implied: 0 };
            if !side.unbounded_cols.is_empty() {
                let with_implied = dual_side(&d, rows, self.bounds(), constant);
                how = DualBound::Direct { implied: side.unbounded_cols.len() - with_implied.unbounded_cols.len() };
                side = with_implied;
            }
            let bounded = side.unbounded_cols.is_empty() && side.lower.is_finite();
            tried.push((y, red, d, side, how));
            // Without their negligible parts only where the multipliers as given prove nothing
            // (not for the judge: its estimate stands in, and where that passes it asks again
            // with the repair, which tries them).
            if k == 1 && !bounded && x.is_none() {
                for fraction in NEGLIGIBLE_MULTIPLIERS {
                    let cleaned = without_negligible_parts(model, CertificateKind::Farkas, &given, fraction);
                    if !candidates.contains(&cleaned) {
                        candidates.push(cleaned);
                    }
                }
            }
        }
        let finite = tried
            .iter()
            .filter(|t| t.3.unbounded_cols.is_empty() && t.3.lower.is_finite())
            .max_by(|a, b| a.3.lower.total_cmp(&b.3.lower));
        if let Some((y, _, _, side, how)) = finite {
            let price = y.iter().map(|v| v.abs()).collect();
            return Dual { side: side.clone(), how: how.clone(), estimate: side.lower, price, multipliers: y.clone() };
        }
        let (y, red, d, side, _) = tried.swap_remove(0);
        // Each unbounded column's term at the point: rⱼ·xⱼ.
        let estimate = x.map_or(f64::NEG_INFINITY, |x| {
            let (mut d_est, (mut lo, mut hi)) = (d.clone(), (self.bounds().0.to_vec(), self.bounds().1.to_vec()));
            for &j in &side.unbounded_cols {
                d_est.cols[j] = (red.value[j], red.value[j]);
                (lo[j], hi[j]) = (x[j], x[j]);
            }
            dual_side(&d_est, rows, (&lo, &hi), constant).lower
        });
        let price: Vec<f64> = y.iter().map(|v| v.abs()).collect();
        if !repair {
            return Dual { side, how: DualBound::Estimated, estimate, price, multipliers: y };
        }
        let mut failure = String::new();
        for y in std::iter::once(y).chain(tried.into_iter().map(|t| t.0)) {
            match self.repair(cost, y, tol, &[]) {
                Ok((d2, corrected, exact)) => {
                    let side2 = dual_side(&d2, rows, self.bounds(), constant);
                    if side2.lower > f64::NEG_INFINITY {
                        let how = DualBound::Repaired { corrected, exact };
                        let price = d2.rows.iter().map(|&(lo, hi)| lo.abs().max(hi.abs())).collect();
                        let multipliers = d2.rows.iter().map(|&(lo, hi)| lo + (hi - lo) / 2.0).collect();
                        return Dual { side: side2, how, estimate, price, multipliers };
                    }
                    failure = self.unbounded_reason(&side2);
                }
                Err(reason) => failure = reason,
            }
        }
        Dual { side, how: DualBound::Unproven { reason: failure }, estimate, price, multipliers: given }
    }

    /// The multipliers `y` without the parts that are negligible against their row's costs
    /// ([`COST_NEGLIGIBLE`]): where the optimum is attained with every costed column at a bound
    /// of 0 (an optimum of exactly 0), the loop's multipliers of size μ keep the dual side
    /// from it by their own size, and no relative width can pass. Any multipliers give a proven
    /// bound, so this one is only kept where it is better. `None`: nothing to clean, or no
    /// finite bound.
    pub(super) fn cost_cleaned(&self, constant: f64, y: &[f64]) -> Option<Dual> {
        let model = self.model;
        let (weight, reach) = self.row_weights();
        let cleaned: Vec<f64> = y
            .iter()
            .enumerate()
            .map(|(i, &v)| if (v * reach[i]).abs() <= COST_NEGLIGIBLE * weight[i] { 0.0 } else { v })
            .collect();
        if cleaned == y {
            return None;
        }
        let red = self.reduced(&self.cost, &cleaned);
        let d = self.intervals_at(&self.cost, &cleaned, &red);
        let side = dual_side(&d, (&model.row_lower, &model.row_upper), self.bounds(), constant);
        (side.unbounded_cols.is_empty() && side.lower.is_finite()).then(|| {
            let price = cleaned.iter().map(|v| v.abs()).collect();
            Dual { estimate: side.lower, side, how: DualBound::Direct { implied: 0 }, price, multipliers: cleaned }
        })
    }

    fn unbounded_reason(&self, side: &DualSide) -> String {
        match (side.unbounded_cols.first(), side.unbounded_rows.first()) {
            (Some(&j), _) => format!("column {}'s reduced cost may have the wrong sign for its infinite bound", self.model.col_name(j)),
            (None, Some(&i)) => format!("row {}'s multiplier may have the wrong sign for its infinite bound", self.model.row_name(i)),
            _ => "a term is not finite".into(),
        }
    }


    /// The dual side of a Farkas ray y (row multipliers of the model without cost), with the
    /// repair: (proven lower bound of 0 over the feasible set — positive proves infeasibility —,
    /// how, the multipliers it was proven with). Where the bound is finite but not positive,
    /// the columns whose terms are negative (a reduced cost of the wrong sign on a large finite
    /// bound) are given their sign by the repair too.
    pub(super) fn farkas(&self, y: &[f64], tol: f64) -> (f64, DualBound, Vec<f64>) {
        // Without a cost the sense does not matter: the ray's multipliers are taken as they are.
        let zero = vec![0.0; self.model.num_cols()];
        let d = self.dual(&zero, 0.0, y, tol, true, None);
        if !(d.side.lower.is_finite() && d.side.lower <= 0.0) {
            return (d.side.lower, d.how, d.multipliers);
        }
        let model = self.model;
        let y = self.project(y);
        let red = self.reduced(&zero, &y);
        let (lo, hi) = self.bounds();
        let soft: Vec<(usize, Need)> = (0..model.num_cols())
            .filter_map(|j| {
                let (r_lo, r_hi) = self.col_interval(&zero, &y, &red, j);
                let term = super::dual::bilinear_min((r_lo, r_hi), (lo[j], hi[j]));
                if term >= 0.0 {
                    None
                } else if r_lo < 0.0 && hi[j] > 0.0 {
                    Some((j, Need::AtLeastZero))
                } else {
                    Some((j, Need::AtMostZero))
                }
            })
            .collect();
        let rows = (&model.row_lower[..], &model.row_upper[..]);
        match self.repair(&zero, y, tol, &soft) {
            Ok((d2, corrected, exact)) => {
                let side2 = dual_side(&d2, rows, self.bounds(), 0.0);
                if side2.lower > d.side.lower {
                    let multipliers = d2.rows.iter().map(|&(lo, hi)| lo + (hi - lo) / 2.0).collect();
                    return (side2.lower, DualBound::Repaired { corrected, exact }, multipliers);
                }
                (d.side.lower, d.how, d.multipliers)
            }
            Err(_) => (d.side.lower, d.how, d.multipliers),
        }
    }
}
