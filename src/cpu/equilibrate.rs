//! Powers of two that bring a dense problem into single precision's comfortable range before it
//! is uploaded, and are undone exactly after (LAPACK's xGEEQUB and xPOEQUB, with xLAQGE's and
//! xLAQSY's rule of scaling only where it is needed).
//!
//! A factor is always a power of two, so scaling and unscaling round nothing. Where the sizes
//! (row or column maxima, square roots of a diagonal) are within [`RATIO`] of one another, one
//! common factor is used, and it is 1 unless the largest size lies outside 2^±[`COMFORT`]: a
//! problem that needs no scaling is computed bit for bit as it was written, and a common power
//! of two changes no pivot and no rounding (only exponents), so it is computed bit for bit as
//! well, up to that factor.

/// Sizes within 2^±COMFORT need no common factor: f32's normal range is 2^±126, and the
/// factorizations form products of two entries and sums of a few thousand of them.
pub const COMFORT: i32 = 32;

/// LAPACK's THRESH (xLAQGE, xLAQSY): rows, columns or a diagonal are scaled one by one only
/// when their smallest nonzero size is below this fraction of the largest.
pub const RATIO: f64 = 0.1;

/// The exponent of the power of two nearest to `v` (by exponent), for finite v > 0, within
/// what f64 can scale by exactly (±1000); 0 otherwise.
pub fn exponent(v: f64) -> i32 {
    if v > 0.0 && v.is_finite() {
        v.log2().round().clamp(-1000.0, 1000.0) as i32
    } else {
        0
    }
}

/// 2^e, exact for |e| ≤ 1000.
pub fn power_of_two(e: i32) -> f64 {
    2f64.powi(e)
}

/// One factor per size (0 for an empty row or column: its factor is 1). One by one, 2^−e(size),
/// when the smallest nonzero size is below [`RATIO`] times the largest; else one common factor,
/// 2^−e(largest) when the largest is outside 2^±[`COMFORT`], 1 when it is inside.
pub fn factors(sizes: &[f64]) -> Vec<f64> {
    let nonzero = sizes.iter().copied().filter(|&s| s > 0.0 && s.is_finite());
    let (lo, hi) = nonzero.fold((f64::INFINITY, 0.0f64), |(l, h), s| (l.min(s), h.max(s)));
    if hi == 0.0 {
        return vec![1.0; sizes.len()];
    }
    if lo < RATIO * hi {
        return sizes
            .iter()
            .map(|&s| if s > 0.0 && s.is_finite() { power_of_two(-exponent(s)) } else { 1.0 })
            .collect();
    }
    let e = exponent(hi);
    let common = if e.abs() > COMFORT { power_of_two(-e) } else { 1.0 };
    vec![common; sizes.len()]
}

/// The largest |v| (0 for none).
pub fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, x| m.max(x.abs()))
}

/// ‖v‖₂ without overflow or underflow in the squares (each entry divided by the largest first,
/// as LAPACK's xNRM2 does).
pub fn norm2(v: impl Iterator<Item = f64> + Clone) -> f64 {
    let big = v.clone().fold(0.0f64, |m, x| m.max(x.abs()));
    if big == 0.0 || !big.is_finite() {
        return big;
    }
    big * v.map(|x| (x / big) * (x / big)).sum::<f64>().sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_sizes_inside_the_range_are_left_alone() {
        assert_eq!(factors(&[1.0, 3.0, 0.5]), vec![1.0; 3]);
        assert_eq!(factors(&[1e9, 3e9]), vec![1.0; 2], "2^30 and 2^31.5 are inside 2^±32");
        assert_eq!(factors(&[]), Vec::<f64>::new());
        assert_eq!(factors(&[0.0, 0.0]), vec![1.0, 1.0]);
    }

    #[test]
    fn balanced_sizes_outside_the_range_share_one_power_of_two() {
        let f = factors(&[1e-39, 2e-39]);
        assert_eq!(f[0], f[1]);
        assert_eq!(f[0], 2f64.powi(129), "1e-39·2^129 ≈ 0.68 and 2e-39 the nearest power");
        assert_eq!(factors(&[3e38])[0], 2f64.powi(-128));
    }

    #[test]
    fn unbalanced_sizes_are_scaled_one_by_one() {
        let f = factors(&[1.0, 1e-3, 0.0, 8.0]);
        assert_eq!(f, vec![1.0, 1024.0, 1.0, 0.125]);
    }

    #[test]
    fn norms_of_huge_and_tiny_vectors_are_finite_and_right() {
        let v = [3e200, 4e200];
        assert!((norm2(v.iter().copied()) - 5e200).abs() <= 1e186);
        let w = [3e-200, 4e-200];
        assert!((norm2(w.iter().copied()) - 5e-200).abs() <= 1e-214);
        assert_eq!(norm2([0.0, 0.0].iter().copied()), 0.0);
    }
}
