//! A linear program built in code, solved on the cpu and the hybrid backend by solvers that
//! keep their GL context, and the typed error a malformed model gets.
//!
//! `cargo run --release --example lp`
use glsolve::{BackendKind, LpModel, LpSolver, ModelError, Settings, SolveError, Status};
use nalgebra::dmatrix;

fn run() -> Result<(), Box<dyn std::error::Error>> {
    // max 3x + 2y  s.t.  x + y ≤ 4,  x + 3y ≤ 6,  0 ≤ x ≤ 3,  y ≥ 0.  Optimum: x = 3, y = 1, 11.
    let model = LpModel::builder(dmatrix![1.0, 1.0; 1.0, 3.0])
        .maximize([3.0, 2.0])
        .rows_at_most([4.0, 6.0])
        .col_bounds([0.0, 0.0], [3.0, f64::INFINITY])
        .col_names(["x", "y"])
        .name("example")
        .build()?;
    for backend in [BackendKind::Cpu, BackendKind::Hybrid] {
        let settings = Settings::for_backend(backend);
        let mut solver = LpSolver::new(settings);
        let s = solver.solve(&model)?;
        println!(
            "{:6}: {} objective {:.9} at x = {:.6}, y = {:.6}; row duals {:?}",
            backend.name(),
            s.status,
            s.objective,
            s.x[0],
            s.x[1],
            s.row_duals
        );
        assert_eq!(s.status, Status::Optimal, "{}", s.detail);
        assert!((s.objective - 11.0).abs() < 1e-6);
        assert!((s.x[0] - 3.0).abs() < 1e-6 && (s.x[1] - 1.0).abs() < 1e-6);
        // The same solver again: the GL context made by the first solve is reused.
        let again = solver.solve(&model)?;
        assert_eq!(again.status, Status::Optimal);
        for note in &s.notes {
            println!("        note: {note}");
        }
    }
    // A NaN bound is a typed error naming where it is, before any work, on every backend.
    let mut broken = model.clone();
    broken.row_upper[0] = f64::NAN;
    let err = LpSolver::new(Settings::default()).solve(&broken).expect_err("a NaN is refused");
    println!("malformed model: {err}");
    assert!(matches!(err, SolveError::Model(ModelError::NotANumber { field: "row_upper", index: 0 })));
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    run()
}

#[test]
fn example_lp_runs() {
    run().expect("the example runs");
}
