//! From the row-bounded model to the standard form min cᵀx, A·x = b, 0 ≤ x ≤ u (A sparse, u
//! finite only on some columns), and back.
//!
//! Transformations (each documented where it is made):
//! 1. **Rows.** Equality rows keep b = the row value. Every other row gets a slack column
//!    r with coefficient −1, `a·x − r = 0`, bounded by the row's bounds; rows free on both sides
//!    (extra N rows) are dropped (their dual is 0). Ranges thus become boxed slacks.
//! 2. **Columns** (original and slack), by bounds [l, u]:
//!    * l = u, or fixed by an equality row of one entry (`rows::singleton_fixes`): **fixed**,
//!      eliminated (value into b and the objective constant; the row left empty);
//!    * l finite, u = +∞: **shift** x = l + x′;
//!    * l = −∞, u finite: **mirror** x = u − x′ (column and cost negated);
//!    * l = −∞, u = +∞: **free**, by [`FreeColumns`]: one column with no bound
//!      ([`StandardForm::free`], carried by the loop with a regularization in place of a bound's
//!      complementarity, `mpc::free`), or split x = x⁺ − x⁻ ([`StandardForm::free_pairs`]). Both
//!      parts of a split column tend to grow together without changing x, until x is the
//!      difference of two huge numbers and the primal residual stalls; the MPC loop therefore
//!      re-centres the pairs after every step (`VectorKernels::recenter_free_pairs`). The solve
//!      chooses (`lp::pipeline`, the log says which and why);
//!    * both finite: **boxed**, x = l + x′ with 0 ≤ x′ ≤ u − l. The upper bound stays a bound
//!      (`StandardForm::upper`), handled *implicitly* by the interior-point loop (x′ + w = u − l
//!      with its own slack and dual, eliminated from the Newton system), not as an extra row of
//!      A: an explicit row per boxed column made A·D²·Aᵀ up to 400 times larger (fit2d: 25 rows,
//!      10 500 boxed columns) and mixed the bounds' magnitudes into b, so that the loop's relative
//!      primal residual hid absolute row violations a million times larger (grow15).
//! 3. **Empty rows** are dropped when their b is 0 and prove primal infeasibility otherwise;
//!    **empty columns** sit at the bound their cost prefers (0 for cost ≥ 0, else the upper
//!    bound) and prove dual infeasibility (0 ≥ cⱼ < 0 fails) when there is none.
//! 4. **Units** ([`crate::lp::units`], [`scaling`]): Ā = R·A·C, b̄ = R·b, c̄ = γ·C·c,
//!    ū = C⁻¹·u with the model's powers of two, a row's slack scaled by 1/Rᵢ with its row, so
//!    that every row and column of Ā has max-norm ≈ 1 and the largest cost is ≈ 1; unscaled
//!    exactly by x = C·x̄, λ = R·λ̄/γ. Equilibration (R, C) is optional, the cost factor γ is
//!    always applied.
//!
//! A maximization is solved as min −cᵀx; the objective is reported in the model's sense.

mod columns;
mod map;
mod rows;
mod scaling;

pub use crate::lp::units::{RUIZ_CLAMP, RUIZ_PASSES, RUIZ_SPREAD};
pub use scaling::SMALL_MATRIX_VALUE;
pub use map::{original_columns, ColumnMap, FreeColumns};

use crate::lp::model::{LpModel, Sense, SparseColMatrix};
use crate::lp::units::Units;

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

