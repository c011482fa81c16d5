//! The proof of a primal-dual point (see the module documentation of [`super`]): the primal
//! side, the dual side (direct, with implied bounds, or repaired), the enclosure and its grade.

use super::dual::{dual_side, DualIntervals, DualSide};
use super::implied::{implied_bounds, ImpliedBounds};
use super::primal::{primal_side, At, PrimalSide};
use super::products::{column_products, Sums};
use super::rounding::{add_down, add_up, div_up, mul_up, LowerSum};
use super::rays::{without_negligible_parts, CertificateKind};
use super::{sigma, Accuracy, DualBound, Enclosure, Verification, VERIFY_FACTOR};
use crate::lp::model::LpModel;
use crate::lp::units::Units;
use std::sync::OnceLock;

/// cᵀx + constant in the model's sense.
pub fn objective(model: &LpModel, x: &[f64]) -> f64 {
    model.c.iter().zip(x).map(|(c, x)| c * x).sum::<f64>() + model.obj_constant
}

/// Moves every xⱼ into [lⱼ, uⱼ]: the solver's answers are reported within their bounds, so
/// that what the interior-point method left outside them (an implicit upper bound met to its
/// tolerance) is judged by its effect on the rows and the objective.
pub(crate) fn into_bounds(model: &LpModel, x: &mut [f64]) {
    for ((v, &lo), &up) in x.iter_mut().zip(&model.col_lower).zip(&model.col_upper) {
        if *v < lo {
            *v = lo;
        } else if *v > up {
            *v = up;
        }
    }
}

/// Proves what can be proven of the point (x, row duals y) on `model`, graded at the tolerance
/// `tol` (see [`super`]). A point of the wrong size or a malformed model gives a failed
/// verification with NaN measures.
pub fn verify_point(model: &LpModel, x: &[f64], y: &[f64], tol: f64) -> Verification {
    let (m, n) = (model.num_rows(), model.num_cols());
    if x.len() != n || y.len() != m || model.validate().is_err() {
        let nan = f64::NAN;
        return Verification {
            objective: nan,
            enclosure: Enclosure { lower: nan, upper: nan },
            primal_backward_error: nan,
            worst: None,
            width: nan,
            objective_size: nan,
            dual_bound: DualBound::Unproven { reason: "the point does not fit the model".into() },
            tolerance: tol,
            accuracy: Accuracy::Failed,
        };
    }
    Checker::new(model).verify(x, y, tol)
}

/// The share of the dual side's terms in the objective's size: an objective whose terms cancel
/// (an optimum of 0 reached through multipliers of 1) is judged against this fraction of them,
/// the only size it has; far below the objective on every NETLIB problem, and far above the
/// rounding of the sums, so that a zero optimum can pass in double precision.
pub const CANCELLATION: f64 = 1e-6;

/// The fractions of the largest multiplier's effect below which multipliers are tried as zero
/// ([`without_negligible_parts`]).
const NEGLIGIBLE_MULTIPLIERS: [f64; 2] = [1e-12, 1e-9];

/// What a column's reduced cost must be for its term in the dual side to be finite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Need {
    /// Lower bound finite, upper infinite.
    AtLeastZero,
    /// Upper bound finite, lower infinite.
    AtMostZero,
    /// Free: exactly zero.
    Zero,
    /// Both bounds finite: any value.
    Any,
}

impl Need {
    pub(super) fn of(lower: f64, upper: f64) -> Need {
        match (lower.is_finite(), upper.is_finite()) {
            (true, true) => Need::Any,
            (true, false) => Need::AtLeastZero,
            (false, true) => Need::AtMostZero,
            (false, false) => Need::Zero,
        }
    }
}

/// The dual side found for some multipliers, and how.
struct Dual {
    side: DualSide,
    how: DualBound,
    /// The dual side with each unbounded column's term taken at the point (its share of the
    /// duality gap there): what a repair would roughly reach, for the loop's judgement.
    estimate: f64,
    /// Each row's multiplier in magnitude (the largest of its interval): the price at which the
    /// primal side charges a row's violation.
    price: Vec<f64>,
}

