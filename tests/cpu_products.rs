//! The cpu backend's fused level-2 products (one pass over A for Aᵀy, θ∘Aᵀy − t and A·v; A·x
//! with Aᵀy) against plain f64 loops, with A held dense and sparse, on sizes around the column
//! pass's four-column groups and the two-thread threshold, and without rows; A·x alone
//! (`a_mul`, the column pass's second half) the same way. Each on one thread, on two (the
//! second half of the columns on `cpu::spin_join`'s worker) and on three (rayon's pool).

use glsolve::lp::backend::{BackendError, CpuVectors, VectorKernels};
use glsolve::lp::SparseColMatrix;

/// Deterministic values in [−1, 1).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
    fn vec(&mut self, n: usize) -> Vec<f64> {
        (0..n).map(|_| self.next()).collect()
    }
}

/// An m×n matrix with about a third of its entries nonzero (every column has one).
fn matrix(m: usize, n: usize, rng: &mut Lcg) -> SparseColMatrix {
    let mut t = Vec::new();
    for j in 0..n {
        for i in 0..m {
            let v = rng.next();
            if i == j % m || v.abs() < 0.33 {
                t.push((i, j, v));
            }
        }
    }
    SparseColMatrix::from_triplets(m, n, &t).unwrap()
}

fn dense(a: &SparseColMatrix) -> faer::Mat<f64> {
    let mut d = faer::Mat::<f64>::zeros(a.nrows, a.ncols);
    for j in 0..a.ncols {
        for (i, v) in a.col(j) {
            d[(i, j)] = v;
        }
    }
    d
}

/// (A·x, Σ|A||x|) by plain loops.
fn a_mul(a: &SparseColMatrix, x: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let (mut y, mut s) = (vec![0.0; a.nrows], vec![0.0; a.nrows]);
    for (j, &xj) in x.iter().enumerate() {
        for (i, v) in a.col(j) {
            y[i] += v * xj;
            s[i] += (v * xj).abs();
        }
    }
    (y, s)
}

/// (Aᵀ·y, Σ|A||y|) by plain loops.
fn at_mul(a: &SparseColMatrix, y: &[f64]) -> (Vec<f64>, Vec<f64>) {
    (0..a.ncols).map(|j| a.col(j).fold((0.0, 0.0), |(s, t), (i, v)| (s + v * y[i], t + (v * y[i]).abs()))).unzip()
}

/// Every entry within 1e-13 of the magnitude of its terms (plus the added vector's).
fn assert_close(what: &str, got: &[f64], want: &[f64], scale: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (k, ((g, w), s)) in got.iter().zip(want).zip(scale).enumerate() {
        assert!((g - w).abs() <= 1e-13 * (1.0 + s), "{what}[{k}]: {g} against {w}");
    }
}

/// Runs `check` in rayon pools of 1, 2 and 3 threads (the passes split A's columns into that
/// many ranges).
fn on_1_2_and_3_threads(check: impl Fn() + Sync) {
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(&check);
    }
}

#[test]
fn fused_products_match_plain_loops_dense_and_sparse() {
    on_1_2_and_3_threads(fused_products_check);
}

fn fused_products_check() {
    let threads = rayon::current_num_threads();
    let mut rng = Lcg(7);
    // 1×1; a few columns (4·3 + 1); 63 and 64 columns (groups of four ± 1); two threads (m·n ≥ 2¹⁷).
    for (m, n) in [(1, 1), (7, 13), (257, 63), (257, 64), (257, 1031)] {
        let a = matrix(m, n, &mut rng);
        let (y, w, r) = (rng.vec(m), rng.vec(n), rng.vec(m));
        let theta: Vec<f64> = rng.vec(n).iter().map(|v| v.abs() * 10.0).collect();
        let t = rng.vec(n);
        // Reference: u = Aᵀy, v = θ∘u − t, r − A·v; the operator's v = θ∘u and A·v; A·w.
        let (u, us) = at_mul(&a, &y);
        let v_t: Vec<f64> = (0..n).map(|j| theta[j] * u[j] - t[j]).collect();
        let (av_t, avs_t) = a_mul(&a, &v_t);
        let r_av: Vec<f64> = (0..m).map(|i| r[i] - av_t[i]).collect();
        let r_scale: Vec<f64> = (0..m).map(|i| r[i].abs() + avs_t[i]).collect();
        let v: Vec<f64> = (0..n).map(|j| theta[j] * u[j]).collect();
        let (av, avs) = a_mul(&a, &v);
        let (aw, aws) = a_mul(&a, &w);
        let d = dense(&a);
        for (name, mut vk) in
            [("sparse", CpuVectors::sparse(a.clone(), &[])), ("dense", CpuVectors::new(d.as_ref(), &[]))]
        {
            let what = |s: &str| format!("{name} {m}×{n} on {threads} threads: {s}");
            let np = vk.normal_product(&y, &theta, Some(&t), Some(&r)).unwrap();
            assert_close(&what("normal_product u"), &np.u, &u, &us);
            assert_close(&what("normal_product v"), &np.v, &v_t, &us.iter().map(|s| s * 10.0).collect::<Vec<_>>());
            assert_close(&what("normal_product r − A·v"), &np.av, &r_av, &r_scale);
            let op = vk.normal_product(&y, &theta, None, None).unwrap();
            assert_close(&what("operator v"), &op.v, &v, &us.iter().map(|s| s * 10.0).collect::<Vec<_>>());
            assert_close(&what("operator A·θ∘u"), &op.av, &av, &avs);
            let rp = vk.residual_products(&w, &y, None).unwrap();
            assert!(rp.predictor.is_none(), "{}", what("no parts, no predictor"));
            assert_close(&what("residual_products A·x"), &rp.ax, &aw, &aws);
            assert_close(&what("residual_products Aᵀ·y"), &rp.aty, &u, &us);
        }
    }
}

