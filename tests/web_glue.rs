//! The browser package's plain-Rust glue, tested natively: the constraint matrix in each of
//! JavaScript's forms (web/src/matrix.rs), the iteration rows `onIteration` receives
//! (web/src/progress.rs, parsed from rows the library's own logger writes) and the error codes
//! the package's `GlsolveError` carries (web/src/errors.rs, from errors the library raises).
#[path = "../web/src/errors.rs"]
#[allow(dead_code)]
mod errors;
#[path = "../web/src/matrix.rs"]
mod matrix;
#[path = "../web/src/progress.rs"]
mod progress;

use errors::ApiError;
use glsolve::lp::log::{IterationInfo, Logger};
use glsolve::{BackendKind, LpModel, Settings, SparseColMatrix};
use matrix::Matrix;
use std::io::Write;
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

/// A sink the test reads back.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn iteration_rows_are_read_from_the_lines_the_library_logs() {
    let buffer = Buffer::default();
    let mut log = Logger::to_writer(Box::new(buffer.clone()));
    // The model's objective: maximize, constant 10 (the row shows −v + 10).
    log.set_objective_map(-1.0, 0.0, 10.0);
    log.header("gpu");
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
    let text = String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap();
    let rows: Vec<progress::Row> = text.lines().filter_map(progress::parse_row).collect();
    assert_eq!(rows.len(), 1, "only the iteration row is a row:\n{text}");
    let r = &rows[0];
    assert_eq!((r.iteration, r.backend.as_str()), (17, "hybrid (gpu)"));
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1e-300);
    assert!(close(r.primal_objective, 10.0 - 1.234_567_891_2), "{}", r.primal_objective);
    assert!(close(r.dual_objective, 10.0 + 3.5e-7), "{}", r.dual_objective);
    assert!(close(r.primal_infeasibility, 2.5e-9) && r.dual_infeasibility == 0.0 && close(r.gap, 1e-12));
    assert!(r.mu.is_nan() && close(r.alpha_primal, 0.9912) && r.alpha_dual == 1.0);
    assert!(progress::parse_row("  12  1.0e0  2.0e0  3e0  4e0  5e0  6e0  7e0").is_none(), "a row short of a number");
    assert!(
        progress::parse_row("  12  1.0e0  2.0e0  3e0  4e0  5e0  6e0  7e0  8e0").is_none(),
        "a row without its backend"
    );
    assert!(progress::parse_row("coefficient ranges:").is_none());
}

fn code(e: impl Into<ApiError>) -> (&'static str, Option<usize>) {
    let e = e.into();
    (e.code, e.line)
}

#[test]
fn the_library_errors_carry_the_codes_the_package_documents() {
    use glsolve::gl::GlError;
    use glsolve::gpu::GpuError;
    use glsolve::lp::backend::{BackendError, GpuFault};
    use glsolve::{DenseError, SolveError};
    let mps = glsolve::lp::mps::read_str("NAME x\nROWS\n N obj\nCOLUMNS\n x obj one\nENDATA\n").unwrap_err();
    assert_eq!(code(mps), ("parse", Some(5)));
    let triplet = SparseColMatrix::from_triplets(1, 1, &[(0, 3, 1.0)]).unwrap_err();
    assert_eq!(code(triplet), ("invalid-model", None));
    let model = LpModel::builder(expected()).minimize(vec![1.0; 3]).rows_at_most(vec![1.0, 1.0]).build().unwrap();
    let mut settings = Settings::for_backend(BackendKind::Cpu);
    settings.tolerance = -1.0;
    let bad = glsolve::lp::solve_on(&model, &settings, &mut Logger::quiet(), None).unwrap_err();
    assert!(matches!(bad, SolveError::Settings(_)), "{bad}");
    assert_eq!(code(bad), ("invalid-argument", None));
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
    let targets = GlError::FloatTargetUnsupported { format: "R32F", detail: String::new() };
    assert_eq!(code(targets).0, "no-float-targets");
}
