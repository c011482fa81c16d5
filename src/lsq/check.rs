//! The double-precision check of a weighted least-squares answer x̂ of min ‖D·(b − Aᵀx)‖₂ (the
//! papers' layout: A is m×n, one row per unknown), computed from the data in f64 with every
//! rounding accounted for by Higham's γ_k = k·u/(1 − k·u) (*Accuracy and Stability of
//! Numerical Algorithms*, 2nd ed., ch. 3). Two measures:
//!
//! * **Forward error** (the one the mixed path must pass). s = A·D²·(b − Aᵀx̂) is the residual
//!   of the normal equations C·x = A·D²·b, C = A·D²·Aᵀ, and C·(x̂ − x*) = −s holds exactly for
//!   the least-squares solution x*. With |s| ≤ g componentwise (g = |ŝ| plus the rounding
//!   bound of ŝ), |x̂ − x*| ≤ |C⁻¹|·g, so ‖x̂ − x*‖∞/‖x̂‖∞ ≤ ‖|C⁻¹|·g‖∞/‖x̂‖∞ — LAPACK's FERR
//!   (xPORFS; Higham §7.2) for the normal equations. ‖|C⁻¹|·g‖∞ is estimated by Higham's
//!   1-norm estimator (ch. 15, Alg. 15.4, LAPACK's xLACN2) from the factor the answer came
//!   from: the single-precision Cholesky factor L̃ (C̃ = L̃·L̃ᵀ) after refinement, or the f64
//!   R of Householder QR (C = RᵀR). L̃ is not C's factor: refinement converges at the rate
//!   ρ ≈ ‖I − C̃⁻¹·C‖, and ‖C⁻¹‖ ≤ ‖C̃⁻¹‖/(1 − ρ), so the estimate is divided by 1 − ρ with
//!   the contraction the refinement showed. The estimator is a lower bound of the norm it
//!   estimates that is almost always within a factor 3 (exact for most matrices); the γ terms
//!   are worst-case bounds and make the whole several times pessimistic in practice.
//! * **Backward error** (reported with every answer): x̂ is the exact least-squares solution for
//!   B = D·Aᵀ perturbed to B + E with either E = r̂·x̂ᵀ/‖x̂‖² (the residual absorbed: ‖E‖ =
//!   ‖r‖/‖x̂‖) or E = −r·rᵀ·B/‖r‖² (Bᵀr removed: ‖E‖ = ‖Bᵀr‖/‖r‖), r = D·(b − Aᵀx̂) (Stewart
//!   1977; Higham §20.7; the two stopping rules of LSQR, Paige & Saunders 1982). Both E are of
//!   rank one, so η(x̂) ≤ min(‖r‖₂/‖x̂‖₂, ‖Bᵀr‖₂/‖r‖₂)/‖B‖_F bounds the normwise backward
//!   error in the Frobenius norm; ‖r‖ and ‖Bᵀr‖ = ‖s‖ enter with their rounding bounds, so
//!   the value is a proven upper bound. It needs no factor and no condition number; it is not
//!   a forward error (that is κ times larger), so it is reported, not tested.
//!
//! Everything is measured on the problem as the solver sees it, after the powers of two of
//! `scaled` (which change no rounding of these sums); the forward error is in x's own units.

use crate::cpu::rowmajor;

/// Double precision's unit roundoff 2⁻⁵³.
const U64: f64 = f64::EPSILON / 2.0;

/// γ_k = k·u/(1 − k·u) (Higham Lemma 3.1): the relative error bound of k roundings.
pub fn gamma(k: usize) -> f64 {
    let t = k as f64 * U64;
    t / (1.0 - t)
}

fn norm2(v: &[f64]) -> f64 {
    crate::cpu::equilibrate::norm2(v.iter().copied())
}

