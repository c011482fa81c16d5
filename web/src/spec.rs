//! What the page asks for, as JSON: `{"algorithm": "cholesky", "variant": "blocked-16", "m": 64,
//! "n": 128, "packed": false, "direction": "both", "seed": 1}`. Checked here, before any GL work:
//! a name that does not exist, a size of 0, a size beyond the texture limit or beyond what the
//! viewer records is an error that says which and why.

use crate::errors::ApiError;
use glsolve::debug::{Algorithm, Direction, Scenario};
use glsolve::Format;
use glsolve::Variant;
use serde::Deserialize;

/// Orders the viewer records pass by pass (every pass's textures are kept for replay).
pub const WATCH_LIMIT: usize = 256;
/// The LP's viewer records thousands of passes per solve: smaller problems only.
pub const WATCH_LP_LIMIT: usize = 48;
/// Rows of an LP from a file the viewer records (columns: four times as many).
pub const WATCH_MPS_ROWS: usize = 128;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    algorithm: String,
    #[serde(default)]
    variant: Option<String>,
    m: usize,
    #[serde(default)]
    n: Option<usize>,
    #[serde(default)]
    packed: bool,
    #[serde(default)]
    direction: Option<String>,
    #[serde(default = "one")]
    seed: u64,
}

fn one() -> u64 {
    1
}

/// A checked request.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub scenario: Scenario,
}

impl Spec {
    /// Parses and checks `text` against a context whose textures are at most `max_side` wide.
    pub fn parse(text: &str, max_side: u32) -> Result<Spec, ApiError> {
        let raw: Raw = serde_json::from_str(text).map_err(|e| ApiError::invalid(format!("bad request {text}: {e}")))?;
        let algorithm = match raw.algorithm.as_str() {
            "cholesky" => Algorithm::Cholesky,
            "assemble" => Algorithm::Assemble,
            "solve" => Algorithm::Solve,
            "lu" => Algorithm::Lu,
            "lsq" => Algorithm::LeastSquares,
            "lp" => Algorithm::Lp,
            other => {
                return Err(ApiError::invalid(format!(
                    "unknown algorithm {other:?} (cholesky, assemble, solve, lu, lsq, lp)"
                )))
            }
        };
        let name = raw.variant.as_deref().unwrap_or("triangle-pair");
        let variant: Variant = name.parse().map_err(|e: glsolve::UnknownName| {
            ApiError::invalid(format!("unknown variant {name:?} (one of: {})", e.expected.join(", ")))
        })?;
        let direction = match raw.direction.as_deref().unwrap_or("both") {
            "forward" => Direction::Forward,
            "backward" => Direction::Backward,
            "both" => Direction::Both,
            other => return Err(ApiError::invalid(format!("unknown direction {other:?} (forward, backward, both)"))),
        };
        let m = raw.m;
        if m == 0 {
            return Err(ApiError::invalid("m must be at least 1"));
        }
        let n = raw.n.unwrap_or(2 * m).max(1);
        // The widest texture of each algorithm, in texels.
        let side = match algorithm {
            Algorithm::Lp => 4 * m,
            Algorithm::Assemble | Algorithm::LeastSquares => m.max(n),
            _ => m,
        };
        if side > max_side as usize {
            return Err(ApiError::new(
                "too-large",
                format!(
                    "m = {m}{} needs a texture {side} texels wide; this WebGL2 context's limit (MAX_TEXTURE_SIZE) is {max_side}",
                    if side != m { format!(", n = {n}") } else { String::new() }
                ),
            ));
        }
        let format = if raw.packed { Format::Packed } else { Format::Full };
        Ok(Spec { scenario: Scenario { algorithm, m, n, variant, format, direction, seed: raw.seed } })
    }

    /// Checks that the viewer may record this run.
    pub fn watchable(&self) -> Result<(), String> {
        let Scenario { algorithm, m, n, .. } = self.scenario;
        let fits = match algorithm {
            Algorithm::Lp => m <= WATCH_LP_LIMIT,
            Algorithm::Assemble | Algorithm::LeastSquares => m <= WATCH_LIMIT && n <= 2 * WATCH_LIMIT,
            _ => m <= WATCH_LIMIT,
        };
        if fits {
            return Ok(());
        }
        let limit = if algorithm == Algorithm::Lp { WATCH_LP_LIMIT } else { WATCH_LIMIT };
        Err(format!(
            "the viewer records every pass and its textures: it watches m up to {limit} (n up to {}) — asked m = {m}, n = {n}; larger runs go without the viewer (Time)",
            2 * WATCH_LIMIT
        ))
    }
}
