//! Rounding accounted for in plain f64, with no change of the rounding mode: every quantity the
//! proofs rely on is computed in round-to-nearest and enclosed by an error bound (Higham,
//! *Accuracy and Stability of Numerical Algorithms*, ch. 3), or a single operation's result is
//! moved one ulp outwards.
//!
//! * A sum of k products (a dot product, A·x's row, c − Aᵀy's column), in any order, with or
//!   without fused multiply-adds: |fl(s) − s| ≤ γₖ·Σ|terms| (Higham (3.5)), γₖ = k·u / (1 − k·u),
//!   u = 2⁻⁵³; with gradual underflow each product adds at most 2⁻¹⁰⁷⁵ more ([`sum_error`]).
//!   The Σ|terms| at hand is itself computed: it is a sum of non-negative terms, at most
//!   (1 + γₖ) times the computed one.
//! * One operation a ∘ b rounded to nearest lies within half an ulp of the exact value, so the
//!   exact value lies in [`down`]`(fl(a ∘ b))`, [`up`]`(fl(a ∘ b))`.

/// The unit roundoff of f64, 2⁻⁵³.
pub const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;

/// The smallest positive subnormal, 2⁻¹⁰⁷⁴: an upper bound on the absolute error a product adds
/// where it underflows.
const TINY: f64 = f64::from_bits(1);

/// γₖ = k·u / (1 − k·u); infinite where k·u ≥ 1/2 (no such sum is ever formed here).
pub fn gamma(k: usize) -> f64 {
    // A proof asks for it once per row and column of every point: a division's latency each,
    // where the sums are short.
    static SHORT: std::sync::LazyLock<Vec<f64>> = std::sync::LazyLock::new(|| (0..SHORT_SUMS).map(gamma_of).collect());
    match SHORT.get(k) {
        Some(&g) => g,
        None => gamma_of(k),
    }
}

/// Sums of fewer terms than this have their γₖ in a table.
const SHORT_SUMS: usize = 1 << 12;

/// γₖ computed.
fn gamma_of(k: usize) -> f64 {
    let ku = k as f64 * UNIT_ROUNDOFF;
    if ku >= 0.5 {
        f64::INFINITY
    } else {
        ku / (1.0 - ku)
    }
}

/// An upper bound on the error of a computed sum of `terms` products whose computed magnitude
/// (Σ|terms|, also computed in f64) is `magnitude`: 2·γₖ·magnitude + k·2⁻¹⁰⁷⁴, every product
/// counted as one that may have underflowed. The factor 2 covers the magnitude's own rounding
/// (≤ (1 + γₖ) of the computed one) and the rounding of this product (≤ 1 + 2u) with room to
/// spare. Infinite for a non-finite magnitude.
pub fn sum_error(terms: usize, magnitude: f64) -> f64 {
    sum_error_counted(terms, magnitude, terms)
}

/// [`sum_error`] where only `underflows` products may have underflowed: those of two nonzero
/// factors whose computed value is below the smallest normal number (a product with a zero
/// factor is exact, and a normal one has only its relative error). A sum of exactly zero terms
/// then has no error at all, which is what lets a reduced cost of exactly zero be proven.
pub fn sum_error_counted(terms: usize, magnitude: f64, underflows: usize) -> f64 {
    if !magnitude.is_finite() {
        return f64::INFINITY;
    }
    let bound = 2.0 * gamma(terms.max(1)) * magnitude;
    // With no underflows, or from NO_SUBNORMALS up (where k·2⁻¹⁰⁷⁴, k < 2⁶⁴, is below half an
    // ulp of the bound), the sum rounds to the bound itself: returned as it is, with no
    // arithmetic on subnormal numbers (on x86 a microcode assist of about a hundred cycles per
    // operation, once per row and column of every proof).
    if bound >= NO_SUBNORMALS || underflows == 0 {
        return bound;
    }
    bound + underflows as f64 * TINY
}

/// See [`sum_error_counted`]: above 2⁻⁹⁰⁰, whose half ulp is 2⁻⁹⁵³.
const NO_SUBNORMALS: f64 = 1e-270;