/// What the check found: the measures of an answer and the threshold its path was held to.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Accuracy {
    /// Bound on ‖x − x*‖∞/‖x‖∞ (x* the exact least-squares solution) from the normal-equations
    /// residual with its rounding bound and ‖|C⁻¹|·g‖∞ estimated from the factor used (see
    /// the module documentation); infinite where refinement did not contract.
    pub forward_error: f64,
    /// The bound `forward_error` had to meet for the mixed answer to be returned
    /// (the settings' accuracy); the double-precision fallback is returned whatever
    /// its value.
    pub threshold: f64,
    /// Proven upper bound on the normwise (Frobenius) relative backward error: x is the exact
    /// least-squares solution for D·Aᵀ perturbed by at most this fraction of ‖D·Aᵀ‖_F.
    pub backward_error: f64,
    /// ρ, the refinement's observed contraction (largest ratio of successive normal-equations
    /// residual norms; 0 for the QR fallback, which is not refined).
    pub contraction: f64,
}

/// Veltkamp's split a = h + l into two halves of 26 significant bits (no overflow for
/// |a| < 2⁹⁹⁶).
#[inline]
fn split(a: f64) -> (f64, f64) {
    let c = 134_217_729.0 * a; // 2²⁷ + 1
    let h = c - (c - a);
    (h, a - h)
}

/// Dekker's TwoProduct: a·b = p + e exactly (barring underflow), without a fused multiply-add.
#[inline]
fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    let ((ah, al), (bh, bl)) = (split(a), split(b));
    (p, al * bl - (((p - ah * bh) - al * bh) - ah * bl))
}

/// Knuth's TwoSum: a + b = s + e exactly.
#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let z = s - a;
    (s, (a - (s - z)) + (b - z))
}

/// Σ pᵢ·qᵢ by Ogita, Rump & Oishi's Dot2 (*Accurate sum and dot product*, SIAM J. Sci. Comput.
/// 26, 2005, Alg. 5.3): as if computed in twice the working precision, |result − pᵀq| ≤
/// u·|pᵀq| + γ²_len·|p|ᵀ|q| (their Prop. 5.5).
fn dot2(p: &[f64], q: &[f64]) -> f64 {
    let (mut hi, mut lo) = (0.0, 0.0);
    for (&a, &b) in p.iter().zip(q) {
        let (h, r) = two_prod(a, b);
        let (s, e) = two_sum(hi, h);
        hi = s;
        lo += e + r;
    }
    hi + lo
}

/// The residuals of one answer x̂ and their rounding bounds.
pub struct Residuals {
    /// ŝ = A·D²·(b − Aᵀx̂), m entries, computed as if in twice the working precision.
    pub s: Vec<f64>,
    /// |s − ŝ| ≤ this, componentwise (see [`Residuals::new`]).
    pub s_error: Vec<f64>,
    /// ‖r̂‖₂ for r = D·(b − Aᵀx̂), and ‖ρ‖₂ with |r − r̂| ≤ ρ componentwise.
    pub r_norm: f64,
    pub r_error: f64,
    /// ‖D·Aᵀ‖_F.
    pub b_norm: f64,
}

