//! The exact sign of a short sum of products of floats: c − Σ aᵢ·yᵢ as an expansion (Shewchuk,
//! *Adaptive precision floating-point arithmetic and fast robust geometric predicates*, 1997):
//! every product is split exactly into two floats by a fused multiply-add, every sum by TwoSum,
//! and the components kept never overlap, so the largest one carries the sign of the exact value
//! and none of them is left when it is exactly zero.
//!
//! What the error bounds cannot decide — a reduced cost of exactly zero (a column's terms
//! cancelling: +1 and −1 in two rows with the same multiplier), or of the right sign but below
//! its own rounding — this decides exactly, where the sum is short enough to pay for it.

use std::cmp::Ordering;

/// Sums whose terms are all above this magnitude (or exactly zero) split exactly: below it the
/// error term of a product can underflow.
const SAFE: f64 = 1e-280;

/// (s, e) with s = fl(a + b) and s + e = a + b exactly (Knuth's TwoSum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// Adds `b` to the nonoverlapping expansion `e` (components in increasing magnitude), dropping
/// zero components (Shewchuk's Grow-Expansion with zero elimination); `out` is scratch space.
fn grow(e: &mut Vec<f64>, out: &mut Vec<f64>, b: f64) {
    out.clear();
    let mut q = b;
    for &h in e.iter() {
        let (s, err) = two_sum(q, h);
        if err != 0.0 {
            out.push(err);
        }
        q = s;
    }
    if q != 0.0 {
        out.push(q);
    }
    std::mem::swap(e, out);
}

/// The exact sign of c − Σ aₖ·yₖ over `terms` (a, y), or `None` where the arithmetic could not
/// be exact (a non-finite value, an overflow, or a magnitude where the splitting underflows).
pub fn sign_of_difference(c: f64, terms: impl Iterator<Item = (f64, f64)>) -> Option<Ordering> {
    let ok = |v: f64| v.is_finite() && (v == 0.0 || v.abs() > SAFE);
    if !ok(c) {
        return None;
    }
    let (mut e, mut scratch) = (Vec::with_capacity(16), Vec::with_capacity(16));
    grow(&mut e, &mut scratch, c);
    for (a, y) in terms {
        if a == 0.0 || y == 0.0 {
            continue;
        }
        let p = a * y;
        if !ok(a) || !ok(y) || !ok(p) {
            return None;
        }
        let err = a.mul_add(y, -p);
        grow(&mut e, &mut scratch, -p);
        if err != 0.0 {
            grow(&mut e, &mut scratch, -err);
        }
        if e.last().is_some_and(|v| !v.is_finite()) {
            return None;
        }
    }
    Some(e.last().map_or(Ordering::Equal, |v| v.partial_cmp(&0.0).unwrap_or(Ordering::Equal)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cancelling_terms_are_exactly_zero_and_tiny_remainders_keep_their_sign() {
        // 0.1·3 − 0.3 is not zero in floats (0.1 and 0.3 are not what they print as), and its
        // sign is that of the exact values: f64(0.1)·3 = 0.30000000000000001665 > f64(0.3).
        assert_eq!(sign_of_difference(0.0, [(0.1, 3.0), (-0.3, 1.0)].into_iter()), Some(Ordering::Less));
        // y − y = 0 exactly, whatever y is.
        let y = 0.123456789e-7;
        assert_eq!(sign_of_difference(0.0, [(1.0, y), (-1.0, y)].into_iter()), Some(Ordering::Equal));
        // c − a·y where the float sum would round to 0: 1 − (1 + 2⁻⁵²)·(1 − 2⁻⁵³)·… is tested
        // through a product whose low part decides.
        let a = 1.0 + f64::EPSILON;
        let b = 1.0 - f64::EPSILON / 2.0;
        // a·b = 1 + ε/2 − ε²/2 exactly: slightly above 1 + ε/2 − tiny; against c = a·b rounded.
        let p = a * b;
        let exact_minus_rounded = a.mul_add(b, -p);
        let want = 0.0f64.partial_cmp(&exact_minus_rounded).unwrap();
        assert_eq!(sign_of_difference(p, [(a, b)].into_iter()), Some(want));
        assert_ne!(exact_minus_rounded, 0.0, "the test needs an inexact product");
    }

    #[test]
    fn long_cancelling_sums_and_refusals() {
        // Σ (k·0.1) − Σ (k·0.1) in another order: exactly zero.
        let mut terms: Vec<(f64, f64)> = (1..40).map(|k| (k as f64, 0.1)).collect();
        terms.extend((1..40).rev().map(|k| (-(k as f64), 0.1)));
        assert_eq!(sign_of_difference(0.0, terms.into_iter()), Some(Ordering::Equal));
        assert_eq!(sign_of_difference(1.0, [(1e-300, 1e-10)].into_iter()), None);
        assert_eq!(sign_of_difference(f64::NAN, std::iter::empty()), None);
        assert_eq!(sign_of_difference(-2.0, std::iter::empty()), Some(Ordering::Less));
    }
}
