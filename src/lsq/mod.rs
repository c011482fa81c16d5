//! Weighted least squares min ‖D·(b − Aᵀx)‖₂ (2008 structure paper §2, §5.3): the normal
//! equations A·D²·Aᵀ·x = A·D²·b are assembled and Cholesky-factored on the GPU in single
//! precision (packed format by default), then Algorithm 1 refines x in double precision:
//! r = A·D²·b − A·D²·Aᵀ·x on the CPU (as A·(D²·(Aᵀx)), never forming C in double), the
//! correction z from the single-precision factor, until ‖r‖₂/‖x‖₂ ≤ ε (the paper's test) and
//! ‖z‖∞/‖x‖∞ ≤ [`LsqSettings::accuracy`]/10 (the correction fallen below the accuracy asked:
//! the paper's test alone measures a residual, and at κ(C) = 1e6 it passed answers 2e-6 off),
//! or an iteration limit.
//!
//! The answer is then checked in double precision ([`check`]): a bound on its forward error
//! ‖x − x*‖∞/‖x‖∞ from the normal-equations residual, with every rounding accounted for, must
//! be at most [`LsqSettings::accuracy`]. Where refinement stalls or diverges, the single-
//! precision factorization breaks down, or the check fails, the problem is solved again by
//! Householder QR of D·Aᵀ in double precision on the CPU (faer) and [`Method::DoubleFallback`]
//! says why. QR, not the double-precision normal equations: QR is backward stable for least
//! squares (Higham, *Accuracy and Stability*, Thm 20.3), so its error grows as κ(D·Aᵀ) plus
//! κ² times the relative residual, where the normal equations' grows as κ² whatever the
//! residual (§20.4) — the fallback is taken exactly when κ² has outgrown single precision,
//! and at κ = 1e7 the f64 normal equations were 1.8e-3 off. Every answer carries its
//! [`Accuracy`]: the forward-error bound, its threshold, a proven backward-error bound, and the
//! refinement's contraction.
//!
//! Shapes: A is m×n (m unknowns, n observations), d² and b have length n.
//!
//! Ranges and rank: the problem is brought into single precision's range by powers of two
//! first (`scaled`) and the answer undone exactly. A problem with fewer observations of non-zero
//! weight than unknowns, or whose single-precision factor has a pivot below
//! [`SINGLE_PIVOT_RATIO`] of its diagonal entry, goes to the double-precision QR, which reports
//! [`LsqError::Singular`] when a diagonal entry of R is at most max(m, n)·ε of the largest:
//! the least-squares solution is then not unique, and no minimum-norm solution is returned in
//! its place.

pub mod check;
pub mod fit;
mod normal;
mod qr;
mod scaled;

use crate::clock::Instant;
use crate::cpu::rowmajor;
use crate::gl::Gpu;
use crate::gpu::assemble;
use crate::gpu::cholesky::{self, Variant};
use crate::gpu::GpuError;
use crate::layout::Format;
use crate::refine::iterate::{refine, Stop, Stopping, TestPoint};
pub use check::Accuracy;
use check::Residuals;
use normal::{a_d2, Normal};
use std::time::Duration;

/// Algorithm 1's parameters.
#[derive(Clone, Debug)]
pub struct LsqSettings {
    /// ε of ‖r‖₂/‖x‖₂ ≤ ε (the paper: 1e-8).
    pub tolerance: f64,
    /// Iteration limit (the paper: 100).
    pub max_iterations: usize,
    /// Storage of A·D²·Aᵀ on the GPU.
    pub format: Format,
    /// Steps without at least halving ‖r‖ before refinement counts as stalled.
    pub patience: usize,
    /// The mixed answer is returned only when its forward-error bound
    /// ([`Accuracy::forward_error`], ‖x − x*‖∞/‖x‖∞) is at most this; else the f64 QR answers.
    /// Refinement also runs until its correction is at most a tenth of it.
    pub accuracy: f64,
}

impl Default for LsqSettings {
    fn default() -> Self {
        Self { tolerance: 1e-8, max_iterations: 100, format: Format::Packed, patience: 5, accuracy: 1e-8 }
    }
}

