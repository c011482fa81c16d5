//! Deterministic test matrices.

use faer::Mat;

/// Deterministic entries in [−1, 1) (a small LCG; the tests need no statistics).
pub fn entries(rows: usize, cols: usize, seed: u64) -> Mat<f64> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    Mat::from_fn(rows, cols, |_, _| {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    })
}
