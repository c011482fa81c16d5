//! `linsolve`: validation, the single-precision factorization, the refinement loop, the fallback.

use super::criterion::{backward_error_bound, inf_norm, Criterion};
use super::general::{General, Substitution};
use super::iterate::{refine, Stop, Stopping, TestPoint};
use super::scaled::Scaled;
use super::{LuPath, Method, RefineError, RefineSettings, Solved};
use crate::clock::Instant;
use crate::cpu::rowmajor;
use crate::gl::Gpu;
use crate::gpu::lu::substitute::SplitSolver;
use crate::gpu::lu::timeline::{Lane, Recorder};
use crate::gpu::lu::{self, right_looking};
use crate::gpu::GpuError;

/// The single-precision factors: LAPACK-style factor, permutation, L⁻¹·P·b if known.
type Factors = (Vec<f32>, Vec<usize>, Option<Vec<f32>>);

fn factor(
    gpu: &Gpu,
    a: &[f64],
    b: &[f64],
    n: usize,
    st: &RefineSettings,
    rec: &mut Recorder,
) -> Result<Factors, GpuError> {
    let a32: Vec<f32> = a.iter().map(|&v| v as f32).collect();
    rec.enter("factor", 0);
    match st.lu {
        LuPath::Blocked(bs) => {
            let b32: Vec<f32> = b.iter().map(|&v| v as f32).collect();
            let f = right_looking::factor(gpu, &a32, n, Some(&b32), &bs, rec)?;
            Ok((f.factor, f.perm, f.forward))
        }
        LuPath::Unblocked => {
            // Every column waits for its pivot on the host: the GPU's span is the whole LU.
            let f = rec.gpu(gpu, "unblocked LU (a readback per column)", 0, || lu::factor(gpu, &a32, n))?;
            rec.wait_gpu()?;
            let factor = rec.host(Lane::Transfer, "read L and U", 0, |_| lu::read(gpu, &f))?;
            Ok((factor, f.perm, None))
        }
    }
}

/// Checks every texture the settings' path will make for order n against the driver's limit,
/// before anything is made: an n the GPU cannot hold is an error at once, not after the
/// factorization (at n = 16385 that was half an hour of work before the refusal).
pub fn check_sizes(gpu: &Gpu, n: usize, st: &RefineSettings) -> Result<(), GpuError> {
    let mut sizes = Vec::new();
    match st.lu {
        LuPath::Blocked(bs) => {
            let (w, h) = crate::gpu::lu::schedule::Blocking::new(n, bs.block, true, bs.lookahead)?.texture_size();
            sizes.push((w, h, "the matrix [A | b] in 2×2 blocks"));
        }
        LuPath::Unblocked => sizes.push((n, n, "the matrix to factor")),
    }
    if st.substitution == Substitution::Split {
        let big = n.next_multiple_of(2);
        sizes.push((big, big, "A in double (three floats per entry)"));
    }
    for (w, h, what) in sizes {
        gpu.check_size(w, h, what)?;
    }
    Ok(())
}