#[test]
fn without_rows_v_is_still_theta_u_minus_t() {
    // m = 0: Aᵀy = 0, so v = θ∘0 − t = −t, and A·v is empty.
    let a = SparseColMatrix::from_triplets(0, 3, &[]).unwrap();
    let d = faer::Mat::<f64>::zeros(0, 3);
    let (theta, t) = (vec![2.0, 3.0, 4.0], vec![0.5, -1.0, 0.0]);
    for (name, mut vk) in [("sparse", CpuVectors::sparse(a.clone(), &[])), ("dense", CpuVectors::new(d.as_ref(), &[]))]
    {
        let np = vk.normal_product(&vec![], &theta, Some(&t), None).unwrap();
        assert_eq!(np.u, vec![0.0; 3], "{name}");
        assert_eq!(np.v, vec![-0.5, 1.0, 0.0], "{name}");
        assert!(np.av.is_empty(), "{name}");
    }
}

#[test]
fn fused_products_reject_vectors_of_the_wrong_length() {
    let mut rng = Lcg(3);
    let a = matrix(5, 9, &mut rng);
    let mut vk = CpuVectors::sparse(a, &[]);
    let (y, theta) = (vec![1.0; 5], vec![1.0; 9]);
    let err = vk.normal_product(&y, &theta, Some(&vec![1.0; 8]), None).err();
    assert!(matches!(err, Some(BackendError::Dimension { op: "normal_product", expected: 9, got: 8 })), "{err:?}");
    let err = vk.normal_product(&vec![1.0; 4], &theta, None, None).err();
    assert!(matches!(err, Some(BackendError::Dimension { op: "normal_product", expected: 5, got: 4 })), "{err:?}");
    let err = vk.residual_products(&vec![1.0; 9], &vec![1.0; 6], None).err();
    assert!(matches!(err, Some(BackendError::Dimension { op: "residual_products", expected: 5, got: 6 })), "{err:?}");
}

#[test]
fn a_mul_matches_plain_loops_dense_and_sparse() {
    on_1_2_and_3_threads(a_mul_check);
}

fn a_mul_check() {
    let threads = rayon::current_num_threads();
    let mut rng = Lcg(11);
    for (m, n) in [(1, 1), (7, 13), (257, 63), (257, 1031)] {
        let a = matrix(m, n, &mut rng);
        // Mostly zeros in groups (a corrector's right-hand side) and an added vector.
        let x: Vec<f64> = (0..n).map(|j| if j % 9 < 5 { 0.0 } else { rng.next() }).collect();
        let add = rng.vec(m);
        let (ax, axs) = a_mul(&a, &x);
        let want: Vec<f64> = (0..m).map(|i| 0.5 * add[i] - 2.0 * ax[i]).collect();
        let scale: Vec<f64> = (0..m).map(|i| 0.5 * add[i].abs() + 2.0 * axs[i]).collect();
        let d = dense(&a);
        for (name, mut vk) in
            [("sparse", CpuVectors::sparse(a.clone(), &[])), ("dense", CpuVectors::new(d.as_ref(), &[]))]
        {
            let got = vk.a_mul(-2.0, &x, Some((0.5, &add))).unwrap();
            assert_close(&format!("{name} {m}×{n} on {threads} threads: a_mul"), &got, &want, &scale);
            let plain = vk.a_mul(1.0, &x, None).unwrap();
            assert_close(&format!("{name} {m}×{n} on {threads} threads: a_mul plain"), &plain, &ax, &axs);
            let err = vk.a_mul(1.0, &vec![1.0; n + 1], None).err();
            assert!(
                matches!(err, Some(BackendError::Dimension { expected, got, .. }) if expected == n && got == n + 1),
                "{err:?}"
            );
        }
    }
}

