//! Seeded generators of the dense LPs people bring, beside the papers' random family: the
//! shapes `glsolve bench families` runs against HiGHS and Clarabel on the same MPS files.
//!
//! Every family draws its data from one seed (ChaCha through `StdRng`, Gaussians by
//! Box–Muller), so a (family, size, seed) is the same problem on every run and machine:
//!
//! * **L1 regression** (least absolute deviations), `rows` observations × `features`:
//!   min Σ(uᵢ + vᵢ) s.t. X·β + u − v = y, β free, u, v ≥ 0 — `rows` equality rows,
//!   `features` free dense columns and 2·`rows` unit columns.
//! * **Quantile regression** at τ = [`QUANTILE_TAU`]: the same rows with costs τ on u and
//!   1 − τ on v.
//! * **Chebyshev fit** (minimax), `rows`/2 points × `features`: min t s.t.
//!   −t ≤ yᵢ − xᵢᵀβ ≤ t written as two inequalities per point — the tall shape: `rows`
//!   inequality rows over `features` + 1 columns.
//! * **Matrix game**: the row player's mixed strategy p over the `features` rows of a loss
//!   matrix P with `rows` − 1 columns (entries uniform in [−1, 1]) that minimizes the largest
//!   expected loss: min v s.t. Σᵢ Pᵢⱼ·pᵢ − v ≤ 0 for each column j, Σ p = 1, p ≥ 0, v free —
//!   `rows` − 1 inequality rows and one equality row without a slack.
//! * **The papers' family** ([`crate::lp::random`]): `rows` × 4·`rows`, every column dense.
//!
//! Each family but the papers' also comes as textbooks and tutorials write it ([`Form::Textbook`]),
//! from the same data and with the same optimal value:
//!
//! * L1 and quantile regression in the **t form**: min Σtᵢ s.t. tᵢ ≥ cᵤ·(yᵢ − xᵢᵀβ) and
//!   tᵢ ≥ cᵥ·(xᵢᵀβ − yᵢ), i.e. A_ub = [[−cᵤX, −I], [cᵥX, −I]] — 2·`rows` inequality rows over
//!   `features` free columns and `rows` columns of two entries;
//! * the Chebyshev fit as its **dual**: max yᵀ(λ − μ) s.t. Xᵀ(λ − μ) = 0, Σ(λ + μ) ≤ 1,
//!   λ, μ ≥ 0 — `features` + 1 rows over `rows` columns;
//! * the matrix game as the **column player's** LP: max w s.t. Σⱼ Pᵢⱼ·qⱼ − w ≥ 0 for each row i
//!   of P, Σ q = 1, q ≥ 0, w free — the transpose: `features` + 1 rows over `rows` columns.
//!
//! The data: X Gaussian, β* Gaussian, y = X·β* + noise (Gaussian, with one observation in ten
//! moved by ten standard deviations for the regressions), so that no fit is exact.

use crate::lp::model::{LpModel, Sense, SparseColMatrix};
use crate::lp::random::random_lp;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// τ of the quantile regression family.
pub const QUANTILE_TAU: f64 = 0.9;

/// How a family's problem is written (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Form {
    /// As the generators write it.
    #[default]
    Generated,
    /// As textbooks write it: the t form, the Chebyshev fit's dual, the column player's game.
    Textbook,
}

/// The families.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Family {
    L1Regression,
    QuantileRegression,
    Chebyshev,
    MatrixGame,
    Papers,
}

impl Family {
    pub const ALL: [Family; 5] =
        [Family::L1Regression, Family::QuantileRegression, Family::Chebyshev, Family::MatrixGame, Family::Papers];

