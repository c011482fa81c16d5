//! The browser package's plain-Rust glue, tested natively: the constraint matrix in each of
//! JavaScript's forms (web/src/matrix.rs), the iteration records `onIteration` receives
//! (web/src/progress.rs, from the library's progress sink), the error codes the package's
//! `GlsolveError` carries (web/src/errors.rs, from errors the library raises) and the
//! camelCase keys of the records it exchanges (web/src/case.rs).
#[path = "../web/src/case.rs"]
mod case;
#[path = "../web/src/errors.rs"]
#[allow(dead_code)]
mod errors;
#[path = "../web/src/matrix.rs"]
mod matrix;
#[path = "../web/src/progress.rs"]
mod progress;

use errors::ApiError;
use glsolve::{BackendKind, IterationInfo, Logger, LpModel, Settings, SparseColMatrix};
use matrix::Matrix;
use progress::Row;
use std::sync::{Arc, Mutex};

// [[1, 0, 2], [0, 0, 3]] in each form.
const DENSE: [f64; 6] = [1.0, 0.0, 2.0, 0.0, 0.0, 3.0];

fn expected() -> SparseColMatrix {
    SparseColMatrix::from_triplets(2, 3, &[(0, 0, 1.0), (0, 2, 2.0), (1, 2, 3.0)]).unwrap()
}

fn refused(m: Matrix<'_>, words: &[&str]) {
    let e = m.to_sparse().expect_err("a malformed matrix must be refused");
    assert_eq!(e.code, "invalid-model", "{e}");
    for w in words {
        assert!(e.message.contains(w), "{e} does not say {w:?}");
    }
}

#[test]
fn the_three_forms_give_the_same_compressed_columns() {
    let dense = Matrix::Dense { rows: 2, cols: 3, data: &DENSE }.to_sparse().unwrap();
    let csr = Matrix::Csr {
        rows: 2,
        cols: 3,
        row_ptr: &[0.0, 2.0, 3.0],
        col_idx: &[0.0, 2.0, 2.0],
        values: &[1.0, 2.0, 3.0],
    };
    // Out of order, one entry split in two: duplicates are summed.
    let coo = Matrix::Coo {
        rows: 2,
        cols: 3,
        row: &[1.0, 0.0, 0.0, 0.0],
        col: &[2.0, 2.0, 0.0, 2.0],
        values: &[3.0, 0.5, 1.0, 1.5],
    };
    assert_eq!(dense, expected(), "zeros of the dense form dropped");
    assert_eq!(csr.to_sparse().unwrap(), expected());
    assert_eq!(coo.to_sparse().unwrap(), expected());
    let empty = Matrix::Csr { rows: 0, cols: 4, row_ptr: &[0.0], col_idx: &[], values: &[] }.to_sparse().unwrap();
    assert_eq!((empty.nrows, empty.ncols, empty.values.len()), (0, 4, 0));
}

