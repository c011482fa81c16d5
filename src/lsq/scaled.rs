//! Weighted least squares in single precision's comfortable range: d̂² = δ·d² (one power of two
//! for all weights: the minimizer does not change), Â = S·A (a power of two per unknown, from
//! the weighted norm of its row of A, as LAPACK's xPOEQU scales a normal matrix to a unit
//! diagonal), b̂ = β·b; then Â·D̂²·Âᵀ·x̂ = Â·D̂²·b̂ is the problem for x̂ = β·S⁻¹·x, undone exactly.
//! Factors are 1 where nothing is out of range ([`crate::cpu::equilibrate::factors`]).

use crate::cpu::equilibrate::{factors, max_abs, norm2};
use std::borrow::Cow;

pub(super) struct Scaled<'a> {
    pub a: Cow<'a, [f64]>,
    pub d2: Cow<'a, [f64]>,
    pub b: Cow<'a, [f64]>,
    /// S/β per unknown: x = to_x ∘ x̂.
    pub to_x: Vec<f64>,
    /// The diagonal of Â·D̂²·Âᵀ (each row's weighted squared norm), for the rank tests.
    pub diagonal: Vec<f64>,
}

impl<'a> Scaled<'a> {
    /// A is m×n row-major (one row per unknown), d² and b of length n; all finite, d² ≥ 0.
    pub fn new(a: &'a [f64], m: usize, n: usize, d2: &'a [f64], b: &'a [f64]) -> Self {
        let delta = factors(&[max_abs(d2)])[0];
        let d2_hat: Cow<'a, [f64]> =
            if delta == 1.0 { Cow::Borrowed(d2) } else { Cow::Owned(d2.iter().map(|v| v * delta).collect()) };
        let weights: Vec<f64> = d2_hat.iter().map(|v| v.sqrt()).collect();
        let weighted = |j: usize| a[j * n..(j + 1) * n].iter().zip(&weights).map(|(p, q)| p * q);
        let norms: Vec<f64> = (0..m).map(|j| norm2(weighted(j))).collect();
        let s = factors(&norms);
        let beta = factors(&[max_abs(b)])[0];
        let diagonal = norms.iter().zip(&s).map(|(v, f)| (v * f) * (v * f)).collect();
        let to_x = s.iter().map(|f| f / beta).collect();
        let a_hat: Cow<'a, [f64]> = if s.iter().all(|&f| f == 1.0) {
            Cow::Borrowed(a)
        } else {
            Cow::Owned(a.chunks_exact(n).zip(&s).flat_map(|(row, f)| row.iter().map(move |v| v * f)).collect())
        };
        let b_hat = if beta == 1.0 { Cow::Borrowed(b) } else { Cow::Owned(b.iter().map(|v| v * beta).collect()) };
        Self { a: a_hat, d2: d2_hat, b: b_hat, to_x, diagonal }
    }

    /// x = S·x̂/β.
    pub fn x(&self, x_hat: &[f64]) -> Vec<f64> {
        x_hat.iter().zip(&self.to_x).map(|(v, f)| v * f).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_weights_and_unbalanced_unknowns_are_brought_to_size_one() {
        // Unknown 0 in units 1e-30 of unknown 1's; weights 1e40.
        let (m, n) = (2, 3);
        let a = [1e-30, 2e-30, 3e-30, 1.0, 1.0, 1.0];
        let (d2, b) = ([1e40; 3], [1.0, 2.0, 3.0]);
        let s = Scaled::new(&a, m, n, &d2, &b);
        assert!(s.d2.iter().all(|v| (0.5..2.0).contains(v)), "{:?}", s.d2);
        assert!(s.diagonal.iter().all(|v| (0.25..4.0).contains(v)), "{:?}", s.diagonal);
        assert!(matches!(s.b, Cow::Borrowed(_)));
        // x̂ = S⁻¹·β·x for x = (1, 1): undone exactly.
        let x_hat: Vec<f64> = s.to_x.iter().map(|f| 1.0 / f).collect();
        assert_eq!(s.x(&x_hat), vec![1.0, 1.0]);
    }
}
