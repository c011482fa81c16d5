//! The solve with the factorization of the parent module's documentation.

use super::{device, DenseColumnNormal};
use crate::lp::backend::BackendError;
use faer::{Accum, Mat, Par};

impl DenseColumnNormal {
    /// y = M⁻¹·r by the module documentation's elimination.
    pub(in crate::lp::backend) fn solve_schur(&mut self, r: &[f64]) -> Result<Vec<f64>, BackendError> {
        let (k, nr) = (self.z.ncols(), self.rows0.len());
        let mut u: Vec<f64> = r.iter().zip(&self.scale).map(|(r, s)| r * s).collect();
        let r0: Vec<f64> = self.rows0.iter().map(|&j| u[j]).collect();
        for &j in &self.rows0 {
            u[j] = 0.0;
        }
        self.p.chol.solve_in_place(&mut u).map_err(device)?;
        let um = faer::ColRef::from_slice(&u).as_mat();
        // v₀ = K⁻¹·Ẑ₁ᵀ·u.
        let mut v = Mat::zeros(k, 1);
        faer::linalg::matmul::matmul(v.as_mut(), Accum::Replace, self.z1.transpose(), um, 1.0, Par::Seq);
        self.k.solve_columns(v.as_mut(), Par::Seq);
        let mut y = u.clone();
        let mut ym = faer::ColMut::from_slice_mut(&mut y).as_mat_mut();
        if nr > 0 {
            let btu = self.bt_times(um);
            let mut y0 = Mat::from_fn(nr, 1, |t, _| r0[t] - btu[(t, 0)]);
            faer::linalg::matmul::matmul(y0.as_mut(), Accum::Add, self.zt0.as_ref(), v.as_ref(), -1.0, Par::Seq);
            self.s0.solve_columns(y0.as_mut(), Par::Seq);
            faer::linalg::matmul::matmul(v.as_mut(), Accum::Add, self.t.as_ref(), y0.as_ref(), 1.0, Par::Seq);
            let hb = self.h.as_ref().subcols(k, nr);
            faer::linalg::matmul::matmul(ym.as_mut(), Accum::Add, hb, y0.as_ref(), -1.0, Par::Seq);
            let hz = self.h.as_ref().subcols(0, k);
            faer::linalg::matmul::matmul(ym.as_mut(), Accum::Add, hz, v.as_ref(), -1.0, Par::Seq);
            for (t, &j) in self.rows0.iter().enumerate() {
                y[j] = y0[(t, 0)];
            }
        } else {
            let hz = self.h.as_ref().subcols(0, k);
            faer::linalg::matmul::matmul(ym.as_mut(), Accum::Add, hz, v.as_ref(), -1.0, Par::Seq);
        }
        Ok(y.iter().zip(&self.scale).map(|(y, s)| y * s).collect())
    }
}