#[test]
fn malformed_matrices_are_refused_naming_the_array_and_the_position() {
    refused(Matrix::Dense { rows: 2, cols: 3, data: &DENSE[..5] }, &["A.data has 5 entries", "2×3"]);
    let csr = |row_ptr: &'static [f64], col_idx: &'static [f64]| Matrix::Csr {
        rows: 2,
        cols: 3,
        row_ptr,
        col_idx,
        values: &[1.0, 2.0, 3.0],
    };
    refused(csr(&[0.0, 2.0], &[0.0, 2.0, 2.0]), &["A.rowPtr has 2 entries", "rows + 1 = 3"]);
    refused(csr(&[1.0, 2.0, 3.0], &[0.0, 2.0, 2.0]), &["A.rowPtr[0] = 1"]);
    refused(csr(&[0.0, 2.0, 1.0], &[0.0, 2.0, 2.0]), &["A.rowPtr[2] = 1", "decrease"]);
    refused(csr(&[0.0, 2.0, 2.0], &[0.0, 2.0, 2.0]), &["A.rowPtr[2] = 2", "3 entries"]);
    refused(csr(&[0.0, 1.5, 3.0], &[0.0, 2.0, 2.0]), &["A.rowPtr[1] = 1.5", "whole number"]);
    refused(csr(&[0.0, 2.0, 3.0], &[0.0, 3.0, 2.0]), &["A.colIdx[1] = 3", "0..3"]);
    refused(csr(&[0.0, 2.0, 3.0], &[0.0, 1.5, 2.0]), &["A.colIdx[1] = 1.5", "whole number"]);
    refused(csr(&[0.0, 2.0, 3.0], &[0.0, -1.0, 2.0]), &["A.colIdx[1] = -1"]);
    refused(csr(&[0.0, 2.0, 3.0], &[0.0, 2.0]), &["A.colIdx has 2 entries", "A.values has 3"]);
    let coo =
        |row: &'static [f64], col: &'static [f64]| Matrix::Coo { rows: 2, cols: 3, row, col, values: &[1.0, 2.0] };
    refused(coo(&[0.0, 2.0], &[0.0, 1.0]), &["A.row[1] = 2", "0..2"]);
    refused(coo(&[0.0, 1.0], &[0.0, f64::NAN]), &["A.col[1] = NaN"]);
    refused(coo(&[0.0], &[0.0, 1.0]), &["A.row has 1 entries"]);
    // A NaN value is kept for the model's validation to name it with its position.
    refused(Matrix::Dense { rows: 2, cols: 3, data: &[1.0, 0.0, 2.0, 0.0, f64::NAN, 3.0] }, &["A[1, 1] = NaN"]);
}

/// What a logger collected, read back by the test.
type Shared<T> = Arc<Mutex<Vec<T>>>;

/// A logger whose lines and records the test reads back.
fn collecting() -> (Logger, Shared<String>, Shared<Row>) {
    let (lines, rows) = (Arc::new(Mutex::new(Vec::new())), Arc::new(Mutex::new(Vec::new())));
    let (l, r) = (lines.clone(), rows.clone());
    let log = Logger::lines(move |line| l.lock().unwrap().push(line.to_string()))
        .with_progress(move |p| r.lock().unwrap().push(Row::from(p)));
    (log, lines, rows)
}

#[test]
fn iteration_records_carry_the_model_objective_and_every_measure() {
    let (mut log, lines, rows) = collecting();
    // The model's objective: maximize, constant 10 (the record shows −v + 10, as the log does).
    log.set_objective_map(-1.0, 0.0, 10.0);
    log.header();
    let info = IterationInfo {
        iteration: 17,
        primal_objective: 1.234_567_891_2,
        dual_objective: -3.5e-7,
        primal_infeasibility: 2.5e-9,
        dual_infeasibility: 0.0,
        relative_gap: 1e-12,
        mu: f64::NAN,
        alpha_primal: 0.9912,
        alpha_dual: 1.0,
    };
    log.iteration(&info, "hybrid (gpu)");
    log.line("notice: 3 rows dropped");
    drop(log);
    let rows = rows.lock().unwrap();
    assert_eq!(rows.len(), 1, "one record per iteration, none for other lines: {rows:?}");
    let r = &rows[0];
    assert_eq!((r.iteration, r.backend.as_str()), (17, "hybrid (gpu)"));
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1e-300);
    assert!(close(r.primal_objective, 10.0 - 1.234_567_891_2), "{}", r.primal_objective);
    assert!(close(r.dual_objective, 10.0 + 3.5e-7), "{}", r.dual_objective);
    assert!(r.primal_infeasibility == 2.5e-9 && r.dual_infeasibility == 0.0 && r.gap == 1e-12);
    assert!(r.mu.is_nan() && r.alpha_primal == 0.9912 && r.alpha_dual == 1.0);
    let json = serde_json::to_value(r).unwrap();
    assert_eq!(json["primalInfeasibility"], 2.5e-9, "camelCase, as index.d.ts declares: {json}");
    assert!(json["mu"].is_null() && json["alphaDual"] == 1.0, "{json}");
    let lines = lines.lock().unwrap();
    assert!(lines.iter().any(|l| l.starts_with("  17") && l.ends_with("hybrid (gpu)")), "the log's row: {lines:?}");
}

