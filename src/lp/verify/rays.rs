//! The checks of infeasibility certificates: a Farkas ray of row multipliers (no x satisfies
//! the rows and the bounds) and a primal ray (a direction of unbounded improvement), each proven
//! with its rounding accounted for and each part judged against its own data.
//!
//! Both are graded by ρ, the largest relative change of the model's own entries that makes the
//! certificate exact: ρ = 0 when it is proven for the model as written. A Farkas ray is the dual
//! side of the model without cost ([`super::dual`]): a proven positive lower bound of 0 over the
//! feasible set is a contradiction. Where a column's part cannot be brought to its sign (after the
//! implied bounds and the multipliers' repair), the column's entries moved by ρⱼ = (its wrong
//! part) / Σᵢ |aᵢⱼyᵢ| make it right, and the ray proves the model so changed infeasible. A primal
//! ray r: the rows must not move towards a finite bound — each row's A·r, enclosed, is judged
//! against Σⱼ |aᵢⱼrⱼ| of that row (an equality row is met exactly only by exact arithmetic, so a
//! ray's ρ is rarely 0) — the columns must keep their bounds' signs exactly, and the objective
//! must improve, −σ·cᵀr > 0 proven.

use super::dual::{dual_side, DualIntervals};
use super::exact::sign_of_difference;
use std::cmp::Ordering;
use super::point::{Checker, Need};
use super::certificate::CertificateKind;
use super::primal::At;
use super::products::row_products;
use super::rounding::{add_down, add_up, div_up, magnitude_below, sum_error};
use super::{grade, sigma, Accuracy, DualBound};
use crate::lp::model::LpModel;

/// The result of checking a certificate.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CertificateCheck {
    /// Which kind of ray.
    pub kind: CertificateKind,
    /// What the ray gains, proven (a lower bound): for a Farkas ray the lower bound of 0 over the
    /// rows and bounds (positive: a contradiction), for a primal ray −σ·cᵀr (positive: the
    /// objective improves along it). NaN where nothing could be computed.
    pub gain: f64,
    /// ρ: 0 when the certificate is proven for the model as written; otherwise the largest
    /// relative change of one row's (primal ray) or column's (Farkas) own entries that makes it
    /// exact.
    pub backward_error: f64,
    /// The row or column where ρ is attained.
    pub worst: Option<String>,
    /// The tolerance ρ was graded at.
    pub tolerance: f64,
    /// The grade of ρ (failed when the gain is not proven positive).
    pub accuracy: Accuracy,
}

impl CertificateCheck {
    /// One line for logs and summaries.
    pub fn summary(&self) -> String {
        let what = match self.kind {
            CertificateKind::Farkas => "Farkas ray",
            CertificateKind::PrimalRay => "primal ray",
        };
        let exact = if self.backward_error == 0.0 && self.accuracy != Accuracy::Failed {
            ", proven for the model as written".to_string()
        } else {
            format!(", exact for the model with entries moved by {:.2e}", self.backward_error)
        };
        format!(
            "{what} {} (tol {:.1e}): gain {:.3e}{exact}{}",
            self.accuracy.name(),
            self.tolerance,
            self.gain,
            self.worst.as_ref().map_or(String::new(), |w| format!(" ({w})")),
        )
    }

    fn failed(kind: CertificateKind, tol: f64) -> Self {
        CertificateCheck {
            kind,
            gain: f64::NAN,
            backward_error: f64::NAN,
            worst: None,
            tolerance: tol,
            accuracy: Accuracy::Failed,
        }
    }

    fn graded(kind: CertificateKind, gain: f64, rho: f64, worst: Option<String>, tol: f64) -> Self {
        let accuracy = if gain > 0.0 && gain.is_finite() { grade(rho, tol) } else { Accuracy::Failed };
        CertificateCheck { kind, gain, backward_error: rho, worst, tolerance: tol, accuracy }
    }
}

/// Farkas check of row multipliers y at the tolerance `tol` (see the module documentation).
pub fn check_farkas(model: &LpModel, y: &[f64], tol: f64) -> CertificateCheck {
    if y.len() != model.num_rows() || y.iter().any(|v| !v.is_finite()) || model.validate().is_err() {
        return CertificateCheck::failed(CertificateKind::Farkas, tol);
    }
    Checker::new(model).prove_farkas(y, tol).1
}