impl Residuals {
    /// The residuals of x̂ (A m×n row-major, d² and b of length n, all finite, d² ≥ 0, entries
    /// of a size where nothing overflows — the scaled problem's). t = b − Aᵀx̂ and s = A·(D²·t̂)
    /// are Dot2 sums, so with G_k = γ²_{m+1}·(|b_k| + (|Aᵀ|·|x̂|)_k):
    /// |t̂ − t| ≤ (u·|t̂| + G)/(1 − u); ŵ = fl(D²·t̂) errs from D²·t by
    /// δw = D²·(2u·|t̂| + G)/(1 − u); and |s − ŝ| ≤ (u·|ŝ| + γ²_n·|A|·|ŵ|)/(1 − u) + |A|·δw.
    /// The products with |A| that form the bound are themselves rounded: a factor (1 + γ)²
    /// of their lengths covers them. Compensated sums make the bound a few units of u·|s|
    /// instead of γ_{n+m}·|A|·D²·(|b| + |Aᵀ|·|x̂|), thousands of times larger at n = 2048.
    pub fn new(a: &[f64], m: usize, n: usize, d2: &[f64], b: &[f64], x: &[f64]) -> Self {
        // Row by row of A (contiguous): t = b − Aᵀx̂ in Dot2's accumulators per observation,
        // |Aᵀ|·|x̂| and the weighted column norms at once.
        let (mut hi, mut lo) = (b.to_vec(), vec![0.0; n]);
        let (mut abs, mut col2) = (vec![0.0; n], vec![0.0; n]);
        for (row, &xi) in a.chunks_exact(n).zip(x) {
            for k in 0..n {
                let v = row[k];
                let (h, r) = two_prod(v, -xi);
                let (s, e) = two_sum(hi[k], h);
                hi[k] = s;
                lo[k] += e + r;
                abs[k] += (v * xi).abs();
                col2[k] += v * v;
            }
        }
        let u = U64;
        let slack = (1.0 + gamma(n + m + 4)).powi(2);
        let t: Vec<f64> = (0..n).map(|k| hi[k] + lo[k]).collect();
        let g_t: Vec<f64> = (0..n).map(|k| gamma(m + 1).powi(2) * (b[k].abs() + abs[k]) * slack).collect();
        let w: Vec<f64> = (0..n).map(|k| d2[k] * t[k]).collect();
        // The weight of |A| in the bound: γ²_n·|ŵ| and δw together.
        let v: Vec<f64> = (0..n)
            .map(|k| (gamma(n).powi(2) * w[k].abs() + d2[k] * (2.0 * u * t[k].abs() + g_t[k])) / (1.0 - u))
            .collect();
        let (mut s, mut s_error) = (Vec::with_capacity(m), Vec::with_capacity(m));
        for row in a.chunks_exact(n) {
            let si = dot2(row, &w);
            s.push(si);
            let spread = row.iter().zip(&v).map(|(p, q)| p.abs() * q).sum::<f64>();
            s_error.push((u * si.abs() / (1.0 - u) + spread) * slack);
        }
        let d: Vec<f64> = d2.iter().map(|v| v.sqrt()).collect();
        let r: Vec<f64> = (0..n).map(|k| d[k] * t[k]).collect();
        // √d² and the product round twice more than t̂ did.
        let rho: Vec<f64> = (0..n).map(|k| d[k] * (4.0 * u * t[k].abs() + g_t[k]) * slack).collect();
        let b_norm = (0..n).map(|k| d2[k] * col2[k]).sum::<f64>().sqrt();
        Self { s, s_error, r_norm: norm2(&r), r_error: norm2(&rho), b_norm }
    }

    /// g ≥ |s| componentwise.
    pub fn s_bound(&self) -> Vec<f64> {
        self.s.iter().zip(&self.s_error).map(|(p, q)| p.abs() + q).collect()
    }

    /// The proven bound min(‖r‖/‖x̂‖, ‖Bᵀr‖/‖r‖)/‖B‖_F of the module documentation, with the
    /// norms' own rounding (a relative γ of their lengths) allowed for.
    pub fn backward_error(&self, x: &[f64]) -> f64 {
        let (m, n) = (self.s.len(), x.len().max(1));
        let slack = (1.0 + gamma(2 * (m + n) + 8)).powi(3);
        let s_hi = norm2(&self.s) + norm2(&self.s_error);
        let (r_hi, r_lo) = (self.r_norm + self.r_error, self.r_norm - self.r_error);
        if s_hi == 0.0 || r_hi == 0.0 {
            return 0.0;
        }
        let x_norm = norm2(x);
        let eta1 = if x_norm > 0.0 { r_hi / (x_norm * self.b_norm) } else { f64::INFINITY };
        let eta2 = if r_lo > 0.0 { s_hi / (r_lo * self.b_norm) } else { f64::INFINITY };
        eta1.min(eta2) * slack
    }

    /// The forward-error bound of the module documentation: ‖t∘(|C⁻¹|·g)‖∞/‖t∘x̂‖∞ for x = t∘x̂
    /// (t: the scaling back to x's units), with C⁻¹ applied by `solve` and divided by
    /// 1 − `contraction`.
    pub fn forward_error(&self, x: &[f64], to_x: &[f64], contraction: f64, solve: impl Fn(&[f64]) -> Vec<f64>) -> f64 {
        let g = self.s_bound();
        let x_norm = x.iter().zip(to_x).map(|(v, f)| (v * f).abs()).fold(0.0, f64::max);
        if g.iter().all(|&v| v == 0.0) {
            return 0.0;
        }
        // A contraction of NaN fails this test too: no bound without a contraction below 1.
        if contraction.partial_cmp(&1.0) != Some(std::cmp::Ordering::Less) || x_norm == 0.0 {
            return f64::INFINITY;
        }
        // B = diag(g)·C⁻¹·diag(t) has ‖B‖₁ = max_j t_j·(|C⁻¹|·g)_j (C is symmetric).
        let prod = |u: &[f64], v: &[f64]| u.iter().zip(v).map(|(p, q)| p * q).collect::<Vec<f64>>();
        let apply = |y: &[f64]| prod(&g, &solve(&prod(to_x, y)));
        let apply_t = |y: &[f64]| prod(to_x, &solve(&prod(&g, y)));
        let est = norm1_estimate(g.len(), apply, apply_t);
        est / (1.0 - contraction) / x_norm
    }
}

