//! The in-browser test suite's kernel half: every kernel family on the page's WebGL2 context
//! against double-precision references computed here, in wasm, with the same componentwise
//! bounds the native tests use (`tests/common/bounds.rs`, compiled into this crate). The LP half
//! (NETLIB problems, malformed files) runs from the page through `App::solve_lp`.
//!
//! Every case reports instead of panicking: a failure names the family, the case and the first
//! entry out of bounds.

#[path = "../../../tests/common/bounds.rs"]
#[allow(dead_code)]
mod bounds;
mod linear;
mod vectors;

use glsolve::Gpu;
use serde::Serialize;

/// One case's outcome.
#[derive(Serialize)]
pub struct Case {
    pub family: &'static str,
    pub name: String,
    pub passed: bool,
    /// What failed, or a measured value worth seeing when it passed.
    pub detail: String,
}

/// Collects cases.
#[derive(Default)]
pub struct Report {
    pub cases: Vec<Case>,
}

impl Report {
    /// Records `result` of the case `name` in `family`.
    pub fn case(&mut self, family: &'static str, name: String, result: Result<String, String>) {
        let (passed, detail) = match result {
            Ok(d) => (true, d),
            Err(d) => (false, d),
        };
        self.cases.push(Case { family, name, passed, detail });
    }
}

/// Runs every kernel family; the report as JSON.
pub fn kernels(gpu: &Gpu) -> String {
    let mut r = Report::default();
    linear::cholesky(gpu, &mut r);
    linear::assembly(gpu, &mut r);
    linear::substitution(gpu, &mut r);
    vectors::elementwise(gpu, &mut r);
    vectors::reductions(gpu, &mut r);
    vectors::gemv(gpu, &mut r);
    linear::lu(gpu, &mut r);
    linear::least_squares(gpu, &mut r);
    serde_json::to_string(&r.cases).unwrap_or_else(|e| {
        format!("[{{\"family\":\"report\",\"name\":\"json\",\"passed\":false,\"detail\":\"{e}\"}}]")
    })
}

/// Single precision's unit roundoff.
pub const U: f64 = f32::EPSILON as f64 / 2.0;

/// `Err` with `what` unless `ok`.
pub fn ensure(ok: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(what())
    }
}