/// The proof of points on one validated model, with what depends on the model alone found once
/// (a solve judges every iterate).
pub(crate) struct Checker<'a> {
    model: &'a LpModel,
    sigma: f64,
    /// σ·c: the cost in the min sense.
    cost: Vec<f64>,
    row_nnz: Vec<usize>,
    col_nnz: Vec<usize>,
    implied: OnceLock<ImpliedBounds>,
    twins: OnceLock<Vec<usize>>,
    units: OnceLock<Units>,
}

impl<'a> Checker<'a> {
    pub(crate) fn new(model: &'a LpModel) -> Self {
        let s = sigma(model);
        let mut row_nnz = vec![0usize; model.num_rows()];
        let col_nnz = (0..model.num_cols())
            .map(|j| {
                let mut k = 0;
                for (i, _) in model.a.col(j) {
                    row_nnz[i] += 1;
                    k += 1;
                }
                k
            })
            .collect();
        Self {
            model,
            sigma: s,
            cost: model.c.iter().map(|c| s * c).collect(),
            row_nnz,
            col_nnz,
            implied: OnceLock::new(),
            twins: OnceLock::new(),
            units: OnceLock::new(),
        }
    }

    /// The model's units (powers of two per row and column, [`Units::of`]).
    pub(super) fn units(&self) -> &Units {
        self.units.get_or_init(|| Units::of(self.model))
    }

    /// Each column's twin (`usize::MAX`: none): a column k with aₖ = −aⱼ and cₖ = −cⱼ exactly —
    /// a free variable written as the difference of two bounded ones, whose reduced costs are
    /// exact negatives of each other for every y.
    pub(super) fn twins(&self) -> &[usize] {
        self.twins.get_or_init(|| {
            use std::collections::HashMap;
            let model = self.model;
            let n = model.num_cols();
            let mut groups: HashMap<(Vec<usize>, Vec<u64>, u64), Vec<usize>> = HashMap::new();
            for j in 0..n {
                if model.a.col(j).next().is_none() {
                    continue;
                }
                let (rows, mags): (Vec<usize>, Vec<u64>) = model.a.col(j).map(|(i, v)| (i, v.abs().to_bits())).unzip();
                groups.entry((rows, mags, model.c[j].abs().to_bits())).or_default().push(j);
            }
            let mut twin = vec![usize::MAX; n];
            for cols in groups.values().filter(|g| g.len() > 1) {
                for (p, &j) in cols.iter().enumerate() {
                    if twin[j] != usize::MAX {
                        continue;
                    }
                    let negated = |k: usize| {
                        twin[k] == usize::MAX
                            && model.c[k] == -model.c[j]
                            && model.a.col(k).zip(model.a.col(j)).all(|((_, a), (_, b))| a == -b)
                    };
                    if let Some(&k) = cols[p + 1..].iter().find(|&&k| negated(k)) {
                        (twin[j], twin[k]) = (k, j);
                    }
                }
            }
            twin
        })
    }