    /// The name the command line and the reports use.
    pub fn name(self) -> &'static str {
        match self {
            Family::L1Regression => "l1",
            Family::QuantileRegression => "quantile",
            Family::Chebyshev => "chebyshev",
            Family::MatrixGame => "game",
            Family::Papers => "papers",
        }
    }

    /// What users call it.
    pub fn title(self) -> &'static str {
        match self {
            Family::L1Regression => "L1 regression",
            Family::QuantileRegression => "quantile regression (τ = 0.9)",
            Family::Chebyshev => "Chebyshev fit",
            Family::MatrixGame => "matrix game",
            Family::Papers => "papers' random family",
        }
    }

    /// The family named `name` ([`Family::name`]).
    pub fn parse(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The textbook form's suffix (`l1-t`, `chebyshev-dual`, `game-column`); `None` for the
    /// papers' family, which has one form.
    pub fn textbook_suffix(self) -> Option<&'static str> {
        match self {
            Family::L1Regression | Family::QuantileRegression => Some("t"),
            Family::Chebyshev => Some("dual"),
            Family::MatrixGame => Some("column"),
            Family::Papers => None,
        }
    }

    /// The name of the family in `form`: [`Family::name`], with `-` and the textbook suffix.
    pub fn form_name(self, form: Form) -> String {
        match (form, self.textbook_suffix()) {
            (Form::Textbook, Some(suffix)) => format!("{}-{suffix}", self.name()),
            _ => self.name().to_string(),
        }
    }

    /// The family and form named `name` ([`Family::form_name`]).
    pub fn parse_form(name: &str) -> Option<(Family, Form)> {
        Family::ALL.into_iter().flat_map(|f| [(f, Form::Generated), (f, Form::Textbook)]).find(|&(f, form)| {
            (form == Form::Generated || f.textbook_suffix().is_some()) && f.form_name(form) == name
        })
    }

    /// The model with `rows` rows (even for the Chebyshev fit, at least 2 for the game) and
    /// `features` unknowns of the data (ignored by the papers' family), from `seed`; `None` for
    /// sizes the family cannot have (no rows, no features, an odd Chebyshev row count).
    pub fn model(self, rows: usize, features: usize, seed: u64) -> Option<LpModel> {
        self.model_in(Form::Generated, rows, features, seed)
    }

    /// [`Family::model`] written in `form`: the same data (drawn from the same seed), so the
    /// same optimal value; `None` also for the papers' family's textbook form.
    pub fn model_in(self, form: Form, rows: usize, features: usize, seed: u64) -> Option<LpModel> {
        let features_needed = self != Family::Papers;
        if rows == 0 || (features_needed && features == 0) || (form == Form::Textbook && self.textbook_suffix().is_none()) {
            return None;
        }
        let t = form == Form::Textbook;
        let mut rng = StdRng::seed_from_u64(seed ^ ((self as u64) << 32));
        let model = match self {
            Family::L1Regression => regression(&mut rng, rows, features, (1.0, 1.0), t),
            Family::QuantileRegression => regression(&mut rng, rows, features, (QUANTILE_TAU, 1.0 - QUANTILE_TAU), t),
            Family::Chebyshev if rows.is_multiple_of(2) => chebyshev(&mut rng, rows / 2, features, t),
            Family::Chebyshev => return None,
            Family::MatrixGame if rows >= 2 => game(&mut rng, rows - 1, features, t),
            Family::MatrixGame => return None,
            Family::Papers => random_lp(rows, seed).to_model(seed),
        };
        Some(LpModel { name: format!("{}_{rows}x{features}_s{seed}", self.form_name(form)).to_uppercase(), ..model })
    }
}

