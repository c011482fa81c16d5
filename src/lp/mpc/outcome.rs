//! What the loop is given besides A, and what it hands back: the iterate (downloaded to the
//! host), timings, the proposed status.

use crate::clock::Instant;
use crate::lp::backend::BackendError;
use crate::lp::log::IterationInfo;
use crate::lp::status::Status;
use std::time::Duration;

/// The data the loop needs besides A (which the backend holds).
#[derive(Clone, Debug, Default)]
pub struct MpcProblem {
    pub b: Vec<f64>,
    pub c: Vec<f64>,
    /// Upper bounds u of the columns (0 ≤ x ≤ u), `f64::INFINITY` where there is none; empty
    /// when no column has one. Handled implicitly: x + w = u with a slack w ≥ 0 and a dual z ≥ 0.
    pub upper: Vec<f64>,
    /// Columns with no bound at all (x free there, see `mpc::free`), increasing; empty when
    /// there are none.
    pub free: Vec<usize>,
    /// ‖A‖∞ (max absolute row sum), the scale of the infeasibility certificates.
    pub a_norm_inf: f64,
    /// Stop with [`Status::TimeLimit`] once this instant has passed.
    pub deadline: Option<Instant>,
    /// Weights of the termination measures (see `StandardForm::measure_weights`); `None`: the
    /// papers' measures ‖r_b‖∞/(1 + ‖b‖∞), ‖r_c‖∞/(1 + ‖c‖∞), relative gap on cᵀx.
    pub weights: Option<Weights>,
}

impl MpcProblem {
    /// The loop's one shape check, before anything is uploaded: b has m entries, c n, the
    /// upper bounds n (or none), the termination weights m, n and n, the free columns are
    /// columns. The kernels below check
    /// their operands again, as every caller of theirs needs.
    pub fn check_shapes(&self, (m, n): (usize, usize)) -> Result<(), BackendError> {
        let mut lengths = vec![("b", m, self.b.len()), ("c", n, self.c.len())];
        if !self.upper.is_empty() {
            lengths.push(("upper bounds", n, self.upper.len()));
        }
        if let Some(w) = &self.weights {
            lengths.extend([("primal weights", m, w.primal.len()), ("dual weights", n, w.dual.len())]);
            lengths.push(("bound weights", n, w.bound.len()));
        }
        if let Some(&j) = self.free.iter().find(|&&j| j >= n) {
            return Err(BackendError::Dimension { op: "free columns", expected: n, got: j + 1 });
        }
        match lengths.into_iter().find(|(_, expected, got)| expected != got) {
            Some((op, expected, got)) => Err(BackendError::Dimension { op, expected, got }),
            None => Ok(()),
        }
    }
}

/// Per-entry weights of the termination measures: primal (length m), dual (n), upper bounds (n,
/// 0 where there is none), and the objective's offset for the relative gap.
#[derive(Clone, Debug, Default)]
pub struct Weights {
    pub primal: Vec<f64>,
    pub dual: Vec<f64>,
    pub bound: Vec<f64>,
    pub objective_offset: f64,
}

/// Time spent per phase of the loop.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct MpcTimings {
    /// Forming A·D²·Aᵀ (the adat kernel).
    pub assemble: Duration,
    /// Cholesky.
    pub factor: Duration,
    /// Forward and back substitutions.
    pub solve: Duration,
    /// Everything else: level 1 and 2 kernels, reductions, transfers.
    pub other: Duration,
}

/// Grades an iterate on the original model: the ratio of the verification's worst measure to
/// its tolerance (at most 1: the point passes). Given by the caller (`crate::lp::pipeline`), so
/// that the loop stops where the independent check passes. The flag says whether a passing
/// grade can end the loop now (the loop's own test passes, or single precision, where the
/// proof alone ends it): only then is the dual side proven in full where that costs a
/// correction of the multipliers; otherwise its estimate stands in (the grade then only ranks
/// the iterates, and the verdict proves whichever is returned).
pub type Judge<'a> = &'a dyn Fn(&Iterate, bool) -> f64;

/// The iterate, downloaded to the host: transferable to another backend.
#[derive(Clone, Debug, Default)]
pub struct Iterate {
    pub x: Vec<f64>,
    pub lambda: Vec<f64>,
    pub s: Vec<f64>,
    /// Upper-bound slacks w = u − x and their duals z (empty without upper bounds).
    pub w: Vec<f64>,
    pub z: Vec<f64>,
}

/// The outcome of the loop, in standard-form (scaled) coordinates.
#[derive(Clone, Debug)]
pub struct MpcOutcome {
    pub status: Status,
    pub iterate: Iterate,
    pub iterations: usize,
    pub last: IterationInfo,
    pub timings: MpcTimings,
    /// Why a non-optimal status was given, for the log.
    pub detail: String,
    /// Iterations whose normal equations were factored on the GPU (GPU backends only).
    pub gpu_iterations: Option<usize>,
    /// Factorizations of reduced-precision products (cpu backend, mixed precision); `None` when
    /// mixed precision was not used.
    pub single_factorizations: Option<usize>,
    /// For the infeasible statuses: the residual of the iterate (r_b = b − A·x for primal, −r_c
    /// for dual infeasibility). At a point where the residual has stalled it is the gradient of
    /// the least-squares infeasibility, whose optimality conditions make it a ray: for
    /// min ½‖b − A·x‖² over x ≥ 0, r = b − A·x* has Aᵀr ≤ 0 and bᵀr = ‖r‖² > 0 (Farkas); for
    /// min ½‖Aᵀλ + s − c‖² over s ≥ 0, ρ = Aᵀλ + s − c has A·ρ = 0, ρ ≥ 0, cᵀρ = −‖ρ‖² < 0.
    pub residual_ray: Option<Vec<f64>>,
    /// Whether `iterate` is the best iterate by [`super::merit`] rather than the last one
    /// (limits and numerical failures return the best; `last` then still describes the last
    /// iteration).
    pub best_returned: bool,
    /// The best iterate by [`super::merit`] when `iterate` is the last one (an infeasibility
    /// claim whose certificate fails its check is graded on this point instead).
    pub best_iterate: Option<Iterate>,
    /// Iterative-refinement steps taken over the whole solve (0 in single precision).
    pub refinements: usize,
}