/// ‖B‖₁ estimated from products with B and Bᵀ: Hager's method as Higham refines it (Higham
/// Alg. 15.4 with its extra test vector; LAPACK's xLACN2): at most five iterations.
pub fn norm1_estimate(n: usize, apply: impl Fn(&[f64]) -> Vec<f64>, apply_t: impl Fn(&[f64]) -> Vec<f64>) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let one = |v: &[f64]| v.iter().map(|x| x.abs()).sum::<f64>();
    let mut x = vec![1.0 / n as f64; n];
    let mut est = 0.0f64;
    let mut last = None;
    for k in 0..5 {
        let y = apply(&x);
        let e = one(&y);
        if k > 0 && e <= est {
            break;
        }
        est = e;
        let sign: Vec<f64> = y.iter().map(|v| if *v >= 0.0 { 1.0 } else { -1.0 }).collect();
        let z = apply_t(&sign);
        let (j, zj) = z.iter().enumerate().fold((0, -1.0), |(bj, bz), (j, v)| if v.abs() > bz { (j, v.abs()) } else { (bj, bz) });
        let ztx: f64 = z.iter().zip(&x).map(|(p, q)| p * q).sum();
        if (k > 0 && zj <= ztx) || last == Some(j) {
            break;
        }
        x = vec![0.0; n];
        x[j] = 1.0;
        last = Some(j);
    }
    // Higham's alternative vector catches the matrices that defeat the iteration.
    let alt: Vec<f64> = (0..n)
        .map(|i| {
            let s = if i % 2 == 0 { 1.0 } else { -1.0 };
            s * (1.0 + if n > 1 { i as f64 / (n - 1) as f64 } else { 0.0 })
        })
        .collect();
    est.max(2.0 * one(&apply(&alt)) / (3.0 * n as f64))
}

/// Solves L·Lᵀ·y = v with a single-precision lower factor, in f64 arithmetic.
pub fn cholesky_apply(l: &[f64], m: usize) -> impl Fn(&[f64]) -> Vec<f64> + '_ {
    move |v| rowmajor::cholesky_solve(l, m, v)
}