#[test]
fn the_residual_pass_gives_the_predictors_rhs_bit_for_bit() {
    on_1_2_and_3_threads(residual_pass_check);
}

/// `residual_products` with the predictor's parts against it without them, t made by the
/// loop's own vector operations in their order, and `a_mul`: equal bit for bit where the pass is
/// fused (dense A, one or two column ranges), no predictor elsewhere (sparse A, three ranges).
fn residual_pass_check() {
    use glsolve::lp::backend::PredictorParts;
    let threads = rayon::current_num_threads();
    let mut rng = Lcg(11);
    for (m, n) in [(1, 1), (7, 13), (257, 63), (257, 1031)] {
        let a = matrix(m, n, &mut rng);
        let (x, y) = (rng.vec(n), rng.vec(m));
        let (c, s, z, q, p) = (rng.vec(n), rng.vec(n), rng.vec(n), rng.vec(n), rng.vec(n));
        let theta: Vec<f64> = rng.vec(n).iter().map(|v| v.abs() * 1e3).collect();
        // One column range below 2¹⁷ entries, else one per thread.
        let fused = m * n < 1 << 17 || threads <= 2;
        for bounds in [false, true] {
            let (zb, pb) = if bounds { (Some(&z), Some(&p)) } else { (None, None) };
            let parts = PredictorParts { theta: &theta, c: &c, s: &s, z: zb, q: &q, p: pb };
            let mut sparse = CpuVectors::sparse(a.clone(), &[]);
            assert!(
                sparse.residual_products(&x, &y, Some(&parts)).unwrap().predictor.is_none(),
                "sparse A is not fused"
            );
            let mut vk = CpuVectors::new(dense(&a).as_ref(), &[]);
            let what = format!("{m}×{n}, bounds {bounds}, {threads} threads");
            let rp = vk.residual_products(&x, &y, Some(&parts)).unwrap();
            let (ax, atl) = (rp.ax, rp.aty);
            let Some((t, at)) = rp.predictor else {
                assert!(!fused, "{what}: not fused");
                continue;
            };
            let plain = vk.residual_products(&x, &y, None).unwrap();
            let (ax0, atl0) = (plain.ax, plain.aty);
            let cu = vk.lincomb(1.0, &c, -1.0, &atl0).unwrap();
            let mut rho = vk.lincomb(1.0, &cu, -1.0, &s).unwrap();
            if bounds {
                rho = vk.lincomb(1.0, &rho, 1.0, &z).unwrap();
            }
            rho = vk.lincomb(1.0, &rho, 1.0, &q).unwrap();
            if bounds {
                rho = vk.lincomb(1.0, &rho, -1.0, &p).unwrap();
            }
            let t0 = vk.mul(&theta, &rho).unwrap();
            let at0 = vk.a_mul(1.0, &t0, None).unwrap();
            assert_eq!(ax, ax0, "{what}: A·x");
            assert_eq!(atl, atl0, "{what}: Aᵀy");
            assert_eq!(t, t0, "{what}: t");
            assert_eq!(at, at0, "{what}: A·t");
        }
    }
}

#[test]
fn the_step_to_the_boundary_is_capped_at_one_as_the_trait_promises() {
    // VectorKernels::max_step: the largest α ∈ [0, 1] with x + α·Δx ≥ 0.
    let a = SparseColMatrix::from_triplets(1, 4, &[(0, 0, 1.0)]).unwrap();
    let mut vk = CpuVectors::sparse(a, &[]);
    let x = vec![1.0, 2.0, 4.0, 8.0];
    let step = |vk: &mut CpuVectors, dx: &[f64]| vk.max_step(&x, &dx.to_vec()).unwrap();
    // No entry decreases: the boundary is never reached, α = 1 (not +∞).
    assert_eq!(step(&mut vk, &[0.0, 1.0, 0.5, 0.0]), 1.0);
    // The boundary lies beyond a full step (at α = 5): α = 1.
    assert_eq!(step(&mut vk, &[-0.2, 0.0, -0.5, 1.0]), 1.0);
    // Within a full step: the nearest boundary, x₂ + α·(−16) = 0 at α = 0.25.
    assert_eq!(step(&mut vk, &[-0.5, -1.0, -16.0, 0.0]), 0.25);
    // Exactly at a full step.
    assert_eq!(step(&mut vk, &[-1.0, 0.0, 0.0, 0.0]), 1.0);
    let err = vk.max_step(&x, &vec![0.0; 3]).err();
    assert!(matches!(err, Some(BackendError::Dimension { op: "max_step", expected: 4, got: 3 })), "{err:?}");
}