/// min cᵀx s.t. A·x = b, 0 ≤ x ≤ upper (x free on the columns [`Self::free`]), with sparse A,
/// plus what is needed to map back.
#[derive(Clone, Debug, PartialEq)]
pub struct StandardForm {
    /// A (scaled), compressed columns.
    pub a: SparseColMatrix,
    pub b: Vec<f64>,
    pub c: Vec<f64>,
    /// Upper bound of each column (scaled); `f64::INFINITY` where there is none.
    pub upper: Vec<f64>,
    /// Objective of the original model (own sense) = sense_sign·(cᵀx) + offset, before scaling.
    pub offset: f64,
    /// +1 for a minimization, −1 for a maximization (c was negated).
    pub sense_sign: f64,
    pub columns: Vec<ColumnMap>,
    /// Standard-form row of each original row (None: dropped).
    pub row_of: Vec<Option<usize>>,
    /// Standard-form columns with no bound at all (free model columns kept whole), increasing.
    pub free: Vec<usize>,
    /// Standard-form column pairs (x⁺, x⁻) of split free model columns.
    pub free_pairs: Vec<(usize, usize)>,
    /// The units' factors (powers of two): Ā = diag(row_scale)·A·diag(col_scale),
    /// c̄ = cost_scale·diag(col_scale)·c.
    pub row_scale: Vec<f64>,
    pub col_scale: Vec<f64>,
    pub cost_scale: f64,
    /// Entries of Ā treated as zero ([`SMALL_MATRIX_VALUE`]).
    pub tiny_entries: usize,
    /// The model's units (the factors above are these, mapped, when equilibration is on).
    pub units: Units,
    /// (row i, column j, aᵢⱼ) of the equality rows of one entry that fixed their column.
    pub singletons: Vec<(usize, usize, f64)>,
}

/// An empty row (every column of it fixed) is consistent when what remains of its right-hand
/// side is within this fraction of its own numbers (|bound| + Σ |aᵢⱼ·value|): nothing from another
/// row enters the test. Far above the rounding of that sum, so that an inconsistent row is a
/// proof of infeasibility.
pub const EMPTY_ROW_TOLERANCE: f64 = 1e-9;

/// Where a bounded-form variable's entries come from: a column of the model (rows mapped to
/// the kept rows) or the slack of a kept row (one entry −1). Entries are read from the model
/// when needed rather than copied per column: the random family's standard form has 4m²
/// entries, and per-column copies made the standard form cost as much as several iterations.
#[derive(Clone, Copy)]
enum Source {
    Model(usize),
    Slack(usize),
}

/// One bounded-form variable: its source, cost and bounds.
struct Var {
    src: Source,
    cost: f64,
    lo: f64,
    up: f64,
}

/// A standard-form column while it is being built: its source, the sign of its entries (−1
/// for mirrored columns and the negative part of a split free one), cost, upper bound, and
/// whether it has no lower bound either.
struct Col {
    src: Source,
    sign: f64,
    cost: f64,
    upper: f64,
    free: bool,
}

/// The kept columns and rows of the standard form being built.
struct Kept<'a> {
    /// Every bounded-form column.
    cols: &'a [Col],
    /// Entries of each (non-zero values in kept rows).
    col_nnz: &'a [usize],
    /// Standard-form index of each column (`usize::MAX`: dropped), increasing.
    new_col: &'a [usize],
    /// Standard-form index of each row (`usize::MAX`: dropped).
    new_row: &'a [usize],
    /// Every model row kept under its own index.
    same_rows: bool,
}

/// The kept rows of the model and their standard-form indices (before empty rows are dropped).
struct Rows<'a> {
    model: &'a LpModel,
    /// Standard-form row of each model row (`usize::MAX`: free row, dropped).
    index: Vec<usize>,
}

impl Rows<'_> {
    /// Calls `f(row, value)` for the entries of a source, rows as standard-form rows.
    #[inline]
    fn for_each(&self, src: Source, mut f: impl FnMut(usize, f64)) {
        match src {
            Source::Model(j) => {
                let a = &self.model.a;
                let r = a.col_ptr[j]..a.col_ptr[j + 1];
                for (&i, &v) in a.row_idx[r.clone()].iter().zip(&a.values[r]) {
                    let k = self.index[i];
                    if k != usize::MAX {
                        f(k, v);
                    }
                }
            }
            Source::Slack(i) => f(i, -1.0),
        }
    }
}

