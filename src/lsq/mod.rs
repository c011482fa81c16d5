//! Weighted least squares min ‖D·(b − Aᵀx)‖₂ (2008 structure paper §2, §5.3): the normal
//! equations A·D²·Aᵀ·x = A·D²·b are assembled and Cholesky-factored on the GPU in single
//! precision (packed format by default), then Algorithm 1 refines x in double precision:
//! r = A·D²·b − A·D²·Aᵀ·x on the CPU (as A·(D²·(Aᵀx)), never forming C in double), the
//! correction from the single-precision factor, until ‖r‖₂/‖x‖₂ ≤ ε or an iteration limit.
//! When refinement stalls or diverges, or the single-precision factorization breaks down, the
//! normal equations are solved in double precision instead (as LAPACK's DSPOSV falls back to
//! DPOSV), and the result says so.
//!
//! Shapes: A is m×n (m unknowns, n observations), d² and b have length n.
//!
//! Ranges and rank: the problem is brought into single precision's range by powers of two
//! first (`scaled`) and the answer undone exactly. A problem with fewer observations of non-zero
//! weight than unknowns, or whose single-precision factor has a pivot below
//! [`SINGLE_PIVOT_RATIO`] of its diagonal entry, goes to the double-precision normal equations,
//! which report [`LsqError::Singular`] when a pivot falls below [`DOUBLE_PIVOT_RATIO`]·m of its
//! diagonal entry: the least-squares solution is then not unique, and no minimum-norm solution
//! is returned in its place.

pub mod fit;
mod scaled;

use crate::clock::Instant;
use crate::cpu::dense;
use crate::gl::Gpu;
use crate::gpu::assemble;
use crate::gpu::cholesky::{self, Variant};
use crate::gpu::GpuError;
use crate::layout::Format;
use crate::refine::iterate::{refine, Refinable, Stop, Stopping, TestPoint};
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
}

impl Default for LsqSettings {
    fn default() -> Self {
        Self { tolerance: 1e-8, max_iterations: 100, format: Format::Packed, patience: 5 }
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
    /// A·D²·Aᵀ is singular in double precision (A's rows dependent on the weighted samples).
    #[error("A·D²·Aᵀ is not positive definite in double precision: the basis is dependent on these samples")]
    Singular,
    /// The GPU factorization or the GL layer failed.
    #[error(transparent)]
    Gpu(GpuError),
}

/// How x was obtained.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub enum Method {
    /// Single-precision GPU factor, double-precision refinement (Algorithm 1).
    Refined,
    /// Double-precision normal equations on the CPU, with the reason.
    DoubleFallback(String),
}

/// A solved weighted least-squares problem.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LsqSolution {
    pub x: Vec<f64>,
    /// x⁰_sgl: the single-precision solution before refinement.
    pub x_single: Vec<f64>,
    pub method: Method,
    pub iterations: usize,
    /// ‖r‖₂/‖x‖₂ per refinement step.
    pub history: Vec<f64>,
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

/// A·D²·v for v of length n.
fn a_d2(a: &[f64], m: usize, n: usize, d2: &[f64], v: &[f64]) -> Vec<f64> {
    let w: Vec<f64> = v.iter().zip(d2).map(|(p, q)| p * q).collect();
    dense::matvec(a, m, n, &w)
}

/// The double-precision CPU solution of A·D²·Aᵀ·x = A·D²·b (faer), the paper's x_CPU.
pub fn solve_cpu(a: &[f64], m: usize, n: usize, d2: &[f64], b: &[f64]) -> Result<Vec<f64>, LsqError> {
    validate(a, m, n, d2, b)?;
    let am = dense::to_mat(a, m, n);
    let ad = faer::Mat::from_fn(m, n, |i, k| am[(i, k)] * d2[k]);
    let c = &ad * am.transpose();
    let l = dense::cholesky_lower(&dense::from_mat(c.as_ref()), m).ok_or(LsqError::Singular)?;
    let singular = (0..m).any(|j| l[j * m + j] * l[j * m + j] <= m as f64 * DOUBLE_PIVOT_RATIO * c[(j, j)]);
    if singular {
        return Err(LsqError::Singular);
    }
    Ok(dense::cholesky_solve(&l, m, &a_d2(a, m, n, d2, b)))
}

/// Solves the weighted least-squares problem with Algorithm 1 on `gpu` (see the module
/// documentation for ranges and rank). `history` is in the units of the scaled problem, where
/// the refinement runs: those of the problem as written unless something was out of range.
pub fn solve(
    gpu: &Gpu,
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
    let mut s = solve_scaled(gpu, &sc.a, m, n, &sc.d2, &sc.b, &sc.diagonal, st)?;
    s.x = sc.x(&s.x);
    s.x_single = sc.x(&s.x_single);
    Ok(s)
}

