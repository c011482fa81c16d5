//! The library says nothing unless asked: a default solve writes nothing to standard output (run
//! in a child process, whose whole output the test reads), and what a caller asks for — a line
//! sink, a progress callback — gets every iteration, the two agreeing.
mod common;
use glsolve::{linsolve, BackendKind, Logger, LpModel, LpSolver, Settings, Status, Verbosity};
use nalgebra::{dmatrix, dvector};
use std::sync::{Arc, Mutex};

/// max 3x + 2y  s.t.  x + y ≤ 4,  x + 3y ≤ 6,  0 ≤ x ≤ 3, y ≥ 0: objective 11 (x = 3, y = 1).
fn eleven() -> LpModel {
    LpModel::builder(dmatrix![1.0, 1.0; 1.0, 3.0])
        .maximize([3.0, 2.0])
        .rows_at_most([4.0, 6.0])
        .col_bounds([0.0, 0.0], [3.0, f64::INFINITY])
        .build()
        .expect("valid")
}

const CHILD: &str = "GLSOLVE_QUIET_CHILD";
const BEGIN: &str = "<<< solves begin >>>";
const END: &str = "<<< solves end >>>";

/// In the child: solves through every entry point with its defaults, between two markers.
#[test]
fn child_solves_with_the_defaults() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    println!("{BEGIN}");
    let model = eleven();
    let s = LpSolver::new(Settings::default()).solve(&model).expect("solves");
    assert_eq!(s.status, Status::Optimal);
    let s = glsolve::lp::solve(&model, &Settings::default(), &mut Logger::default()).expect("solves");
    assert_eq!(s.status, Status::Optimal);
    for kind in [BackendKind::Hybrid, BackendKind::Gpu, BackendKind::Auto] {
        let s = LpSolver::new(Settings::for_backend(kind)).solve(&model).expect("solves");
        assert_eq!(s.status, Status::Optimal, "{kind:?}");
    }
    let gpu = common::headless().expect("a GL context");
    let x = linsolve(&gpu, &dmatrix![2.0, 1.0; 1.0, 3.0], &dvector![3.0, 4.0]).expect("regular");
    assert!((x.x[0] - 1.0).abs() < 1e-12);
    println!("{END}");
}

#[test]
fn a_default_solve_writes_nothing_to_stdout() {
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .env(CHILD, "1")
        .args(["--exact", "child_solves_with_the_defaults", "--nocapture", "--test-threads=1"])
        .output()
        .expect("run the child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the child failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let (Some(a), Some(b)) = (stdout.find(BEGIN), stdout.find(END)) else {
        panic!("the child did not run its solves:\n{stdout}");
    };
    let between = &stdout[a + BEGIN.len()..b];
    assert_eq!(between.trim(), "", "a default solve printed to standard output:\n{between}");
}

type Kept<T> = Arc<Mutex<Vec<T>>>;

/// A logger that keeps its lines and its progress records' numbers.
fn collecting(verbosity: Verbosity) -> (Logger, Kept<String>, Kept<[f64; 5]>) {
    let (lines, rows) = (Arc::new(Mutex::new(Vec::new())), Arc::new(Mutex::new(Vec::new())));
    let (l, r) = (lines.clone(), rows.clone());
    let log = Logger::lines(move |text| l.lock().expect("unpoisoned").push(text.to_string()))
        .with_progress(move |p| {
            let row = [p.info.iteration as f64, p.primal_objective, p.dual_objective, p.info.relative_gap, p.info.mu];
            r.lock().expect("unpoisoned").push(row);
        })
        .with_verbosity(verbosity);
    (log, lines, rows)
}

#[test]
fn progress_records_are_the_log_rows_typed() {
    let (log, lines, rows) = collecting(Verbosity::Normal);
    let mut solver = LpSolver::new(Settings::default()).with_logger(log);
    let s = solver.solve(&eleven()).expect("solves");
    let rows = rows.lock().expect("unpoisoned").clone();
    assert_eq!(rows.len(), s.iterations + 1, "one record per iterate, the starting point included");
    // The log's iteration rows: a number in the first column.
    let printed: Vec<Vec<f64>> = lines
        .lock()
        .expect("unpoisoned")
        .iter()
        .filter(|l| l.split_whitespace().next().is_some_and(|w| w.parse::<usize>().is_ok()))
        .map(|l| l.split_whitespace().take(7).filter_map(|w| w.parse().ok()).collect())
        .collect();
    assert_eq!(printed.len(), rows.len());
    for (p, r) in printed.iter().zip(&rows) {
        // iteration, primal and dual objective (printed to 10 digits), gap and mu (3 digits).
        assert_eq!(p[0], r[0]);
        for (k, digits) in [(1, 1e-9), (2, 1e-9)] {
            assert!((p[k] - r[k]).abs() <= digits * r[k].abs().max(1.0), "column {k}: {p:?} vs {r:?}");
        }
        assert!((p[5] - r[3]).abs() <= 1e-2 * r[3].abs(), "gap {p:?} vs {r:?}");
        assert!((p[6] - r[4]).abs() <= 1e-2 * r[4].abs(), "mu {p:?} vs {r:?}");
    }
    // In the model's sense: a maximization whose optimum is 11.
    let last = rows.last().expect("rows");
    assert!((last[1] - 11.0).abs() < 1e-6 && (last[2] - 11.0).abs() < 1e-6, "{last:?}");
}

#[test]
fn a_quiet_logger_still_reports_progress() {
    let (log, lines, rows) = collecting(Verbosity::Quiet);
    let s = glsolve::lp::solve(&eleven(), &Settings::default(), &mut { log }).expect("solves");
    assert!(lines.lock().expect("unpoisoned").is_empty(), "quiet: no lines");
    assert_eq!(rows.lock().expect("unpoisoned").len(), s.iterations + 1);
}
