//! What `glsolve bench families` measures: its cases (a family at a size) and one solver's
//! repetitions on one ([`super::families`], [`super::families_gl`]).

use crate::lp::families::Family;

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

/// The default cases: three sizes per family, the largest with at least 4000 rows (the papers'
/// family excepted: at 4000 rows it has 64 million nonzeros, a 2.5 GB MPS file).
pub fn default_cases() -> Vec<Case> {
    let c = |family, rows, features| Case { family, rows, features };
    use Family::*;
    vec![
        c(L1Regression, 1000, 100),
        c(L1Regression, 2000, 200),
        c(L1Regression, 4000, 400),
        c(QuantileRegression, 1000, 100),
        c(QuantileRegression, 2000, 200),
        c(QuantileRegression, 4000, 400),
        c(Chebyshev, 1000, 50),
        c(Chebyshev, 2000, 100),
        c(Chebyshev, 4000, 200),
        c(MatrixGame, 301, 300),
        c(MatrixGame, 601, 600),
        c(MatrixGame, 4001, 400),
        c(Papers, 256, 0),
        c(Papers, 512, 0),
        c(Papers, 1024, 0),
    ]
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
