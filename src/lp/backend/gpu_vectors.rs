//! The iteration's vectors in single precision on the GPU (2006 paper §4.2), in the layout of
//! the normal equations' variant (one entry per R32F texel for the papers', four per RGBA32F
//! texel for the blocked ones), from a pool: no texture is created once the pool holds every
//! shape the loop uses. Only the scalars the loop decides on (dot products, norms, minima, step
//! lengths) are read back — the papers' "minimum feedback". A is the texture the normal
//! equations uploaded, or, where they hold only A's dense block, one of the kernels' own.

use super::{BackendError, GpuFault, Reduction, VectorKernels};
use crate::gl::{Gpu, Pass};
use crate::gpu::blas1::{self, ReduceOp, Reducer};
use crate::gpu::blas2::{gemv, gemv_rows4, MatrixRef, Rows4Ref};
use crate::gpu::blocked::assemble::upload_rows4;
use crate::gpu::normal::AMatrix;
use crate::gpu::{GpuError, PooledVector, TexturePool, VectorLayout};
use crate::kernels;
use faer::MatRef;

/// A value read back from the GPU must be finite: NaN or Inf there is a device fault (a
/// corrupted texture, a broken kernel), reported as such, never passed on as a number.
fn finite(v: f32, what: &str) -> Result<f64, BackendError> {
    if v.is_finite() {
        Ok(f64::from(v))
    } else {
        Err(BackendError::Gpu { kind: GpuFault::NonFinite, detail: format!("{what} read back from the GPU is {v}") })
    }
}

/// Single-precision vector kernels on a GL context borrowed for their lifetime.
pub struct GpuVectors<'g> {
    gpu: &'g Gpu,
    m: usize,
    n: usize,
    a: AMatrix,
    layout: VectorLayout,
    pool: TexturePool,
    reducer: Reducer,
    /// Partner index of each column in a split free pair, or −1.
    partners: Option<PooledVector>,
}

impl<'g> GpuVectors<'g> {
    /// Kernels over the m×n matrix A already on the GPU; the vectors take the layout that A's
    /// kernels read.
    pub fn new(
        gpu: &'g Gpu,
        a: AMatrix,
        m: usize,
        n: usize,
        free_pairs: &[(usize, usize)],
        pool: TexturePool,
    ) -> Result<Self, BackendError> {
        let layout = match a {
            AMatrix::Scalar(_) => VectorLayout::Scalar,
            AMatrix::Rows4(_) => VectorLayout::Quad,
        };
        let partners = if free_pairs.is_empty() {
            None
        } else {
            let mut p = vec![-1.0f32; n];
            for &(a, b) in free_pairs {
                if a >= n || b >= n {
                    return Err(BackendError::Dimension { op: "free pairs", expected: n, got: a.max(b) + 1 });
                }
                p[a] = b as f32;
                p[b] = a as f32;
            }
            let v = pool.vector(gpu, layout, n, "free-variable partners")?;
            v.write(gpu, &p)?;
            Some(v)
        };
        Ok(Self { gpu, m, n, a, layout, pool, reducer: Reducer::new(), partners })
    }

    /// Kernels over A (m×n, f64 → f32) uploaded for them alone in runs of four columns, for
    /// normal equations that hold another matrix (the dense block of a split).
    pub fn over_own_a(
        gpu: &'g Gpu,
        a: MatRef<'_, f64>,
        free_pairs: &[(usize, usize)],
        pool: TexturePool,
    ) -> Result<Self, BackendError> {
        let (m, n) = (a.nrows(), a.ncols());
        let data: Vec<f32> = (0..m).flat_map(|i| (0..n).map(move |k| a[(i, k)] as f32)).collect();
        let texture = upload_rows4(gpu, &data, m, n, 4 * m.div_ceil(4))?;
        Self::new(gpu, AMatrix::Rows4(texture), m, n, free_pairs, pool)
    }

    /// The GL context.
    pub fn gpu(&self) -> &'g Gpu {
        self.gpu
    }

    /// The pool the vectors come from.
    pub fn pool(&self) -> &TexturePool {
        &self.pool
    }

    fn new_vec(&self, len: usize) -> Result<PooledVector, BackendError> {
        Ok(self.pool.vector(self.gpu, self.layout, len, "an interior-point vector")?)
    }

    fn same(&self, op: &'static str, x: &PooledVector, y: &PooledVector) -> Result<(), BackendError> {
        if x.len() != y.len() {
            return Err(BackendError::Dimension { op, expected: x.len(), got: y.len() });
        }
        Ok(())
    }

    /// α·op(A)·x (+ β·z) into a new vector, with the kernel of A's layout.
    fn gemv(
        &self,
        transpose: bool,
        alpha: f64,
        x: &PooledVector,
        add: Option<(f64, &PooledVector)>,
    ) -> Result<PooledVector, BackendError> {
        let out = self.new_vec(if transpose { self.n } else { self.m })?;
        let add = add.map(|(b, v)| (b as f32, &**v));
        match &self.a {
            AMatrix::Scalar(t) => {
                let a = MatrixRef { texture: t, m: self.m, n: self.n };
                gemv(self.gpu, &out, &a, transpose, alpha as f32, x, add)?
            }
            AMatrix::Rows4(t) => {
                let a = Rows4Ref { texture: t, m: self.m, n: self.n };
                gemv_rows4(self.gpu, &out, &a, transpose, alpha as f32, x, add)?
            }
        }
        Ok(out)
    }
}

