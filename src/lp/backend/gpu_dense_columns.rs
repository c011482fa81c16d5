//! The hybrid policy's GPU side on the dense-column path ([`super::DenseColumnNormal`]): the
//! sparse columns' factor, the solves through it and the dominated rows' Schur complement stay
//! in double precision on the CPU; the dense columns' k×k matrix
//! K = W⁻¹ + Gᵀ·G, G = D^{-1/2}·L⁻¹·Π·Ẑ₁ (m×k, the half solve through P̃'s factor), is assembled
//! and factored on the GPU in single precision. Those are passes over the dense columns only
//! (k×k entries, each a sum over m rows) where the full matrix's would be m×m over every
//! column. K's factor comes back (k² floats) and its substitutions run on the CPU in double
//! precision; the hybrid policy checks every solution against A·D²·Aᵀ in double precision.

use super::{BackendError, DenseColumnNormal, FactorInfo};
use crate::gl::Gpu;
use crate::gpu::cholesky::Variant;
use crate::gpu::normal::{self, NormalOptions, NormalSystem};
use crate::gpu::TexturePool;
use crate::lp::settings::GpuOptions;
use faer::MatRef;

/// Above this a weight's inverse is taken as this (f32 holds it): the column's row of K is
/// then its diagonal, as it is in double precision to the digits K's factor keeps. Its pivot,
/// 1e10, stays below the GPU factorization's replaced pivot (1e15), which it is not.
const LARGEST_INVERSE_WEIGHT: f64 = 1e20;

/// Forms and factors K = W⁻¹ + Gᵀ·G somewhere other than the CPU's dense kernels.
pub trait GramFactor {
    /// K's Cholesky factor L (K = L·Lᵀ), column-major k×k, and the pivots it replaced, for G
    /// (m×k) and W⁻¹ (k values).
    fn factor(&mut self, g: MatRef<'_, f64>, w_inv: &[f64]) -> Result<(Vec<f64>, usize), BackendError>;
}

/// K on the GPU: a normal system of order k over m columns whose "A" is Gᵀ (written again
/// each factorization), d² = 1 and the diagonal W⁻¹ (the blocked and tiled kernels).
pub struct GramOnGpu<'g> {
    gpu: &'g Gpu,
    system: Box<dyn NormalSystem + 'g>,
    m: usize,
    k: usize,
}

impl<'g> GramOnGpu<'g> {
    /// The textures for G with m rows and k columns, made once. The papers' variants keep A
    /// in their passes' own layout and have no diagonal pass: a typed error.
    pub fn new(gpu: &'g Gpu, m: usize, k: usize, opts: &GpuOptions) -> Result<Self, BackendError> {
        if !matches!(opts.variant, Variant::Blocked(_) | Variant::Tiled(_)) {
            return Err(BackendError::Device(format!(
                "the dense columns' K needs the blocked or tiled kernels, not {}",
                opts.variant
            )));
        }
        let nopts = NormalOptions {
            variant: opts.variant,
            format: opts.format(),
            // K's factor is read back once per factorization: its solves are k×k.
            substitute_on_gpu: false,
            pivot_tolerance: opts.pivot_tolerance as f32,
            columns_per_pass: opts.assembly_columns,
        };
        let mut system = normal::build(gpu, &vec![0.0; k * m], k, m, nopts, TexturePool::new())?;
        system.allocate_diagonal()?;
        system.set_d2_host(&vec![1.0; m])?;
        Ok(Self { gpu, system, m, k })
    }
}

impl GramFactor for GramOnGpu<'_> {
    fn factor(&mut self, g: MatRef<'_, f64>, w_inv: &[f64]) -> Result<(Vec<f64>, usize), BackendError> {
        let (m, k) = (self.m, self.k);
        if g.nrows() != m || g.ncols() != k {
            return Err(BackendError::Dimension { op: "the dense columns' G", expected: m * k, got: g.nrows() * g.ncols() });
        }
        if w_inv.len() != k {
            return Err(BackendError::Dimension { op: "the dense columns' weights", expected: k, got: w_inv.len() });
        }
        let gt: Vec<f32> = (0..k).flat_map(|c| (0..m).map(move |i| g[(i, c)] as f32)).collect();
        if let Some(p) = gt.iter().position(|v| !v.is_finite()) {
            let (c, i) = (p / m, p % m);
            return Err(BackendError::Device(format!(
                "the dense columns' G holds {} at row {i}, column {c}: not a single-precision number",
                g[(i, c)]
            )));
        }
        self.system.set_a_host(&gt)?;
        let w: Vec<f32> = w_inv.iter().map(|&v| v.min(LARGEST_INVERSE_WEIGHT) as f32).collect();
        self.system.set_diagonal_host(&w)?;
        self.system.assemble()?;
        let replaced = self.system.factor()?;
        self.gpu.check("the factorization of the dense columns' K")?;
        // Row-major lower → column-major lower: entry (i, j), i ≥ j, at j·k + i.
        let rows = self.system.factor_lower()?;
        let mut lower = vec![0.0; k * k];
        for i in 0..k {
            for j in 0..=i {
                lower[j * k + i] = f64::from(rows[i * k + j]);
            }
        }
        #[cfg(feature = "fault-injection")]
        crate::lp::faults::poison_dense_column_factor(&mut lower);
        Ok((lower, replaced))
    }
}

/// The dense-column normal equations with K on the GPU: the hybrid policy's GPU side when the
/// cpu backend's plan is the dense-column path. (The gpu backend keeps its passes there: with
/// this path its single-precision vectors overflowed on NETLIB's seba, optimal with them.)
pub struct GpuDenseColumns<'g> {
    normal: DenseColumnNormal,
    gram: GramOnGpu<'g>,
}

impl<'g> GpuDenseColumns<'g> {
    /// The path's normal equations with their K formed and factored by `gram`.
    pub fn new(normal: DenseColumnNormal, gram: GramOnGpu<'g>) -> Self {
        Self { normal, gram }
    }

    /// P on its pattern and the dense columns' weights from d² (length n).
    pub fn assemble_host(&mut self, d2: &[f64]) -> Result<(), BackendError> {
        self.normal.assemble_host(d2)
    }

    /// The factorization with K on the GPU; where the dense-column path would fall back to the
    /// full matrix, an error (the hybrid policy then leaves the GPU for its CPU side).
    pub fn factor_host(&mut self) -> Result<FactorInfo, BackendError> {
        self.normal
            .factor_schur(Some(&mut self.gram))?
            .map_err(|why| BackendError::Device(format!("the dense-column path cannot stand: {why}")))
    }

    /// Solves with the last factorization.
    pub fn solve_host(&mut self, r: &[f64]) -> Result<Vec<f64>, BackendError> {
        self.normal.solve_schur(r)
    }
}