#[test]
fn a_solve_gives_one_record_per_iteration_ending_at_its_objective() {
    // max 3x + 2y + 5 s.t. x + y ≤ 4, x + 3y ≤ 6, x ≤ 3: x = 3, y = 1, objective 16.
    let a = SparseColMatrix::from_triplets(2, 2, &[(0, 0, 1.0), (0, 1, 1.0), (1, 0, 1.0), (1, 1, 3.0)]).unwrap();
    let model = LpModel::builder(a)
        .maximize([3.0, 2.0])
        .objective_constant(5.0)
        .rows_at_most([4.0, 6.0])
        .col_bounds([0.0, 0.0], [3.0, f64::INFINITY])
        .build()
        .unwrap();
    let (mut log, lines, rows) = collecting();
    let settings = Settings::builder(BackendKind::Cpu).build().unwrap();
    let sol = glsolve::lp::solve_on(&model, &settings, &mut log, None).unwrap();
    drop(log);
    let rows = rows.lock().unwrap();
    assert!((sol.objective - 16.0).abs() < 1e-6, "{}", sol.objective);
    assert!(!rows.is_empty() && rows.len() >= sol.iterations, "{} records, {} iterations", rows.len(), sol.iterations);
    assert!(rows.windows(2).all(|w| w[1].iteration == w[0].iteration + 1), "consecutive iterations");
    let last = rows.last().unwrap();
    assert!((last.primal_objective - 16.0).abs() < 1e-5, "the model's objective, not the standard form's: {last:?}");
    assert!(rows.iter().all(|r| r.backend.starts_with("cpu")), "{rows:?}");
    let printed =
        lines.lock().unwrap().iter().filter(|l| l.trim_start().starts_with(&format!("{} ", last.iteration))).count();
    assert!(printed >= 1, "the log prints the row the record was made from");
}

fn code(e: impl Into<ApiError>) -> (&'static str, Option<usize>) {
    let e = e.into();
    (e.code, e.line)
}