/// Whether the product `t` of the nonzero-or-zero factors a, b may carry an underflow error.
pub fn may_underflow(a: f64, b: f64, t: f64) -> bool {
    a != 0.0 && b != 0.0 && t.abs() < f64::MIN_POSITIVE
}

/// A lower bound on the exact Σ|terms| whose computed value is `magnitude`, for `terms` terms:
/// the computed sum exceeds the exact one by at most γₖ of the exact one.
pub fn magnitude_below(terms: usize, magnitude: f64) -> f64 {
    down(magnitude * (1.0 - 2.0 * gamma(terms.max(1))))
}

/// The next f64 above `v` (an upper bound on the exact result of the one operation that
/// produced `v` by rounding to nearest); NaN stays NaN.
pub fn up(v: f64) -> f64 {
    v.next_up()
}

/// The next f64 below `v`.
pub fn down(v: f64) -> f64 {
    v.next_down()
}

/// Below this an error term of TwoSum or TwoProduct may itself underflow: the directed
/// operations then move one ulp without asking.
const SAFE_MAGNITUDE: f64 = 1e-290;

/// a + b rounded up, exactly when the sum is exact: TwoSum (Knuth) gives the rounding error
/// a + b − fl(a + b) exactly, whose sign says which way fl rounded.
pub fn add_up(a: f64, b: f64) -> f64 {
    let s = a + b;
    if s == f64::NEG_INFINITY && a.is_finite() && b.is_finite() {
        return -f64::MAX;
    }
    if !s.is_finite() {
        return s;
    }
    if s != 0.0 && s.abs() < SAFE_MAGNITUDE {
        return up(s);
    }
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    if err > 0.0 {
        up(s)
    } else {
        s
    }
}

/// a + b rounded down (see [`add_up`]).
pub fn add_down(a: f64, b: f64) -> f64 {
    -add_up(-a, -b)
}

/// Below this magnitude a factor's Veltkamp splitting cannot overflow.
const SPLIT_SAFE: f64 = 1e290;

/// (x, y) with x = fl(a·b) and x + y = a·b exactly, for finite a, b with a·b = 0 or
/// |a·b| ≥ 1e-290 (every partial product then representable): Dekker's TwoProduct by
/// Veltkamp's splitting (plain multiplications and additions, which vectorize and need no fused
/// multiply-add from the target), the fused multiply-add only for factors beyond 1e290.
pub fn two_product(a: f64, b: f64) -> (f64, f64) {
    let x = a * b;
    if a.abs() >= SPLIT_SAFE || b.abs() >= SPLIT_SAFE {
        return (x, a.mul_add(b, -x));
    }
    let split = |v: f64| {
        let c = 134_217_729.0 * v; // 2²⁷ + 1
        let hi = c - (c - v);
        (hi, v - hi)
    };
    let ((ah, al), (bh, bl)) = (split(a), split(b));
    (x, al * bl - (((x - ah * bh) - al * bh) - ah * bl))
}

/// A lower bound on the exact a·b, exact when the product is, with 0·∞ = 0 (a zero factor is
/// exact: a bound that does not exist times a multiplier of exactly zero contributes nothing).
/// [`two_product`] gives the product's rounding error exactly.
pub fn mul_down(a: f64, b: f64) -> f64 {
    if a == 0.0 || b == 0.0 {
        return 0.0;
    }
    let p = a * b;
    if p.is_infinite() && a.is_finite() && b.is_finite() {
        // Overflow of finite factors: the exact product is finite but beyond f64.
        return if p > 0.0 { f64::MAX } else { f64::NEG_INFINITY };
    }
    if !p.is_finite() {
        return p;
    }
    if p.abs() < SAFE_MAGNITUDE {
        return down(p);
    }
    if two_product(a, b).1 < 0.0 {
        down(p)
    } else {
        p
    }
}

/// An upper bound on the exact a·b (see [`mul_down`]).
pub fn mul_up(a: f64, b: f64) -> f64 {
    -mul_down(-a, b)
}

