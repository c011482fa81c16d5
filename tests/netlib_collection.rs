//! The whole NETLIB collection of the repository (tests/data/netlib-all: the coin-or Data-Netlib
//! problems and NETLIB's infeasible ones, 101 files) against its reference optima: HiGHS's
//! objective and status (optimal_extended.tsv, solved by HiGHS 1.x at feasibility tolerances
//! 1e-9; where NETLIB's README value differs it is the README that is known to be off).
//!
//! On cpu (every problem, ε = 1e-8), hybrid (at most 500 rows) and gpu (at most 350 rows,
//! ε = 1e-4): every `optimal` within 10·ε of its reference, relative to the objective's own size
//! at the point (Σ|cⱼxⱼ| and the constant, what the status promises; at least 1 + |reference|); every enclosure of the optimum holding the reference (to its printed digits);
//! never `optimal` or `unbounded` where HiGHS finds the problem infeasible, never infeasible
//! where HiGHS solves it; and most problems `optimal` (a proof that refused everything would
//! pass the rest).

mod common;
use glsolve::lp::{mps, BackendKind, Settings, Status};
use std::path::PathBuf;
use std::time::Duration;

struct Problem {
    name: String,
    file: PathBuf,
    /// HiGHS's objective where it found the problem optimal.
    reference: Option<f64>,
    infeasible: bool,
}

fn collection() -> Vec<Problem> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/netlib-all"));
    let text = std::fs::read_to_string(dir.join("optimal_extended.tsv")).expect("the references");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no column {name}"));
    let (name, file, status, objective) = (col("name"), col("file"), col("highs_status"), col("highs_objective"));
    let problems: Vec<Problem> = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Problem {
                name: f[name].to_string(),
                file: dir.join(f[file]),
                reference: f[objective].parse().ok(),
                infeasible: f[status] == "Infeasible",
            }
        })
        .collect();
    // Every file of the folder has its line, and every line its file.
    let files = std::fs::read_dir(&dir)
        .expect("the folder")
        .filter(|e| e.as_ref().is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".mps.gz")));
    assert_eq!(files.count(), problems.len(), "optimal_extended.tsv lists every file");
    assert!(problems.len() >= 100, "the collection is whole: {}", problems.len());
    problems
}

/// Solves every problem of at most `max_rows` rows on `backend` with a 120 s limit; returns the
/// failures (one line each) and the number of `optimal` answers. Every answer must be right or
/// honestly not optimal: an `optimal` within 10ε of its reference, every enclosure of an optimum
/// holding the reference (its dual end always, being proven for the model as written; its primal
/// end where the point is exactly feasible), no infeasible problem called optimal or unbounded,
/// no solvable one called infeasible.
fn run(backend: BackendKind, max_rows: usize) -> (Vec<String>, usize) {
    let settings = Settings::builder(backend).time_limit(Duration::from_secs(120)).build().expect("valid");
    let eps = settings.tolerance();
    let (mut failures, mut optimal) = (Vec::new(), 0);
    for p in collection() {
        let model = mps::read_file(&p.file).unwrap_or_else(|e| panic!("{}: {e}", p.name));
        if model.num_rows() > max_rows {
            continue;
        }
        let s = common::solve_lp(&model, settings.clone());
        let what = format!("{} on {backend:?}: {} ({}), objective {:.10e}", p.name, s.status, s.detail, s.objective);
        optimal += usize::from(s.status == Status::Optimal);
        let infeasible = matches!(
            s.status,
            Status::PrimalInfeasible
                | Status::PrimalInfeasibleReducedAccuracy
                | Status::DualInfeasible
                | Status::DualInfeasibleReducedAccuracy
        );
        match p.reference {
            Some(r) => {
                if let (Status::Optimal, Some(v)) = (s.status, s.verification.as_ref()) {
                    // What `optimal` promises: within 10ε of the objective's own size at the
                    // point (its terms: where they cancel, more than 10ε of |objective|).
                    let e = (s.objective - r).abs() / v.objective_size.max(1.0 + r.abs());
                    // NaN fails too.
                    if e.is_nan() || e > 10.0 * eps {
                        failures.push(format!(
                            "{what}: {e:.1e} of its size ({:.3e}) from the reference {r:.10e}",
                            v.objective_size
                        ));
                    }
                }
                if let (Some(e), Some(v)) = (s.enclosure(), s.verification.as_ref()) {
                    // The reference's printed digits.
                    let slack = 5e-11 * (1.0 + r.abs());
                    let above = r >= e.lower - slack;
                    let below = v.primal_backward_error > 0.0 || r <= e.upper + slack;
                    if !(above && below) {
                        failures.push(format!(
                            "{what}: the reference {r:.10e} is outside [{:.10e}, {:.10e}]",
                            e.lower, e.upper
                        ));
                    }
                }
                if infeasible || matches!(s.status, Status::Unbounded | Status::UnboundedReducedAccuracy) {
                    failures.push(format!("{what}: the reference is {r:.10e}"));
                }
            }
            None if p.infeasible => {
                if matches!(
                    s.status,
                    Status::Optimal
                        | Status::OptimalReducedAccuracy
                        | Status::Unbounded
                        | Status::UnboundedReducedAccuracy
                ) {
                    failures.push(format!("{what}: HiGHS finds it infeasible"));
                }
            }
            None => {}
        }
    }
    (failures, optimal)
}

#[test]
fn every_netlib_problem_on_the_cpu_backend_reaches_its_reference() {
    let (failures, optimal) = run(BackendKind::Cpu, usize::MAX);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(optimal >= 86, "{optimal} optimal");
}

#[test]
fn netlib_problems_up_to_500_rows_on_the_hybrid_backend_reach_their_reference() {
    let (failures, optimal) = run(BackendKind::Hybrid, 500);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(optimal >= 50, "{optimal} optimal");
}

#[test]
fn every_optimal_of_the_gpu_backend_up_to_350_rows_is_within_its_tolerance() {
    let (failures, optimal) = run(BackendKind::Gpu, 350);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Single precision need not solve every one, but most: a check that refused everything
    // would pass the assertions above.
    assert!(optimal >= 20, "{optimal} optimal");
}
