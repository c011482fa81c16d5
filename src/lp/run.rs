//! The backend a solve runs on: built from the (resolved) settings, with its GPU side where the
//! settings ask for one and the context allows, and the MPC loop run on it.

use super::solve_error::SolveError;
use crate::clock::Instant;
use crate::gl::{GlError, Gpu};
use crate::gpu::cholesky::Variant;
use crate::gpu::TexturePool;
use crate::layout::Format;
use crate::lp::backend::{
    check_gpu_limits, BackendError, CpuNormal, CpuPlan, CpuSide, CpuVectors, FaultInjection, GpuFault, GpuNormal,
    GpuNormalOptions, GpuSide, GpuVectors, HybridNormal,
};
use crate::lp::log::Logger;
use crate::lp::mpc::{self, Judge, MpcOutcome, MpcProblem};
use crate::lp::settings::{BackendKind, Settings};
use crate::lp::standard_form::StandardForm;
use std::time::Duration;

/// The options of the GPU normal equations from the settings.
pub(crate) fn gpu_options(st: &Settings) -> GpuNormalOptions {
    GpuNormalOptions {
        variant: st.gpu_variant,
        // The packed format exists for the 2008 papers' variant only (its kernels address the
        // rotated half); every other variant stores A·D²·Aᵀ in full.
        format: if st.gpu_variant == crate::gpu::cholesky::Variant::PAPER { st.normal_format } else { Format::Full },
        substitution: st.substitution,
        pivot_tolerance: st.gpu_pivot_tolerance,
        columns_per_pass: st.assembly_columns,
        fault: st.gpu_fault,
    }
}

