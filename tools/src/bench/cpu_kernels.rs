//! The kernel cases of `glsolve bench cpu` (see [`super::cpu`]): each piece's own code and its
//! library alternative on the same operands, interleaved.

use super::cpu::{interleaved, variant, KernelRow, Piece};
use faer::{Accum, Mat, MatRef};
use glsolve::cpu::products::{self, DenseA, Precision, VSource};
use glsolve::lp::mps;
use std::path::Path;

/// Deterministic entries in [−1, 1) and weights spread over eight orders of magnitude (as Θ
/// late in a solve).
fn operands(m: usize, n: usize, seed: u64) -> (Mat<f64>, Vec<f64>) {
    let mut s = seed.wrapping_mul(6364136223846793005) | 1;
    let mut next = move || {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let a = Mat::from_fn(m, n, |_, _| 2.0 * next() - 1.0);
    let w = (0..n).map(|_| 10f64.powf(8.0 * next() - 4.0)).collect();
    (a, w)
}

/// (own, library) medians of the reduced-precision product (the f64 one has one path, faer's).
fn gram_case(a: MatRef<'_, f64>, w: &[f64], reps: usize) -> (f64, f64) {
    let m = a.nrows();
    let (mut c1, mut c2) = (Mat::<f64>::zeros(m, m), Mat::<f64>::zeros(m, m));
    let (own, lib) = (variant(None), variant(Some(Piece::SyrkReduced)));
    let t = products::threads();
    let own_precision = Precision::reduced(&own);
    let mut a_run = || {
        let _ = glsolve::cpu::gram::gram_lower(&own, own_precision, a, w, c1.as_mut(), Accum::Replace, t);
    };
    let mut b_run = || {
        let _ = glsolve::cpu::gram::gram_lower(&lib, Precision::Single, a, w, c2.as_mut(), Accum::Replace, t);
    };
    let r = interleaved(reps, 0.0, &mut [&mut a_run, &mut b_run]);
    (r[0], r[1])
}

/// (own, library) medians of the fused pass (Aᵀy, θ∘Aᵀy, A·θ∘Aᵀy) with `library`'s paths, with
/// `gap` seconds of work on this thread between two passes (not timed).
fn pass_case(a: MatRef<'_, f64>, library: Piece, gap: f64, reps: usize) -> (f64, f64) {
    let (m, n) = (a.nrows(), a.ncols());
    let y: Vec<f64> = (0..m).map(|i| 1.0 - (i % 7) as f64 / 3.0).collect();
    let theta: Vec<f64> = (0..n).map(|j| 0.5 + (j % 5) as f64).collect();
    let src = VSource::Scaled { theta: &theta, t: None };
    let (own, lib) = (variant(None), variant(Some(library)));
    let t = products::threads();
    let mut a_run = || {
        std::hint::black_box(products::fused_dense(&own, a, &y, src, t).ok());
    };
    let mut b_run = || {
        std::hint::black_box(products::fused_dense(&lib, a, &y, src, t).ok());
    };
    let r = interleaved(reps, gap, &mut [&mut a_run, &mut b_run]);
    (r[0], r[1])
}

/// Sizes and repetitions of a run.
#[derive(Clone, Debug)]
pub struct Plan {
    pub sizes: Vec<usize>,
    /// Repetitions of the kernels; the end-to-end cases take fewer at large m.
    pub reps: usize,
    pub netlib: std::path::PathBuf,
    /// The two NETLIB problems whose shapes the products are also timed on.
    pub shapes: Vec<String>,
}

/// The kernel rows of every piece in `pieces`.
pub(super) fn kernels(plan: &Plan, pieces: &[Piece], progress: &dyn Fn(&str)) -> Result<Vec<KernelRow>, String> {
    let mut rows = Vec::new();
    let mut push = |piece, case: String, m, (own_s, library_s): (f64, f64), reps| {
        progress(&format!("{:?} {case}: own {:.3} ms, library {:.3} ms", piece, own_s * 1e3, library_s * 1e3));
        rows.push(KernelRow { piece, case, m, own_s, library_s, reps });
    };
    for &m in &plan.sizes {
        let (a, w) = operands(m, 4 * m, m as u64);
        let reps = if m >= 2048 { plan.reps.div_ceil(2).max(3) } else { plan.reps };
        if pieces.contains(&Piece::SyrkReduced) {
            push(
                Piece::SyrkReduced,
                format!("A·W·Aᵀ reduced, m = {m}, n = {}", 4 * m),
                m,
                gram_case(a.as_ref(), &w, reps),
                reps,
            );
        }
        let dense = DenseA::from_dense(a.as_ref());
        if pieces.contains(&Piece::ColumnPass) {
            let r = pass_case(dense.as_ref(), Piece::ColumnPass, 0.0, 4 * reps);
            push(Piece::ColumnPass, format!("fused pass, m = {m}, n = {}", 4 * m), m, r, 4 * reps);
        }
    }
    if pieces.contains(&Piece::SyrkReduced) {
        for name in &plan.shapes {
            let a = standard_form_a(&plan.netlib.join(format!("{name}.mps")))?;
            let w: Vec<f64> = operands(1, a.ncols(), 3).1;
            let (m, n) = (a.nrows(), a.ncols());
            let r = gram_case(a.as_ref(), &w, 4 * plan.reps);
            push(Piece::SyrkReduced, format!("A·W·Aᵀ reduced, {name} ({m} × {n})"), m, r, 4 * plan.reps);
        }
    }
    variant(None);
    Ok(rows)
}

/// The scaled standard-form A of an MPS file, dense.
fn standard_form_a(path: &Path) -> Result<Mat<f64>, String> {
    let model = mps::read_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
    match glsolve::lp::standard_form::standard_form(&model, true) {
        glsolve::lp::standard_form::Presolved::Form(sf) => {
            let mut d = Mat::zeros(sf.a.nrows, sf.a.ncols);
            for j in 0..sf.a.ncols {
                for (i, v) in sf.a.col(j) {
                    d[(i, j)] = v;
                }
            }
            Ok(d)
        }
        _ => Err(format!("{}: no standard form", path.display())),
    }
}
