//! One case of `glsolve bench families` and one solver's timing of it: shared by the cpu runs
//! (`families`) and the GL backends' runs (`families_gl`).

use glsolve::lp::families::Family;

/// One problem of a family.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Case {
    pub family: Family,
    pub rows: usize,
    pub features: usize,
}

impl Case {
    /// The data the case is made of, in its family's words.
    pub fn data(&self) -> String {
        match self.family {
            Family::Papers => format!("{} × {}", self.rows, 4 * self.rows),
            Family::Chebyshev => format!("{} points × {}", self.rows / 2, self.features),
            Family::MatrixGame => format!("{} × {} payoff", self.features, self.rows.saturating_sub(1)),
            _ => format!("{} × {}", self.rows, self.features),
        }
    }
}

/// Median, min and max of one solver's repetitions, with what it reported.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Timed {
    pub solver: String,
    pub median_s: f64,
    pub min_s: f64,
    pub max_s: f64,
    pub reps: usize,
    pub status: String,
    pub objective: f64,
    pub iterations: Option<usize>,
}