#[test]
fn the_library_errors_carry_the_codes_the_package_documents() {
    use glsolve::{BackendError, DenseError, GlError, GpuError, GpuFault, SolveError};
    let mps = glsolve::lp::mps::read_str("NAME x\nROWS\n N obj\nCOLUMNS\n x obj one\nENDATA\n").unwrap_err();
    assert_eq!(code(mps), ("parse", Some(5)));
    let triplet = SparseColMatrix::from_triplets(1, 1, &[(0, 3, 1.0)]).unwrap_err();
    assert_eq!(code(triplet), ("invalid-model", None));
    let model = LpModel::builder(expected()).minimize(vec![1.0; 3]).rows_at_most(vec![1.0, 1.0]).build().unwrap();
    let bad = || Settings::builder(BackendKind::Cpu).tolerance(-1.0).build().unwrap_err();
    assert!(ApiError::from(bad()).message.contains("tolerance"), "{}", bad());
    assert_eq!(code(bad()), ("invalid-argument", None));
    assert_eq!(code(SolveError::Settings(bad())), ("invalid-argument", None));
    let below = Settings::builder(BackendKind::Gpu).tolerance(1e-9).build().unwrap_err();
    assert_eq!(code(below), ("invalid-argument", None));
    let name = "fast".parse::<BackendKind>().unwrap_err();
    assert!(ApiError::from(name.clone()).message.contains("\"fast\""), "{name}");
    assert_eq!(code(name), ("invalid-argument", None));
    let settings = Settings::builder(BackendKind::Cpu).build().unwrap();
    assert!(glsolve::lp::solve_on(&model, &settings, &mut Logger::quiet(), None).is_ok());
    let too_large = || GlError::TextureTooLarge { width: 9, height: 1, max: 8, what: "A".into() };
    assert_eq!(code(too_large()).0, "too-large");
    assert_eq!(code(SolveError::Gl(too_large())).0, "too-large");
    let fault = |kind| SolveError::Backend(BackendError::Gpu { kind, detail: String::new() });
    assert_eq!(code(fault(GpuFault::TextureTooLarge)).0, "too-large");
    assert_eq!(code(fault(GpuFault::Memory)).0, "too-large");
    assert_eq!(code(fault(GpuFault::ContextLost)).0, "context-lost");
    assert_eq!(code(fault(GpuFault::FloatTargets)).0, "no-float-targets");
    assert_eq!(code(fault(GpuFault::ShaderFailure)).0, "gpu");
    let lost = GlError::ContextLost { detail: String::new() };
    assert_eq!(code(DenseError::Gpu(GpuError::Gl(lost))).0, "context-lost");
    assert_eq!(code(DenseError::RankDeficient).0, "rank-deficient");
    assert_eq!(code(DenseError::Singular { column: Some(1) }).0, "singular");
    assert_eq!(code(DenseError::NotPositiveDefinite { column: 0, pivot: -1.0 }).0, "not-positive-definite");
    assert_eq!(code(DenseError::Weight { index: 0, value: -1.0 }).0, "invalid-argument");
    let length = DenseError::Length { what: "w", got: 2, expected: 3, of: "one weight per row".into() };
    assert_eq!(code(length).0, "invalid-argument");
    let targets = GlError::FloatTargetUnsupported { format: "R32F", detail: String::new() };
    assert_eq!(code(targets).0, "no-float-targets");
    let zero = Settings::builder(BackendKind::Cpu).time_limit_seconds(0.0).build().unwrap_err();
    let e = ApiError::from(zero);
    assert!(e.code == "invalid-argument" && e.message.starts_with("timeLimit = 0: "), "{e}");
}

/// The library's snake_case records in the package's camelCase and back; a serde enum's tag
/// keeps its name.
#[test]
fn record_keys_cross_in_camel_case() {
    use case::{camel, rename_keys, snake};
    assert_eq!(camel("primal_backward_error"), "primalBackwardError");
    assert_eq!(snake("maxIterations"), "max_iterations");
    for k in ["x", "row_duals", "standard_form_size", "time_seconds"] {
        assert_eq!(snake(&camel(k)), k);
    }
    let v = serde_json::json!({"dual_bound": {"Direct": {"implied": 0}}, "rows": [{"best_iterate": true}]});
    let js = rename_keys(v.clone(), &camel);
    assert_eq!(js, serde_json::json!({"dualBound": {"Direct": {"implied": 0}}, "rows": [{"bestIterate": true}]}));
    assert_eq!(rename_keys(js, &snake), v);
}

/// The library's model errors in the package's words: its field names, and what to give instead
/// of the builder's methods.
#[test]
fn model_errors_speak_the_package_field_names() {
    let a = SparseColMatrix::from_triplets(1, 1, &[(0, 0, 1.0)]).unwrap();
    let missing = LpModel::builder(a.clone()).minimize([1.0]).build().expect_err("no row bounds");
    let e = ApiError::from(missing);
    assert_eq!(e.code, "invalid-model");
    assert!(e.message.contains("rowLower, rowUpper or both") && !e.message.contains("builder"), "{e}");
    let nan = LpModel::builder(a).minimize([1.0]).row_bounds([f64::NAN], [1.0]).build().expect_err("a NaN bound");
    let e = ApiError::from(nan);
    assert!(e.message.contains("rowLower[0]") && !e.message.contains("row_lower"), "{e}");
    // A dense A with a NaN is named by its row and column on the direct path to columns.
    let e = Matrix::Dense { rows: 2, cols: 2, data: &[1.0, 0.0, 0.0, f64::NAN] }.to_sparse().expect_err("NaN");
    assert!(e.code == "invalid-model" && e.message.contains("A[1, 1]"), "{e}");
}
