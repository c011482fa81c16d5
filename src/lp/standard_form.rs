//! From the row-bounded model to the standard form min cᵀx, A·x = b, x ≥ 0 (dense A), and back.
//!
//! Transformations (each documented where it is made):
//! 1. **Rows.** Equality rows keep b = the row value. Every other row gets a slack column
//!    r with coefficient −1, `a·x − r = 0`, bounded by the row's bounds; rows free on both sides
//!    (extra N rows) are dropped (their dual is 0). Ranges thus become boxed slacks.
//! 2. **Columns** (original and slack), by bounds [l, u]:
//!    * l = u: **fixed**, eliminated (value moved into b and the objective constant);
//!    * l finite, u = +∞: **shift** x = l + x′;
//!    * l = −∞, u finite: **mirror** x = u − x′ (column and cost negated);
//!    * l = −∞, u = +∞: **free**, split x = x⁺ − x⁻ (the usual dense choice). Both parts tend
//!      to grow together without changing x, until x is the difference of two huge numbers and
//!      the primal residual stalls; the MPC loop therefore re-centres the pairs after every step
//!      (`NormalEquationsBackend::recenter_free_pairs`);
//!    * both finite: **boxed**, x = l + x′ plus an explicit row x′ + w = u − l with a slack
//!      w ≥ 0 (simple and dense-friendly; it adds one row and one column per bounded column).
//! 3. **Empty rows** of the result are dropped when their b is 0 and prove primal
//!    infeasibility otherwise; **empty columns** are fixed at 0 when their cost is ≥ 0 and
//!    prove dual infeasibility (the dual constraint 0 ≥ cⱼ < 0 fails) otherwise.
//! 4. **Scaling** (optional): Ruiz equilibration Ā = R·A·C, b̄ = R·b, c̄ = C·c, so that every row
//!    and column of Ā has max-norm ≈ 1; unscaled by x = C·x̄, λ = R·λ̄.
//!
//! A maximization is solved as min −cᵀx; the objective is reported in the model's own sense and
//! always includes the model's objective constant.

use crate::lp::model::{LpModel, Sense};
use faer::Mat;

/// Ruiz equilibration stops when max/min of the row (and of the column) max-norms is below this.
pub const RUIZ_SPREAD: f64 = 4.0;

/// Ruiz factors are clamped to [1/`RUIZ_CLAMP`, `RUIZ_CLAMP`] (cumulatively, per row and
/// column): an empty-ish row or a column of tiny entries would otherwise get a factor so large
/// that unscaling magnifies its residual past what verification on the original model accepts
/// (2^±40: wide enough to leave every NETLIB problem's factors untouched).
pub const RUIZ_CLAMP: f64 = 1099511627776.0;

/// How an original column is recovered from the standard-form x.
#[derive(Clone, Debug, PartialEq)]
pub enum ColumnMap {
    /// x = value (fixed by its bounds or eliminated as an empty column).
    Fixed(f64),
    /// x = offset + sign·x_std\[col\].
    Single { col: usize, offset: f64, sign: f64 },
    /// x = x_std\[pos\] − x_std\[neg\].
    Free { pos: usize, neg: usize },
}

/// What presolve proved without iterating.
#[derive(Clone, Debug, PartialEq)]
pub enum Presolved {
    /// A standard form to hand to the interior-point method.
    Form(Box<StandardForm>),
    /// Contradictory bounds or an empty row with b ≠ 0.
    PrimalInfeasible(String),
    /// A column with negative cost and no constraint on how large it can grow.
    DualInfeasible(String),
}

/// min cᵀx s.t. A·x = b, x ≥ 0 with dense A, plus what is needed to map back.
#[derive(Clone, Debug, PartialEq)]
pub struct StandardForm {
    pub a: Mat<f64>,
    pub b: Vec<f64>,
    pub c: Vec<f64>,
    /// Objective of the original model (own sense) = sense_sign·(cᵀx) + offset, before scaling.
    pub offset: f64,
    /// +1 for a minimization, −1 for a maximization (c was negated).
    pub sense_sign: f64,
    pub columns: Vec<ColumnMap>,
    /// Standard-form row of each original row (None: dropped).
    pub row_of: Vec<Option<usize>>,
    /// Standard-form column pairs (x⁺, x⁻) of split free variables.
    pub free_pairs: Vec<(usize, usize)>,
    /// Ruiz factors: Ā = diag(row_scale)·A·diag(col_scale).
    pub row_scale: Vec<f64>,
    pub col_scale: Vec<f64>,
}

