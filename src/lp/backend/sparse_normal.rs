//! The cpu backend's normal matrix held sparse: its values on the pattern of its lower
//! triangle, and their supernodal Cholesky factor.

use super::{BackendError, FactorInfo};
use crate::cpu::cholesky::PivotRule;
use crate::cpu::sparse_cholesky::{FactorError, LowerPattern, SparseCholesky};

/// The normal matrix on the pattern of its lower triangle, and its sparse factor.
pub struct SparseNormal {
    pub pattern: LowerPattern,
    pub values: Vec<f64>,
    pub chol: SparseCholesky,
}

impl SparseNormal {
    /// The sparse factorization: the same unit-diagonal scaling and pivot rule (the diagonal is
    /// the first entry of each column of the pattern), deflation aside.
    pub fn factor(&mut self, scale: &mut [f64], rule: PivotRule) -> Result<FactorInfo, BackendError> {
        let p = &self.pattern;
        for (k, s) in scale.iter_mut().enumerate() {
            let d = self.values[p.col_ptr[k]];
            *s = if d > 0.0 && d.is_finite() { 1.0 / d.sqrt() } else { 1.0 };
        }
        for j in 0..p.n {
            let (a, b) = (p.col_ptr[j], p.col_ptr[j + 1]);
            for (v, &i) in self.values[a..b].iter_mut().zip(&p.row_idx[a..b]) {
                *v *= scale[i] * scale[j];
            }
        }
        match self.chol.factor(&self.values, rule.tiny, rule.huge) {
            Ok(replaced) => Ok(FactorInfo { replaced_pivots: replaced, inexact: false }),
            Err(FactorError::Breakdown(b)) => Err(BackendError::Factorization { column: b.column, pivot: b.pivot }),
            Err(e) => Err(BackendError::Device(e.to_string())),
        }
    }
}