/// An upper bound on the exact a / b for b > 0 finite, exact when the quotient is (the
/// remainder a − q·b is exact in a fused multiply-add).
pub fn div_up(a: f64, b: f64) -> f64 {
    let q = a / b;
    if q.is_infinite() && a.is_finite() {
        return if q > 0.0 { f64::INFINITY } else { -f64::MAX };
    }
    if !q.is_finite() {
        return q;
    }
    if q != 0.0 && q.abs() < SAFE_MAGNITUDE || a.abs() < SAFE_MAGNITUDE && a != 0.0 {
        return up(q);
    }
    if (-q).mul_add(b, a) > 0.0 {
        up(q)
    } else {
        q
    }
}

/// A lower bound on the exact a / b for b > 0 finite.
pub fn div_down(a: f64, b: f64) -> f64 {
    -div_up(-a, b)
}

/// A sum of terms that are each lower bounds of exact values, enclosed from below: the f64 sum
/// minus its error bound. Infinite terms (−∞: no bound) make it −∞.
#[derive(Clone, Copy, Debug, Default)]
pub struct LowerSum {
    sum: f64,
    magnitude: f64,
    terms: usize,
    unbounded: bool,
}

impl LowerSum {
    /// Adds a lower bound of one exact term.
    pub fn add(&mut self, term: f64) {
        if term == f64::NEG_INFINITY || term.is_nan() {
            self.unbounded = true;
            return;
        }
        self.sum += term;
        self.magnitude += term.abs();
        self.terms += 1;
    }

    /// Σ|terms| (computed): the size of what the sum is made of.
    pub fn magnitude(&self) -> f64 {
        self.magnitude
    }