/// Why a weighted least-squares solve failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LsqError {
    /// Lengths that do not fit together (A, d² and b for m×n; a fit's times, values and
    /// uncertainties): the lengths given.
    #[error("shape mismatch: {0}")]
    Shape(String),
    /// An input holds NaN or an infinity (or a fit's uncertainty σ is not positive).
    #[error("{what} holds a non-finite value at index {index}")]
    NonFinite {
        /// The input: "A", "d²", "b", or a fit's σ.
        what: &'static str,
        /// 0-based index into its slice (row-major for A).
        index: usize,
    },
    /// A weight of d² is negative.
    #[error("weight d²[{index}] = {value} is negative")]
    NegativeWeight {
        /// 0-based index of the weight.
        index: usize,
        /// The weight.
        value: f64,
    },
    /// The weighted design is rank deficient to double precision (A's rows dependent on the
    /// observations of non-zero weight, or fewer such observations than unknowns): the QR's R
    /// has a diagonal entry at rounding level (`solve`, `solve_qr`), or the f64 normal
    /// equations a pivot at rounding level (`solve_cpu`).
    #[error("the weighted design is rank deficient to double precision: its least-squares solution is not unique")]
    Singular,
    /// The GPU factorization or the GL layer failed.
    #[error(transparent)]
    Gpu(GpuError),
}

/// How x was obtained.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub enum Method {
    /// Single-precision GPU factor, double-precision refinement (Algorithm 1), and the check
    /// passed: [`Accuracy::forward_error`] ≤ [`Accuracy::threshold`].
    Mixed,
    /// Householder QR of D·Aᵀ in double precision on the CPU, with the reason the mixed path
    /// was abandoned (its measures, where it got as far as the check).
    DoubleFallback(String),
    /// Householder QR in double precision on the CPU because it was asked for (`solve_qr`).
    Double,
}

/// A solved weighted least-squares problem.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LsqSolution {
    pub x: Vec<f64>,
    /// x⁰_sgl: the single-precision solution before refinement.
    pub x_single: Vec<f64>,
    pub method: Method,
    pub iterations: usize,
    /// ‖r‖₂/‖x‖₂ per refinement step (the paper's test).
    pub history: Vec<f64>,
    /// ‖z‖∞/‖x‖∞ per refinement step: the correction z applied, relative to the new x.
    pub corrections: Vec<f64>,
    /// The double-precision check of x (of the answer returned: the fallback's where it fell
    /// back).
    pub accuracy: Accuracy,
    /// Upload, assembly, factorization and read-back of L, and x⁰ (Table 1's "x⁰_sgl").
    pub single_time: Duration,
    /// The refinement (Table 1's "Refine").
    pub refine_time: Duration,
    pub total_time: Duration,
}

fn validate(a: &[f64], m: usize, n: usize, d2: &[f64], b: &[f64]) -> Result<(), LsqError> {
    if a.len() != m * n || d2.len() != n || b.len() != n {
        return Err(LsqError::Shape(format!(
            "A has {} values (m×n = {m}×{n}), d² {}, b {}",
            a.len(),
            d2.len(),
            b.len()
        )));
    }
    for (what, v) in [("A", a), ("d²", d2), ("b", b)] {
        if let Some(index) = v.iter().position(|x| !x.is_finite()) {
            return Err(LsqError::NonFinite { what, index });
        }
    }
    if let Some(index) = d2.iter().position(|&v| v < 0.0) {
        return Err(LsqError::NegativeWeight { index, value: d2[index] });
    }
    Ok(())
}

/// A pivot of the single-precision factor at or below this fraction of its diagonal entry
/// (κ(A·D²·Aᵀ) ≥ 1.6e4, and a dependent row of A gives a pivot of rounding size, about 1e-7)
/// sends the solve to double precision, which decides whether the rows are dependent: a
/// refinement on such a factor converges to some solution of a singular system as readily as
/// to the solution of a regular one.
pub const SINGLE_PIVOT_RATIO: f64 = 1.0 / 16384.0;

/// The double-precision normal equations are singular when a pivot is at most m times this
/// fraction (f64's unit roundoff) of its diagonal entry: κ(A·D²·Aᵀ) beyond 1/(m·u₆₄).
pub const DOUBLE_PIVOT_RATIO: f64 = f64::EPSILON / 2.0;

/// The double-precision CPU solution of A·D²·Aᵀ·x = A·D²·b (faer), the paper's x_CPU: the
/// reference of its tables, not the fallback (whose error, unlike QR's, grows as κ² whatever the
/// residual).
pub fn solve_cpu(a: &[f64], m: usize, n: usize, d2: &[f64], b: &[f64]) -> Result<Vec<f64>, LsqError> {
    validate(a, m, n, d2, b)?;
    let am = rowmajor::to_mat(a, m, n);
    let ad = faer::Mat::from_fn(m, n, |i, k| am[(i, k)] * d2[k]);
    let c = &ad * am.transpose();
    let l = rowmajor::cholesky_lower(&rowmajor::from_mat(c.as_ref()), m).ok_or(LsqError::Singular)?;
    let singular = (0..m).any(|j| l[j * m + j] * l[j * m + j] <= m as f64 * DOUBLE_PIVOT_RATIO * c[(j, j)]);
    if singular {
        return Err(LsqError::Singular);
    }
    Ok(rowmajor::cholesky_solve(&l, m, &a_d2(a, m, n, d2, b)))
}

