//! One row of the LP's iteration log as a record for JavaScript's `onIteration`. The library's
//! logger writes lines; its iteration rows (`Logger::iteration`: the iteration number, eight
//! numbers, the backend's name) are recognised here, every other line is not a row.

use serde::Serialize;

/// An iteration row, in the model's own objective terms (as the printed log shows them).
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

/// The row `line` is, if it is one.
pub fn parse_row(line: &str) -> Option<Row> {
    let mut t = line.split_whitespace();
    let iteration = t.next()?.parse().ok()?;
    let mut v = [0.0; 8];
    for x in &mut v {
        *x = t.next()?.parse().ok()?;
    }
    let backend = t.collect::<Vec<_>>().join(" ");
    if backend.is_empty() {
        return None;
    }
    let [primal_objective, dual_objective, primal_infeasibility, dual_infeasibility, gap, mu, alpha_primal, alpha_dual] =
        v;
    Some(Row {
        iteration,
        primal_objective,
        dual_objective,
        primal_infeasibility,
        dual_infeasibility,
        gap,
        mu,
        alpha_primal,
        alpha_dual,
        backend,
    })
}