impl Checker<'_> {
    /// [`check_farkas`] on the checker's model, with the multipliers the proof holds for: those
    /// given, or their repair where that proved the model infeasible as written.
    pub(crate) fn prove_farkas(&self, y: &[f64], tol: f64) -> (Vec<f64>, CertificateCheck) {
        let kind = CertificateKind::Farkas;
        let model = self.model();
        let (lower, how, proven) = self.farkas(y, tol);
        if lower > 0.0 && !matches!(how, DualBound::Unproven { .. }) {
            return (proven, CertificateCheck::graded(kind, lower, 0.0, None, tol));
        }
        // The componentwise reading: the columns whose part has the wrong sign for an infinite
        // bound, moved by their relative wrong part, contribute nothing.
        let n = model.num_cols();
        let zero = vec![0.0; n];
        let y: Vec<f64> = y.iter().enumerate().map(|(i, &v)| if self.row_allows(i, v) { v } else { 0.0 }).collect();
        let red = self.reduced(&zero, &y);
        let mut d: DualIntervals = self.intervals_at(&zero, &y, &red);
        let (lo, hi) = self.bounds();
        let (mut rho, mut worst) = (0.0f64, None);
        for j in 0..n {
            let (r_lo, r_hi) = d.cols[j];
            let wrong = match Need::of(lo[j], hi[j]) {
                Need::AtLeastZero => (-r_lo).max(0.0),
                Need::AtMostZero => r_hi.max(0.0),
                Need::Zero => r_lo.abs().max(r_hi.abs()),
                Need::Any => 0.0,
            };
            if wrong > 0.0 {
                let size = magnitude_below(self.col_terms(j), red.magnitude[j]);
                let rj = if size > 0.0 { div_up(wrong, size) } else { f64::INFINITY };
                if rj > rho || worst.is_none() {
                    (rho, worst) = (rj.max(rho), Some(j));
                }
                d.cols[j] = (0.0, 0.0);
            }
        }
        let side = dual_side(&d, (&model.row_lower, &model.row_upper), (lo, hi), 0.0);
        let worst = worst.map(|j| format!("column {}", model.col_name(j)));
        (y, CertificateCheck::graded(kind, side.lower, rho, worst, tol))
    }
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

/// Zeroes a primal ray's parts that move a column towards a finite bound (rⱼ > 0 with uⱼ
/// finite, rⱼ < 0 with lⱼ finite): a ray may not have them, and what the loop leaves there is
/// the noise of a column held at its bound. The check is then run on what remains.
pub fn ray_into_cone(model: &LpModel, mut r: Vec<f64>) -> Vec<f64> {
    for (j, rj) in r.iter_mut().enumerate().take(model.num_cols()) {
        if (*rj > 0.0 && model.col_upper[j].is_finite()) || (*rj < 0.0 && model.col_lower[j].is_finite()) {
            *rj = 0.0;
        }
    }
    r
}

