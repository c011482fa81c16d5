//! The iteration's vectors in double precision on the CPU (`Vec<f64>`), with A for the level-2
//! kernels (faer, all rayon threads).

use super::{BackendError, VectorKernels};
use faer::{Accum, Mat, MatRef, Par};

/// Double-precision vectors and A (dense m×n standard-form matrix).
pub struct CpuVectors {
    a: Mat<f64>,
    /// Column pairs (x⁺, x⁻) of split free variables.
    free_pairs: Vec<(usize, usize)>,
    par: Par,
}

impl CpuVectors {
    /// Copies A and the free-variable pairs.
    pub fn new(a: MatRef<'_, f64>, free_pairs: &[(usize, usize)]) -> Self {
        Self { a: a.to_owned(), free_pairs: free_pairs.to_vec(), par: Par::rayon(0) }
    }

    /// A, for the normal equations built from it.
    pub fn a(&self) -> MatRef<'_, f64> {
        self.a.as_ref()
    }

    /// The thread setting of the BLAS-2/3 kernels.
    pub fn par(&self) -> Par {
        self.par
    }

    fn check(&self, op: &'static str, expected: usize, got: usize) -> Result<(), BackendError> {
        if expected == got {
            Ok(())
        } else {
            Err(BackendError::Dimension { op, expected, got })
        }
    }

    fn zip(
        &self,
        op: &'static str,
        x: &[f64],
        y: &[f64],
        f: impl Fn(f64, f64) -> f64,
    ) -> Result<Vec<f64>, BackendError> {
        self.check(op, x.len(), y.len())?;
        Ok(x.iter().zip(y).map(|(&a, &b)| f(a, b)).collect())
    }

    fn gemv(
        &self,
        op: &'static str,
        transpose: bool,
        alpha: f64,
        x: &[f64],
        add: Option<(f64, &Vec<f64>)>,
    ) -> Result<Vec<f64>, BackendError> {
        let (m, n) = self.dims();
        let (rows, cols) = if transpose { (n, m) } else { (m, n) };
        self.check(op, cols, x.len())?;
        let mut out = match add {
            Some((beta, y)) => {
                self.check(op, rows, y.len())?;
                y.iter().map(|v| beta * v).collect()
            }
            None => vec![0.0; rows],
        };
        let xm = faer::ColRef::from_slice(x).as_mat();
        let om = faer::ColMut::from_slice_mut(&mut out).as_mat_mut();
        let a = if transpose { self.a.transpose() } else { self.a.as_ref() };
        faer::linalg::matmul::matmul(om, Accum::Add, a, xm, alpha, self.par);
        Ok(out)
    }
}

impl VectorKernels for CpuVectors {
    type Vector = Vec<f64>;

    fn name(&self) -> &str {
        "cpu"
    }
    fn dims(&self) -> (usize, usize) {
        (self.a.nrows(), self.a.ncols())
    }
    fn upload(&mut self, v: &[f64]) -> Result<Vec<f64>, BackendError> {
        Ok(v.to_vec())
    }
    fn download(&mut self, v: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        Ok(v.clone())
    }
    fn fill(&mut self, len: usize, value: f64) -> Result<Vec<f64>, BackendError> {
        Ok(vec![value; len])
    }
    fn copy(&mut self, x: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        Ok(x.clone())
    }
    fn lincomb(&mut self, alpha: f64, x: &Vec<f64>, beta: f64, y: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        self.zip("lincomb", x, y, |a, b| alpha * a + beta * b)
    }
    fn add_scalar(&mut self, x: &Vec<f64>, alpha: f64) -> Result<Vec<f64>, BackendError> {
        Ok(x.iter().map(|v| v + alpha).collect())
    }
    fn mul(&mut self, x: &Vec<f64>, y: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        self.zip("mul", x, y, |a, b| a * b)
    }
    fn div(&mut self, x: &Vec<f64>, y: &Vec<f64>) -> Result<Vec<f64>, BackendError> {
        self.zip("div", x, y, |a, b| a / b)
    }
    fn dot(&mut self, x: &Vec<f64>, y: &Vec<f64>) -> Result<f64, BackendError> {
        self.check("dot", x.len(), y.len())?;
        Ok(x.iter().zip(y).map(|(a, b)| a * b).sum())
    }
    fn sum(&mut self, x: &Vec<f64>) -> Result<f64, BackendError> {
        Ok(x.iter().sum())
    }
    fn norm_inf(&mut self, x: &Vec<f64>) -> Result<f64, BackendError> {
        // NaN propagates (f64::max would drop it), so a broken iterate is noticed.
        Ok(x.iter().fold(0.0, |acc: f64, v| if v.is_nan() || acc.is_nan() { f64::NAN } else { acc.max(v.abs()) }))
    }
    fn min(&mut self, x: &Vec<f64>) -> Result<f64, BackendError> {
        Ok(x.iter().copied().fold(f64::INFINITY, f64::min))
    }
    fn max(&mut self, x: &Vec<f64>) -> Result<f64, BackendError> {
        Ok(x.iter().copied().fold(f64::NEG_INFINITY, f64::max))
    }
    fn max_step(&mut self, x: &Vec<f64>, dx: &Vec<f64>) -> Result<f64, BackendError> {
        self.check("max_step", x.len(), dx.len())?;
        Ok(x.iter().zip(dx).filter(|(_, &d)| d < 0.0).map(|(&v, &d)| -v / d).fold(1.0, f64::min))
    }

    fn recenter_free_pairs(&mut self, x: &Vec<f64>, cap: f64) -> Result<Vec<f64>, BackendError> {
        let mut out = x.clone();
        for &(p, q) in &self.free_pairs {
            let (Some(&xp), Some(&xq)) = (x.get(p), x.get(q)) else {
                return Err(BackendError::Dimension {
                    op: "recenter_free_pairs",
                    expected: p.max(q) + 1,
                    got: x.len(),
                });
            };
            let excess = xp.min(xq) - cap * (1.0 + (xp - xq).abs());
            if excess > 0.0 {
                out[p] = xp - excess;
                out[q] = xq - excess;
            }
        }
        Ok(out)
    }

    fn a_mul(&mut self, alpha: f64, x: &Vec<f64>, add: Option<(f64, &Vec<f64>)>) -> Result<Vec<f64>, BackendError> {
        self.gemv("a_mul", false, alpha, x, add)
    }

    fn at_mul(&mut self, alpha: f64, y: &Vec<f64>, add: Option<(f64, &Vec<f64>)>) -> Result<Vec<f64>, BackendError> {
        self.gemv("at_mul", true, alpha, y, add)
    }
}
