//! Issue 20's findings on the LP model, one test each: malformed models are typed errors (the
//! same on every backend, never a panic), NaN never reaches the solver, sizes come from the
//! matrix and names are optional, and the empty model is optimal everywhere.
mod common;
use common::with_gpu;
use glsolve::lp::log::Logger;
use glsolve::lp::solve_on;
use glsolve::{BackendKind, LpModel, ModelError, Settings, Solution, SolveError, SparseColMatrix, Status};
use nalgebra::dmatrix;

const INF: f64 = f64::INFINITY;

/// max x + y  s.t.  x + y ≤ 4 (row R0),  x − y = 0 (row R1),  0 ≤ x ≤ 1.5, y ≥ 0: x = y = 1.5,
/// objective 3 — every bound and row matters to the answer.
fn model() -> LpModel {
    LpModel::builder(dmatrix![1.0, 1.0; 1.0, -1.0])
        .maximize([1.0, 1.0])
        .row_bounds([-INF, 0.0], [4.0, 0.0])
        .col_bounds([0.0, 0.0], [1.5, INF])
        .row_names(["SUM", "TIE"])
        .col_names(["X", "Y"])
        .build()
        .expect("a valid model")
}

fn settings(backend: BackendKind) -> Settings {
    Settings::for_backend(backend)
}

/// The result of `model` on every backend (the gpu ones on the shared context).
fn on_every_backend(model: LpModel) -> Vec<(BackendKind, Result<Solution, SolveError>)> {
    with_gpu(move |gpu| {
        BackendKind::ALL.iter().map(|&b| (b, solve_on(&model, &settings(b), &mut Logger::quiet(), Some(gpu)))).collect()
    })
}

/// Every backend refuses `model` with `expected`.
fn refused_everywhere(model: LpModel, expected: ModelError) {
    for (backend, r) in on_every_backend(model) {
        match r {
            Err(SolveError::Model(e)) => assert_eq!(e, expected, "{}", backend.name()),
            Err(e) => panic!("{}: expected {expected}, got another error: {e}", backend.name()),
            Ok(s) => panic!("{}: expected {expected}, got status {} ({})", backend.name(), s.status, s.detail),
        }
    }
}

fn assert_optimal_everywhere(model: LpModel, objective: f64) {
    for (backend, r) in on_every_backend(model) {
        let s = r.unwrap_or_else(|e| panic!("{}: {e}", backend.name()));
        assert!(matches!(s.status, Status::Optimal), "{}: {} ({})", backend.name(), s.status, s.detail);
        let tol = if backend == BackendKind::Gpu { 1e-3 } else { 1e-6 };
        assert!((s.objective - objective).abs() <= tol, "{}: objective {}", backend.name(), s.objective);
    }
}

#[test]
fn the_reference_model_is_optimal_on_every_backend() {
    assert_optimal_everywhere(model(), 3.0);
}

#[test]
fn a_triplet_outside_the_matrix_is_an_error_not_a_panic() {
    let r = SparseColMatrix::from_triplets(2, 2, &[(0, 0, 1.0), (1, 2, 1.0)]);
    assert_eq!(r, Err(ModelError::TripletOutOfRange { position: 1, row: 1, col: 2, nrows: 2, ncols: 2 }));
    let r = SparseColMatrix::from_triplets(2, 2, &[(2, 0, 1.0)]);
    assert!(matches!(r, Err(ModelError::TripletOutOfRange { position: 0, row: 2, .. })));
    let r = SparseColMatrix::from_triplets(2, 2, &[(0, 0, f64::NAN)]);
    assert!(matches!(r, Err(ModelError::MatrixEntry { row: 0, col: 0, .. })));
}

#[test]
fn a_hand_built_row_index_past_the_rows_is_an_error_on_every_backend() {
    let mut m = model();
    m.a.row_idx[1] = 7; // column 0's second entry
    refused_everywhere(m, ModelError::RowIndex { col: 0, position: 1, row: 7, nrows: 2 });
}

#[test]
fn hand_built_column_pointers_and_row_order_are_checked() {
    let mut m = model();
    m.a.col_ptr.pop();
    assert_eq!(m.validate(), Err(ModelError::ColumnPointerLength { found: 2, ncols: 2 }));
    let mut m = model();
    m.a.col_ptr[1] = 3;
    m.a.col_ptr[2] = 2;
    assert!(matches!(m.validate(), Err(ModelError::ColumnPointer { index: 2, value: 2, .. })));
    let mut m = model();
    m.a.row_idx.swap(0, 1);
    assert_eq!(m.validate(), Err(ModelError::RowOrder { col: 0, row: 0, previous: 1 }));
    let mut m = model();
    m.a.values.pop();
    assert_eq!(m.validate(), Err(ModelError::EntryArrays { row_idx: 4, values: 3 }));
}

#[test]
fn short_vectors_are_length_errors_on_every_backend() {
    let mut m = model();
    m.row_upper.pop();
    refused_everywhere(m, ModelError::Length { field: "row_upper", found: 1, expected: 2, of: "rows" });
    let mut m = model();
    m.c.pop();
    refused_everywhere(m, ModelError::Length { field: "c", found: 1, expected: 2, of: "columns" });
    let mut m = model();
    m.col_lower.pop();
    refused_everywhere(m, ModelError::Length { field: "col_lower", found: 1, expected: 2, of: "columns" });
}

