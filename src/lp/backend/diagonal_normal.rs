//! The normal equations of A with columns of one entry, m×m: the dense block's
//! A_D·W·A_Dᵀ plus the unit columns' diagonal ([`crate::cpu::products::DiagonalSplit`]),
//! factored and solved by [`CpuNormal`] — mixed precision, the exact phase's column split and
//! the breakdown retry included, all on the block instead of the whole of A.

use super::{BackendError, CpuNormal, CpuVectors, FactorCounts, FactorInfo, NormalEquations};
use crate::cpu::products::{CpuPaths, DiagonalSplit};
use std::sync::Arc;

/// [`CpuNormal`] over the block, plus the diagonal.
pub struct DiagonalNormal {
    inner: CpuNormal,
    split: Arc<DiagonalSplit>,
    last_d2: Vec<f64>,
}

/// Forms the block's product and adds the diagonal.
fn assemble(inner: &mut CpuNormal, split: &DiagonalSplit, d2: &[f64]) -> Result<(), BackendError> {
    if d2.len() != split.ncols() {
        return Err(BackendError::Dimension { op: "assemble", expected: split.ncols(), got: d2.len() });
    }
    inner.assemble_from(split.block(), &split.slot_weights(d2))?;
    let mut diag = vec![0.0; split.block().nrows()];
    split.add_diagonal(d2, &mut diag);
    inner.add_diagonal(&diag);
    Ok(())
}

impl DiagonalNormal {
    /// The normal equations of the A that `split` was made from, on `paths`, with mixed
    /// precision when `mixed_precision` (and the block has enough rows).
    pub fn new(split: Arc<DiagonalSplit>, paths: CpuPaths, mixed_precision: bool) -> Self {
        let (m, k) = (split.block().nrows(), split.block().ncols());
        let inner = CpuNormal::new(m, k).with_paths(paths).with_block_mixed_precision(mixed_precision, m);
        Self { inner, split, last_d2: Vec::new() }
    }

    /// The split (block, unit columns, bare rows).
    pub fn split(&self) -> &DiagonalSplit {
        &self.split
    }

    /// Forms A·D²·Aᵀ (lower triangle) from d² (length n).
    pub fn assemble_host(&mut self, d2: &[f64]) -> Result<(), BackendError> {
        assemble(&mut self.inner, &self.split, d2)
    }

    /// The assembled m×m matrix or its factor, lower triangle ([`CpuNormal::matrix`]).
    pub fn matrix(&self) -> faer::MatRef<'_, f64> {
        self.inner.matrix()
    }

    /// Factors the assembled matrix ([`CpuNormal::factor_assembled`]).
    pub fn factor_assembled(&mut self) -> Result<FactorInfo, BackendError> {
        self.inner.factor_assembled()
    }

    /// Solves with the current factor ([`CpuNormal::solve_host`]).
    pub fn solve_host(&mut self, r: &[f64]) -> Result<Vec<f64>, BackendError> {
        self.inner.solve_host(r)
    }
}

impl NormalEquations<CpuVectors> for DiagonalNormal {
    fn name(&self) -> &str {
        NormalEquations::<CpuVectors>::name(&self.inner)
    }
    fn assemble(&mut self, _vk: &mut CpuVectors, d2: &Vec<f64>) -> Result<(), BackendError> {
        self.last_d2.clone_from(d2);
        self.assemble_host(d2)
    }
    fn factor(&mut self, _vk: &mut CpuVectors) -> Result<FactorInfo, BackendError> {
        let info = match self.inner.factor_assembled() {
            Err(BackendError::Factorization { .. }) if self.last_d2.len() == self.split.ncols() => {
                let (split, d2) = (&self.split, &self.last_d2);
                self.inner.refactor_deflating(|ne| assemble(ne, split, d2))
            }
            other => other,
        };
        info.map(|i| FactorInfo { inexact: self.inner.factor_is_inexact(), ..i })
    }
    fn solve(&mut self, _vk: &mut CpuVectors, r: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        self.inner.solve_host(r)
    }
    fn require_exact(&mut self) -> bool {
        NormalEquations::<CpuVectors>::require_exact(&mut self.inner)
    }
    fn counts(&self) -> FactorCounts {
        NormalEquations::<CpuVectors>::counts(&self.inner)
    }
}