/// Standard normal deviate by the Box–Muller transform.
fn gaussian(rng: &mut StdRng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// X (row-major obs × p) and y = X·β* + noise, one observation in ten an outlier.
fn data(rng: &mut StdRng, obs: usize, p: usize) -> (Vec<f64>, Vec<f64>) {
    let x: Vec<f64> = (0..obs * p).map(|_| gaussian(rng)).collect();
    let beta: Vec<f64> = (0..p).map(|_| gaussian(rng)).collect();
    let y = (0..obs)
        .map(|i| {
            let fit: f64 = x[i * p..(i + 1) * p].iter().zip(&beta).map(|(a, b)| a * b).sum();
            let outlier = if rng.random::<f64>() < 0.1 { 10.0 } else { 1.0 };
            fit + outlier * gaussian(rng)
        })
        .collect();
    (x, y)
}

/// A model of `m` rows from its columns' entries (row, value) in row order.
fn model(
    m: usize,
    cols: Vec<Vec<(usize, f64)>>,
    c: Vec<f64>,
    row: (Vec<f64>, Vec<f64>),
    col: (Vec<f64>, Vec<f64>),
) -> LpModel {
    let n = cols.len();
    let mut a = SparseColMatrix::new(m);
    a.ncols = n;
    a.col_ptr = Vec::with_capacity(n + 1);
    a.col_ptr.push(0);
    for entries in cols {
        for (i, v) in entries {
            a.row_idx.push(i);
            a.values.push(v);
        }
        a.col_ptr.push(a.row_idx.len());
    }
    LpModel {
        sense: Sense::Minimize,
        objective_name: "COST".into(),
        c,
        a,
        row_lower: row.0,
        row_upper: row.1,
        col_lower: col.0,
        col_upper: col.1,
        ..LpModel::default()
    }
}

/// min Σ cᵤ·uᵢ + cᵥ·vᵢ s.t. X·β + u − v = y; `t_form`: min Σtᵢ s.t. −cᵤ·xᵢᵀβ − tᵢ ≤ −cᵤ·yᵢ
/// (row i) and cᵥ·xᵢᵀβ − tᵢ ≤ cᵥ·yᵢ (row `obs` + i).
fn regression(rng: &mut StdRng, obs: usize, p: usize, (cu, cv): (f64, f64), t_form: bool) -> LpModel {
    let (x, y) = data(rng, obs, p);
    if t_form {
        let m = 2 * obs;
        let mut cols: Vec<Vec<(usize, f64)>> = (0..p)
            .map(|j| (0..obs).map(|i| (i, -cu * x[i * p + j])).chain((0..obs).map(|i| (obs + i, cv * x[i * p + j]))).collect())
            .collect();
        cols.extend((0..obs).map(|i| vec![(i, -1.0), (obs + i, -1.0)]));
        let c = [vec![0.0; p], vec![1.0; obs]].concat();
        let upper = y.iter().map(|v| -cu * v).chain(y.iter().map(|v| cv * v)).collect();
        let lower = [vec![f64::NEG_INFINITY; p], vec![0.0; obs]].concat();
        return model(m, cols, c, (vec![f64::NEG_INFINITY; m], upper), (lower, vec![f64::INFINITY; p + obs]));
    }
    let mut cols: Vec<Vec<(usize, f64)>> = (0..p).map(|j| (0..obs).map(|i| (i, x[i * p + j])).collect()).collect();
    cols.extend((0..obs).map(|i| vec![(i, 1.0)]));
    cols.extend((0..obs).map(|i| vec![(i, -1.0)]));
    let c = [vec![0.0; p], vec![cu; obs], vec![cv; obs]].concat();
    let lower = [vec![f64::NEG_INFINITY; p], vec![0.0; 2 * obs]].concat();
    model(obs, cols, c, (y.clone(), y), (lower, vec![f64::INFINITY; p + 2 * obs]))
}

/// min t s.t. xᵢᵀβ + t ≥ yᵢ (row 2i) and xᵢᵀβ − t ≤ yᵢ (row 2i + 1); `dual`: max Σ yᵢ(λᵢ − μᵢ)
/// s.t. Xᵀ(λ − μ) = 0 (rows 0..p), Σ(λ + μ) ≤ 1 (row p), λ, μ ≥ 0 (columns 2i, 2i + 1).
fn chebyshev(rng: &mut StdRng, points: usize, p: usize, dual: bool) -> LpModel {
    let (x, y) = data(rng, points, p);
    if dual {
        let cols = (0..2 * points)
            .map(|k| {
                let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
                (0..p).map(|j| (j, sign * x[(k / 2) * p + j])).chain(std::iter::once((p, 1.0))).collect()
            })
            .collect();
        let c = (0..2 * points).map(|k| if k % 2 == 0 { y[k / 2] } else { -y[k / 2] }).collect();
        let row_lower = [vec![0.0; p], vec![f64::NEG_INFINITY]].concat();
        let row_upper = [vec![0.0; p], vec![1.0]].concat();
        let bounds = (vec![0.0; 2 * points], vec![f64::INFINITY; 2 * points]);
        return LpModel { sense: Sense::Maximize, ..model(p + 1, cols, c, (row_lower, row_upper), bounds) };
    }
    let m = 2 * points;
    let mut cols: Vec<Vec<(usize, f64)>> = (0..p).map(|j| (0..m).map(|r| (r, x[(r / 2) * p + j])).collect()).collect();
    cols.push((0..m).map(|r| (r, if r % 2 == 0 { 1.0 } else { -1.0 })).collect());
    let mut c = vec![0.0; p];
    c.push(1.0);
    let row_lower = (0..m).map(|r| if r % 2 == 0 { y[r / 2] } else { f64::NEG_INFINITY }).collect();
    let row_upper = (0..m).map(|r| if r % 2 == 0 { f64::INFINITY } else { y[r / 2] }).collect();
    let mut lower = vec![f64::NEG_INFINITY; p];
    lower.push(0.0);
    model(m, cols, c, (row_lower, row_upper), (lower, vec![f64::INFINITY; p + 1]))
}

/// min v s.t. Σᵢ Pᵢⱼ·pᵢ − v ≤ 0 for each of the `s` columns j of P (`r` × `s`), Σ p = 1,
/// p ≥ 0, v free; `column`: max w s.t. Σⱼ Pᵢⱼ·qⱼ − w ≥ 0 for each of the `r` rows i,
/// Σ q = 1, q ≥ 0, w free.
fn game(rng: &mut StdRng, s: usize, r: usize, column: bool) -> LpModel {
    let payoff: Vec<f64> = (0..r * s).map(|_| 2.0 * rng.random::<f64>() - 1.0).collect();
    if column {
        let mut cols: Vec<Vec<(usize, f64)>> =
            (0..s).map(|j| (0..r).map(|i| (i, payoff[i * s + j])).chain(std::iter::once((r, 1.0))).collect()).collect();
        cols.push((0..r).map(|i| (i, -1.0)).collect());
        let mut c = vec![0.0; s];
        c.push(1.0);
        let row_lower = [vec![0.0; r], vec![1.0]].concat();
        let row_upper = [vec![f64::INFINITY; r], vec![1.0]].concat();
        let lower = [vec![0.0; s], vec![f64::NEG_INFINITY]].concat();
        let bounds = (lower, vec![f64::INFINITY; s + 1]);
        return LpModel { sense: Sense::Maximize, ..model(r + 1, cols, c, (row_lower, row_upper), bounds) };
    }
    let mut cols: Vec<Vec<(usize, f64)>> = (0..r)
        .map(|i| {
            let mut col: Vec<(usize, f64)> = (0..s).map(|j| (j, payoff[i * s + j])).collect();
            col.push((s, 1.0));
            col
        })
        .collect();
    cols.push((0..s).map(|j| (j, -1.0)).collect());
    let mut c = vec![0.0; r];
    c.push(1.0);
    let row_lower = [vec![f64::NEG_INFINITY; s], vec![1.0]].concat();
    let row_upper = [vec![0.0; s], vec![1.0]].concat();
    let lower = [vec![0.0; r], vec![f64::NEG_INFINITY]].concat();
    model(s + 1, cols, c, (row_lower, row_upper), (lower, vec![f64::INFINITY; r + 1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_name_parses_back_and_the_papers_family_has_one_form() {
        for family in Family::ALL {
            assert_eq!(Family::parse_form(&family.form_name(Form::Generated)), Some((family, Form::Generated)));
            match family.textbook_suffix() {
                Some(_) => assert_eq!(Family::parse_form(&family.form_name(Form::Textbook)), Some((family, Form::Textbook))),
                None => assert!(family.model_in(Form::Textbook, 8, 1, 1).is_none()),
            }
        }
        assert_eq!(Family::parse_form("l1-t"), Some((Family::L1Regression, Form::Textbook)));
        for bad in ["papers-t", "l1-dual", "l1-", "t", ""] {
            assert_eq!(Family::parse_form(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn the_textbook_forms_have_their_shapes() {
        let (n, p) = (7, 3);
        let dims = |family: Family, rows: usize| {
            let m = family.model_in(Form::Textbook, rows, p, 5).expect("a member");
            m.validate().expect("a valid model");
            (m.num_rows(), m.num_cols(), m.sense, m.a.nnz())
        };
        // The t form: 2n rows, p free columns of 2n entries and n columns of two.
        assert_eq!(dims(Family::L1Regression, n), (2 * n, p + n, Sense::Minimize, 2 * n * p + 2 * n));
        assert_eq!(dims(Family::QuantileRegression, n), (2 * n, p + n, Sense::Minimize, 2 * n * p + 2 * n));
        // The dual of the fit over n points (2n rows in its primal): p + 1 rows, 2n columns.
        assert_eq!(dims(Family::Chebyshev, 2 * n), (p + 1, 2 * n, Sense::Maximize, 2 * n * (p + 1)));
        // The column player of P (p × n): p + 1 rows, n + 1 columns.
        assert_eq!(dims(Family::MatrixGame, n + 1), (p + 1, n + 1, Sense::Maximize, n * (p + 1) + p));
        // The same data: the t form's right-hand sides are the generated form's y, scaled.
        let generated = Family::QuantileRegression.model(n, p, 5).expect("a member");
        let t = Family::QuantileRegression.model_in(Form::Textbook, n, p, 5).expect("a member");
        for i in 0..n {
            let y = generated.row_upper[i];
            assert_eq!(t.row_upper[i], -QUANTILE_TAU * y);
            assert_eq!(t.row_upper[n + i], (1.0 - QUANTILE_TAU) * y);
        }
    }
}