/// Builds the backend the settings ask for and runs the loop on it.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_backend(
    sf: &StandardForm,
    problem: &MpcProblem,
    st: &Settings,
    log: &mut Logger,
    gpu: Option<&Gpu>,
    setup: &mut Duration,
    notes: &mut Vec<String>,
    judge: Judge<'_>,
) -> Result<MpcOutcome, SolveError> {
    let t_setup = Instant::now();
    let (m, n) = sf.dims();
    let empty = m == 0 || n == 0;
    if empty && st.backend.uses_gl() {
        // Presolve fixed every column: there is nothing for a GPU to compute (and no 0×0
        // texture to make), so every backend answers as the cpu backend does.
        notes.push("the standard form is empty (presolve fixed every column): solved without the GPU".into());
    }
    Ok(match (st.backend, gpu) {
        (_, _) if empty => {
            let vk = CpuVectors::for_matrix(&sf.a, &sf.free_pairs).with_paths(st.cpu);
            let (mut vk, mut ne) = (vk, CpuNormal::new(m, n).with_paths(st.cpu));
            *setup = t_setup.elapsed();
            let mut out = mpc::solve_judged(&mut vk, &mut ne, problem, st, log, Some(judge));
            out.gpu_iterations = st.backend.uses_gl().then_some(0);
            out
        }
        // `Auto` is resolved before a backend is built (solve_chosen); the cpu backend is its
        // answer wherever the device was not asked.
        (BackendKind::Cpu | BackendKind::Auto, _) => {
            let plan = CpuPlan::new(&sf.a, &sf.free_pairs);
            if let Some(split) = plan.split(&sf.a) {
                let mut vk = plan.vectors(&sf.a, &sf.free_pairs, Some(&split)).with_paths(st.cpu);
                log.line(&plan.describe());
                *setup = t_setup.elapsed();
                let mut ne = plan.shaped_normal(&split, st.cpu, st.mixed_precision);
                return Ok(mpc::solve_judged(&mut vk, &mut ne, problem, st, log, Some(judge)));
            }
            let mut vk = CpuVectors::for_matrix(&sf.a, &sf.free_pairs).with_paths(st.cpu);
            let mut ne = CpuNormal::new(m, n)
                .with_paths(st.cpu)
                .with_mixed_precision(st.mixed_precision, &vk)
                .with_factorization(st.factorization, &vk)
                .map_err(SolveError::Backend)?;
            log.line(&ne.describe(&vk));
            *setup = t_setup.elapsed();
            mpc::solve_judged(&mut vk, &mut ne, problem, st, log, Some(judge))
        }
        (BackendKind::Gpu, None) => {
            return Err(SolveError::Gl(GlError::NoEgl { detail: "no GL context was given to the gpu backend".into() }))
        }
        (BackendKind::Gpu, Some(g)) => {
            check_gpu_limits(g, m, n, &gpu_options(st)).map_err(SolveError::Backend)?;
            setup_fault(g, st).map_err(SolveError::Backend)?;
            let pool = TexturePool::new();
            let dense = sf.dense_a();
            let normal =
                GpuNormal::new(g, dense.as_ref(), gpu_options(st), pool.clone()).map_err(SolveError::Backend)?;
            let mut vk =
                GpuVectors::new(g, normal.a_matrix(), m, n, &sf.free_pairs, pool).map_err(SolveError::Backend)?;
            let mut ne = GpuSide::new(normal);
            *setup = t_setup.elapsed();
            mpc::solve_judged(&mut vk, &mut ne, problem, st, log, Some(judge))
        }
        (BackendKind::Hybrid, g) => {
            let dense = sf.dense_a();
            // The cpu backend's plan for A: with columns of one entry both sides work on the
            // dense block and a diagonal (the GPU's passes over the block's columns where its
            // kernels add a diagonal: the blocked and tiled ones).
            let plan = CpuPlan::new(&sf.a, &sf.free_pairs);
            let split = plan.split(&sf.a);
            let opts = gpu_options(st);
            let gpu_split = split.clone().filter(|_| matches!(opts.variant, Variant::Blocked(_) | Variant::Tiled(_)));
            let gpu_cols = gpu_split.as_ref().map_or(n, |s| s.block().ncols());
            let side = match g {
                None => {
                    notes.push("no GL context: the hybrid backend ran on the CPU".to_string());
                    None
                }
                Some(g) => {
                    match check_gpu_limits(g, m, gpu_cols, &opts).and_then(|()| setup_fault(g, st)).and_then(|()| {
                        match &gpu_split {
                            Some(s) => GpuNormal::over_block(g, s.clone(), opts, TexturePool::new()),
                            None => GpuNormal::new(g, dense.as_ref(), opts, TexturePool::new()),
                        }
                    }) {
                        Ok(normal) => Some(normal),
                        Err(e) => {
                            let note = format!("hybrid: the GPU could not be set up ({e}); solved on the CPU");
                            log.line(&format!("notice: {note}"));
                            notes.push(note);
                            None
                        }
                    }
                }
            };
            let on_gpu = side.is_some();
            // The CPU side as the cpu backend would form it (exact: no reduced precision).
            let (mut vk, mut ne) = match split {
                Some(split) => {
                    let gpu_side = if gpu_split.is_some() { "passes over the block's columns" } else { "every column" };
                    log.line(&format!("hybrid: GPU side {gpu_side}; CPU side {}", plan.describe()));
                    let vk = plan.vectors(&sf.a, &sf.free_pairs, Some(&split)).with_paths(st.cpu);
                    let cpu = CpuSide::Shaped(plan.shaped_normal(&split, st.cpu, false));
                    (vk, HybridNormal::new(side, cpu, st.hybrid).with_cpu_flops(2.0 * plan.cost()))
                }
                None => {
                    let vk = CpuVectors::new(dense.as_ref(), &sf.free_pairs).with_paths(st.cpu);
                    (
                        vk,
                        HybridNormal::new(
                            side,
                            CpuSide::Full(Box::new(CpuNormal::new(m, n).with_paths(st.cpu))),
                            st.hybrid,
                        ),
                    )
                }
            };
            *setup = t_setup.elapsed();
            let mut out = mpc::solve_judged(&mut vk, &mut ne, problem, st, log, Some(judge));
            if let Some(sw) = ne.switch() {
                let note = format!("hybrid: switched to the CPU at iteration {}: {}", sw.iteration, sw.reason);
                log.line(&note);
                notes.push(note);
            }
            if !on_gpu {
                // Without a GPU side the policy is the cpu backend, which reports no GPU count.
                out.gpu_iterations = None;
            }
            out
        }
    })
}

/// A kernel that cannot compile, built only for [`FaultInjection::BrokenKernel`].
const BROKEN_KERNEL: crate::gl::Kernel =
    crate::gl::Kernel { file: "fault_injection.frag", source: "void main() { this_is_not_glsl = ; }\n", variants: &[] };

/// Injects the set-up faults of [`FaultInjection`] through the real GL paths.
fn setup_fault(g: &Gpu, settings: &Settings) -> Result<(), BackendError> {
    if settings.gpu_fault == Some(FaultInjection::BrokenKernel) {
        g.prepare(&BROKEN_KERNEL, &[])
            .map_err(|e| BackendError::Gpu { kind: GpuFault::of(&e), detail: e.to_string() })?;
    }
    Ok(())
}
