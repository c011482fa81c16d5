//! [`SolutionRecord`]: a [`Solution`] as plain data, with its field names and units written
//! once for every binding.

use crate::lp::{Certificate, Enclosure, FeasibilityCheck, Solution, Verification};
use serde::Serialize;
use std::time::Duration;

/// Whether a vector of a solution has one entry per column of the model or one per row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entries {
    /// One entry per column (x, the reduced costs).
    PerColumn,
    /// One entry per row (the row duals).
    PerRow,
}

/// A solution's facts as plain data, for JSON, a JavaScript object or a Python dict: every
/// field of [`Solution`] a user reads, in snake_case, times in seconds, the status by its
/// stable name ([`crate::Status::name`]), non-finite numbers left to the format (JSON writes
/// them as `null`). The vectors travel beside it in each binding's own array type
/// ([`Solution::vectors`]).
///
/// ```
/// use glsolve::lp::{solve, LpModel, Settings, Logger};
/// use glsolve::SparseColMatrix;
/// let a = SparseColMatrix::from_triplets(1, 2, &[(0, 0, 1.0), (0, 1, 1.0)]).unwrap();
/// let model = LpModel::builder(a).minimize([-1.0, -2.0]).rows_at_most([4.0]).col_bounds([0.0, 0.0], [3.0, 3.0]).build()?;
/// let s = solve(&model, &Settings::default(), &mut Logger::quiet()).unwrap();
/// let json = serde_json::to_value(s.record()).unwrap();
/// assert_eq!(json["status"], "optimal");
/// assert_eq!(json["enclosure"]["lower"].as_f64().map(|v| v <= -7.0 + 1e-6), Some(true));
/// # Ok::<(), glsolve::ModelError>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct SolutionRecord<'a> {
    /// The status's stable name (`"optimal"`, `"optimal (reduced accuracy)"`, …).
    pub status: &'static str,
    /// Whether the status is `optimal`.
    pub optimal: bool,
    /// cᵀx + the objective constant, in the model's sense.
    pub objective: f64,
    /// Interior-point iterations.
    pub iterations: usize,
    /// GPU backends: iterations factored on the GPU.
    pub gpu_iterations: Option<usize>,
    /// cpu backend: normal matrices formed from reduced-precision products.
    pub single_factorizations: Option<usize>,
    /// The backend that ran (`auto`'s choice), by name.
    pub backend: &'static str,
    /// Rows and columns of the standard form the backend worked on.
    pub standard_form_size: (usize, usize),
    /// Why a non-optimal status was given.
    pub detail: &'a str,
    /// Notices for the user.
    pub notes: &'a [String],
    /// Whether the vectors are the best iterate rather than the last one.
    pub best_iterate: bool,
    /// The proven enclosure of the optimum ([`Solution::enclosure`]).
    pub enclosure: Option<Enclosure>,
    /// The independent check of the point.
    pub verification: Option<&'a Verification>,
    /// The check in one line.
    pub verdict: Option<String>,
    /// The infeasibility certificate and its check.
    pub certificate: Option<&'a Certificate>,
    /// After a primal ray: the feasibility solve and what it showed.
    pub feasibility: Option<&'a FeasibilityCheck>,
    /// Wall-clock time per phase.
    pub timings: TimingsRecord,
}

/// A solve's time per phase, in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TimingsRecord {
    /// The whole solve.
    pub total: f64,
    /// Building the standard form.
    pub standard_form: f64,
    /// Setting the backend up.
    pub setup: f64,
    /// Forming the normal equations.
    pub assemble: f64,
    /// Factoring them.
    pub factor: f64,
    /// The triangular solves.
    pub solve: f64,
    /// The loop's other work.
    pub other: f64,
    /// Mapping the answer back to the model.
    pub postsolve: f64,
    /// The feasibility solve after a primal ray.
    pub feasibility: f64,
    /// Proving the answer (part of `other` and `postsolve`).
    pub proof: f64,
}

impl Solution {
    /// This solution's facts as a [`SolutionRecord`].
    pub fn record(&self) -> SolutionRecord<'_> {
        let t = &self.timings;
        let s = |d: Duration| d.as_secs_f64();
        SolutionRecord {
            status: self.status.name(),
            optimal: self.status == crate::Status::Optimal,
            objective: self.objective,
            iterations: self.iterations,
            gpu_iterations: self.gpu_iterations,
            single_factorizations: self.single_factorizations,
            backend: self.backend.name(),
            standard_form_size: self.standard_form_size,
            detail: &self.detail,
            notes: &self.notes,
            best_iterate: self.best_iterate,
            enclosure: self.enclosure(),
            verification: self.verification.as_ref(),
            verdict: self.verification.as_ref().map(Verification::summary),
            certificate: self.certificate.as_ref(),
            feasibility: self.feasibility.as_ref(),
            timings: TimingsRecord {
                total: s(t.total),
                standard_form: s(t.standard_form),
                setup: s(t.setup),
                assemble: s(t.mpc.assemble),
                factor: s(t.mpc.factor),
                solve: s(t.mpc.solve),
                other: s(t.mpc.other),
                postsolve: s(t.postsolve),
                feasibility: s(t.feasibility),
                proof: s(t.proof),
            },
        }
    }

    /// The solution's vectors by name, with what their entries stand for: `x`, `row_duals`,
    /// `reduced_costs`.
    pub fn vectors(&self) -> [(&'static str, Entries, &[f64]); 3] {
        [
            ("x", Entries::PerColumn, &self.x),
            ("row_duals", Entries::PerRow, &self.row_duals),
            ("reduced_costs", Entries::PerColumn, &self.reduced_costs),
        ]
    }
}