/// One bounded-form variable: entries (row, value), cost, bounds.
struct Var {
    entries: Vec<(usize, f64)>,
    cost: f64,
    lo: f64,
    up: f64,
}

/// Builds the standard form; `scale` applies Ruiz equilibration.
pub fn standard_form(model: &LpModel, scale: bool) -> Presolved {
    let sense_sign = if model.sense == Sense::Maximize { -1.0 } else { 1.0 };
    let nrows0 = model.num_rows();
    // Row transformation (1).
    let mut keep_row = vec![false; nrows0];
    let mut b: Vec<f64> = Vec::new();
    let mut row_index = vec![usize::MAX; nrows0];
    let mut slacks: Vec<Var> = Vec::new();
    for i in 0..nrows0 {
        let (l, u) = (model.row_lower[i], model.row_upper[i]);
        if l > u || l == f64::INFINITY || u == f64::NEG_INFINITY {
            return Presolved::PrimalInfeasible(format!(
                "row {} has lower bound {l} > upper bound {u} (or an infinite bound on the wrong side)",
                model.row_name(i)
            ));
        }
        if l == f64::NEG_INFINITY && u == f64::INFINITY {
            continue;
        }
        keep_row[i] = true;
        row_index[i] = b.len();
        if l == u {
            b.push(l);
        } else {
            b.push(0.0);
            slacks.push(Var { entries: vec![(row_index[i], -1.0)], cost: 0.0, lo: l, up: u });
        }
    }
    let mut vars: Vec<Var> = Vec::with_capacity(model.num_cols() + slacks.len());
    for j in 0..model.num_cols() {
        let entries = model.a.col(j).filter(|(i, _)| keep_row[*i]).map(|(i, v)| (row_index[i], v)).collect();
        vars.push(Var { entries, cost: sense_sign * model.c[j], lo: model.col_lower[j], up: model.col_upper[j] });
    }
    vars.extend(slacks);
    // Column transformation (2); `cols` holds the standard-form columns as sparse entries.
    let mut cols: Vec<(Vec<(usize, f64)>, f64)> = Vec::new();
    let mut offset = 0.0;
    let mut columns = Vec::with_capacity(model.num_cols());
    for (v_idx, v) in vars.into_iter().enumerate() {
        let name = || {
            if v_idx < model.num_cols() {
                format!("column {}", model.col_name(v_idx))
            } else {
                "a row's slack".to_string()
            }
        };
        if v.lo > v.up || v.lo == f64::INFINITY || v.up == f64::NEG_INFINITY {
            return Presolved::PrimalInfeasible(format!("{} has lower bound {} > upper bound {}", name(), v.lo, v.up));
        }
        let shift = |b: &mut Vec<f64>, value: f64| {
            for &(i, a) in &v.entries {
                b[i] -= a * value;
            }
        };
        let map = if v.lo == v.up {
            shift(&mut b, v.lo);
            offset += v.cost * v.lo;
            ColumnMap::Fixed(v.lo)
        } else if v.lo.is_finite() {
            shift(&mut b, v.lo);
            offset += v.cost * v.lo;
            let col = cols.len();
            cols.push((v.entries, v.cost));
            if v.up.is_finite() {
                let r = b.len();
                b.push(v.up - v.lo);
                cols[col].0.push((r, 1.0));
                cols.push((vec![(r, 1.0)], 0.0));
            }
            ColumnMap::Single { col, offset: v.lo, sign: 1.0 }
        } else if v.up.is_finite() {
            shift(&mut b, v.up);
            offset += v.cost * v.up;
            let col = cols.len();
            cols.push((v.entries.iter().map(|&(i, a)| (i, -a)).collect(), -v.cost));
            ColumnMap::Single { col, offset: v.up, sign: -1.0 }
        } else {
            let pos = cols.len();
            cols.push((v.entries.clone(), v.cost));
            cols.push((v.entries.iter().map(|&(i, a)| (i, -a)).collect(), -v.cost));
            ColumnMap::Free { pos, neg: pos + 1 }
        };
        if v_idx < model.num_cols() {
            columns.push(map);
        }
    }
    // Empty rows and columns (3).
    let m_all = b.len();
    let mut row_nnz = vec![0usize; m_all];
    for (entries, _) in &cols {
        for &(i, a) in entries {
            if a != 0.0 {
                row_nnz[i] += 1;
            }
        }
    }
    let b_tol = 1e-9 * (1.0 + b.iter().fold(0.0f64, |m, v| m.max(v.abs())));
    let mut new_row = vec![usize::MAX; m_all];
    let mut m = 0;
    for i in 0..m_all {
        if row_nnz[i] == 0 {
            if b[i].abs() > b_tol {
                return Presolved::PrimalInfeasible(format!("an empty row needs 0 = {}", b[i]));
            }
        } else {
            new_row[i] = m;
            m += 1;
        }
    }
    let mut new_col = vec![usize::MAX; cols.len()];
    let mut n = 0;
    for (k, (entries, cost)) in cols.iter().enumerate() {
        if entries.iter().all(|&(_, a)| a == 0.0) {
            if *cost < 0.0 {
                let who = columns.iter().enumerate().find_map(|(j, map)| match map {
                    ColumnMap::Single { col, .. } if *col == k => Some(model.col_name(j).into_owned()),
                    ColumnMap::Free { pos, neg } if *pos == k || *neg == k => Some(model.col_name(j).into_owned()),
                    _ => None,
                });
                return Presolved::DualInfeasible(format!(
                    "column {} appears in no constraint and improves the objective without bound",
                    who.unwrap_or_else(|| "?".into())
                ));
            }
        } else {
            new_col[k] = n;
            n += 1;
        }
    }
    for map in &mut columns {
        *map = match *map {
            ColumnMap::Single { col, offset, .. } if new_col[col] == usize::MAX => ColumnMap::Fixed(offset),
            ColumnMap::Single { col, offset, sign } => ColumnMap::Single { col: new_col[col], offset, sign },
            ColumnMap::Free { pos, neg } => match (new_col[pos], new_col[neg]) {
                (usize::MAX, _) | (_, usize::MAX) => ColumnMap::Fixed(0.0),
                (p, q) => ColumnMap::Free { pos: p, neg: q },
            },
            ColumnMap::Fixed(v) => ColumnMap::Fixed(v),
        };
    }
    let mut a = Mat::<f64>::zeros(m, n);
    let mut c = vec![0.0; n];
    for (k, (entries, cost)) in cols.iter().enumerate() {
        let j = new_col[k];
        if j == usize::MAX {
            continue;
        }
        c[j] = *cost;
        let dst = a.col_as_slice_mut(j);
        for &(i, v) in entries {
            if let Some(d) = dst.get_mut(new_row[i]) {
                *d += v;
            }
        }
    }
    let b: Vec<f64> = (0..m_all).filter(|&i| new_row[i] != usize::MAX).map(|i| b[i]).collect();
    let row_of = (0..nrows0)
        .map(|i| if keep_row[i] && new_row[row_index[i]] != usize::MAX { Some(new_row[row_index[i]]) } else { None })
        .collect();
    let free_pairs = columns
        .iter()
        .filter_map(|m| match *m {
            ColumnMap::Free { pos, neg } => Some((pos, neg)),
            _ => None,
        })
        .collect();
    let mut sf = StandardForm {
        free_pairs,
        a,
        b,
        c,
        offset,
        sense_sign,
        columns,
        row_of,
        row_scale: vec![1.0; m],
        col_scale: vec![1.0; n],
    };
    if scale {
        sf.equilibrate(10);
    }
    Presolved::Form(Box::new(sf))
}

