//! `glsolve bench lsq-accuracy`: least squares on designs of chosen condition number, on both
//! backends, against a double-precision QR reference — what the answer's check decides, and
//! how far the answer is from the reference. Its JSON (`--json docs/bench/lsq_accuracy.json`)
//! and that of `python/bench/lstsq_accuracy.py` (`docs/bench/lstsq_python.json`, the same from
//! Python) make the report's section [`section`].
//!
//! Each design is U·Σ·Vᵀ (rows × cols, singular values from 1 down to 1/κ, U and V random and
//! seeded), b = A·x₀ + noise (x₀ and the noise uniform, the noise scaled by `noise`). The
//! reference is faer's Householder QR of A in f64; the singular value decomposition's answer
//! (nalgebra) is shown beside it as the spread two f64 methods have on that problem.

use glsolve::fixtures::random;
use glsolve::lsq;
use glsolve::Gpu;
use glsolve::LeastSquaresSettings as LsqSettings;
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

/// One run: what it ran on, with what, and its rows.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct AccuracyRun {
    pub renderer: String,
    pub noise: f64,
    pub seed: u64,
    /// The command and the date of the run.
    pub command: String,
    pub date: String,
    pub rows: Vec<AccuracyRow>,
}

/// `python/bench/lstsq_accuracy.py`'s record: glsolve.lstsq from Python on the same designs.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct PythonAccuracy {
    pub date: String,
    pub command: String,
    pub versions: std::collections::BTreeMap<String, String>,
    pub noise: f64,
    pub rows: Vec<PythonRow>,
}

#[derive(Clone, Debug, serde::Deserialize)]
pub struct PythonRow {
    pub rows: usize,
    pub cols: usize,
    pub kappa: f64,
    pub backend: String,
    /// ‖x − x_ref‖₂/‖x_ref‖₂ against numpy's QR (LAPACK), and against glsolve's cpu backend (faer QR).
    pub error_numpy_qr: f64,
    pub error_cpu: f64,
    /// numpy's SVD (lstsq) against numpy's QR: the spread of two f64 methods.
    pub svd_spread: f64,
    pub method: String,
    pub nit: usize,
    pub forward_error: Option<f64>,
    pub backward_error: Option<f64>,
    pub warned: bool,
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

fn opt(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.1e}")).unwrap_or_else(|| "–".into())
}

/// The report's section, from whichever of the two runs is present.
pub fn section(run: Option<&AccuracyRun>, py: Option<&PythonAccuracy>) -> String {
    let mut s = String::from(
        "## Least squares that prove their answer\n\n\
         On the gpu backend the single-precision normal equations are refined until the correction is below \
         a tenth of the accuracy asked (1e-8), then checked in f64: a bound on ‖x − x*‖∞/‖x‖∞ from the normal \
         equations' residual, summed in twice the working precision (Ogita–Rump–Oishi's Dot2) with every \
         rounding bounded, and |C⁻¹| estimated from the factor (LAPACK's FERR, Higham ch. 15). An answer that \
         fails, or a factor single precision cannot make, goes to f64 Householder QR on the CPU, and the \
         result says so (`DoubleFallback` and the reason). The single-precision normal equations resolve \
         κ(A)² up to about 1e7: the mixed path answers for κ(A) ≲ 1e3, QR beyond. At κ = 1e10 with this noise \
         two independent f64 methods no longer agree to 1e-8 (κ·u ≈ 1e-6): nalgebra's SVD against faer's QR \
         (Rust's SVD spread column), faer's QR against LAPACK's (Python's \"vs numpy QR\"); numpy's `lstsq` \
         (LAPACK's gelsd) starts from the same Householder QR as numpy's QR, so Python's SVD spread stays \
         small. There the fallback is held to faer's QR, the computation it is, and its forward-error bound \
         (far above 1e-8) says that nothing proves more.\n\n",
    );
    if let Some(r) = run {
        s.push_str(&format!("From Rust, by `{}` on {}:\n\n", r.command, r.date));
        s.push_str(&markdown(&r.rows, &r.renderer, r.noise, r.seed));
        s.push('\n');
    }
    if let Some(p) = py {
        let versions: Vec<String> = p.versions.iter().map(|(k, v)| format!("{k} {v}")).collect();
        s.push_str(&format!(
            "From Python (`glsolve.lstsq(A, y, backend=…, return_info=True)`), by `{}` on {} ({}); \
             noise {:.0e}; errors ‖x − x_ref‖₂/‖x_ref‖₂ against numpy's QR (LAPACK) and against glsolve's cpu \
             backend (faer QR); SVD spread = numpy's `lstsq` (SVD) against numpy's QR; warned = a \
             `GlsolveWarning` was raised:\n\n\
             | shape | κ | backend | vs numpy QR | vs cpu | SVD spread | method | steps | forward | backward | warned |\n\
             |---|---|---|---|---|---|---|---|---|---|---|\n",
            p.command,
            p.date,
            versions.join(", "),
            p.noise
        ));
        for r in &p.rows {
            s.push_str(&format!(
                "| {}×{} | {:.0e} | {} | {:.1e} | {:.1e} | {:.1e} | {} | {} | {} | {} | {} |\n",
                r.rows,
                r.cols,
                r.kappa,
                r.backend,
                r.error_numpy_qr,
                r.error_cpu,
                r.svd_spread,
                r.method,
                r.nit,
                opt(r.forward_error),
                opt(r.backward_error),
                if r.warned { "yes" } else { "no" }
            ));
        }
        s.push('\n');
    }
    s
}