/// Solves the weighted least-squares problem with Algorithm 1 on `gpu` and checks the answer
/// (see the module documentation for the check, the fallback, ranges and rank). `history` is in
/// the units of the scaled problem, where the refinement runs: those of the problem as written
/// unless something was out of range.
pub fn solve(
    gpu: &Gpu,
    a: &[f64],
    m: usize,
    n: usize,
    d2: &[f64],
    b: &[f64],
    st: &LsqSettings,
) -> Result<LsqSolution, LsqError> {
    solve_on(Some(gpu), a, m, n, d2, b, st)
}

/// The double-precision Householder QR of D·Aᵀ on the CPU (faer) — the fallback of [`solve`]
/// — with the same validation, scaling, rank test and [`Accuracy`]; [`Method::Double`].
pub fn solve_qr(a: &[f64], m: usize, n: usize, d2: &[f64], b: &[f64], st: &LsqSettings) -> Result<LsqSolution, LsqError> {
    solve_on(None, a, m, n, d2, b, st)
}

/// [`solve`] on `gpu`, or [`solve_qr`] without one.
fn solve_on(
    gpu: Option<&Gpu>,
    a: &[f64],
    m: usize,
    n: usize,
    d2: &[f64],
    b: &[f64],
    st: &LsqSettings,
) -> Result<LsqSolution, LsqError> {
    validate(a, m, n, d2, b)?;
    let sc = scaled::Scaled::new(a, m, n, d2, b);
    let observed = sc.d2.iter().filter(|&&v| v > 0.0).count();
    if observed < m || sc.diagonal.contains(&0.0) {
        return Err(LsqError::Singular);
    }
    let problem = Problem { a: &sc.a, m, n, d2: &sc.d2, b: &sc.b, to_x: &sc.to_x, accuracy: st.accuracy };
    let mut s = match gpu {
        Some(gpu) => solve_scaled(gpu, &problem, &sc.diagonal, st)?,
        None => {
            let t0 = Instant::now();
            let mut s = problem.fallback(String::new(), t0, Vec::new(), Default::default(), Duration::ZERO, 0)?;
            s.method = Method::Double;
            s
        }
    };
    s.x = sc.x(&s.x);
    s.x_single = sc.x(&s.x_single);
    Ok(s)
}

/// The scaled problem and what the check needs to speak in x's units.
struct Problem<'a> {
    a: &'a [f64],
    m: usize,
    n: usize,
    d2: &'a [f64],
    b: &'a [f64],
    /// x = to_x ∘ x̂.
    to_x: &'a [f64],
    accuracy: f64,
}

impl Problem<'_> {
    /// The double-precision QR answer, checked, with the reason it was taken.
    #[allow(clippy::too_many_arguments)]
    fn fallback(
        &self,
        why: String,
        t0: Instant,
        x_single: Vec<f64>,
        (history, corrections): (Vec<f64>, Vec<f64>),
        single_time: Duration,
        iterations: usize,
    ) -> Result<LsqSolution, LsqError> {
        let (a, m, n, d2, b) = (self.a, self.m, self.n, self.d2, self.b);
        let t1 = Instant::now();
        let (x, r) = qr::qr_scaled(a, m, n, d2, b).ok_or(LsqError::Singular)?;
        let res = Residuals::new(a, m, n, d2, b, &x);
        let accuracy = Accuracy {
            forward_error: res.forward_error(&x, self.to_x, 0.0, check::qr_apply(&r, m)),
            threshold: self.accuracy,
            backward_error: res.backward_error(&x),
            contraction: 0.0,
        };
        Ok(LsqSolution {
            x,
            x_single,
            method: Method::DoubleFallback(why),
            iterations,
            history,
            corrections,
            accuracy,
            single_time,
            refine_time: t1.elapsed(),
            total_time: t0.elapsed(),
        })
    }
}