/// [`solve`] on the scaled problem, whose normal matrix has the given diagonal.
#[allow(clippy::too_many_arguments)]
fn solve_scaled(
    gpu: &Gpu,
    a: &[f64],
    m: usize,
    n: usize,
    d2: &[f64],
    b: &[f64],
    diagonal: &[f64],
    st: &LsqSettings,
) -> Result<LsqSolution, LsqError> {
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
            return fallback(a, m, n, d2, b, why, t0, Vec::new(), Vec::new(), Duration::ZERO, 0);
        }
        Err(e) => return Err(LsqError::Gpu(e)),
    };
    let ratio = |j: usize| f64::from(lower[j * m + j]).powi(2) / diagonal[j];
    if let Some(j) = (0..m).find(|&j| ratio(j) <= SINGLE_PIVOT_RATIO) {
        let why = format!(
            "the single-precision factor's pivot {j} is {:.1e} of its diagonal entry (at most {SINGLE_PIVOT_RATIO:.1e}: ill-conditioned or rank deficient)",
            ratio(j)
        );
        return fallback(a, m, n, d2, b, why, t0, Vec::new(), Vec::new(), t0.elapsed(), 0);
    }
    let mut problem =
        Normal { a, m, n, d2, rhs: &rhs, lower: &lower, t0, x_single: Vec::new(), single_time: Duration::ZERO };
    let rules = Stopping {
        test: TestPoint::AfterCorrection,
        threshold: st.tolerance,
        max_iterations: st.max_iterations,
        patience: st.patience,
        // Algorithm 1 stops on convergence, a stall, a non-finite value or the limit only.
        growth_limit: f64::INFINITY,
    };
    let out = match refine(&mut problem, &rules) {
        Ok(out) => out,
        Err(never) => match never {},
    };
    let (x_single, single_time) = (problem.x_single, problem.single_time);
    let why = match out.stop {
        Stop::Converged => {
            return Ok(LsqSolution {
                x: out.x,
                x_single,
                method: Method::Refined,
                iterations: out.iterations,
                history: out.history,
                single_time,
                refine_time: t0.elapsed() - single_time,
                total_time: t0.elapsed(),
            })
        }
        Stop::NonFinite => "refinement produced a non-finite iterate".to_string(),
        Stop::Stalled { criterion } | Stop::Diverged { criterion } => {
            format!("refinement stalled at ‖r‖/‖x‖ = {criterion:.2e} after {} steps", out.iterations)
        }
        Stop::Exhausted => format!("no convergence in {} refinement steps", st.max_iterations),
    };
    fallback(a, m, n, d2, b, why, t0, x_single, out.history, single_time, out.iterations)
}

/// The normal equations A·D²·Aᵀ·x = A·D²·b with their single-precision Cholesky factor, as the
/// shared refinement loop sees them (Algorithm 1: test ‖r‖/‖x‖ after each correction).
struct Normal<'a> {
    a: &'a [f64],
    m: usize,
    n: usize,
    d2: &'a [f64],
    rhs: &'a [f64],
    lower: &'a [f32],
    t0: Instant,
    x_single: Vec<f64>,
    single_time: Duration,
}

impl Normal<'_> {
    fn solve32(&self, r: &[f64]) -> Vec<f64> {
        let r32: Vec<f32> = r.iter().map(|&v| v as f32).collect();
        dense::cholesky_solve(self.lower, self.m, &r32).into_iter().map(f64::from).collect()
    }
    /// A·D²·b − A·D²·Aᵀ·x, computed as A·(D²·(Aᵀx)) in double precision.
    fn residual(&self, x: &[f64]) -> Vec<f64> {
        let (a, m, n, d2) = (self.a, self.m, self.n, self.d2);
        let cx = a_d2(a, m, n, d2, &dense::matvec_t(a, m, n, x));
        self.rhs.iter().zip(&cx).map(|(p, q)| p - q).collect()
    }
}

fn norm2(v: &[f64]) -> f64 {
    v.iter().map(|p| p * p).sum::<f64>().sqrt()
}

impl Refinable for Normal<'_> {
    type Error = std::convert::Infallible;
    fn start(&mut self) -> Result<(Vec<f64>, Vec<f64>), Self::Error> {
        self.x_single = self.solve32(self.rhs);
        self.single_time = self.t0.elapsed();
        Ok((self.x_single.clone(), self.residual(&self.x_single)))
    }
    fn correct(&mut self, x: &mut [f64], r: &[f64]) -> Result<Vec<f64>, Self::Error> {
        for (xi, zi) in x.iter_mut().zip(self.solve32(r)) {
            *xi += zi;
        }
        Ok(self.residual(x))
    }
    /// ‖r‖₂/‖x‖₂ with r the residual that produced x (Algorithm 1's test).
    fn criterion(&self, x: &[f64], r: &[f64]) -> f64 {
        norm2(r) / norm2(x)
    }
    /// Refinement must keep halving ‖r‖₂.
    fn progress(&self, _x: &[f64], r: &[f64], _criterion: f64) -> f64 {
        norm2(r)
    }
}

#[allow(clippy::too_many_arguments)]
fn fallback(
    a: &[f64],
    m: usize,
    n: usize,
    d2: &[f64],
    b: &[f64],
    why: String,
    t0: Instant,
    x_single: Vec<f64>,
    history: Vec<f64>,
    single_time: Duration,
    iterations: usize,
) -> Result<LsqSolution, LsqError> {
    let t1 = Instant::now();
    let x = solve_cpu(a, m, n, d2, b)?;
    Ok(LsqSolution {
        x,
        x_single,
        method: Method::DoubleFallback(why),
        iterations,
        history,
        single_time,
        refine_time: t1.elapsed(),
        total_time: t0.elapsed(),
    })
}
