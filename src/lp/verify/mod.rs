//! The proof of an answer, in double precision on the **original** model (before standard form,
//! scaling, shifts and splits), with every rounding accounted for.
//!
//! The interior-point loop decides on the scaled standard form, and the `gpu` backend in single
//! precision; neither is allowed to certify anything on its own. A primal-dual point (x, y)
//! gets an **enclosure** [lower, upper] of the optimal value of `model`, in the model's sense
//! (for a minimization; a maximization mirrors it):
//!
//! * **the dual side**, a bound proven for the model as written (Neumaier & Shcherbina's safe
//!   bound): for multipliers y' (y with its wrong-signed parts on one-sided rows set to 0) and
//!   every x that satisfies the model, cᵀx = y'ᵀ(A·x) + rᵀx with r = c − Aᵀy', so
//!   cᵀx ≥ Σᵢ min over [lᵢ, uᵢ] of y'ᵢ·sᵢ + Σⱼ min over [lⱼ, uⱼ] of rⱼ·xⱼ. The rⱼ are enclosed
//!   with their rounding errors ([`rounding`]); a column whose reduced cost cannot be proven to
//!   have the sign its infinite bound needs takes a bound the rows imply ([`implied`]), or the
//!   multipliers are corrected until it has ([`repair`]: a least-squares correction, and for
//!   free columns an exact one enclosed by a verified solve, [`interval`]); otherwise there is
//!   no lower bound (−∞), never a guess;
//! * **the primal side**, cᵀx + c₀ rounded outwards at the point x, together with x's proven
//!   **componentwise backward error** β: the largest relative change of one row's own data
//!   (|its bound| + Σⱼ |aᵢⱼxⱼ|, Oettli–Prager) — or of one column's own bound — that makes x
//!   satisfy it, each row judged against its own numbers only. With β = 0, x is feasible and
//!   the primal side bounds the optimum of the model as written; otherwise it bounds the
//!   optimum of the model whose rows are moved by at most β of their own size.
//!
//! **The grade** ([`Accuracy`]): the point passes at ε when β ≤ [`VERIFY_FACTOR`]·ε, the dual
//! side is finite and the enclosure's width is at most [`VERIFY_FACTOR`]·ε of the objective's
//! own size at the point, S = max(Σⱼ |cⱼxⱼ|, Σ |terms of the dual side|) + |c₀| — the numbers
//! both sides are made of, and nothing else: no floor from a column whose terms vanish, no size
//! borrowed from another row. (The loop stops at ε on the scaled standard form; undoing its
//! scaling, shifts and splits moves a residual by a small factor, hence the one order of
//! magnitude.) Reduced accuracy: both within √([`VERIFY_FACTOR`]·ε). Either way the enclosure
//! is what was proven, and it is reported as such.
//!
//! Certificates ([`check_farkas`], [`check_primal_ray`]) are graded the same way: a Farkas ray
//! is a dual side of the model without cost that is proven positive (for the model as written,
//! or, where its wrong-signed parts cannot be repaired, for the model with those columns'
//! entries moved by at most their relative size ρ); a primal ray's rows are judged by their
//! own data, ρ being the largest relative change of a row's entries that makes the ray exact.

mod certificate;
mod dual;
mod exact;
mod exact_step;
pub mod feasibility;
mod implied;
mod interval;
mod judgement;
mod multipliers;
mod point;
mod primal;
mod products;
mod rays;
mod repair;
pub mod rounding;
pub mod verdict;
#[cfg(test)]
mod verdict_tests;

pub use implied::{implied_bounds, ImpliedBounds};
pub(crate) use point::{into_bounds, Checker};
pub use point::{objective, verify_point, CANCELLATION};
pub use products::{activities, reduced_costs};
pub use certificate::{without_negligible_parts, CertificateKind};
pub use rays::{check_farkas, check_primal_ray, drop_wrong_signs, ray_into_cone, CertificateCheck};

use crate::lp::model::{LpModel, Sense};

/// A point passes at ε when its backward error and its enclosure's relative width are at most
/// this many times ε (the loop stops at ε on the scaled standard form; undoing its scaling,
/// shifts and splits can move either by a small factor).
pub const VERIFY_FACTOR: f64 = 10.0;

/// How well a point or a certificate passed.
/// Ordered best first: `Tolerance < Reduced < Failed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum Accuracy {
    /// Passes at the requested tolerance.
    Tolerance,
    /// Passes only at the reduced tolerance (the square root of [`VERIFY_FACTOR`] times it).
    Reduced,
    /// Passes neither.
    Failed,
}

impl Accuracy {
    /// The grade in words (`passed`, `passed at reduced accuracy`, `failed`).
    pub fn name(self) -> &'static str {
        match self {
            Accuracy::Tolerance => "passed",
            Accuracy::Reduced => "passed at reduced accuracy",
            Accuracy::Failed => "failed",
        }
    }
}