/// [`solve`] on the scaled problem, whose normal matrix has the given diagonal.
fn solve_scaled(gpu: &Gpu, p: &Problem<'_>, diagonal: &[f64], st: &LsqSettings) -> Result<LsqSolution, LsqError> {
    let (a, m, n, d2, b) = (p.a, p.m, p.n, p.d2, p.b);
    let t0 = Instant::now();
    let rhs = a_d2(a, m, n, d2, b);
    let a32: Vec<f32> = a.iter().map(|&v| v as f32).collect();
    let d32: Vec<f32> = d2.iter().map(|&v| v as f32).collect();
    let factored = assemble::assemble(gpu, &a32, &d32, m, n, st.format)
        .and_then(|c| cholesky::factor_textures(gpu, c, m, Variant::PAPER, st.format))
        .and_then(|f| cholesky::read_lower(gpu, &f));
    let lower = match factored {
        Ok(l) => l,
        Err(GpuError::NotPositiveDefinite { column, .. }) => {
            let why = format!("single-precision Cholesky broke down at column {column}");
            return p.fallback(why, t0, Vec::new(), Default::default(), Duration::ZERO, 0);
        }
        Err(e) => return Err(LsqError::Gpu(e)),
    };
    let ratio = |j: usize| f64::from(lower[j * m + j]).powi(2) / diagonal[j];
    if let Some(j) = (0..m).find(|&j| ratio(j) <= SINGLE_PIVOT_RATIO) {
        let why = format!(
            "the single-precision factor's pivot {j} is {:.1e} of its diagonal entry (at most {SINGLE_PIVOT_RATIO:.1e}: ill-conditioned or rank deficient)",
            ratio(j)
        );
        return p.fallback(why, t0, Vec::new(), Default::default(), t0.elapsed(), 0);
    }
    let mut problem = Normal {
        a,
        m,
        n,
        d2,
        rhs: &rhs,
        lower: &lower,
        t0,
        x_single: Vec::new(),
        single_time: Duration::ZERO,
        norms: Vec::new(),
        tolerance: st.tolerance,
        target: st.accuracy / 10.0,
        step: 0.0,
        history: Vec::new(),
        corrections: Vec::new(),
    };
    let rules = Stopping {
        test: TestPoint::AfterCorrection,
        // Normal::criterion is 0 when both tests pass.
        threshold: 0.0,
        max_iterations: st.max_iterations,
        patience: st.patience,
        // Algorithm 1 stops on convergence, a stall, a non-finite value or the limit only.
        growth_limit: f64::INFINITY,
    };
    let out = match refine(&mut problem, &rules) {
        Ok(out) => out,
        Err(never) => match never {},
    };
    let (x_single, single_time) = (std::mem::take(&mut problem.x_single), problem.single_time);
    let histories = (std::mem::take(&mut problem.history), std::mem::take(&mut problem.corrections));
    let why = match out.stop {
        Stop::Converged => {
            let accuracy = check_refined(&problem, p, &out.x);
            if accuracy.forward_error <= p.accuracy {
                return Ok(LsqSolution {
                    x: out.x,
                    x_single,
                    method: Method::Mixed,
                    iterations: out.iterations,
                    history: histories.0,
                    corrections: histories.1,
                    accuracy,
                    single_time,
                    refine_time: t0.elapsed() - single_time,
                    total_time: t0.elapsed(),
                });
            }
            format!(
                "the refined answer's forward-error bound {:.2e} exceeds {:.0e} (contraction {:.2}, backward error {:.1e})",
                accuracy.forward_error, p.accuracy, accuracy.contraction, accuracy.backward_error
            )
        }
        Stop::NonFinite => "refinement produced a non-finite iterate".to_string(),
        Stop::Stalled { .. } | Stop::Diverged { .. } => format!(
            "refinement stalled at ‖r‖/‖x‖ = {:.2e}, ‖z‖∞/‖x‖∞ = {:.2e} after {} steps",
            histories.0.last().copied().unwrap_or(f64::NAN),
            histories.1.last().copied().unwrap_or(f64::NAN),
            out.iterations
        ),
        Stop::Exhausted => format!("no convergence in {} refinement steps", st.max_iterations),
    };
    p.fallback(why, t0, x_single, histories, single_time, out.iterations)
}

/// The check of the refined x̂ with the single-precision factor it came from.
fn check_refined(normal: &Normal<'_>, p: &Problem<'_>, x: &[f64]) -> Accuracy {
    let l: Vec<f64> = normal.lower.iter().map(|&v| f64::from(v)).collect();
    let res = Residuals::new(p.a, p.m, p.n, p.d2, p.b, x);
    let contraction = normal.contraction();
    Accuracy {
        forward_error: res.forward_error(x, p.to_x, contraction, check::cholesky_apply(&l, p.m)),
        threshold: p.accuracy,
        backward_error: res.backward_error(x),
        contraction,
    }
}
