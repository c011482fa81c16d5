//! One iteration of an LP solve as the record JavaScript's `onIteration` receives: the
//! library's typed per-iteration record (`Progress`, from `Logger::with_progress`) in the
//! package's camelCase shape, with the objectives in the model's own terms (its sense and
//! constant, as the printed log shows them).

use glsolve::Progress;
use serde::Serialize;

/// An iteration's record.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub iteration: usize,
    pub primal_objective: f64,
    pub dual_objective: f64,
    pub primal_infeasibility: f64,
    pub dual_infeasibility: f64,
    pub gap: f64,
    pub mu: f64,
    pub alpha_primal: f64,
    pub alpha_dual: f64,
    /// The backend that solved this iteration's normal equations.
    pub backend: String,
}

impl From<&Progress<'_>> for Row {
    fn from(p: &Progress<'_>) -> Row {
        let i = p.info;
        Row {
            iteration: i.iteration,
            primal_objective: p.primal_objective,
            dual_objective: p.dual_objective,
            primal_infeasibility: i.primal_infeasibility,
            dual_infeasibility: i.dual_infeasibility,
            gap: i.relative_gap,
            mu: i.mu,
            alpha_primal: i.alpha_primal,
            alpha_dual: i.alpha_dual,
            backend: p.backend.to_string(),
        }
    }
}