#[test]
fn nan_in_a_row_upper_bound_is_refused_not_a_dropped_row() {
    let mut m = model();
    m.row_upper[0] = f64::NAN;
    refused_everywhere(m, ModelError::NotANumber { field: "row_upper", index: 0 });
}

#[test]
fn nan_in_a_column_upper_bound_is_refused_not_a_dropped_bound() {
    let mut m = model();
    m.col_upper[0] = f64::NAN;
    refused_everywhere(m, ModelError::NotANumber { field: "col_upper", index: 0 });
}

#[test]
fn nan_in_both_bounds_of_an_equality_row_is_refused() {
    let mut m = model();
    m.row_lower[1] = f64::NAN;
    m.row_upper[1] = f64::NAN;
    refused_everywhere(m, ModelError::NotANumber { field: "row_lower", index: 1 });
}

#[test]
fn nan_or_infinity_in_a_or_c_is_the_same_error_on_every_backend() {
    let mut m = model();
    m.a.values[2] = f64::NAN; // A[0, 1]
    match m.validate() {
        Err(ModelError::MatrixEntry { row: 0, col: 1, value }) => assert!(value.is_nan()),
        other => panic!("{other:?}"),
    }
    let mut m = model();
    m.a.values[1] = -INF; // A[1, 0]
    refused_everywhere(m, ModelError::MatrixEntry { row: 1, col: 0, value: -INF });
    let mut m = model();
    m.c[1] = INF;
    refused_everywhere(m, ModelError::Infinite { field: "c", index: 1, value: INF, rule: "it must be finite" });
    let mut m = model();
    m.obj_constant = f64::NAN;
    assert!(matches!(m.validate(), Err(ModelError::ObjectiveConstant(v)) if v.is_nan()));
}

#[test]
fn extra_row_bounds_and_an_extra_column_in_a_are_refused() {
    let mut m = model();
    m.row_lower.push(0.0);
    m.row_upper.push(1.0);
    refused_everywhere(m, ModelError::Length { field: "row_lower", found: 3, expected: 2, of: "rows" });
    // A third column in A that c and the bounds know nothing about.
    let mut m = model();
    m.a = SparseColMatrix::from_triplets(2, 3, &[(0, 0, 1.0), (1, 0, 1.0), (0, 1, 1.0), (1, 1, -1.0), (0, 2, 1.0)])
        .expect("in range");
    refused_everywhere(m, ModelError::Length { field: "c", found: 2, expected: 3, of: "columns" });
}

#[test]
fn names_that_disagree_with_the_matrix_are_refused() {
    let mut m = model();
    m.row_names.push("EXTRA".into());
    let e = m.validate().expect_err("three names, two rows");
    assert!(matches!(e, ModelError::OptionalLength { field: "row_names", found: 3, expected: 2, .. }));
    assert!(e.to_string().contains("or none"), "{e}");
    let mut m = model();
    m.a.nrows = 3; // names and bounds say 2
    assert!(matches!(m.validate(), Err(ModelError::Length { field: "row_lower", found: 2, expected: 3, .. })));
}

#[test]
fn sizes_come_from_the_matrix_and_names_are_optional() {
    let mut m = model();
    m.row_names.clear();
    m.col_names.clear();
    m.integer.clear();
    assert_eq!((m.num_rows(), m.num_cols()), (2, 2));
    assert_eq!((m.row_name(1), m.col_name(0)), ("R1".into(), "C0".into()));
    let text = glsolve::lp::mps_write::to_mps_string(&m).expect("writable without names");
    assert!(text.contains(" E  R1") && text.contains("C1"), "{text}");
    // Was: empty row names panicked; empty column names gave a false "primal infeasible".
    assert_optimal_everywhere(m, 3.0);
}

#[test]
fn the_empty_model_is_optimal_on_every_backend() {
    let m = LpModel::builder(nalgebra::DMatrix::<f64>::zeros(0, 0)).minimize(Vec::new()).build().expect("empty");
    assert_optimal_everywhere(m, 0.0);
    // Columns only, all fixed by presolve: the standard form is empty too.
    let m = LpModel::builder(nalgebra::DMatrix::<f64>::zeros(0, 2))
        .minimize([1.0, 2.0])
        .objective_constant(5.0)
        .build()
        .expect("no rows");
    assert_optimal_everywhere(m, 5.0);
}

#[test]
fn the_builder_names_what_is_missing() {
    let b = LpModel::builder(dmatrix![1.0, 1.0]);
    assert!(matches!(b.clone().rows_at_most([1.0]).build(), Err(ModelError::Missing(_))));
    assert!(matches!(b.clone().minimize([1.0, 1.0]).build(), Err(ModelError::Missing(_))));
    let e = b.minimize([1.0]).rows_at_most([1.0]).build();
    assert_eq!(e.unwrap_err(), ModelError::Length { field: "c", found: 1, expected: 2, of: "columns" });
    // LpModel::new: min cᵀx, row bounds, x ≥ 0; nalgebra vectors and matrices in.
    let m = LpModel::new(dmatrix![1.0, 1.0], nalgebra::dvector![1.0, 2.0], [1.0], [INF]).expect("valid");
    assert_eq!((m.col_lower.clone(), m.col_upper.clone()), (vec![0.0; 2], vec![INF; 2]));
    assert_eq!(m.a.to_dense(), dmatrix![1.0, 1.0]);
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