/// The grade of a measure that must be at most `tol` (and, for reduced accuracy,
/// √(`VERIFY_FACTOR`·`tol`)); NaN fails.
pub fn grade(measure: f64, tol: f64) -> Accuracy {
    if measure <= tol {
        Accuracy::Tolerance
    } else if measure <= (VERIFY_FACTOR * tol).sqrt() {
        Accuracy::Reduced
    } else {
        Accuracy::Failed
    }
}

/// An interval that holds the optimal value, in the model's sense, with the objective
/// constant (see the module documentation for what each side proves).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Enclosure {
    /// The smaller end (for a minimization the dual side, −∞ where none was proven).
    pub lower: f64,
    /// The larger end (for a minimization the point's objective, rounded up).
    pub upper: f64,
}

impl Enclosure {
    /// upper − lower (∞ where a side is infinite).
    pub fn width(&self) -> f64 {
        self.upper - self.lower
    }

    /// Whether `value` lies in [lower, upper].
    pub fn contains(&self, value: f64) -> bool {
        self.lower <= value && value <= self.upper
    }
}

/// How the dual side of an enclosure was obtained.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub enum DualBound {
    /// From the multipliers as given (wrong-signed parts on one-sided rows set to zero), with
    /// `implied` columns bounded by what the rows imply.
    Direct {
        /// Columns whose infinite bound was replaced by an implied one.
        implied: usize,
    },
    /// After correcting the multipliers: `corrected` columns given the sign their infinite
    /// bound needs by a least-squares correction, `exact` free columns a reduced cost of exactly
    /// zero by a verified solve.
    Repaired {
        /// Columns that took part in the least-squares correction.
        corrected: usize,
        /// Free columns whose reduced cost was made exactly zero.
        exact: usize,
    },
    /// No finite bound: why.
    Unproven {
        /// The reason, naming the column.
        reason: String,
    },
    /// Not attempted: the loop's judgement of an iterate whose estimate was not yet within
    /// reach (the estimate stands in for the bound).
    Estimated,
}

/// The proof of a primal-dual point on the original model (see the module documentation).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Verification {
    /// cᵀx + constant at the point, in the model's sense (as computed).
    pub objective: f64,
    /// The enclosure of the optimal value.
    pub enclosure: Enclosure,
    /// β: the point's largest componentwise backward error (a row's, or a column's bound's).
    pub primal_backward_error: f64,
    /// The row (or column, for a bound) where β is attained, by name.
    pub worst: Option<String>,
    /// |upper − lower| / S, the enclosure's width relative to the objective's size.
    pub width: f64,
    /// S: the objective's own size at the point (see the module documentation).
    pub objective_size: f64,
    /// What the primal end adds to x's objective for the rows x misses: Σᵢ |yᵢ|·(row i's
    /// violation), the multipliers the dual side was proven with.
    pub violation_charge: f64,
    /// How the dual side was found.
    pub dual_bound: DualBound,
    /// The tolerance the measures were graded against ([`VERIFY_FACTOR`]·ε): β and the width
    /// at most this is `optimal`.
    pub tolerance: f64,
    /// The grade.
    pub accuracy: Accuracy,
}

impl Verification {
    /// A failed verification that proves nothing, and why (graded at `tol`).
    pub(crate) fn failed(tol: f64, why: &str) -> Verification {
        let nan = f64::NAN;
        Verification {
            objective: nan,
            enclosure: Enclosure { lower: nan, upper: nan },
            primal_backward_error: nan,
            worst: None,
            width: nan,
            objective_size: nan,
            violation_charge: nan,
            dual_bound: DualBound::Unproven { reason: why.into() },
            tolerance: VERIFY_FACTOR * tol,
            accuracy: Accuracy::Failed,
        }
    }

    /// The measure the grade compares with [`VERIFY_FACTOR`]·ε: max(β, width) (NaN counts as
    /// infinite).
    pub fn worst(&self) -> f64 {
        let m = self.primal_backward_error.max(self.width);
        if self.primal_backward_error.is_nan() || self.width.is_nan() {
            f64::INFINITY
        } else {
            m
        }
    }

    /// One line for logs and summaries.
    pub fn summary(&self) -> String {
        let how = match &self.dual_bound {
            DualBound::Direct { implied: 0 } => String::new(),
            DualBound::Direct { implied } => format!(", {implied} implied column bounds"),
            DualBound::Repaired { corrected, exact } => {
                format!(", multipliers corrected on {corrected} columns ({exact} free, exactly)")
            }
            DualBound::Unproven { reason } => format!(", no dual bound: {reason}"),
            DualBound::Estimated => ", dual side estimated".to_string(),
        };
        format!(
            "{} (tol {:.1e}): optimum in [{:.12e}, {:.12e}] (width {:.2e} of size {:.3e}{how}), backward error {:.2e}{}",
            self.accuracy.name(),
            self.tolerance,
            self.enclosure.lower,
            self.enclosure.upper,
            self.width,
            self.objective_size,
            self.primal_backward_error,
            self.worst.as_ref().map_or(String::new(), |w| format!(" ({w})")),
        )
    }
}

fn sigma(model: &LpModel) -> f64 {
    if model.sense == Sense::Maximize {
        -1.0
    } else {
        1.0
    }
}
