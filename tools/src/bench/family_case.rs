//! One case of `glsolve bench families` and one solver's timing of it: shared by the cpu runs
//! (`families`) and the GL backends' runs (`families_gl`).

use glsolve::fixtures::families::{Family, Form};

/// One problem of a family.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Case {
    pub family: Family,
    /// How it is written (runs recorded before forms existed were all generated).
    #[serde(default)]
    pub form: Form,
    pub rows: usize,
    pub features: usize,
}

impl Case {
    /// The family's title, with its form where that is the textbook one.
    pub fn title(&self) -> String {
        match (self.form, self.family) {
            (Form::Generated, f) => f.title().to_string(),
            (Form::Textbook, Family::Chebyshev) => format!("{} (its dual)", self.family.title()),
            (Form::Textbook, Family::MatrixGame) => format!("{} (column player)", self.family.title()),
            (Form::Textbook, f) => format!("{} (t form)", f.title()),
        }
    }

    /// The model of the case (`None`: the family has no such member).
    pub fn model(&self, seed: u64) -> Option<glsolve::lp::LpModel> {
        self.family.model_in(self.form, self.rows, self.features, seed)
    }

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

/// Median, min and max of one solver's repetitions, with what it reported. A number JSON cannot
/// hold (a failed solver's NaN objective or time) is written as null and read back as NaN.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Timed {
    pub solver: String,
    #[serde(deserialize_with = "nan_when_null")]
    pub median_s: f64,
    #[serde(deserialize_with = "nan_when_null")]
    pub min_s: f64,
    #[serde(deserialize_with = "nan_when_null")]
    pub max_s: f64,
    pub reps: usize,
    pub status: String,
    #[serde(deserialize_with = "nan_when_null")]
    pub objective: f64,
    pub iterations: Option<usize>,
}

/// An f64 that serde_json wrote as null (it writes NaN and ±∞ so) read back as NaN.
fn nan_when_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(<Option<f64> as serde::Deserialize>::deserialize(d)?.unwrap_or(f64::NAN))
}