impl StandardForm {
    /// Ruiz equilibration: up to `passes` rounds of dividing every row and column by the square
    /// root of its max-norm; converges to max-norms of 1 (Ruiz 2001). Stops as soon as the row
    /// and the column max-norms each lie within a factor [`RUIZ_SPREAD`] of one another: then
    /// further passes change the conditioning of A·D²·Aᵀ by at most a small constant (data that
    /// is already balanced, like the random family, costs one pass).
    fn equilibrate(&mut self, passes: usize) {
        let (m, n) = (self.a.nrows(), self.a.ncols());
        for _ in 0..passes {
            let mut rmax = vec![0.0f64; m];
            let mut cmax = vec![0.0f64; n];
            for (j, cm) in cmax.iter_mut().enumerate() {
                for (r, v) in rmax.iter_mut().zip(self.a.col_as_slice(j)) {
                    let v = v.abs();
                    *r = r.max(v);
                    *cm = cm.max(v);
                }
            }
            let spread = |v: &[f64]| {
                let (lo, hi) =
                    v.iter().filter(|&&x| x > 0.0).fold((f64::INFINITY, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
                if hi > 0.0 {
                    hi / lo
                } else {
                    1.0
                }
            };
            if spread(&rmax) <= RUIZ_SPREAD && spread(&cmax) <= RUIZ_SPREAD {
                break;
            }
            let factor = |v: f64| if v > 0.0 { 1.0 / v.sqrt() } else { 1.0 };
            let clamp = |acc: f64, f: f64| (acc * f).clamp(1.0 / RUIZ_CLAMP, RUIZ_CLAMP) / acc;
            let rf: Vec<f64> = rmax.into_iter().zip(&self.row_scale).map(|(v, &a)| clamp(a, factor(v))).collect();
            let cf: Vec<f64> = cmax.into_iter().zip(&self.col_scale).map(|(v, &a)| clamp(a, factor(v))).collect();
            for (j, &cj) in cf.iter().enumerate() {
                for (v, ri) in self.a.col_as_slice_mut(j).iter_mut().zip(&rf) {
                    *v *= ri * cj;
                }
            }
            for ((rs, b), f) in self.row_scale.iter_mut().zip(&mut self.b).zip(&rf) {
                *rs *= f;
                *b *= f;
            }
            for ((cs, c), f) in self.col_scale.iter_mut().zip(&mut self.c).zip(&cf) {
                *cs *= f;
                *c *= f;
            }
        }
    }

    /// ‖A‖∞: the largest absolute row sum.
    pub fn a_norm_inf(&self) -> f64 {
        let mut sums = vec![0.0f64; self.a.nrows()];
        for j in 0..self.a.ncols() {
            for (s, v) in sums.iter_mut().zip(self.a.col_as_slice(j)) {
                *s += v.abs();
            }
        }
        sums.into_iter().fold(0.0, f64::max)
    }

    /// Original columns from a (scaled) standard-form x̄.
    pub fn original_x(&self, x_scaled: &[f64]) -> Vec<f64> {
        let x = |k: usize| x_scaled.get(k).copied().unwrap_or(0.0) * self.col_scale.get(k).copied().unwrap_or(1.0);
        self.columns
            .iter()
            .map(|map| match *map {
                ColumnMap::Fixed(v) => v,
                ColumnMap::Single { col, offset, sign } => offset + sign * x(col),
                ColumnMap::Free { pos, neg } => x(pos) - x(neg),
            })
            .collect()
    }

    /// A direction of the original columns from a (scaled) standard-form ray x̄: like
    /// [`StandardForm::original_x`] without the offsets (a ray has no origin); fixed columns do
    /// not move.
    pub fn primal_ray(&self, x_scaled: &[f64]) -> Vec<f64> {
        let x = |k: usize| x_scaled.get(k).copied().unwrap_or(0.0) * self.col_scale.get(k).copied().unwrap_or(1.0);
        self.columns
            .iter()
            .map(|map| match *map {
                ColumnMap::Fixed(_) => 0.0,
                ColumnMap::Single { col, sign, .. } => sign * x(col),
                ColumnMap::Free { pos, neg } => x(pos) - x(neg),
            })
            .collect()
    }

    /// Farkas multipliers of the original rows from a (scaled) standard-form ray λ̄: y = R·λ̄
    /// (independent of the objective's sense; dropped rows get 0). With Ā = R·A·C,
    /// b̄ᵀλ̄ = bᵀ(R·λ̄) and Āᵀλ̄ = C·Aᵀ(R·λ̄), so the signs of the standard-form test carry over.
    pub fn farkas_ray(&self, lambda_scaled: &[f64]) -> Vec<f64> {
        self.row_of
            .iter()
            .map(|r| match r {
                Some(i) => self.row_scale[*i] * lambda_scaled.get(*i).copied().unwrap_or(0.0),
                None => 0.0,
            })
            .collect()
    }

    /// Row duals of the original model (in its own sense) from a scaled λ̄: y = sense·R·λ̄.
    pub fn original_duals(&self, lambda_scaled: &[f64]) -> Vec<f64> {
        self.row_of
            .iter()
            .map(|r| match r {
                Some(i) => self.sense_sign * self.row_scale[*i] * lambda_scaled.get(*i).copied().unwrap_or(0.0),
                None => 0.0,
            })
            .collect()
    }
}