impl VectorKernels for GpuVectors<'_> {
    type Vector = PooledVector;

    fn name(&self) -> &str {
        "gpu"
    }

    fn dims(&self) -> (usize, usize) {
        (self.m, self.n)
    }

    fn upload(&mut self, v: &[f64]) -> Result<PooledVector, BackendError> {
        let data: Vec<f32> = v.iter().map(|&x| x as f32).collect();
        let out = self.new_vec(v.len())?;
        out.write(self.gpu, &data)?;
        Ok(out)
    }

    fn download(&mut self, v: &PooledVector) -> Result<Vec<f64>, BackendError> {
        v.read(self.gpu)?.into_iter().map(|x| finite(x, "a vector entry")).collect()
    }

    fn fill(&mut self, len: usize, value: f64) -> Result<PooledVector, BackendError> {
        let v = self.new_vec(len)?;
        blas1::fill(self.gpu, &v, value as f32)?;
        Ok(v)
    }

    fn copy(&mut self, x: &PooledVector) -> Result<PooledVector, BackendError> {
        let out = self.new_vec(x.len())?;
        blas1::copy(self.gpu, &out, x)?;
        Ok(out)
    }

    fn lincomb(
        &mut self,
        alpha: f64,
        x: &PooledVector,
        beta: f64,
        y: &PooledVector,
    ) -> Result<PooledVector, BackendError> {
        self.same("lincomb", x, y)?;
        let out = self.new_vec(x.len())?;
        blas1::axpby(self.gpu, &out, alpha as f32, x, beta as f32, y)?;
        Ok(out)
    }

    fn add_scalar(&mut self, x: &PooledVector, alpha: f64) -> Result<PooledVector, BackendError> {
        let out = self.new_vec(x.len())?;
        blas1::affine(self.gpu, &out, 1.0, x, alpha as f32)?;
        Ok(out)
    }

    fn mul(&mut self, x: &PooledVector, y: &PooledVector) -> Result<PooledVector, BackendError> {
        self.same("mul", x, y)?;
        let out = self.new_vec(x.len())?;
        blas1::mul(self.gpu, &out, x, y)?;
        Ok(out)
    }

    fn div(&mut self, x: &PooledVector, y: &PooledVector) -> Result<PooledVector, BackendError> {
        self.same("div", x, y)?;
        let out = self.new_vec(x.len())?;
        blas1::div(self.gpu, &out, x, y)?;
        Ok(out)
    }

    fn dot(&mut self, x: &PooledVector, y: &PooledVector) -> Result<f64, BackendError> {
        self.same("dot", x, y)?;
        finite(self.reducer.dot(self.gpu, x, y)?, "a dot product")
    }

    fn reduce(&mut self, op: Reduction, x: &PooledVector) -> Result<f64, BackendError> {
        match op {
            Reduction::Sum => finite(self.reducer.reduce(self.gpu, x, ReduceOp::Sum)?, "a sum"),
            Reduction::MaxAbs => finite(self.reducer.norm_inf(self.gpu, x)?, "a max-norm"),
            Reduction::Min if x.is_empty() => Ok(f64::INFINITY),
            Reduction::Max if x.is_empty() => Ok(f64::NEG_INFINITY),
            Reduction::Min => Ok(self.reducer.reduce(self.gpu, x, ReduceOp::Min)? as f64),
            Reduction::Max => Ok(self.reducer.reduce(self.gpu, x, ReduceOp::Max)? as f64),
        }
    }

    fn max_step(&mut self, x: &PooledVector, dx: &PooledVector) -> Result<f64, BackendError> {
        self.same("max_step", x, dx)?;
        Ok(self.reducer.max_step(self.gpu, x, dx)? as f64)
    }

    fn recenter_free_pairs(&mut self, x: &PooledVector, cap: f64) -> Result<PooledVector, BackendError> {
        let out = self.new_vec(x.len())?;
        match &self.partners {
            None => blas1::copy(self.gpu, &out, x)?,
            Some(p) => {
                self.same("recenter_free_pairs", x, p)?;
                let src = [x.texture(), p.texture()];
                let kernel = match self.layout {
                    VectorLayout::Scalar => &kernels::RECENTER,
                    VectorLayout::Quad => &kernels::RECENTER4,
                };
                let pass = Pass::new("recenter", kernel, out.texture(), &src, out.domain());
                self.gpu.run(&pass.uniforms(&[("cap", cap as f32)])).map_err(GpuError::from)?;
            }
        }
        Ok(out)
    }

    fn a_mul(
        &mut self,
        alpha: f64,
        x: &PooledVector,
        add: Option<(f64, &PooledVector)>,
    ) -> Result<PooledVector, BackendError> {
        self.gemv(false, alpha, x, add)
    }

    fn at_mul(
        &mut self,
        alpha: f64,
        y: &PooledVector,
        add: Option<(f64, &PooledVector)>,
    ) -> Result<PooledVector, BackendError> {
        self.gemv(true, alpha, y, add)
    }

    fn unit_roundoff(&self) -> f64 {
        f64::from(f32::EPSILON) / 2.0
    }
}