/// Primal-ray check of a direction r at the tolerance `tol` (see the module documentation).
pub fn check_primal_ray(model: &LpModel, r: &[f64], tol: f64) -> CertificateCheck {
    let kind = CertificateKind::PrimalRay;
    let (m, n) = (model.num_rows(), model.num_cols());
    if r.len() != n || r.iter().any(|v| !v.is_finite()) || model.validate().is_err() {
        return CertificateCheck::failed(kind, tol);
    }
    let (mut rho, mut worst) = (0.0f64, None::<At>);
    let mut note = |v: f64, at: At| {
        if v > rho || (v == f64::INFINITY && worst.is_none()) {
            (rho, worst) = (v, Some(at));
        }
    };
    for (j, &rj) in r.iter().enumerate() {
        if (rj > 0.0 && model.col_upper[j].is_finite()) || (rj < 0.0 && model.col_lower[j].is_finite()) {
            note(f64::INFINITY, At::Column(j));
        }
    }
    let mut row_nnz = vec![0usize; m];
    for j in 0..n {
        for (i, _) in model.a.col(j) {
            row_nnz[i] += 1;
        }
    }
    let (sums, parts) = row_products(model, r);
    let (ar, size) = (&sums.value, &sums.magnitude);
    for i in 0..m {
        let terms = row_nnz[i] + parts + 1;
        let e = sums.error(i, terms);
        let towards_upper = if model.row_upper[i].is_finite() { add_up(ar[i], e) } else { 0.0 };
        let towards_lower = if model.row_lower[i].is_finite() { add_up(e, -ar[i]) } else { 0.0 };
        let mut wrong = towards_upper.max(towards_lower).max(0.0);
        if wrong > 0.0 && ar[i].abs() <= 2.0 * e && row_nnz[i] <= 1 << 14 {
            // Within its rounding of 0: the exact sign decides (0 − Σ aᵢⱼrⱼ).
            let terms: Vec<(f64, f64)> =
                (0..n).flat_map(|j| model.a.col(j).filter(|&(k, _)| k == i).map(move |(_, a)| (a, r[j]))).collect();
            let allowed = match sign_of_difference(0.0, terms.into_iter()) {
                Some(Ordering::Equal) => true,
                // 0 − A·r > 0: A·r < 0, towards the lower bound.
                Some(Ordering::Greater) => !model.row_lower[i].is_finite(),
                Some(Ordering::Less) => !model.row_upper[i].is_finite(),
                None => false,
            };
            if allowed {
                wrong = 0.0;
            }
        }
        if wrong > 0.0 {
            let own = magnitude_below(terms, size[i]);
            note(if own > 0.0 { div_up(wrong, own) } else { f64::INFINITY }, At::Row(i));
        }
    }
    let s = sigma(model);
    let (mut gain, mut gain_size) = (0.0, 0.0);
    for (&c, &rj) in model.c.iter().zip(r) {
        let t = -s * c * rj;
        gain += t;
        gain_size += t.abs();
    }
    let gain = add_down(gain, -sum_error(n + 1, gain_size));
    let worst = worst.map(|at| match at {
        At::Row(i) => format!("row {}", model.row_name(i)),
        At::Column(j) => format!("column {}", model.col_name(j)),
    });
    CertificateCheck::graded(kind, gain, rho, worst, tol)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::dmatrix;

    const INF: f64 = f64::INFINITY;

    #[test]
    fn contradicting_rows_beside_a_large_one_are_proven_infeasible_as_written() {
        // x + u = 1, x + u = 1.5, x + v = 1e14 (all ≥ 0): y = (1, −1, 0) gains 1 − 1.5 < 0 in its
        // orientation, y = (−1, 1, 0) gains 0.5 exactly, for the model as written.
        let m = LpModel::new(
            dmatrix![1.0, 1.0, 0.0; 1.0, 1.0, 0.0; 1.0, 0.0, 1.0],
            vec![0.0; 3],
            vec![1.0, 1.5, 1e14],
            vec![1.0, 1.5, 1e14],
        )
        .expect("valid");
        let c = check_farkas(&m, &[-1.0, 1.0, 0.0], 1e-9);
        assert_eq!((c.accuracy, c.backward_error), (Accuracy::Tolerance, 0.0), "{}", c.summary());
        assert!(c.gain > 0.49 && c.gain <= 0.5, "{}", c.summary());
        let wrong = check_farkas(&m, &[1.0, -1.0, 0.0], 1e-9);
        assert_eq!(wrong.accuracy, Accuracy::Failed, "{}", wrong.summary());
    }

    #[test]
    fn a_ray_is_judged_row_by_row_and_must_gain() {
        // min −z s.t. z − w ≥ 0, z, w ≥ 0: r = (1, 1) is a ray (A·r = 0 exactly, gain 1).
        let m = LpModel::new(dmatrix![1.0, -1.0], vec![-1.0, 0.0], vec![0.0], vec![INF]).expect("valid");
        let c = check_primal_ray(&m, &[1.0, 1.0], 1e-9);
        assert_eq!(c.accuracy, Accuracy::Tolerance, "{}", c.summary());
        assert!(c.gain > 0.99, "{}", c.summary());
        // r = (1, 2) moves the row towards its lower bound by a third of its own size.
        let c = check_primal_ray(&m, &[1.0, 2.0], 1e-9);
        assert_eq!(c.accuracy, Accuracy::Failed, "{}", c.summary());
        assert!((c.backward_error - 1.0 / 3.0).abs() < 1e-12, "{}", c.summary());
        // r = (0, 1) does not improve the objective.
        assert_eq!(check_primal_ray(&m, &[0.0, 1.0], 1e-9).accuracy, Accuracy::Failed);
        // A part against a finite bound is no ray.
        assert_eq!(check_primal_ray(&m, &[-1.0, -1.0], 1e-9).accuracy, Accuracy::Failed);
        assert_eq!(ray_into_cone(&m, vec![-1.0, 2.0]), vec![0.0, 2.0]);
    }
}