    /// A lower bound on the exact sum of the exact terms (each at least the term added).
    pub fn lower(&self) -> f64 {
        if self.unbounded {
            return f64::NEG_INFINITY;
        }
        // Additions only: no product, no underflow.
        add_down(self.sum, -sum_error_counted(self.terms + 1, self.magnitude, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact value of a sum of products of multiples of 2⁻²⁶ (|values| < 4), in units of
    /// 2⁻⁵²: every product and every partial sum, exact or rounded, is an integer there.
    fn exact_dot(a: &[f64], b: &[f64]) -> i128 {
        let scale = 2f64.powi(26);
        a.iter().zip(b).map(|(&x, &y)| ((x * scale) as i128) * ((y * scale) as i128)).sum()
    }

    /// `v` (a multiple of 2⁻⁵² below 2¹¹) in units of 2⁻⁵², exactly.
    fn units(v: f64) -> i128 {
        let scaled = v * 2f64.powi(52);
        assert_eq!(scaled, scaled.trunc(), "{v} is not a multiple of 2^-52");
        scaled as i128
    }

    #[test]
    fn the_sum_bound_holds_for_cancelling_dyadic_sums_in_any_order() {
        // Values k/2^26, cancelling sums long enough to round: the computed dot product in two
        // orders stays within sum_error of the exact value (and does round somewhere).
        let mut state = 0x9e3779b97f4a7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            ((state % (1 << 27)) as f64 - (1 << 26) as f64) / (1u64 << 26) as f64
        };
        let mut rounded = false;
        for n in [1usize, 2, 7, 64, 513] {
            let a: Vec<f64> = (0..n).map(|_| next()).collect();
            let b: Vec<f64> = (0..n).map(|_| next() * 3.0).collect();
            let exact = exact_dot(&a, &b);
            let forward: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            let backward: f64 = a.iter().zip(&b).rev().map(|(x, y)| x * y).sum();
            let magnitude: f64 = a.iter().zip(&b).map(|(x, y)| (x * y).abs()).sum();
            // The bound in units of 2⁻⁵², rounded down: the errors must stay within it exactly.
            let bound = (sum_error(n, magnitude) * 2f64.powi(52)).floor() as i128;
            for (what, got) in [("forward", forward), ("backward", backward)] {
                let off = (units(got) - exact).abs();
                assert!(off <= bound, "n = {n}: {what} off by {off} units > {bound}");
                rounded |= off > 0;
            }
            assert!(magnitude_below(n, magnitude) <= magnitude);
        }
        assert!(rounded, "no sum rounded: the test would prove nothing");
    }

    #[test]
    fn a_planted_larger_error_escapes_the_bound() {
        // The bound is tight enough to mean something: an error of 4γₙ·Σ|terms| is not inside it.
        let n = 100;
        let magnitude = 1.0;
        assert!(4.0 * gamma(n) * magnitude > sum_error(n, magnitude));
        assert!(sum_error(n, f64::INFINITY).is_infinite());
        assert!(gamma(usize::MAX).is_infinite());
    }

    #[test]
    fn directed_products_enclose_and_keep_exact_zeros() {
        assert_eq!(mul_down(0.0, f64::INFINITY), 0.0);
        assert_eq!(mul_down(f64::NEG_INFINITY, 0.0), 0.0);
        assert_eq!(mul_down(-1e-300, f64::INFINITY), f64::NEG_INFINITY);
        assert_eq!(mul_up(1e-300, f64::INFINITY), f64::INFINITY);
        // fl(0.1·0.3) with its exact error (a fused multiply-add): the exact product lies
        // between the directed ones, which are one ulp apart at most.
        let (a, b) = (0.1f64, 0.3f64);
        let (p, err) = (a * b, a.mul_add(b, -(a * b)));
        let exact_above = err > 0.0;
        assert!(mul_down(a, b) <= p && p <= mul_up(a, b));
        assert_eq!(mul_down(a, b) == p, exact_above, "the rounding's direction decides which end moves");
        assert_eq!(mul_down(1e300, 1e300), f64::MAX);
        // 1/3 rounds one way: one end is the quotient, the other an ulp beyond.
        let q = 1.0f64 / 3.0;
        assert!(div_down(1.0, 3.0) <= q && q <= div_up(1.0, 3.0) && div_down(1.0, 3.0) < div_up(1.0, 3.0));
        assert_eq!(div_up(1e300, 1e-300), f64::INFINITY);
        // Exact results stay exact; inexact ones move outwards.
        assert_eq!((mul_down(0.5, 3.0), mul_up(0.5, 3.0)), (1.5, 1.5));
        assert_eq!((div_down(3.0, 4.0), div_up(3.0, 4.0)), (0.75, 0.75));
        assert_eq!((add_down(0.0, 0.0), add_up(1.0, -1.0)), (0.0, 0.0));
        assert!(add_down(1.0, 1e-20) == 1.0 && add_up(1.0, 1e-20) > 1.0);
        assert!(add_down(1.0, -1e-20) < 1.0 && add_up(1.0, -1e-20) == 1.0);
        assert!(mul_down(0.1, 3.0) <= 0.1 * 3.0 && mul_up(0.1, 3.0) >= 0.1 * 3.0);
        assert!(mul_up(0.1, 3.0) - mul_down(0.1, 3.0) <= f64::EPSILON);
    }

    #[test]
    fn a_lower_sum_is_below_the_exact_sum_and_unbounded_with_a_missing_term() {
        let mut s = LowerSum::default();
        for v in [1e16, 1.0, -1e16, 0.1] {
            s.add(v);
        }
        // Exact: 1.1; the f64 sum loses the 1 (1e16 + 1 = 1e16), within 2γ₅·2e16 ≈ 22.
        assert!(s.lower() <= 1.1, "{}", s.lower());
        assert!(s.lower() > 1.1 - 2.0 * sum_error(5, 2e16), "the bound is of the rounding's size: {}", s.lower());
        s.add(f64::NEG_INFINITY);
        assert_eq!(s.lower(), f64::NEG_INFINITY);
    }

    #[test]
    fn dekker_products_are_exact() {
        let cases = [(0.1, 3.0), (1.0 + f64::EPSILON, 1.0 - f64::EPSILON / 2.0), (1e200, 3e-150), (-7.3e-100, 1.1e-170), (3e295, -2e-10)];
        for (a, b) in cases {
            assert_eq!(two_product(a, b), (a * b, a.mul_add(b, -(a * b))), "{a} · {b}");
        }
    }
}
