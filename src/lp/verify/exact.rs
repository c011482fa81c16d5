//! The exact sign of a short sum of products of floats: c − Σ aᵢ·yᵢ as an expansion (Shewchuk,
//! *Adaptive precision floating-point arithmetic and fast robust geometric predicates*, 1997):
//! every product is split exactly into two floats by a fused multiply-add, every sum by TwoSum,
//! and the components kept never overlap, so the largest one carries the sign of the exact value
//! and none of them is left when it is exactly zero.
//!
//! What the error bounds cannot decide — a reduced cost of exactly zero (a column's terms
//! cancelling: +1 and −1 in two rows with the same multiplier), or of the right sign but below
//! its own rounding — this decides exactly, where the sum is short enough to pay for it.

use super::rounding::two_product;
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
/// Adaptive, as Shewchuk's predicates are: a sum in twice the working precision decides
/// wherever it is far enough from zero (one pass over the terms), the expansion only the rest
/// (exact zeros and values within about u² of the terms' size).
pub fn sign_of_difference(c: f64, terms: impl Iterator<Item = (f64, f64)> + Clone) -> Option<Ordering> {
    twice_precision_sign(c, terms.clone()).or_else(|| expansion_sign(c, terms))
}

/// The sign of c − Σ aₖ·yₖ from its exact expansion.
fn expansion_sign(c: f64, terms: impl Iterator<Item = (f64, f64)>) -> Option<Ordering> {
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
        let err = two_product(a, y).1;
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

/// The sign of c − Σ aₖ·yₖ where the compensated dot product (Ogita, Rump & Oishi, *Accurate sum
/// and dot product*, 2005, Algorithm Dot2) proves it: its result s̃ has |s̃ − s| ≤ u·|s| + γₙ²·S
/// (S = |c| + Σ|aₖyₖ|, n terms), hence |s̃ − s| ≤ (u·|s̃| + γₙ²·S)/(1 − u); the bound is
/// inflated by 1.25 for its own rounding and that of S (relative errors of order n·u). `None`
/// where that does not exclude zero, or where a value is out of the range where every product's
/// error is exact (the expansion then decides or refuses).
fn twice_precision_sign(c: f64, terms: impl Iterator<Item = (f64, f64)>) -> Option<Ordering> {
    let (mut p, mut s, mut size, mut n) = (c, 0.0f64, c.abs(), 1usize);
    let in_range = |v: f64| v.abs() > SAFE;
    if !c.is_finite() {
        return None;
    }
    for (a, y) in terms {
        if a == 0.0 || y == 0.0 {
            continue;
        }
        let (h, r) = two_product(a, y);
        if !in_range(a) || !in_range(y) || h.is_nan() || h.abs() <= SAFE || !h.is_finite() {
            return None;
        }
        // −a·y = (−h) + (−r) exactly.
        let (sum, q) = two_sum(p, -h);
        p = sum;
        s += q - r;
        size += h.abs();
        n += 1;
    }
    let value = p + s;
    let u = f64::EPSILON / 2.0;
    let nu = n as f64 * u;
    let g = nu / (1.0 - nu);
    let bound = 1.25 * (u * value.abs() + g * g * size) / (1.0 - u);
    if !value.is_finite() || !bound.is_finite() || nu >= 0.01 || value.abs() <= bound {
        return None;
    }
    value.partial_cmp(&0.0)
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

    #[test]
    fn the_twice_precision_filter_agrees_with_the_expansion_where_it_decides() {
        // Near cancellations of every depth: a sum, then its terms again negated and perturbed
        // by 2^-k relative, k from 0 to 120 (past twice the precision, where only the
        // expansion decides).
        let mut state = 0x2545f4914f6cdd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let (mut decided, mut left) = (0, 0);
        for k in 0..120 {
            for _ in 0..20 {
                let base: Vec<(f64, f64)> = (0..7).map(|_| (next() * 1e3, next())).collect();
                let mut terms = base.clone();
                terms.extend(base.iter().map(|&(a, y)| (-a, y * (1.0 + next() * 2f64.powi(-k)))));
                let c = next() * 2f64.powi(-k);
                let exact = expansion_sign(c, terms.iter().copied());
                match twice_precision_sign(c, terms.iter().copied()) {
                    Some(sign) => {
                        assert_eq!(Some(sign), exact, "k = {k}");
                        decided += 1;
                    }
                    None => left += 1,
                }
            }
        }
        // Both stages must have had work: the filter is not a pass-through, nor always silent.
        assert!(decided > 1000 && left > 100, "decided {decided}, left {left}");
    }

}
