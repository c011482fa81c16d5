//! Deterministic test matrices.

use faer::{Mat, MatRef};

/// Deterministic entries in [−1, 1) (a small LCG; the tests need no statistics).
pub fn entries(rows: usize, cols: usize, seed: u64) -> Mat<f64> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    Mat::from_fn(rows, cols, |_, _| {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    })
}

/// The lower triangle of A·diag(w)·Aᵀ summed in f64, and Σⱼ |a_ij·w_j·a_kj| beside it (what
/// rounding bounds are multiples of).
pub fn weighted_gram_sums(a: MatRef<'_, f64>, w: &[f64]) -> (Mat<f64>, Mat<f64>) {
    let (m, n) = (a.nrows(), a.ncols());
    let mut c = Mat::zeros(m, m);
    let mut abs = Mat::zeros(m, m);
    for k in 0..m {
        for i in k..m {
            for j in 0..n {
                let t = a[(i, j)] * w[j] * a[(k, j)];
                c[(i, k)] += t;
                abs[(i, k)] += t.abs();
            }
        }
    }
    (c, abs)
}
