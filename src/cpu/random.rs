//! Seeded random matrices for tests and benchmarks.

use faer::Mat;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Uniform entries in [lo, hi), row-major.
pub fn uniform(rows: usize, cols: usize, lo: f64, hi: f64, seed: u64) -> Vec<f64> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..rows * cols).map(|_| rng.random_range(lo..hi)).collect()
}

/// C = B·Bᵀ/m + I with B uniform in [−1, 1): symmetric positive definite, condition number
/// a few units (the well-conditioned family of the tests). Row-major, full.
pub fn spd_well_conditioned(m: usize, seed: u64) -> Vec<f64> {
    let b = Mat::from_fn(m, m, {
        let v = uniform(m, m, -1.0, 1.0, seed);
        move |i, j| v[i * m + j]
    });
    let c = &b * b.transpose();
    let mut out = super::dense::from_mat(c.as_ref());
    for i in 0..m {
        for j in 0..m {
            out[i * m + j] /= m as f64;
        }
        out[i * m + i] += 1.0;
    }
    out
}

/// C = Q·diag(λ)·Qᵀ with λ spaced geometrically from 1 down to 1/`cond` and Q a random
/// orthogonal matrix (the Q of a QR factorization of a Gaussian-like matrix): condition number
/// exactly `cond` up to rounding. Row-major, full.
pub fn spd_with_condition(m: usize, cond: f64, seed: u64) -> Vec<f64> {
    let g = uniform(m, m, -1.0, 1.0, seed);
    let q = Mat::from_fn(m, m, |i, j| g[i * m + j]).qr().compute_Q();
    let lambda = |i: usize| {
        if m == 1 {
            1.0
        } else {
            cond.powf(-(i as f64) / (m as f64 - 1.0))
        }
    };
    let qd = Mat::from_fn(m, m, |i, j| q[(i, j)] * lambda(j));
    let c = &qd * q.transpose();
    // Symmetrize exactly: the product is symmetric only up to rounding.
    let mut out = super::dense::from_mat(c.as_ref());
    for i in 0..m {
        for j in 0..i {
            let s = 0.5 * (out[i * m + j] + out[j * m + i]);
            out[i * m + j] = s;
            out[j * m + i] = s;
        }
    }
    out
}

/// A general n×n matrix U·Σ·Vᵀ with singular values spaced geometrically from 1 down to
/// 1/`cond` and U, V random orthogonal: 2-norm condition number `cond`. Row-major.
pub fn general_with_condition(n: usize, cond: f64, seed: u64) -> Vec<f64> {
    let g = uniform(n, n, -1.0, 1.0, seed);
    let h = uniform(n, n, -1.0, 1.0, seed.wrapping_add(0x5eed));
    let u = Mat::from_fn(n, n, |i, j| g[i * n + j]).qr().compute_Q();
    let v = Mat::from_fn(n, n, |i, j| h[i * n + j]).qr().compute_Q();
    let sigma = |i: usize| if n == 1 { 1.0 } else { cond.powf(-(i as f64) / (n as f64 - 1.0)) };
    let us = Mat::from_fn(n, n, |i, j| u[(i, j)] * sigma(j));
    super::dense::from_mat((&us * v.transpose()).as_ref())
}

/// A rows×cols design U·Σ·Vᵀ (rows ≥ cols) with singular values spaced geometrically from 1
/// down to 1/`cond`, U with orthonormal columns and V orthogonal, both random: 2-norm condition
/// number `cond` up to rounding. Row-major.
pub fn design_with_condition(rows: usize, cols: usize, cond: f64, seed: u64) -> Vec<f64> {
    let g = uniform(rows, cols, -1.0, 1.0, seed);
    let h = uniform(cols, cols, -1.0, 1.0, seed.wrapping_add(0x5eed));
    let u = Mat::from_fn(rows, cols, |i, j| g[i * cols + j]).qr().compute_thin_Q();
    let v = Mat::from_fn(cols, cols, |i, j| h[i * cols + j]).qr().compute_Q();
    let sigma = |i: usize| if cols == 1 { 1.0 } else { cond.powf(-(i as f64) / (cols as f64 - 1.0)) };
    let us = Mat::from_fn(rows, cols, |i, j| u[(i, j)] * sigma(j));
    super::dense::from_mat((&us * v.transpose()).as_ref())
}
