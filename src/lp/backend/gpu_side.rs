//! The hybrid policy's single-precision side ([`super::HybridNormal`]): the GPU's normal
//! equations over every column (or the dense block plus a diagonal), or the dense-column path
//! with the dense columns' k×k matrix on the GPU.

use super::{BackendError, FactorInfo, GpuDenseColumns, GpuNormal};

/// The hybrid policy's single-precision side.
pub enum GpuSide<'g> {
    /// A·D²·Aᵀ over every column, or over the dense block plus the unit columns' diagonal.
    Normal(GpuNormal<'g>),
    /// The dense-column path with the dense columns' k×k matrix on the GPU.
    DenseColumns(Box<GpuDenseColumns<'g>>),
}

impl<'g> From<GpuNormal<'g>> for GpuSide<'g> {
    fn from(g: GpuNormal<'g>) -> Self {
        GpuSide::Normal(g)
    }
}

impl GpuSide<'_> {
    /// The backend column's name while this side factors.
    pub(super) fn name(&self) -> &'static str {
        match self {
            GpuSide::Normal(_) => "hybrid/gpu",
            GpuSide::DenseColumns(_) => "hybrid/gpu dense columns",
        }
    }

    pub(super) fn assemble(&mut self, d2: &[f64]) -> Result<(), BackendError> {
        match self {
            GpuSide::Normal(g) => g.set_d2_host(d2).and_then(|()| g.assemble_set()),
            GpuSide::DenseColumns(g) => g.assemble_host(d2),
        }
    }

    pub(super) fn factor(&mut self) -> Result<FactorInfo, BackendError> {
        match self {
            GpuSide::Normal(g) => g.factor_assembled(),
            GpuSide::DenseColumns(g) => g.factor_host(),
        }
    }

    pub(super) fn solve_host(&mut self, r: &[f64]) -> Result<Vec<f64>, BackendError> {
        match self {
            GpuSide::Normal(g) => g.solve_host(r),
            GpuSide::DenseColumns(g) => g.solve_host(r),
        }
    }
}
