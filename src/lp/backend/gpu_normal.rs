//! The normal equations on the GPU in single precision, shared by the `gpu` backend (right-hand
//! sides and solutions in textures) and the `hybrid` policy (host vectors in double precision,
//! converted at the boundary): an adapter from [`crate::gpu::normal::NormalSystem`] (papers',
//! blocked or tiled kernels) to the backend's errors, with the faults tests inject.

use super::{BackendError, FactorCounts, FactorInfo, GpuFault, GpuVectors, NormalEquations, VectorKernels};
use crate::cpu::products::DiagonalSplit;
use crate::gl::{GlError, Gpu};
use crate::gpu::normal::{self, AMatrix, NormalOptions, NormalSystem};
use crate::gpu::{GpuError, PooledVector, TexturePool, Vector, VectorLayout};
use crate::lp::settings::{GpuOptions, Substitution};
use faer::MatRef;
use std::sync::Arc;

impl From<GpuError> for BackendError {
    fn from(e: GpuError) -> Self {
        match e {
            GpuError::NotPositiveDefinite { column, pivot } => {
                BackendError::Factorization { column, pivot: pivot as f64 }
            }
            GpuError::Gl(g) => g.into(),
            other => BackendError::Device(other.to_string()),
        }
    }
}

impl From<GlError> for BackendError {
    fn from(g: GlError) -> Self {
        BackendError::Gpu { kind: GpuFault::of(&g), detail: g.to_string() }
    }
}

/// Single-precision normal equations on a GL context borrowed for their lifetime.
pub struct GpuNormal<'g> {
    gpu: &'g Gpu,
    m: usize,
    n: usize,
    system: Box<dyn NormalSystem + 'g>,
    /// Over the dense block of A only, plus the unit columns' diagonal ([`Self::over_block`]).
    split: Option<Arc<DiagonalSplit>>,
    factorizations: usize,
    /// The count when the loop's first iteration began: the `gpu` backend's iterations are
    /// counted from there (the starting point's factorization is not one).
    counted: Option<usize>,
}

impl<'g> GpuNormal<'g> {
    /// Uploads A (m×n, f64 → f32) once; refuses non-finite entries and sizes past the driver's
    /// texture limit with typed errors. Textures for vectors come from `pool`. The settings'
    /// GPU options become the normal system's here, once.
    pub fn new(gpu: &'g Gpu, a: MatRef<'_, f64>, opts: &GpuOptions, pool: TexturePool) -> Result<Self, BackendError> {
        let (m, n) = (a.nrows(), a.ncols());
        let data: Vec<f32> = (0..m).flat_map(|i| (0..n).map(move |k| a[(i, k)] as f32)).collect();
        let nopts = NormalOptions {
            variant: opts.variant,
            format: opts.format(),
            substitute_on_gpu: opts.substitution == Substitution::Gpu,
            pivot_tolerance: opts.pivot_tolerance as f32,
            columns_per_pass: opts.assembly_columns,
        };
        let system = normal::build(gpu, &data, m, n, nopts, pool)?;
        Ok(Self { gpu, m, n, system, split: None, factorizations: 0, counted: None })
    }

    /// The normal equations of the A that `split` was made from, with passes over its dense
    /// block only: the block (m×k) is uploaded, each iteration's d² becomes the block's k
    /// weights and the unit columns' diagonal Δ (computed on the host, m values), and the
    /// assembly forms A_D·W·A_Dᵀ + Δ — the same matrix as A·D²·Aᵀ, in k columns' passes instead
    /// of n. Weights come from the host only ([`Self::set_d2_host`]); the papers' variants have
    /// no diagonal pass (an error).
    pub fn over_block(
        gpu: &'g Gpu,
        split: Arc<DiagonalSplit>,
        opts: &GpuOptions,
        pool: TexturePool,
    ) -> Result<Self, BackendError> {
        let mut me = Self::new(gpu, split.block(), opts, pool)?;
        me.system.allocate_diagonal()?;
        me.n = split.ncols();
        me.split = Some(split);
        Ok(me)
    }

    /// A on the GPU in the layout of the vector kernels, shared with them (the dense block
    /// alone for [`Self::over_block`]).
    pub fn a_matrix(&self) -> AMatrix {
        self.system.a_matrix()
    }

    /// The layout of the vectors the system takes.
    pub fn layout(&self) -> VectorLayout {
        self.system.layout()
    }

    /// (m, n).
    pub fn dims(&self) -> (usize, usize) {
        (self.m, self.n)
    }

    /// Factorizations done so far.
    pub fn factorizations(&self) -> usize {
        self.factorizations
    }

    /// Whether the system is over the dense block of a split ([`Self::over_block`]).
    pub fn is_split(&self) -> bool {
        self.split.is_some()
    }

    /// The matrix assembled last, before its factorization: the lower triangle, row-major m×m,
    /// in f64 (blocked and tiled kernels; for tests against a double-precision reference).
    pub fn assembled_host(&self) -> Result<Vec<f64>, BackendError> {
        Ok(self.system.assembled()?.into_iter().map(f64::from).collect())
    }

