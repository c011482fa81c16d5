//! The iteration's vectors in double precision on the CPU (`Vec<f64>`), with A for the level-2
//! kernels: dense when A is dense, compressed columns when it is sparse (O(nnz) products).
//! Which one is chosen by [`CpuVectors::for_matrix`]'s cost model; the products themselves are
//! `cpu::products`', on the paths the settings name.

use super::{BackendError, NormalProduct, PredictorParts, Reduction, ResidualProducts, VectorKernels};
use crate::cpu::products::{self, CpuPaths, DenseA, DiagonalSplit, VSource};
use crate::lp::model::SparseColMatrix;
use faer::{Accum, MatRef, Par};
use std::cell::OnceCell;
use std::sync::Arc;

/// Sparse assembly of A·D²·Aᵀ does Σⱼ nnz(aⱼ)(nnz(aⱼ)+1)/2 scattered multiply-adds, the dense
/// one m²n/2 in BLAS-3 kernels that run this many times faster per multiply-add (measured with
/// `glsolve bench lp`: ≈ 2 G scattered multiply-adds/s against ≈ 60–100 G/s for faer's GEMM on
/// this machine's two cores, rounded down so that borderline cases stay on the dense path).
pub const DENSE_SPEEDUP: f64 = 30.0;

/// How A is held.
pub enum Storage {
    /// m×n column-major.
    Dense(DenseA),
    /// Compressed columns (rows sorted within each column).
    Sparse(SparseColMatrix),
}

/// Double-precision vectors and A (the m×n standard-form matrix).
pub struct CpuVectors {
    a: Storage,
    /// A dense copy built on first request by [`CpuVectors::a`] when A is held sparse.
    dense: OnceCell<DenseA>,
    /// Column pairs (x⁺, x⁻) of split free variables.
    free_pairs: Vec<(usize, usize)>,
    par: Par,
    /// The code the products run.
    paths: CpuPaths,
    /// A as a dense block and columns of one entry, read by the products instead of `a`.
    split: Option<Arc<DiagonalSplit>>,
}

impl CpuVectors {
    fn held(a: Storage, free_pairs: &[(usize, usize)]) -> Self {
        Self {
            a,
            dense: OnceCell::new(),
            free_pairs: free_pairs.to_vec(),
            par: Par::rayon(0),
            paths: CpuPaths::default(),
            split: None,
        }
    }

    /// The products from `split` (the same A as a dense block and columns of one entry:
    /// [`DiagonalSplit::fused`]) instead of A as held.
    pub fn with_split(mut self, split: Arc<DiagonalSplit>) -> Self {
        self.split = Some(split);
        self
    }

    /// Dense A: copies it and the free-variable pairs.
    pub fn new(a: MatRef<'_, f64>, free_pairs: &[(usize, usize)]) -> Self {
        Self::held(Storage::Dense(DenseA::from_dense(a)), free_pairs)
    }

    /// A held sparse (compressed columns).
    pub fn sparse(a: SparseColMatrix, free_pairs: &[(usize, usize)]) -> Self {
        Self::held(Storage::Sparse(a), free_pairs)
    }

    /// Dense or sparse storage for `a`, whichever makes A·D²·Aᵀ cheaper: sparse when
    /// [`DENSE_SPEEDUP`]·Σⱼ nnz(aⱼ)² / 2 < m²n / 2 (see [`sparse_assembly_pays`]).
    pub fn for_matrix(a: &SparseColMatrix, free_pairs: &[(usize, usize)]) -> Self {
        if sparse_assembly_pays(a) {
            Self::sparse(a.clone(), free_pairs)
        } else {
            Self::dense_from(a, free_pairs)
        }
    }

    /// `a` held dense.
    pub fn dense_from(a: &SparseColMatrix, free_pairs: &[(usize, usize)]) -> Self {
        Self::held(Storage::Dense(DenseA::from_sparse(a.csc())), free_pairs)
    }

    /// The products on `paths` (default: [`CpuPaths::default`]).
    pub fn with_paths(mut self, paths: CpuPaths) -> Self {
        self.paths = paths;
        self
    }

