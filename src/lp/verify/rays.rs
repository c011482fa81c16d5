//! The checks of infeasibility certificates: a Farkas ray of row multipliers (no x satisfies
//! the rows and the bounds) and a primal ray (a direction of unbounded improvement).
//!
//! A ray's parts of the wrong sign (where a bound is infinite and the proof would be void) are
//! read two ways, each free of units, and the certificate passes when either reading does:
//! against the natural sizes of the rows and columns they concern, which the model's data give
//! (the proof then holds for every point within 1/tol times them), and componentwise, as the
//! relative change of the data that removes them (the proof then holds for a model that close).

use super::natural::NaturalSizes;
use super::products::activities;
use super::{dual_term, ratio, sigma, Accuracy};
use crate::lp::model::LpModel;

/// Which kind of ray a certificate is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum CertificateKind {
    /// Row multipliers y proving that no x satisfies the rows and the bounds (Farkas).
    Farkas,
    /// A direction r along which every feasible point stays feasible and the objective improves.
    PrimalRay,
}

/// The result of checking a certificate.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CertificateCheck {
    pub kind: CertificateKind,
    /// What the ray gains: L(y) − U(Aᵀy) for Farkas, −σ·cᵀr for a primal ray (must be > 0).
    pub value: f64,
    /// The largest wrong-signed part of the ray, in the reading that graded it (see the check
    /// functions).
    pub violation: f64,
    /// violation over the gain in the same reading, graded against the tolerance.
    pub ratio: f64,
    pub tolerance: f64,
    pub accuracy: Accuracy,
}

impl CertificateCheck {
    pub fn summary(&self) -> String {
        let what = match self.kind {
            CertificateKind::Farkas => "Farkas ray",
            CertificateKind::PrimalRay => "primal ray",
        };
        format!(
            "{what} {} (tol {:.1e}): gain {:.3e}, violation {:.3e}, ratio {:.2e}",
            self.accuracy.name(),
            self.tolerance,
            self.value,
            self.violation,
            self.ratio
        )
    }
}

/// The certificate as the better of two readings, each a violation over a relative gain: it
/// passes when either does (see the check functions).
fn grade_ray(kind: CertificateKind, value: f64, readings: [(f64, f64); 2], tol: f64) -> CertificateCheck {
    let ratios = readings.map(|(violation, gain)| violation / gain);
    let k = if ratios[1] < ratios[0] { 1 } else { 0 };
    let (violation, ratio) = (readings[k].0, ratios[k]);
    let accuracy = if value > 0.0 && value.is_finite() && ratio.is_finite() && ratio >= 0.0 {
        Accuracy::grade(ratio, tol)
    } else {
        Accuracy::Failed
    };
    CertificateCheck { kind, value, violation, ratio, tolerance: tol, accuracy }
}

/// A wrong part `w` of a ray on something of natural size `size`: w·size, infinite where the
/// size is unknown (0) and the part is not.
fn weighed(w: f64, size: f64) -> f64 {
    if w == 0.0 {
        0.0
    } else if size > 0.0 {
        w * size
    } else {
        f64::INFINITY
    }
}

/// Farkas check of row multipliers y. With d = Aᵀy, every x in the column box has
/// yᵀA·x = dᵀx ≤ U(d) = Σ max(dⱼlⱼ, dⱼuⱼ), and every row activity r in the row box has
/// yᵀr ≥ L(y) = Σ min(yᵢlᵢ, yᵢuᵢ); L(y) > U(d) proves infeasibility. A term on an infinite bound
/// voids the proof; with it, the proof still holds for every x whose column j stays below
/// (L − U) / (wrong part of dⱼ) (and every row i whose activity stays below (L − U) / (wrong
/// part of yᵢ)). Two readings of how small the wrong parts are, the better one graded:
/// * the box: the largest (wrong part)·(natural size, see [`NaturalSizes`]) over L − U — at most
///   `tol`, no point within 1/`tol` times its natural size in every column and row is feasible;
/// * componentwise: the largest relative change of a column's entries that removes its wrong
///   part (wrong part over Σᵢ |aᵢⱼyᵢ|; for a wrong-signed yᵢ, |aᵢⱼyᵢ| over the same, of each of
///   its columns), over the gain relative to Σ |terms of L and U| — at most `tol`, the model
///   with A changed by that little is infeasible, with this proof.
#[allow(clippy::needless_range_loop)]
pub fn check_farkas(model: &LpModel, y: &[f64], tol: f64) -> CertificateCheck {
    let (m, n) = (model.num_rows(), model.num_cols());
    if y.len() != m || y.iter().any(|v| !v.is_finite()) {
        return grade_ray(CertificateKind::Farkas, f64::NAN, [(f64::NAN, f64::NAN); 2], tol);
    }
    let NaturalSizes { col: col_size, row: row_size, .. } = NaturalSizes::of(model);
    let (mut d, mut d_size) = (vec![0.0; n], vec![0.0; n]);
    for j in 0..n {
        for (i, v) in model.a.col(j) {
            d[j] += v * y[i];
            d_size[j] += (v * y[i]).abs();
        }
    }
    let (mut lower, mut upper, mut size) = (0.0, 0.0, 0.0);
    let (mut boxed, mut relative) = (0.0f64, 0.0f64);
    let mut row_wrong = vec![false; m];
    for i in 0..m {
        // L(y): yᵢ > 0 takes the row's lower bound, yᵢ < 0 its upper bound.
        let (wrong, term, _) = dual_term(y[i], model.row_lower[i], model.row_upper[i]);
        boxed = boxed.max(weighed(wrong, row_size[i]));
        row_wrong[i] = wrong > 0.0;
        lower += term;
        size += term.abs();
    }
    for j in 0..n {
        // U(d): dⱼ > 0 takes the upper bound, dⱼ < 0 the lower one, i.e. −L(−d).
        let (wrong, term, _) = dual_term(-d[j], model.col_lower[j], model.col_upper[j]);
        boxed = boxed.max(weighed(wrong, col_size[j]));
        relative = relative.max(ratio(wrong, d_size[j]));
        for (i, v) in model.a.col(j).filter(|&(i, _)| row_wrong[i]) {
            relative = relative.max(ratio((v * y[i]).abs(), d_size[j]));
        }
        upper -= term;
        size += term.abs();
    }
    let value = lower - upper;
    grade_ray(CertificateKind::Farkas, value, [(boxed, value), (relative, ratio(value, size))], tol)
}

