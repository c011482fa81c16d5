//! The CPU paths the tests run, and a record of which ran on this machine.

use glsolve::cpu::paths::{CpuPaths, Isa};
use std::io::Write as _;

/// Paths with every kernel family (A·diag(w)·Aᵀ in f64 and reduced precision, the column
/// passes) on `isa`.
pub fn on(isa: Isa) -> CpuPaths {
    CpuPaths { reduced: isa.into(), pass: isa.into(), ..CpuPaths::default() }
}

/// The instruction sets this CPU runs, best first (the portable path always); names, in the
/// test output, those that ran and those this CPU cannot run.
pub fn runnable(what: &str) -> Vec<Isa> {
    let (ran, not): (Vec<Isa>, Vec<Isa>) = Isa::ALL.into_iter().partition(|i| i.runs_here());
    let names = |v: &[Isa]| v.iter().map(|i| i.name()).collect::<Vec<_>>().join(", ");
    let cannot = if not.is_empty() { "none".to_string() } else { names(&not) };
    report(&format!("{what}: ran {}; this CPU cannot run: {cannot}", names(&ran)));
    ran
}

/// Writes a line to the test output on every run: straight to the process's standard error,
/// which the test harness does not capture (it captures only the print macros).
pub fn report(line: &str) {
    let _ = writeln!(std::io::stderr(), "[cpu paths] {line}");
}