    /// The code the products run.
    pub fn paths(&self) -> &CpuPaths {
        &self.paths
    }

    /// A as a dense matrix (for A held sparse, a copy made on the first call and kept).
    pub fn a(&self) -> MatRef<'_, f64> {
        match &self.a {
            Storage::Dense(d) => d.as_ref(),
            Storage::Sparse(s) => self.dense.get_or_init(|| DenseA::from_sparse(s.csc())).as_ref(),
        }
    }

    /// How A is held.
    pub fn storage(&self) -> &Storage {
        &self.a
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
        if let Some(split) = &self.split {
            let t = products::threads();
            let p = if transpose { split.at_mul(x, t) } else { split.a_mul(x, t) }.map_err(BackendError::from_pass)?;
            for (o, v) in out.iter_mut().zip(p) {
                *o += alpha * v;
            }
            return Ok(out);
        }
        match &self.a {
            Storage::Dense(a) if !transpose => {
                // On the column pass's kernels where they run (faer's product took a third
                // longer).
                let ax = products::dense_a_mul(&self.paths, a.as_ref(), x, products::threads())
                    .map_err(BackendError::from_pass)?;
                for (o, v) in out.iter_mut().zip(ax) {
                    *o += alpha * v;
                }
            }
            Storage::Dense(a) => {
                let xm = faer::ColRef::from_slice(x).as_mat();
                let om = faer::ColMut::from_slice_mut(&mut out).as_mat_mut();
                let a = if transpose { a.as_ref().transpose() } else { a.as_ref() };
                faer::linalg::matmul::matmul(om, Accum::Add, a, xm, alpha, self.par);
            }
            Storage::Sparse(a) if transpose => {
                for (j, o) in out.iter_mut().enumerate() {
                    *o += alpha * a.col(j).map(|(i, v)| v * x[i]).sum::<f64>();
                }
            }
            Storage::Sparse(a) => {
                for (j, &xj) in x.iter().enumerate() {
                    if xj != 0.0 {
                        let axj = alpha * xj;
                        for (i, v) in a.col(j) {
                            out[i] += v * axj;
                        }
                    }
                }
            }
        }
        Ok(out)
    }
}

impl CpuVectors {
    /// (Aᵀy, v, A·v), in one pass over A where the paths fuse them.
    fn fused(&self, y: &[f64], src: VSource<'_>) -> Result<products::Fused, BackendError> {
        if let Some(split) = &self.split {
            return split.fused(y, src, products::threads()).map_err(BackendError::from_pass);
        }
        match &self.a {
            Storage::Dense(a) => {
                products::fused_dense(&self.paths, a.as_ref(), y, src, products::threads()).map_err(BackendError::from_pass)
            }
            Storage::Sparse(a) => Ok(products::fused_sparse(a.csc(), y, src)),
        }
    }
}

/// Whether sparse assembly beats the dense product for `a` (see [`DENSE_SPEEDUP`]).
pub fn sparse_assembly_pays(a: &SparseColMatrix) -> bool {
    let sparse: f64 = (0..a.ncols)
        .map(|j| {
            let k = (a.col_ptr[j + 1] - a.col_ptr[j]) as f64;
            k * (k + 1.0) / 2.0
        })
        .sum();
    let dense = (a.nrows as f64).powi(2) * a.ncols as f64 / 2.0;
    DENSE_SPEEDUP * sparse < dense
}

impl CpuVectors {
    /// A·x, Aᵀ·y and the affine predictor's (t, A·t) from one read of a dense A; `None` for a
    /// sparse A, or where the products are not fused (see `products::fused_pair`).
    fn fused_with_predictor(
        &mut self,
        x: &[f64],
        y: &[f64],
        parts: &PredictorParts<'_, Vec<f64>>,
    ) -> Result<Option<ResidualProducts<Vec<f64>>>, BackendError> {
        let n = self.dims().1;
        let PredictorParts { theta, c, s, z, q, p } = *parts;
        for v in [Some(theta), Some(c), Some(s), z, Some(q), p].into_iter().flatten() {
            self.check("residual_products", n, v.len())?;
        }
        let Storage::Dense(a) = &self.a else { return Ok(None) };
        // The operations of `residuals` and `direction`, entry by entry, in their order.
        let g = |j: usize, u: f64| {
            let mut rho = (c[j] - u) - s[j];
            if let Some(z) = z {
                rho += z[j];
            }
            rho += q[j];
            if let Some(p) = p {
                rho -= p[j];
            }
            theta[j] * rho
        };
        let fused =
            products::fused_pair(&self.paths, a.as_ref(), y, x, &g, products::threads()).map_err(BackendError::from_pass)?;
        Ok(fused.map(|(aty, ax, t, at)| ResidualProducts { ax, aty, predictor: Some((t, at)) }))
    }
}