/// Solves Rᵀ·R·y = v with an upper-triangular R (row-major m×m).
pub fn qr_apply(r: &[f64], m: usize) -> impl Fn(&[f64]) -> Vec<f64> + '_ {
    move |v| {
        let mut y = v.to_vec();
        // Rᵀ·z = v: forward substitution down the columns of R.
        for i in 0..m {
            let s: f64 = (0..i).map(|k| r[k * m + i] * y[k]).sum();
            y[i] = (y[i] - s) / r[i * m + i];
        }
        for i in (0..m).rev() {
            let s: f64 = (i + 1..m).map(|k| r[i * m + k] * y[k]).sum();
            y[i] = (y[i] - s) / r[i * m + i];
        }
        y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 1-norm of a small explicit matrix, estimated and exact.
    #[test]
    fn the_estimator_finds_the_one_norm_of_small_matrices() {
        let b = [[1.0, -2.0, 0.5], [0.0, 3.0, -1.0], [4.0, 0.0, 2.0]];
        let apply = |y: &[f64]| (0..3).map(|i| (0..3).map(|j| b[i][j] * y[j]).sum()).collect::<Vec<f64>>();
        let apply_t = |y: &[f64]| (0..3).map(|j| (0..3).map(|i| b[i][j] * y[i]).sum()).collect::<Vec<f64>>();
        let exact = (0..3).map(|j| (0..3).map(|i| f64::abs(b[i][j])).sum::<f64>()).fold(0.0, f64::max);
        let est = norm1_estimate(3, apply, apply_t);
        assert!(est <= exact * (1.0 + 1e-15) && est >= exact / 3.0, "{est} vs {exact}");
        assert_eq!(est, exact);
    }

    /// Integer data of 30 bits, where i128 computes s exactly, and b = Aᵀx rounded to f64 so that
    /// b − Aᵀx cancels 53 bits: ŝ is within `s_error` of the exact s, and the exact ‖r‖ within
    /// `r_error` of the computed one. Plain (uncompensated) sums miss these bounds by orders.
    #[test]
    fn the_rounding_bounds_hold_on_data_that_cancel_completely() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        for (m, n) in [(3usize, 7usize), (13, 61), (40, 300)] {
            let int = |rng: &mut rand::rngs::StdRng| (rng.random_range(-(1i64 << 30)..(1i64 << 30))) as f64;
            let a: Vec<f64> = (0..m * n).map(|_| int(&mut rng)).collect();
            let x: Vec<f64> = (0..m).map(|_| int(&mut rng)).collect();
            let d2: Vec<f64> = (0..n).map(|k| [1.0, 4.0, 9.0][k % 3]).collect();
            let exact_atx: Vec<i128> =
                (0..n).map(|k| (0..m).map(|i| a[i * n + k] as i128 * x[i] as i128).sum()).collect();
            let b: Vec<f64> = exact_atx.iter().map(|&v| v as f64).collect();
            let t: Vec<i128> = (0..n).map(|k| b[k] as i128 - exact_atx[k]).collect();
            let s_exact: Vec<i128> =
                (0..m).map(|i| (0..n).map(|k| a[i * n + k] as i128 * d2[k] as i128 * t[k]).sum()).collect();
            let res = Residuals::new(&a, m, n, &d2, &b, &x);
            for (i, (&exact, (&s, &bound))) in s_exact.iter().zip(res.s.iter().zip(&res.s_error)).enumerate() {
                let miss = (exact as f64 - s).abs();
                assert!(miss <= bound, "{m}×{n}, s[{i}]: off by {miss:e} > bound {bound:e}");
            }
            let r_exact = (0..n).map(|k| ((d2[k].sqrt() as i128 * t[k]) as f64).powi(2)).sum::<f64>().sqrt();
            assert!((r_exact - res.r_norm).abs() <= res.r_error, "{m}×{n}: ‖r‖ {r_exact:e} vs {:e}", res.r_norm);
            assert!(t.iter().any(|&v| v != 0), "the data cancel to something");
        }
    }

    /// x = (1, 2) fits b exactly for A = [1 0 1; 0 1 1] (two unknowns, three observations):
    /// the residuals are of rounding size, both measures tiny; x planted 1e-6 off is caught.
    #[test]
    fn an_exact_answer_passes_and_a_planted_error_is_measured() {
        let (a, m, n) = ([1.0, 0.0, 1.0, 0.0, 1.0, 1.0], 2, 3);
        let (d2, b) = ([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]);
        let c = [2.0, 1.0, 1.0, 2.0];
        let l = rowmajor::cholesky_lower(&c, m).expect("SPD");
        let fwd = |x: &[f64]| Residuals::new(&a, m, n, &d2, &b, x).forward_error(x, &[1.0, 1.0], 0.0, cholesky_apply(&l, m));
        assert!(fwd(&[1.0, 2.0]) < 1e-14, "{}", fwd(&[1.0, 2.0]));
        let off = fwd(&[1.0 + 1e-6, 2.0]);
        // |x − x*|∞/‖x‖∞ = 0.5e-6; the bound, ‖|C⁻¹|·|C·δ|‖∞/2 = 0.83e-6, is at least that.
        assert!((0.5e-6..=0.84e-6).contains(&off), "{off}");
        let back = |x: &[f64]| Residuals::new(&a, m, n, &d2, &b, x).backward_error(x);
        assert!(back(&[1.0, 2.0]) < 1e-14, "{}", back(&[1.0, 2.0]));
        assert!(back(&[1.0 + 1e-6, 2.0]) > 1e-7);
    }
}