/// Builds the standard form in the model's units ([`Units::of`]); `scale` applies their
/// equilibration, the cost factor is applied either way. `model` must be valid
/// ([`LpModel::validate`], which [`crate::lp::solve()`] and [`crate::LpSolver`] check first): each
/// column's rows ascending without repeats is assumed throughout.
pub fn standard_form(model: &LpModel, scale: bool) -> Presolved {
    standard_form_in(model, &Units::of(model), scale, FreeColumns::Kept)
}

/// [`standard_form`] in the given units of `model`, with its free columns written as `free` says.
pub fn standard_form_in(model: &LpModel, units: &Units, scale: bool, free: FreeColumns) -> Presolved {
    let sense_sign = if model.sense == Sense::Maximize { -1.0 } else { 1.0 };
    let nrows0 = model.num_rows();
    // Row transformation (1).
    let mut b: Vec<f64> = Vec::new();
    let mut rows = Rows { model, index: vec![usize::MAX; nrows0] };
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
        rows.index[i] = b.len();
        if l == u {
            b.push(l);
        } else {
            slacks.push(Var { src: Source::Slack(b.len()), cost: 0.0, lo: l, up: u });
            b.push(0.0);
        }
    }
    let (lo, up, c) = (&model.col_lower, &model.col_upper, &model.c);
    let mut vars: Vec<Var> = (0..model.num_cols())
        .map(|j| Var { src: Source::Model(j), cost: sense_sign * c[j], lo: lo[j], up: up[j] })
        .collect();
    let singletons = rows::singleton_fixes(model);
    for &(i, j, a) in &singletons {
        (vars[j].lo, vars[j].up) = (model.row_lower[i] / a, model.row_lower[i] / a);
    }
    vars.extend(slacks);
    // Column transformation (2).
    let mut cols: Vec<Col> = Vec::new();
    let mut offset = 0.0;
    // Each row's own size: |its bound| plus the magnitudes shifted into it (what an empty row's
    // remainder is compared with).
    let mut b_size: Vec<f64> = b.iter().map(|v| v.abs()).collect();
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
        let mut shift = |b: &mut Vec<f64>, value: f64| {
            if value != 0.0 {
                rows.for_each(v.src, |i, a| {
                    b[i] -= a * value;
                    b_size[i] += (a * value).abs();
                })
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
            cols.push(Col { src: v.src, sign: 1.0, cost: v.cost, upper: v.up - v.lo, free: false });
            ColumnMap::Single { col, offset: v.lo, sign: 1.0 }
        } else if v.up.is_finite() {
            shift(&mut b, v.up);
            offset += v.cost * v.up;
            let col = cols.len();
            cols.push(Col { src: v.src, sign: -1.0, cost: -v.cost, upper: f64::INFINITY, free: false });
            ColumnMap::Single { col, offset: v.up, sign: -1.0 }
        } else if free == FreeColumns::Kept {
            let col = cols.len();
            cols.push(Col { src: v.src, sign: 1.0, cost: v.cost, upper: f64::INFINITY, free: true });
            ColumnMap::Free { col }
        } else {
            let pos = cols.len();
            cols.push(Col { src: v.src, sign: 1.0, cost: v.cost, upper: f64::INFINITY, free: false });
            cols.push(Col { src: v.src, sign: -1.0, cost: -v.cost, upper: f64::INFINITY, free: false });
            ColumnMap::Split { pos, neg: pos + 1 }
        };
        if v_idx < model.num_cols() {
            columns.push(map);
        }
    }
    // Empty rows and columns (3).
    let m_all = b.len();
    let (row_nnz, col_nnz) = rows.count_entries(&cols, m_all);
    let mut new_row = vec![usize::MAX; m_all];
    let mut m = 0;
    for i in 0..m_all {
        if row_nnz[i] == 0 {
            // 0 = b′ within EMPTY_ROW_TOLERANCE of the row's own numbers, or a contradiction far
            // above their rounding.
            if b[i].abs() > EMPTY_ROW_TOLERANCE * b_size[i] || b[i].is_nan() {
                return Presolved::PrimalInfeasible(format!(
                    "an empty row needs 0 = {} (its own terms are {:.3e} in size)",
                    b[i], b_size[i]
                ));
            }
        } else {
            new_row[i] = m;
            m += 1;
        }
    }
    // An empty column sits at the bound its cost prefers: x_std = 0, or its upper bound when the
    // cost is negative (then also counted in the objective constant); a free one at 0 when it
    // costs nothing.
    let mut empty_at = vec![0.0; cols.len()];
    let mut new_col = vec![usize::MAX; cols.len()];
    let mut n = 0;
    for (k, col) in cols.iter().enumerate() {
        if col_nnz[k] == 0 {
            if col.cost < 0.0 || (col.free && col.cost != 0.0) {
                if col.upper.is_finite() {
                    empty_at[k] = col.upper;
                    offset += col.cost * col.upper;
                    continue;
                }
                let who = columns.iter().enumerate().find_map(|(j, map)| match map {
                    ColumnMap::Single { col, .. } | ColumnMap::Free { col } if *col == k => {
                        Some(model.col_name(j).into_owned())
                    }
                    ColumnMap::Split { pos, neg } if *pos == k || *neg == k => Some(model.col_name(j).into_owned()),
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
            ColumnMap::Single { col, offset, sign } if new_col[col] == usize::MAX => {
                ColumnMap::Fixed(offset + sign * empty_at[col])
            }
            ColumnMap::Single { col, offset, sign } => ColumnMap::Single { col: new_col[col], offset, sign },
            ColumnMap::Free { col } if new_col[col] == usize::MAX => ColumnMap::Fixed(0.0),
            ColumnMap::Free { col } => ColumnMap::Free { col: new_col[col] },
            ColumnMap::Split { pos, neg } => match (new_col[pos], new_col[neg]) {
                (usize::MAX, _) | (_, usize::MAX) => ColumnMap::Fixed(0.0),
                (p, q) => ColumnMap::Split { pos: p, neg: q },
            },
            ColumnMap::Fixed(v) => ColumnMap::Fixed(v),
        };
    }
    let mut c = vec![0.0; n];
    let mut upper = vec![f64::INFINITY; n];
    for (k, col) in cols.iter().enumerate() {
        let j = new_col[k];
        if j != usize::MAX {
            c[j] = col.cost;
            upper[j] = col.upper;
        }
    }
    // Every model row kept under its own index: a model column without stored zeros is copied
    // whole (the dense family's 4m² entries at memory speed).
    let same_rows = m == nrows0 && (0..nrows0).all(|i| rows.index[i] == i && new_row[i] == i);
    let kept = Kept { cols: &cols, col_nnz: &col_nnz, new_col: &new_col, new_row: &new_row, same_rows };
    let a = kept.compressed_columns(&rows, m);
    let b: Vec<f64> = (0..m_all).filter(|&i| new_row[i] != usize::MAX).map(|i| b[i]).collect();
    let row_of = (0..nrows0)
        .map(|i| match rows.index[i] {
            usize::MAX => None,
            r if new_row[r] != usize::MAX => Some(new_row[r]),
            _ => None,
        })
        .collect();
    let free: Vec<usize> = (0..cols.len()).filter(|&k| cols[k].free && new_col[k] != usize::MAX).map(|k| new_col[k]).collect();
    let free_pairs: Vec<(usize, usize)> = columns
        .iter()
        .filter_map(|m| match *m {
            ColumnMap::Split { pos, neg } => Some((pos, neg)),
            _ => None,
        })
        .collect();

    let mut sf = StandardForm {
        free,
        free_pairs,
        a,
        b,
        c,
        upper,
        offset,
        sense_sign,
        columns,
        row_of,
        row_scale: Vec::new(),
        col_scale: Vec::new(),
        cost_scale: 1.0,
        tiny_entries: 0,
        units: units.clone(),
        singletons,
    };
    let (rf, cf) = match scale {
        true => scaling::factors(units, &rows.index, &new_row, &cols, &new_col),
        false => (vec![1.0; m], vec![1.0; n]),
    };
    sf.scale(rf, cf, units.cost, scale);
    Presolved::Form(Box::new(sf))
}