/// Solves A·x = b (A row-major n×n) on `gpu` with mixed-precision refinement. The system is
/// brought into single precision's range by powers of two first ([`Scaled`]), and the
/// refinement runs and tests on that system, where the data are of size 1 as in the paper (its
/// test ‖r‖/(‖A‖·‖b‖·n·ε) is not free of units: on A and b times 10³⁰ it passed the first
/// single-precision answer). An answer of the mixed path whose backward-error bound on the
/// system as written ([`Solved::criterion`], the residual's own rounding included) exceeds the
/// threshold is replaced by the fallback's.
pub fn linsolve(gpu: &Gpu, a: &[f64], n: usize, b: &[f64], st: &RefineSettings) -> Result<Solved, RefineError> {
    let t0 = Instant::now();
    if n == 0 || a.len() != n * n || b.len() != n {
        return Err(RefineError::Shape(format!("A has {} values and b {}, for n = {n} (n ≥ 1)", a.len(), b.len())));
    }
    if let Some(p) = a.iter().position(|v| !v.is_finite()) {
        return Err(RefineError::NonFinite { what: "A", row: p / n, col: p % n });
    }
    if let Some(p) = b.iter().position(|v| !v.is_finite()) {
        return Err(RefineError::NonFinite { what: "b", row: p, col: 0 });
    }
    check_sizes(gpu, n, st).map_err(RefineError::Gpu)?;
    let mut rec = Recorder::new();
    let a_norm = rowmajor::norm_inf(a, n, n);
    let scaled = Scaled::new(a, n, b);
    let (a_hat, b_hat) = (&scaled.a[..], &scaled.b[..]);
    let a_hat_norm = rowmajor::norm_inf(a_hat, n, n);
    let fallback = |why: String, column, history: Vec<f64>, iterations, rec: Recorder, factor_time| {
        let t1 = Instant::now();
        let y = rowmajor::solve_general(a_hat, n, b_hat).ok_or(RefineError::Singular { column })?;
        let x = scaled.x(&y);
        let mut history = history;
        let r_norm = residual_norm(a_hat, n, b_hat, &y);
        history.push(st.criterion.value(r_norm, a_hat_norm, inf_norm(b_hat), inf_norm(&y), n));
        Ok(Solved {
            backward_error: backward_error_bound(a, n, b, &x, a_norm),
            threshold: st.threshold,
            x,
            method: Method::DoubleFallback(why),
            iterations,
            test: st.criterion,
            history,
            factor_time,
            refine_time: t1.elapsed(),
            total_time: t0.elapsed(),
            timeline: rec.finish().map_err(|e| RefineError::Gpu(e.into()))?,
            lu: st.lu,
            substitution: st.substitution,
        })
    };
    let (factors, perm, forward) = match factor(gpu, a_hat, b_hat, n, st, &mut rec) {
        Ok(f) => f,
        Err(GpuError::Singular { column }) => {
            let why = format!("single-precision LU: no pivot in column {column}");
            return fallback(why, Some(column), Vec::new(), 0, rec, t0.elapsed());
        }
        Err(e) => return Err(RefineError::Gpu(e)),
    };
    let factor_time = t0.elapsed();
    let t1 = Instant::now();
    let split = match st.substitution {
        Substitution::Cpu => None,
        Substitution::Split => {
            let (block, lookahead) = match st.lu {
                LuPath::Blocked(bs) => (bs.block, bs.lookahead),
                LuPath::Unblocked => (right_looking::BlockedSettings::default().block, true),
            };
            rec.enter("backward", 0);
            let s = SplitSolver::new(gpu, &factors, &perm, a_hat, b_hat, n, block, lookahead, &mut rec);
            Some(s.map_err(RefineError::Gpu)?)
        }
    };
    let mut problem = General {
        a: a_hat,
        b: b_hat,
        n,
        a_norm: a_hat_norm,
        b_norm: inf_norm(b_hat),
        test: st.criterion,
        factor: factors,
        perm,
        forward,
        split,
        rec,
        iteration: 0,
    };
    let rules = Stopping {
        test: TestPoint::Iterate,
        threshold: st.threshold,
        max_iterations: st.max_iterations,
        patience: st.patience,
        growth_limit: st.growth_limit,
    };
    let out = refine(&mut problem, &rules).map_err(RefineError::Gpu)?;
    let rec = problem.rec;
    let x = scaled.x(&out.x);
    let backward_error = backward_error_bound(a, n, b, &x, a_norm);
    let why = match out.stop {
        Stop::Converged if backward_error > st.threshold => format!(
            "the refined answer's backward-error bound on the system as written is {backward_error:.2e} > {}",
            st.threshold
        ),
        Stop::Converged => {
            return Ok(Solved {
                backward_error,
                threshold: st.threshold,
                x,
                method: Method::Mixed,
                iterations: out.iterations,
                test: st.criterion,
                history: out.history,
                factor_time,
                refine_time: t1.elapsed(),
                total_time: t0.elapsed(),
                timeline: rec.finish().map_err(|e| RefineError::Gpu(e.into()))?,
                lu: st.lu,
                substitution: st.substitution,
            })
        }
        Stop::NonFinite => "refinement produced a non-finite iterate".to_string(),
        Stop::Stalled { criterion } => format!(
            "refinement stalled at {} criterion {criterion:.2e} after {} steps (κ(A)·u₃₂ too large)",
            name(st.criterion),
            out.iterations
        ),
        Stop::Diverged { criterion } => format!(
            "refinement diverged ({} criterion {criterion:.2e} after {} steps; κ(A)·u₃₂ > 1)",
            name(st.criterion),
            out.iterations
        ),
        Stop::Exhausted => format!("no convergence in {} refinement steps", st.max_iterations),
    };
    fallback(why, None, out.history, out.iterations, rec, factor_time)
}

fn name(c: Criterion) -> &'static str {
    match c {
        Criterion::Paper => "the paper's",
        Criterion::BackwardError => "the LINPACK backward-error",
    }
}

fn residual_norm(a: &[f64], n: usize, b: &[f64], x: &[f64]) -> f64 {
    rowmajor::matvec(a, n, n, x).iter().zip(b).map(|(p, q)| (q - p).abs()).fold(0.0, f64::max)
}
