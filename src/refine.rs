//! Mixed-precision solution of dense general systems A·x = b (the refinement scheme of the
//! mixed-precision LU literature): LU with partial pivoting in single precision on the GPU, then
//! iterative refinement — residual r = b − A·x and update x += z in double precision on the CPU,
//! the correction z from the single-precision factors — until the LINPACK criterion
//! ‖b − A·x‖∞ / (‖A‖∞·‖x‖∞·n·ε) ≤ threshold (ε = 2⁻⁵², threshold 16 as in HPL). When refinement
//! stagnates or diverges (κ(A)·u₃₂ ≳ 1), or single-precision LU finds A singular, a
//! double-precision LU on the CPU solves the system instead and the result says so.

use crate::cpu::dense;
use crate::gl::Gpu;
use crate::gpu::{lu, GpuError};
use std::time::{Duration, Instant};

/// Refinement parameters.
#[derive(Clone, Debug)]
pub struct RefineSettings {
    /// Largest number of refinement steps before falling back.
    pub max_iterations: usize,
    /// The LINPACK criterion's bound (HPL uses 16).
    pub threshold: f64,
    /// Steps without at least halving the criterion before refinement counts as stalled.
    pub patience: usize,
}

impl Default for RefineSettings {
    fn default() -> Self {
        Self { max_iterations: 30, threshold: 16.0, patience: 3 }
    }
}

/// What can stop a solve.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RefineError {
    #[error("shape mismatch: {0}")]
    Shape(String),
    #[error("{what} holds a non-finite value at row {row}, column {col} (0-based)")]
    NonFinite { what: &'static str, row: usize, col: usize },
    /// Singular in double precision too.
    #[error("the matrix is singular to double precision (the single-precision LU stopped at column {column:?})")]
    Singular { column: Option<usize> },
    #[error(transparent)]
    Gpu(GpuError),
}

/// How the answer was obtained.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub enum Method {
    /// Single-precision GPU factors plus double-precision refinement.
    Mixed,
    /// Double-precision LU on the CPU, with the reason the mixed path was abandoned.
    DoubleFallback(String),
}

/// A solved system.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Solved {
    pub x: Vec<f64>,
    pub method: Method,
    /// Refinement steps taken (0: the first solve already met the criterion).
    pub iterations: usize,
    /// The LINPACK criterion before each step and at the end.
    pub history: Vec<f64>,
    /// Time of the single-precision LU (upload, passes, read-back of the factors).
    pub factor_time: Duration,
    pub refine_time: Duration,
    pub total_time: Duration,
}

impl Solved {
    /// The LINPACK criterion of the answer.
    pub fn criterion(&self) -> f64 {
        self.history.last().copied().unwrap_or(f64::NAN)
    }
    /// Effective rate as the mixed-precision paper reports it: (2/3·n³ + 2·n²) / total time.
    pub fn gflops(&self) -> f64 {
        let n = self.x.len() as f64;
        (2.0 / 3.0 * n * n * n + 2.0 * n * n) / self.total_time.as_secs_f64() / 1e9
    }
}

/// ‖b − A·x‖∞ / (‖A‖∞·‖x‖∞·n·ε).
pub fn linpack_criterion(a: &[f64], n: usize, b: &[f64], x: &[f64], a_norm: f64) -> f64 {
    let ax = dense::matvec(a, n, n, x);
    let r = ax.iter().zip(b).map(|(p, q)| (q - p).abs()).fold(0.0, f64::max);
    let xn = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    r / (a_norm * xn * n as f64 * f64::EPSILON)
}

/// Solves A·x = b (A row-major n×n) on `gpu` with mixed-precision refinement.
pub fn linsolve(gpu: &Gpu, a: &[f64], n: usize, b: &[f64], st: &RefineSettings) -> Result<Solved, RefineError> {
    let t0 = Instant::now();
    if a.len() != n * n || b.len() != n {
        return Err(RefineError::Shape(format!("A has {} values and b {}, for n = {n}", a.len(), b.len())));
    }
    if let Some(p) = a.iter().position(|v| !v.is_finite()) {
        return Err(RefineError::NonFinite { what: "A", row: p / n, col: p % n });
    }
    if let Some(p) = b.iter().position(|v| !v.is_finite()) {
        return Err(RefineError::NonFinite { what: "b", row: p, col: 0 });
    }
    let a_norm = dense::norm_inf(a, n, n);
    let a32: Vec<f32> = a.iter().map(|&v| v as f32).collect();
    let factored = lu::factor(gpu, &a32, n).and_then(|f| Ok((lu::read(gpu, &f)?, f.perm)));
    let factor_time = t0.elapsed();
    let (factors, perm) = match factored {
        Ok(fp) => fp,
        Err(GpuError::Singular { column }) => {
            return fallback(
                a,
                n,
                b,
                a_norm,
                Some(column),
                format!("single-precision LU: no pivot in column {column}"),
                t0,
                factor_time,
                Vec::new(),
                0,
            )
        }
        Err(e) => return Err(RefineError::Gpu(e)),
    };
    let t1 = Instant::now();
    let solve32 = |r: &[f64]| -> Vec<f64> {
        let r32: Vec<f32> = r.iter().map(|&v| v as f32).collect();
        dense::lu_solve(&factors, n, &perm, &r32).into_iter().map(f64::from).collect()
    };
    let mut x = solve32(b);
    let mut history = Vec::new();
    let mut best = f64::INFINITY;
    let mut since_best = 0;
    for k in 0..=st.max_iterations {
        let crit = linpack_criterion(a, n, b, &x, a_norm);
        history.push(crit);
        if crit <= st.threshold {
            return Ok(Solved {
                x,
                method: Method::Mixed,
                iterations: k,
                history,
                factor_time,
                refine_time: t1.elapsed(),
                total_time: t0.elapsed(),
            });
        }
        if !crit.is_finite() {
            let why = "refinement produced a non-finite iterate".to_string();
            return fallback(a, n, b, a_norm, None, why, t0, factor_time, history, k);
        }
        if crit < 0.5 * best {
            best = crit;
            since_best = 0;
        } else {
            since_best += 1;
            if since_best >= st.patience {
                let why =
                    format!("refinement stalled at LINPACK criterion {crit:.2e} after {k} steps (κ(A)·u₃₂ too large)");
                return fallback(a, n, b, a_norm, None, why, t0, factor_time, history, k);
            }
        }
        if k == st.max_iterations {
            break;
        }
        let ax = dense::matvec(a, n, n, &x);
        let r: Vec<f64> = b.iter().zip(&ax).map(|(p, q)| p - q).collect();
        let z = solve32(&r);
        for (xi, zi) in x.iter_mut().zip(&z) {
            *xi += zi;
        }
    }
    let why = format!("no convergence in {} refinement steps", st.max_iterations);
    fallback(a, n, b, a_norm, None, why, t0, factor_time, history, st.max_iterations)
}

#[allow(clippy::too_many_arguments)]
fn fallback(
    a: &[f64],
    n: usize,
    b: &[f64],
    a_norm: f64,
    column: Option<usize>,
    why: String,
    t0: Instant,
    factor_time: Duration,
    mut history: Vec<f64>,
    iterations: usize,
) -> Result<Solved, RefineError> {
    let t1 = Instant::now();
    let x = dense::solve_general(a, n, b).ok_or(RefineError::Singular { column })?;
    history.push(linpack_criterion(a, n, b, &x, a_norm));
    Ok(Solved {
        x,
        method: Method::DoubleFallback(why),
        iterations,
        history,
        factor_time,
        refine_time: t1.elapsed(),
        total_time: t0.elapsed(),
    })
}