/// Zeroes the multipliers of rows whose sign asks for an infinite bound (yᵢ > 0 on a row with no
/// lower bound, yᵢ < 0 on one with no upper bound): such a term can only spoil a Farkas proof, and
/// removing it leaves a valid certificate valid. The check is then run on what remains.
pub fn drop_wrong_signs(model: &LpModel, mut y: Vec<f64>) -> Vec<f64> {
    for (i, yi) in y.iter_mut().enumerate().take(model.num_rows()) {
        if (*yi > 0.0 && model.row_lower[i] == f64::NEG_INFINITY) || (*yi < 0.0 && model.row_upper[i] == f64::INFINITY)
        {
            *yi = 0.0;
        }
    }
    y
}

/// Primal-ray check of a direction r: the rows must not move towards a finite bound
/// ((A·r)ᵢ ≤ 0 where uᵢ is finite, ≥ 0 where lᵢ is), nor the columns (rⱼ ≤ 0 where uⱼ is finite,
/// ≥ 0 where lⱼ is), and the objective must improve, gain = −σ·cᵀr > 0. Each wrong move is
/// measured against the natural size of what moves ([`NaturalSizes`]: Ŝᵢ for a row, X̂ⱼ for a
/// column) and the gain against the objective's, Ĉ = Σ |cⱼ|·X̂ⱼ: the ratio
/// max(move / size) / (gain / Ĉ) at most `tol` means that a step improving the objective by
/// 1/`tol` times its natural size moves nothing towards its bound by more than its own size.
/// Or, componentwise: each row's move over Σⱼ |aᵢⱼrⱼ|, each wrong column's share of the rows it
/// is in and of the gain, over the gain relative to Σ |cⱼrⱼ| — the relative change of the data
/// that makes the ray exact. The better reading is graded.
pub fn check_primal_ray(model: &LpModel, r: &[f64], tol: f64) -> CertificateCheck {
    let (m, n) = (model.num_rows(), model.num_cols());
    if r.len() != n || r.iter().any(|v| !v.is_finite()) {
        return grade_ray(CertificateKind::PrimalRay, f64::NAN, [(f64::NAN, f64::NAN); 2], tol);
    }
    let NaturalSizes { col: col_size, row: row_size, .. } = NaturalSizes::of(model);
    let ar = activities(model, r);
    let moves = |v: f64, lo: f64, up: f64| {
        let towards_up = if up.is_finite() { v.max(0.0) } else { 0.0 };
        let towards_lo = if lo.is_finite() { (-v).max(0.0) } else { 0.0 };
        towards_up.max(towards_lo)
    };
    let relative = |w: f64, size: f64| weighed(w, if size > 0.0 { 1.0 / size } else { 0.0 });
    let rows = (0..m).map(|i| relative(moves(ar[i], model.row_lower[i], model.row_upper[i]), row_size[i]));
    let cols = (0..n).map(|j| relative(moves(r[j], model.col_lower[j], model.col_upper[j]), col_size[j]));
    let boxed = rows.chain(cols).fold(0.0, f64::max);
    let gain = -sigma(model) * model.c.iter().zip(r).map(|(c, r)| c * r).sum::<f64>();
    let objective_size: f64 = model.c.iter().zip(&col_size).map(|(c, x)| c.abs() * x).sum();
    let gain_size: f64 = model.c.iter().zip(r).map(|(c, r)| (c * r).abs()).sum();
    let mut ar_size = vec![0.0; m];
    for (j, &rj) in r.iter().enumerate() {
        for (i, v) in model.a.col(j) {
            ar_size[i] += (v * rj).abs();
        }
    }
    let mut relative =
        (0..m).map(|i| ratio(moves(ar[i], model.row_lower[i], model.row_upper[i]), ar_size[i])).fold(0.0, f64::max);
    for j in (0..n).filter(|&j| moves(r[j], model.col_lower[j], model.col_upper[j]) > 0.0) {
        let mut effect = ratio((model.c[j] * r[j]).abs(), gain_size);
        for (i, v) in model.a.col(j) {
            effect = effect.max(ratio((v * r[j]).abs(), ar_size[i]));
        }
        // A column in no row and without cost moves nothing: it still breaks its bound.
        relative = relative.max(if effect > 0.0 { effect } else { 1.0 });
    }
    let readings = [(boxed, ratio(gain, objective_size)), (relative, ratio(gain, gain_size))];
    grade_ray(CertificateKind::PrimalRay, gain, readings, tol)
}