impl VectorKernels for CpuVectors {
    type Vector = Vec<f64>;

    fn name(&self) -> &str {
        "cpu"
    }
    fn dims(&self) -> (usize, usize) {
        match &self.a {
            Storage::Dense(a) => (a.nrows(), a.ncols()),
            Storage::Sparse(a) => (a.nrows, a.ncols),
        }
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
    fn reduce(&mut self, op: Reduction, x: &Vec<f64>) -> Result<f64, BackendError> {
        Ok(match op {
            Reduction::Sum => x.iter().sum(),
            // NaN propagates (f64::max would drop it), so a broken iterate is noticed.
            Reduction::MaxAbs => {
                x.iter().fold(0.0, |acc: f64, v| if v.is_nan() || acc.is_nan() { f64::NAN } else { acc.max(v.abs()) })
            }
            Reduction::Min => x.iter().copied().fold(f64::INFINITY, f64::min),
            Reduction::Max => x.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        })
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

    fn centrality_target(&mut self, v: &Vec<f64>, lo: f64, hi: f64) -> Result<Option<Vec<f64>>, BackendError> {
        Ok(Some(
            v.iter()
                .map(|&v| {
                    if v < lo {
                        lo - v
                    } else if v > hi {
                        (hi - v).max(-hi)
                    } else {
                        0.0
                    }
                })
                .collect(),
        ))
    }

    fn residual_products(
        &mut self,
        x: &Vec<f64>,
        y: &Vec<f64>,
        parts: Option<&PredictorParts<'_, Vec<f64>>>,
    ) -> Result<ResidualProducts<Vec<f64>>, BackendError> {
        let (m, n) = self.dims();
        self.check("residual_products", n, x.len())?;
        self.check("residual_products", m, y.len())?;
        if let Some(parts) = parts {
            if let Some(fused) = self.fused_with_predictor(x, y, parts)? {
                return Ok(fused);
            }
        }
        let (aty, _, ax) = self.fused(y, VSource::Given(x))?;
        Ok(ResidualProducts { ax, aty, predictor: None })
    }


    fn normal_product(
        &mut self,
        y: &Vec<f64>,
        theta: &Vec<f64>,
        t: Option<&Vec<f64>>,
        r: Option<&Vec<f64>>,
    ) -> Result<NormalProduct<Vec<f64>>, BackendError> {
        let (m, n) = self.dims();
        self.check("normal_product", m, y.len())?;
        self.check("normal_product", n, theta.len())?;
        if let Some(t) = t {
            self.check("normal_product", n, t.len())?;
        }
        if let Some(r) = r {
            self.check("normal_product", m, r.len())?;
        }
        let (u, v, mut av) = self.fused(y, VSource::Scaled { theta, t: t.map(|t| t.as_slice()) })?;
        if let Some(r) = r {
            for (o, &ri) in av.iter_mut().zip(r) {
                *o = ri - *o;
            }
        }
        Ok(NormalProduct { u, v, av })
    }

    fn a_mul(&mut self, alpha: f64, x: &Vec<f64>, add: Option<(f64, &Vec<f64>)>) -> Result<Vec<f64>, BackendError> {
        self.gemv("a_mul", false, alpha, x, add)
    }

    fn at_mul(&mut self, alpha: f64, y: &Vec<f64>, add: Option<(f64, &Vec<f64>)>) -> Result<Vec<f64>, BackendError> {
        self.gemv("at_mul", true, alpha, y, add)
    }
}
