//! The backend a solve runs on: built from the (resolved) settings, with its GPU side where the
//! settings ask for one and the context allows, and the MPC loop run on it.

use super::solve_error::SolveError;
use crate::clock::Instant;
use crate::cpu::products::DiagonalSplit;
use crate::gl::{GlError, Gpu};
use crate::gpu::cholesky::Variant;
use crate::gpu::TexturePool;
use crate::lp::backend::shape::NormalShape;
use crate::lp::backend::{
    check_gpu_limits, BackendError, CpuNormal, CpuPlan, CpuSide, CpuVectors, GpuDenseColumns, GpuNormal, GpuSide,
    GpuVectors, GramOnGpu, HybridNormal,
};
use crate::lp::log::Logger;
use crate::lp::mpc::{self, Judge, MpcOutcome, MpcProblem};
use crate::lp::settings::{Backend, GpuOptions, NormalFactorization, Settings};
use crate::lp::standard_form::StandardForm;
use crate::names::Named;
use std::sync::Arc;
use std::time::Duration;

/// Why the solve splits the free columns of `sf` (written whole) into x⁺ − x⁻, or `None` where
/// it keeps them whole: on the cpu backend's shaped paths (dense columns, block plus diagonal,
/// smaller side), where a free column is one dense column and the families took fewer iterations
/// (`bench families`, docs/results.md: the t-form L1 regression 2000 × 100 14 against 17, the
/// Chebyshev fit 1000 points × 100 11 against 13). Split elsewhere: on the full path greenbeb and
/// perold, optimal and reduced accuracy split, ended at the iteration limit with them whole, and
/// on the GL backends, whose single precision was not measured with them — except the hybrid
/// on the dense-column path, whose GPU side holds only the dense columns' K.
pub(crate) fn free_column_split(sf: &StandardForm, st: &Settings) -> Option<&'static str> {
    if sf.free.is_empty() {
        return None;
    }
    match st.backend_options() {
        Backend::Cpu { cpu, .. } | Backend::Auto { cpu, .. } => {
            if cpu.factorization != NormalFactorization::Auto {
                return Some("a factorization asked for by name factors the full matrix");
            }
            match CpuPlan::new(&sf.a, &sf.free_pairs).shape {
                NormalShape::Full => Some("the full m×m matrix's path keeps every column ≥ 0"),
                _ => None,
            }
        }
        // The dense-column path's GPU side holds only K; every vector is the CPU's.
        Backend::Hybrid { gpu, .. }
            if rgba(gpu) && CpuPlan::new(&sf.a, &sf.free_pairs).shape == NormalShape::DenseColumns =>
        {
            None
        }
        _ => Some("the GL backends keep every column ≥ 0"),
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
    let paths = st.cpu_paths();
    if empty && st.backend().uses_gl() {
        // Presolve fixed every column: there is nothing for a GPU to compute (and no 0×0
        // texture to make), so every backend answers as the cpu backend does.
        notes.push("the standard form is empty (presolve fixed every column): solved without the GPU".into());
    }
    Ok(match (st.backend_options(), gpu) {
        (_, _) if empty => {
            let vk = CpuVectors::for_matrix(&sf.a, &sf.free_pairs).with_paths(paths);
            let (mut vk, mut ne) = (vk, CpuNormal::new(m, n).with_paths(paths));
            *setup = t_setup.elapsed();
            let mut out = mpc::solve_judged(&mut vk, &mut ne, problem, st, log, Some(judge));
            out.gpu_iterations = st.backend().uses_gl().then_some(0);
            out
        }
        // `Auto` is resolved before a backend is built (solve_chosen); the cpu backend is its
        // answer wherever the device was not asked.
        (Backend::Cpu { cpu, .. } | Backend::Auto { cpu, .. }, _) => {
            let plan = CpuPlan::new(&sf.a, &sf.free_pairs);
            // A factorization asked for by name is the full m×m matrix's: the shaped paths, which
            // factor something else (the sparse columns' product, a block plus a diagonal, the
            // smaller side), are then not taken.
            let named = cpu.factorization != NormalFactorization::Auto;
            if named && plan.shape != NormalShape::Full {
                log.line(&format!(
                    "factorization {} asks for the m×m matrix factored so: not the {} path the shape suggests",
                    cpu.factorization.name(),
                    plan.shape.name()
                ));
            }
            if let Some(ne) = plan.dense_column_normal(&sf.a, paths).filter(|_| !named) {
                let mut ne = ne.map_err(SolveError::Backend)?;
                // A held sparse for the products: the path is chosen for its sparse columns.
                let mut vk = CpuVectors::sparse(sf.a.clone(), &sf.free_pairs).with_paths(paths);
                log.line(&plan.describe());
                *setup = t_setup.elapsed();
                return Ok(mpc::solve_judged(&mut vk, &mut ne, problem, st, log, Some(judge)));
            }
            if let Some(split) = plan.split(&sf.a).filter(|_| !named) {
                let mut vk = plan.vectors(&sf.a, &sf.free_pairs, Some(&split)).with_paths(paths);
                log.line(&plan.describe());
                *setup = t_setup.elapsed();
                let mut ne = plan.shaped_normal(&split, paths, cpu.mixed_precision);
                return Ok(mpc::solve_judged(&mut vk, &mut ne, problem, st, log, Some(judge)));
            }
            let mut vk = CpuVectors::for_matrix(&sf.a, &sf.free_pairs).with_paths(paths);
            let mut ne = CpuNormal::new(m, n)
                .with_paths(paths)
                .with_mixed_precision(cpu.mixed_precision, &vk)
                .with_factorization(cpu.factorization, &vk)
                .map_err(SolveError::Backend)?;
            log.line(&ne.describe(&vk));
            *setup = t_setup.elapsed();
            mpc::solve_judged(&mut vk, &mut ne, problem, st, log, Some(judge))
        }
        (Backend::Gpu { .. }, None) => {
            return Err(SolveError::Gl(GlError::NoEgl { detail: "no GL context was given to the gpu backend".into() }))
        }
        (Backend::Gpu { gpu: options, .. }, Some(g)) => {
            check_gpu_limits(g, m, n, options).map_err(SolveError::Backend)?;
            injected_setup_fault(g).map_err(SolveError::Backend)?;
            let pool = TexturePool::new();
            let dense = sf.dense_a();
            let plan = CpuPlan::new(&sf.a, &sf.free_pairs);
            // With columns of one entry the normal equations pass over the dense block (d² read
            // back each iteration for the block's weights and Δ); the vector kernels read every
            // column, from a texture of their own.
            let (mut ne, mut vk) = match gpu_split(plan.split(&sf.a), options) {
                Some(split) => {
                    log.line(&format!(
                        "gpu: the normal equations pass over the block's columns ({} block columns, {} columns of one entry as a diagonal; d² read back each iteration); the vector kernels over every column",
                        plan.facts.block, plan.facts.units
                    ));
                    let normal = GpuNormal::over_block(g, split, options, pool.clone()).map_err(SolveError::Backend)?;
                    let vk =
                        GpuVectors::over_own_a(g, dense.as_ref(), &sf.free_pairs, pool).map_err(SolveError::Backend)?;
                    (normal, vk)
                }
                None => {
                    let normal =
                        GpuNormal::new(g, dense.as_ref(), options, pool.clone()).map_err(SolveError::Backend)?;
                    let vk = GpuVectors::new(g, normal.a_matrix(), m, n, &sf.free_pairs, pool)
                        .map_err(SolveError::Backend)?;
                    (normal, vk)
                }
            };
            *setup = t_setup.elapsed();
            mpc::solve_judged(&mut vk, &mut ne, problem, st, log, Some(judge))
        }
        (Backend::Hybrid { gpu: options, rules, .. }, g) => {
            // A held dense (m×n) only for the paths that read it: the full matrix's.
            let dense = std::cell::OnceCell::new();
            let dense_a = || dense.get_or_init(|| sf.dense_a());
            // The cpu backend's plan for A: with columns of one entry the GPU side works on the
            // dense block and a diagonal (its passes over the block's columns where its kernels
            // add a diagonal: the blocked and tiled ones), the CPU side on the plan's path. On
            // the dense-column path the GPU side is that path with the dense columns' k×k
            // matrix on the GPU (blocked and tiled kernels; the papers' take the full matrix).
            let plan = CpuPlan::new(&sf.a, &sf.free_pairs);
            let split = plan.split(&sf.a);
            let gpu_split = gpu_split(split.clone(), options);
            let over_dense = plan.shape == NormalShape::DenseColumns && rgba(options);
            let gpu_cols = gpu_split.as_ref().map_or(n, |s| s.block().ncols());
            let side = match g {
                None => {
                    notes.push("no GL context: the hybrid backend ran on the CPU".to_string());
                    None
                }
                Some(g) => {
                    let built = injected_setup_fault(g).and_then(|()| match (&gpu_split, over_dense) {
                        (_, true) => {
                            let normal = plan.dense_column_normal(&sf.a, paths).transpose()?;
                            let normal = normal.ok_or_else(|| BackendError::Device("no dense-column path".into()))?;
                            let (rows, k) = normal.dims();
                            check_gpu_limits(g, k, rows, options)?;
                            let gram = GramOnGpu::new(g, rows, k, options)?;
                            Ok(GpuSide::DenseColumns(Box::new(GpuDenseColumns::new(normal, gram))))
                        }
                        (Some(s), false) => check_gpu_limits(g, m, gpu_cols, options)
                            .and_then(|()| GpuNormal::over_block(g, s.clone(), options, TexturePool::new()))
                            .map(GpuSide::from),
                        (None, false) => check_gpu_limits(g, m, gpu_cols, options)
                            .and_then(|()| GpuNormal::new(g, dense_a().as_ref(), options, TexturePool::new()))
                            .map(GpuSide::from),
                    });
                    match built {
                        Ok(side) => Some(side),
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
            let gpu_side = match (over_dense, gpu_split.is_some()) {
                (true, _) => "the dense columns' k×k matrix (the sparse part on the CPU)",
                (false, true) => "passes over the block's columns",
                (false, false) => "every column",
            };
            // The CPU side as the cpu backend would form it (exact: no reduced precision). On the
            // dense-column path its predicted work is the cost rule's CPU estimate, so the policy
            // leaves a GPU whose full product costs more than the CPU's path.
            let dense_columns = plan.dense_column_normal(&sf.a, paths).transpose().map_err(SolveError::Backend)?;
            let (mut vk, mut ne) = match (dense_columns, split) {
                (Some(cpu), _) => {
                    log.line(&format!("hybrid: GPU side {gpu_side}; CPU side {}", plan.describe()));
                    let vk = CpuVectors::sparse(sf.a.clone(), &sf.free_pairs).with_paths(paths);
                    let cpu = CpuSide::Shaped(Box::new(cpu));
                    (vk, HybridNormal::new(side, cpu, *rules).with_cpu_flops(2.0 * plan.cost()))
                }
                (None, Some(split)) => {
                    log.line(&format!("hybrid: GPU side {gpu_side}; CPU side {}", plan.describe()));
                    let vk = plan.vectors(&sf.a, &sf.free_pairs, Some(&split)).with_paths(paths);
                    let cpu = CpuSide::Shaped(plan.shaped_normal(&split, paths, false));
                    (vk, HybridNormal::new(side, cpu, *rules).with_cpu_flops(2.0 * plan.cost()))
                }
                (None, None) => {
                    let vk = CpuVectors::new(dense_a().as_ref(), &sf.free_pairs).with_paths(paths);
                    let cpu = CpuSide::Full(Box::new(CpuNormal::new(m, n).with_paths(paths)));
                    (vk, HybridNormal::new(side, cpu, *rules))
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

/// The split the GL backends' normal equations take: the blocked and tiled kernels add a
/// diagonal, the papers' have no such pass and keep every column, as does an A without a dense
/// column (a block of no columns has no texture to make).
fn gpu_split(split: Option<Arc<DiagonalSplit>>, options: &GpuOptions) -> Option<Arc<DiagonalSplit>> {
    split.filter(|s| rgba(options) && s.block().ncols() > 0)
}

/// The blocked and tiled kernels: those with a diagonal pass and a matrix written again.
fn rgba(options: &GpuOptions) -> bool {
    matches!(options.variant, Variant::Blocked(_) | Variant::Tiled(_))
}

/// The set-up fault a test injected (feature `fault-injection`), through the real GL paths.
#[cfg(feature = "fault-injection")]
fn injected_setup_fault(g: &Gpu) -> Result<(), BackendError> {
    crate::lp::faults::at_setup(g).map_err(BackendError::from)
}

/// Without the `fault-injection` feature there is nothing to inject.
#[cfg(not(feature = "fault-injection"))]
fn injected_setup_fault(_: &Gpu) -> Result<(), BackendError> {
    Ok(())
}