    /// The model the checker checks points of.
    pub(crate) fn model(&self) -> &'a LpModel {
        self.model
    }

    /// The terms of column j's reduced cost as a sum (its entries, the cost, the subtraction).
    pub(super) fn col_terms(&self, j: usize) -> usize {
        self.col_nnz[j] + 2
    }

    /// The column bounds the dual side uses: the model's own, tightened by what the rows imply.
    pub(super) fn bounds(&self) -> (&[f64], &[f64]) {
        let b = self.implied.get_or_init(|| implied_bounds(self.model));
        (&b.lower, &b.upper)
    }

    /// c − Aᵀy (with |c| + |A|ᵀ|y|) for the min-sense `cost` and multipliers `y`.
    pub(super) fn reduced(&self, cost: &[f64], y: &[f64]) -> Sums {
        column_products(self.model, cost, y)
    }

    /// The error bound of column j's reduced cost in `red`.
    pub(super) fn col_error(&self, red: &Sums, j: usize) -> f64 {
        red.error(j, self.col_terms(j))
    }

    /// Whether row i's bounds allow the min-sense multiplier `y` (a finite term).
    pub(super) fn row_allows(&self, i: usize, y: f64) -> bool {
        self.row_interval_allows(i, (y, y))
    }

    /// Whether they allow every multiplier in the interval.
    pub(super) fn row_interval_allows(&self, i: usize, (lo, hi): (f64, f64)) -> bool {
        let (rl, ru) = (self.model.row_lower[i], self.model.row_upper[i]);
        (hi <= 0.0 || rl.is_finite()) && (lo >= 0.0 || ru.is_finite())
    }

    /// Whether row i has two finite bounds (its multiplier may take either sign).
    pub(super) fn two_sided(&self, i: usize) -> bool {
        self.model.row_lower[i].is_finite() && self.model.row_upper[i].is_finite()
    }

    /// Min-sense multipliers, each of a sign its row allows (the others set to zero: such a
    /// term can only weaken the bound).
    fn project(&self, y: &[f64]) -> Vec<f64> {
        y.iter().enumerate().map(|(i, &v)| if self.row_allows(i, v) { v } else { 0.0 }).collect()
    }

    /// Point multipliers `y` and the enclosures of their reduced costs `red`.
    pub(super) fn intervals_at(&self, y: &[f64], red: &Sums) -> DualIntervals {
        let cols = (0..red.value.len())
            .map(|j| {
                let (z, e) = (red.value[j], self.col_error(red, j));
                if z.is_nan() || e.is_nan() {
                    (f64::NAN, f64::NAN)
                } else if e == 0.0 {
                    (z, z)
                } else {
                    (add_down(z, -e), add_up(z, e))
                }
            })
            .collect();
        DualIntervals { rows: y.iter().map(|&v| (v, v)).collect(), cols }
    }

    /// The dual side of the min-sense multipliers `y` for the min-sense `cost` (σc for a point,
    /// 0 for a Farkas ray) plus `constant`. The multipliers are tried as given and without
    /// their negligible parts ([`NEGLIGIBLE_MULTIPLIERS`]: the loop leaves noise of 1e-13 on rows
    /// whose exact multiplier is 0, and that noise is what keeps the columns there from an exact
    /// zero); the best finite bound wins. `repair`: where none is finite even with the implied
    /// column bounds, correct the multipliers; otherwise the estimate at `x` stands in for it.
    fn dual(&self, cost: &[f64], constant: f64, y: &[f64], tol: f64, repair: bool, x: Option<&[f64]>) -> Dual {
        let model = self.model;
        let rows = (&model.row_lower[..], &model.row_upper[..]);
        let mut candidates = vec![self.project(y)];
        for fraction in NEGLIGIBLE_MULTIPLIERS {
            let cleaned = without_negligible_parts(model, CertificateKind::Farkas, &candidates[0], fraction);
            if !candidates.contains(&cleaned) {
                candidates.push(cleaned);
            }
        }
        let mut tried = Vec::new();
        for y in candidates {
            let red = self.reduced(cost, &y);
            let d = self.intervals_at(&y, &red);
            let mut side = dual_side(&d, rows, (&model.col_lower, &model.col_upper), constant);
            let mut how = DualBound::Direct { implied: 0 };
            if !side.unbounded_cols.is_empty() {
                let with_implied = dual_side(&d, rows, self.bounds(), constant);
                how = DualBound::Direct { implied: side.unbounded_cols.len() - with_implied.unbounded_cols.len() };
                side = with_implied;
            }
            tried.push((y, red, d, side, how));
        }
        let finite = tried
            .iter()
            .filter(|t| t.3.unbounded_cols.is_empty() && t.3.lower.is_finite())
            .max_by(|a, b| a.3.lower.total_cmp(&b.3.lower));
        if let Some((y, _, _, side, how)) = finite {
            let price = y.iter().map(|v| v.abs()).collect();
            return Dual { side: side.clone(), how: how.clone(), estimate: side.lower, price };
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
            return Dual { side, how: DualBound::Estimated, estimate, price };
        }
        let mut failure = String::new();
        for y in std::iter::once(y).chain(tried.into_iter().map(|t| t.0)) {
            match self.repair(cost, y, tol) {
                Ok((d2, corrected, exact)) => {
                    let side2 = dual_side(&d2, rows, self.bounds(), constant);
                    if side2.lower > f64::NEG_INFINITY {
                        let how = DualBound::Repaired { corrected, exact };
                        let price = d2.rows.iter().map(|&(lo, hi)| lo.abs().max(hi.abs())).collect();
                        return Dual { side: side2, how, estimate, price };
                    }
                    failure = self.unbounded_reason(&side2);
                }
                Err(reason) => failure = reason,
            }
        }
        Dual { side, how: DualBound::Unproven { reason: failure }, estimate, price }
    }

    fn unbounded_reason(&self, side: &DualSide) -> String {
        match (side.unbounded_cols.first(), side.unbounded_rows.first()) {
            (Some(&j), _) => format!("column {}'s reduced cost may have the wrong sign for its infinite bound", self.model.col_name(j)),
            (None, Some(&i)) => format!("row {}'s multiplier may have the wrong sign for its infinite bound", self.model.row_name(i)),
            _ => "a term is not finite".into(),
        }
    }

    /// x's componentwise backward error β (see [`super`]): NaN counts as infinite.
    pub(crate) fn backward_error(&self, x: &[f64]) -> f64 {
        let b = primal_side(self.model, x, &self.row_nnz).backward_error;
        if b.is_nan() {
            f64::INFINITY
        } else {
            b
        }
    }

    /// Each row's backward error at x.
    pub(crate) fn row_backward_errors(&self, x: &[f64]) -> Vec<f64> {
        primal_side(self.model, x, &self.row_nnz).rows
    }

    /// Model-sense row duals as min-sense multipliers.
    fn min_sense(&self, y: &[f64]) -> Vec<f64> {
        y.iter().map(|v| self.sigma * v).collect()
    }

    /// The full proof of (x, y) at `tol`.
    pub(crate) fn verify(&self, x: &[f64], y: &[f64], tol: f64) -> Verification {
        let primal = primal_side(self.model, x, &self.row_nnz);
        let dual = self.dual(&self.cost, self.sigma * self.model.obj_constant, &self.min_sense(y), tol, true, None);
        self.grade(&primal, &dual, tol, false)
    }

    /// The proof of the best of the points `xs` with the duals y: the same dual side for all,
    /// the point with the best grade (then the smallest measure). `None` for no points.
    pub(crate) fn verify_best(&self, xs: &[Vec<f64>], y: &[f64], tol: f64) -> Option<(usize, Verification)> {
        let dual = self.dual(&self.cost, self.sigma * self.model.obj_constant, &self.min_sense(y), tol, true, None);
        xs.iter()
            .enumerate()
            .map(|(k, x)| (k, self.grade(&primal_side(self.model, x, &self.row_nnz), &dual, tol, false)))
            .min_by(|a, b| (a.1.accuracy, a.1.worst()).partial_cmp(&(b.1.accuracy, b.1.worst())).unwrap_or(std::cmp::Ordering::Equal))
    }

    /// The loop's judgement of the points `xs` with the duals y: max(β/ε, width/(VERIFY_FACTOR·ε))
    /// of the best (at most 1: it passes). The dual side is repaired only where its estimate
    /// would pass (a repair costs about an iteration); otherwise the estimate stands in.
    pub(crate) fn judge(&self, xs: &[Vec<f64>], y: &[f64], tol: f64) -> f64 {
        let constant = self.sigma * self.model.obj_constant;
        let primals: Vec<PrimalSide> = xs.iter().map(|x| primal_side(self.model, x, &self.row_nnz)).collect();
        let ratio = |v: &Verification| v.worst() / (VERIFY_FACTOR * tol);
        let best = |dual: &Dual, estimated: bool| {
            primals.iter().map(|p| ratio(&self.grade(p, dual, tol, estimated))).fold(f64::INFINITY, f64::min)
        };
        let (x0, y) = (xs.first().map(|x| x.as_slice()), self.min_sense(y));
        let dual = self.dual(&self.cost, constant, &y, tol, false, x0);
        if !matches!(dual.how, DualBound::Estimated) {
            return best(&dual, false);
        }
        let estimate = best(&dual, true);
        if std::env::var("GLSOLVE_DEBUG_JUDGE").is_ok() {
            let betas: Vec<String> = primals.iter().map(|p| format!("{:.2e}@{:?}", p.backward_error, p.worst)).collect();
            eprintln!("judge: estimate {estimate:.3e}, betas {betas:?}, dual est {:.6e}", dual.estimate);
        }
        if estimate > 1.0 {
            return estimate;
        }
        let repaired = self.dual(&self.cost, constant, &y, tol, true, None);
        if std::env::var("GLSOLVE_DEBUG_JUDGE").is_ok() {
            eprintln!("judge: estimate {estimate:.3e}, repaired {:.3e} {:?}", best(&repaired, false), repaired.how);
        }
        best(&repaired, false)
    }

    /// The verification of a primal side with a dual side; `estimated`: the dual's estimate
    /// stands in for its bound (the loop's judgement only).
    fn grade(&self, p: &PrimalSide, d: &Dual, tol: f64, estimated: bool) -> Verification {
        let s = self.sigma;
        let dual_min = if estimated { d.estimate } else { d.side.lower };
        // The primal end: x's objective, with each row's violation priced at its multiplier
        // (for every y, the dual side at y is at most cᵀx + Σ |yᵢ|·violationᵢ, so at an optimal
        // dual this bounds the optimum; with x feasible it is cᵀx alone).
        let mut charge = LowerSum::default();
        for (v, price) in p.violation.iter().zip(&d.price) {
            if *v > 0.0 {
                charge.add(-mul_up(*v, *price));
            }
        }
        let charge = -charge.lower();
        // Model sense: a minimization's dual side is its lower end, a maximization's its upper.
        let enclosure = if s > 0.0 {
            Enclosure { lower: dual_min, upper: add_up(p.objective.1, charge) }
        } else {
            Enclosure { lower: add_down(p.objective.0, -charge), upper: -dual_min }
        };
        // The objective's own size: its terms at the point and the enclosure's ends, with a
        // small share of the dual side's terms for an objective that cancels to nothing.
        let ends = |v: f64| if v.is_finite() { v.abs() } else { 0.0 };
        let size = p.size.max(ends(enclosure.lower)).max(ends(enclosure.upper)) + CANCELLATION * d.side.size;
        let gap = (enclosure.upper - enclosure.lower).abs();
        let width = if gap == 0.0 {
            0.0
        } else if size > 0.0 {
            div_up(gap, size)
        } else {
            f64::INFINITY
        };
        let width = if enclosure.lower.is_nan() || enclosure.upper.is_nan() { f64::NAN } else { width };
        let beta = p.backward_error;
        let reduced = (VERIFY_FACTOR * tol).sqrt();
        let accuracy = if beta <= VERIFY_FACTOR * tol && width <= VERIFY_FACTOR * tol {
            Accuracy::Tolerance
        } else if beta <= reduced && width <= reduced {
            Accuracy::Reduced
        } else {
            Accuracy::Failed
        };
        let worst = p.worst.map(|at| match at {
            At::Row(i) => format!("row {}", self.model.row_name(i)),
            At::Column(j) => format!("bound of column {}", self.model.col_name(j)),
        });
        Verification {
            objective: p.value,
            enclosure,
            primal_backward_error: beta,
            worst,
            width,
            objective_size: size,
            dual_bound: if estimated { DualBound::Estimated } else { d.how.clone() },
            tolerance: tol,
            accuracy,
        }
    }

    /// The dual side of a Farkas ray y (model-sense row multipliers of the model without cost),
    /// with the repair: (proven lower bound of 0 over the feasible set, i.e. > 0 proves
    /// infeasibility; its size; how).
    pub(super) fn farkas(&self, y: &[f64], tol: f64) -> (f64, f64, DualBound, Vec<usize>) {
        // Without a cost the sense does not matter: the ray's multipliers are taken as they are.
        let zero = vec![0.0; self.model.num_cols()];
        let d = self.dual(&zero, 0.0, y, tol, true, None);
        (d.side.lower, d.side.size, d.how, d.side.unbounded_cols)
    }
}