    /// Sets D² from a GPU vector (a copy pass; nothing leaves the GPU).
    pub fn set_d2_texture(&mut self, d2: &Vector) -> Result<(), BackendError> {
        if self.split.is_some() {
            return Err(BackendError::Device("the split normal equations take d² from the host".into()));
        }
        if d2.len() != self.n {
            return Err(BackendError::Dimension { op: "assemble", expected: self.n, got: d2.len() });
        }
        Ok(self.system.set_d2(d2)?)
    }

    /// Sets D² from host values (n floats uploaded).
    pub fn set_d2_host(&mut self, d2: &[f64]) -> Result<(), BackendError> {
        if d2.len() != self.n {
            return Err(BackendError::Dimension { op: "assemble", expected: self.n, got: d2.len() });
        }
        let d: Vec<f32> = match &self.split {
            Some(split) => {
                let mut delta = vec![0.0; self.m];
                split.add_diagonal(d2, &mut delta);
                let delta: Vec<f32> = delta.iter().map(|&v| v as f32).collect();
                self.system.set_diagonal_host(&delta)?;
                split.slot_weights(d2).iter().map(|&v| v as f32).collect()
            }
            None => d2.iter().map(|&v| v as f32).collect(),
        };
        #[cfg(feature = "fault-injection")]
        let d = crate::lp::faults::poison_d2(d);
        Ok(self.system.set_d2_host(&d)?)
    }

    /// Forms A·D²·Aᵀ from the D² set last. Waits for the GPU at the end, so that the loop's
    /// per-phase clock charges the assembly to the assembly (passes run asynchronously).
    pub fn assemble_set(&mut self) -> Result<(), BackendError> {
        self.system.assemble()?;
        self.gpu.finish();
        Ok(())
    }

    /// Factors the assembled matrix with the tiny-pivot treatment.
    pub fn factor_assembled(&mut self) -> Result<FactorInfo, BackendError> {
        let replaced = self.system.factor()?;
        // Once per factorization: a GL error or a GPU reset (robust contexts) since the last check.
        self.gpu.check("the factorization of A·D²·Aᵀ")?;
        #[cfg(feature = "fault-injection")]
        crate::lp::faults::after_factor()?;
        self.factorizations += 1;
        Ok(FactorInfo { replaced_pivots: replaced, inexact: false })
    }

    /// Solves A·D²·Aᵀ·u = r for a GPU vector r.
    pub fn solve_texture(&mut self, r: &Vector) -> Result<PooledVector, BackendError> {
        if r.len() != self.m {
            return Err(BackendError::Dimension { op: "solve", expected: self.m, got: r.len() });
        }
        let u = self.system.solve(r)?;
        // As after the assembly: the solves' passes are charged to the solves.
        self.gpu.finish();
        Ok(u)
    }

    /// Solves A·D²·Aᵀ·u = r for host values; a non-finite entry of u is a [`GpuFault::NonFinite`].
    pub fn solve_host(&mut self, r: &[f64]) -> Result<Vec<f64>, BackendError> {
        if r.len() != self.m {
            return Err(BackendError::Dimension { op: "solve", expected: self.m, got: r.len() });
        }
        let u = self.system.solve_host(r)?;
        if let Some((i, v)) = u.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(BackendError::Gpu {
                kind: GpuFault::NonFinite,
                detail: format!("the GPU's solution of the normal equations holds {v} at row {i}"),
            });
        }
        Ok(u)
    }
}

/// The `gpu` backend's normal equations: right-hand sides and solutions stay in textures.
impl<'g> NormalEquations<GpuVectors<'g>> for GpuNormal<'g> {
    fn name(&self) -> &str {
        "gpu"
    }
    fn assemble(&mut self, vk: &mut GpuVectors<'g>, d2: &PooledVector) -> Result<(), BackendError> {
        if self.is_split() {
            // The block's weights and Δ are formed on the host: d² (n floats) is read back,
            // a non-finite entry refused as a device fault by the read.
            let host = vk.download(d2)?;
            self.set_d2_host(&host)?;
        } else {
            self.set_d2_texture(d2)?;
        }
        self.assemble_set()
    }
    fn factor(&mut self, _vk: &mut GpuVectors<'g>) -> Result<FactorInfo, BackendError> {
        self.factor_assembled()
    }
    fn solve(&mut self, _vk: &mut GpuVectors<'g>, r: &PooledVector) -> Result<PooledVector, BackendError> {
        self.solve_texture(r)
    }
    fn begin_iteration(&mut self, _k: usize, _mu: f64) {
        self.counted.get_or_insert(self.factorizations);
    }
    fn counts(&self) -> FactorCounts {
        FactorCounts { gpu: Some(self.counted.map_or(0, |c| self.factorizations - c)), single: None }
    }
}
