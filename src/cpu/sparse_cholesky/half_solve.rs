//! The first half of a solve with the sparse factor, for Gram matrices of M⁻¹.

use super::{FactorError, PatternError, SparseCholesky};
use faer::sparse::linalg::cholesky::{supernodal, SymbolicCholeskyRaw};
use faer::sparse::SparseColMatRef;
use faer::{Conj, Par};

impl SparseCholesky {
    /// R ← D^{-1/2}·L⁻¹·Π·R in place with the last factor M = Πᵀ·L·D·Lᵀ·Π: the first half of
    /// a solve, so that for G = half(R), Gᵀ·G = Rᵀ·M⁻¹·R (the rows of G are in the factor's
    /// order). A Gram matrix of M⁻¹ formed so is symmetric positive semi-definite by
    /// construction, which a product Rᵀ·(M⁻¹·R) is only up to rounding.
    pub fn half_solve_columns_in_place(&mut self, mut r: faer::MatMut<'_, f64>) -> Result<(), FactorError> {
        if !self.factored {
            return Err(FactorError::NotFactored);
        }
        if r.nrows() != self.n {
            return Err(FactorError::Pattern(PatternError::Values { expected: self.n, got: r.nrows() }));
        }
        if let Some(p) = self.symbolic.perm() {
            let fwd = p.arrays().0;
            for col in r.as_mut().col_iter_mut() {
                let x: Vec<f64> = fwd.iter().map(|&i| col[i]).collect();
                col.iter_mut().zip(x).for_each(|(v, x)| *v = x);
            }
        }
        let mut d = vec![0.0; self.n];
        match self.symbolic.raw() {
            SymbolicCholeskyRaw::Supernodal(raw) => {
                // Each supernode: its unit lower diagonal block, then its rows below.
                let l = supernodal::SupernodalLltRef::new(raw, &self.l);
                for s in 0..raw.n_supernodes() {
                    let node = l.supernode(s);
                    let block = node.val();
                    let (size, start) = (block.ncols(), node.start());
                    let (top, bottom) = block.split_at_row(size);
                    let mut x_top = r.as_mut().subrows_mut(start, size);
                    faer::linalg::triangular_solve::solve_unit_lower_triangular_in_place(top, x_top.as_mut(), Par::Seq);
                    let below = bottom * x_top.as_ref();
                    for (idx, &i) in node.pattern().iter().enumerate() {
                        for c in 0..r.ncols() {
                            r[(i, c)] -= below[(idx, c)];
                        }
                    }
                    for t in 0..size {
                        d[start + t] = top[(t, t)];
                    }
                }
            }
            SymbolicCholeskyRaw::Simplicial(raw) => {
                let ld = SparseColMatRef::new(raw.factor(), &self.l);
                faer::sparse::linalg::triangular_solve::solve_unit_lower_triangular_in_place(
                    ld,
                    Conj::No,
                    r.as_mut(),
                    Par::Seq,
                );
                for (k, range) in self.columns() {
                    d[k] = self.l[range.start];
                }
            }
        }
        for (t, d) in d.iter().enumerate() {
            let s = 1.0 / d.sqrt();
            for c in 0..r.ncols() {
                r[(t, c)] *= s;
            }
        }
        Ok(())
    }
}
