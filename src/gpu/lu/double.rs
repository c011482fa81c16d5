//! Doubles in float textures: a double d is stored as three floats (hi, mid, lo) in one RGBA
//! texel with hi + mid + lo = d exactly. hi is d rounded to single precision; d − hi is exact in
//! double and has at most 29 significant bits, mid takes 24 of them, and the remaining ≤ 5 bits
//! fit lo exactly. (Exact while every part is a normal float: |d| between about 2⁻⁷⁸ and 2¹²⁷;
//! outside that range the split loses bits, never raises an error.) This is what lets the GPU form
//! the residual of formula (1) in double precision, as the paper's Fig. 3 does.

/// (hi, mid, lo, 0).
pub fn split(d: f64) -> [f32; 4] {
    let hi = d as f32;
    let rest = d - hi as f64;
    let mid = rest as f32;
    let lo = (rest - mid as f64) as f32;
    [hi, mid, lo, 0.0]
}

/// hi + mid + lo, in double.
pub fn join(t: &[f32]) -> f64 {
    t[0] as f64 + t[1] as f64 + t[2] as f64
}

/// Texel data (four floats per value) for `v`.
pub fn split_all(v: &[f64]) -> Vec<f32> {
    v.iter().flat_map(|&d| split(d)).collect()
}

/// The doubles held by texel data (four floats per value).
pub fn join_all(t: &[f32]) -> Vec<f64> {
    t.chunks_exact(4).map(join).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_and_join_are_exact_on_ordinary_doubles() {
        let values =
            [1.0, -0.1, std::f64::consts::PI * 1e10, 1.0 / 3.0, -7.123456789012345e-20, 123456789.98765432, 0.0];
        for d in values {
            let t = split(d);
            assert_eq!(join(&t), d, "{d:e} → {t:?}");
            assert_eq!(t[0], d as f32);
        }
        assert_eq!(join_all(&split_all(&values)), values);
    }
}
