//! `glsolve bench lsq-accuracy`: least squares on designs of chosen condition number, on both
//! backends, against a double-precision QR reference — what the answer's check decides, and
//! how far the answer is from the reference.
//!
//! Each design is U·Σ·Vᵀ (rows × cols, singular values from 1 down to 1/κ, U and V random and
//! seeded), b = A·x₀ + noise (x₀ and the noise uniform, the noise scaled by `noise`). The
//! reference is faer's Householder QR of A in f64; the singular value decomposition's answer
//! (nalgebra) is shown beside it as the spread two f64 methods have on that problem.

use glsolve::cpu::random;
use glsolve::gl::Gpu;
use glsolve::lsq::{self, LsqSettings};
use glsolve::{least_squares, DenseError};
use nalgebra::{DMatrix, DVector};
use std::time::Instant;

/// One problem on one backend.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct AccuracyRow {
    pub rows: usize,
    pub cols: usize,
    pub kappa: f64,
    pub backend: String,
    /// ‖x − x_QR‖₂/‖x_QR‖₂ (NaN for an error).
    pub error: f64,
    /// ‖x_SVD − x_QR‖₂/‖x_QR‖₂: how far apart two f64 methods are on this problem.
    pub svd_spread: f64,
    /// "Mixed", "DoubleFallback", "Double", or the error.
    pub method: String,
    pub reason: Option<String>,
    pub steps: usize,
    pub forward_error: f64,
    pub threshold: f64,
    pub backward_error: f64,
    pub contraction: f64,
    pub seconds: f64,
}

/// The plan: shapes, condition numbers, noise, seed.
pub struct Plan {
    pub shapes: Vec<(usize, usize)>,
    pub kappas: Vec<f64>,
    pub noise: f64,
    pub seed: u64,
}

fn rel(x: &DVector<f64>, r: &DVector<f64>) -> f64 {
    (x - r).norm() / r.norm()
}

/// The design, b, the QR reference and the SVD's answer.
pub fn problem(
    rows: usize,
    cols: usize,
    kappa: f64,
    noise: f64,
    seed: u64,
) -> (DMatrix<f64>, DVector<f64>, DVector<f64>, DVector<f64>) {
    use faer::linalg::solvers::SolveLstsq;
    let a = DMatrix::from_row_slice(rows, cols, &random::design_with_condition(rows, cols, kappa, seed));
    let x0 = DVector::from_vec(random::uniform(cols, 1, -1.0, 1.0, seed + 1));
    let e = DVector::from_vec(random::uniform(rows, 1, -1.0, 1.0, seed + 2));
    let b = &a * &x0 + e * noise;
    let fa = faer::Mat::from_fn(rows, cols, |i, j| a[(i, j)]);
    let fb = faer::Mat::from_fn(rows, 1, |i, _| b[i]);
    let xr = fa.qr().solve_lstsq(&fb);
    let reference = DVector::from_fn(cols, |i, _| xr[(i, 0)]);
    let svd = a.clone().svd(true, true).solve(&b, 0.0).unwrap_or_else(|_| DVector::from_element(cols, f64::NAN));
    (a, b, reference, svd)
}

/// Every shape × κ × backend.
pub fn run(gpu: &Gpu, plan: &Plan, mut progress: impl FnMut(&str)) -> Vec<AccuracyRow> {
    let mut out = Vec::new();
    // One untimed solve compiles the kernels.
    let (a, b, _, _) = problem(8, 3, 10.0, 0.0, 1);
    let _ = least_squares(gpu, &a, &b, None);
    for &(rows, cols) in &plan.shapes {
        for &kappa in &plan.kappas {
            let (a, b, reference, svd) = problem(rows, cols, kappa, plan.noise, plan.seed);
            let svd_spread = rel(&svd, &reference);
            for backend in ["cpu", "gpu"] {
                let t = Instant::now();
                let got: Result<(DVector<f64>, lsq::Method, usize, lsq::Accuracy), DenseError> = match backend {
                    "cpu" => {
                        // The papers' layout: A transposed is the column-major data of A.
                        let d2 = vec![1.0; rows];
                        lsq::solve_qr(a.as_slice(), cols, rows, &d2, b.as_slice(), &LsqSettings::default())
                            .map(|s| (DVector::from_vec(s.x), s.method, s.iterations, s.accuracy))
                            .map_err(DenseError::from)
                    }
                    _ => least_squares(gpu, &a, &b, None).map(|s| (s.x, s.method, s.iterations, s.accuracy)),
                };
                let seconds = t.elapsed().as_secs_f64();
                let row = match got {
                    Ok((x, method, steps, acc)) => {
                        let (name, reason) = match method {
                            lsq::Method::Mixed => ("Mixed".to_string(), None),
                            lsq::Method::DoubleFallback(why) => ("DoubleFallback".to_string(), Some(why)),
                            lsq::Method::Double => ("Double".to_string(), None),
                        };
                        AccuracyRow {
                            rows,
                            cols,
                            kappa,
                            backend: backend.into(),
                            error: rel(&x, &reference),
                            svd_spread,
                            method: name,
                            reason,
                            steps,
                            forward_error: acc.forward_error,
                            threshold: acc.threshold,
                            backward_error: acc.backward_error,
                            contraction: acc.contraction,
                            seconds,
                        }
                    }
                    Err(e) => AccuracyRow {
                        rows,
                        cols,
                        kappa,
                        backend: backend.into(),
                        error: f64::NAN,
                        svd_spread,
                        method: format!("error: {e}"),
                        reason: None,
                        steps: 0,
                        forward_error: f64::NAN,
                        threshold: f64::NAN,
                        backward_error: f64::NAN,
                        contraction: f64::NAN,
                        seconds,
                    },
                };
                progress(&format!(
                    "{rows}×{cols} κ = {kappa:.0e} {backend}: error {:.1e}, {} ({} steps), forward bound {:.1e}, backward {:.1e}{}",
                    row.error,
                    row.method,
                    row.steps,
                    row.forward_error,
                    row.backward_error,
                    row.reason.as_deref().map(|r| format!(" — {r}")).unwrap_or_default()
                ));
                out.push(row);
            }
        }
    }
    out
}

/// The table for docs/results.md.
pub fn markdown(rows: &[AccuracyRow], renderer: &str, noise: f64, seed: u64) -> String {
    let mut s = format!(
        "Renderer: {renderer}. A = U·Σ·Vᵀ (σ from 1 to 1/κ, seed {seed}), b = A·x₀ + {noise:.0e}·noise; error = \
         ‖x − x_QR‖₂/‖x_QR‖₂ against faer's f64 Householder QR; SVD spread = the same for nalgebra's f64 SVD \
         (how far two f64 methods are apart); forward = the check's bound on ‖x − x*‖∞/‖x‖∞ (the mixed answer \
         must be ≤ {:.0e}); backward = the proven backward-error bound.\n\n\
         | shape | κ | backend | error vs QR | SVD spread | method | steps | forward | backward | time |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
        rows.first().map(|r| r.threshold).unwrap_or(f64::NAN)
    );
    for r in rows {
        s.push_str(&format!(
            "| {}×{} | {:.0e} | {} | {:.1e} | {:.1e} | {} | {} | {:.1e} | {:.1e} | {:.1} ms |\n",
            r.rows,
            r.cols,
            r.kappa,
            r.backend,
            r.error,
            r.svd_spread,
            r.method,
            r.steps,
            r.forward_error,
            r.backward_error,
            r.seconds * 1e3
        ));
    }
    s
}
