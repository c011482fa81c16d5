//! Algorithm 1's refinement loop on the normal equations A·D²·Aᵀ·x = A·D²·b: the residual in
//! double precision (as A·(D²·(Aᵀx)), never forming C in double), the correction from the
//! single-precision Cholesky factor, and the two convergence tests of [`super::solve`]
//! (the paper's ‖r‖₂/‖x‖₂ ≤ ε and the correction below a tenth of the accuracy asked), with the
//! contraction the check divides by.

use crate::clock::Instant;
use crate::cpu::rowmajor;
use crate::refine::iterate::Refinable;
use std::time::Duration;

/// A·D²·v for v of length n.
pub(super) fn a_d2(a: &[f64], m: usize, n: usize, d2: &[f64], v: &[f64]) -> Vec<f64> {
    let w: Vec<f64> = v.iter().zip(d2).map(|(p, q)| p * q).collect();
    rowmajor::matvec(a, m, n, &w)
}

/// The normal equations A·D²·Aᵀ·x = A·D²·b with their single-precision Cholesky factor, as the
/// shared refinement loop sees them (Algorithm 1: test ‖r‖/‖x‖ after each correction).
pub(super) struct Normal<'a> {
    pub(super) a: &'a [f64],
    pub(super) m: usize,
    pub(super) n: usize,
    pub(super) d2: &'a [f64],
    pub(super) rhs: &'a [f64],
    pub(super) lower: &'a [f32],
    pub(super) t0: Instant,
    pub(super) x_single: Vec<f64>,
    pub(super) single_time: Duration,
    /// ‖r‖₂ of every residual formed and its rounding floor, for the contraction.
    pub(super) norms: Vec<(f64, f64)>,
    /// The paper's ε, and the largest ‖z‖∞/‖x‖∞ that counts as converged.
    pub(super) tolerance: f64,
    pub(super) target: f64,
    /// ‖z‖∞ of the last correction.
    pub(super) step: f64,
    /// ‖r‖₂/‖x‖₂ and ‖z‖∞/‖x‖∞ at every test.
    pub(super) history: Vec<f64>,
    pub(super) corrections: Vec<f64>,
}

impl Normal<'_> {
    fn solve32(&self, r: &[f64]) -> Vec<f64> {
        let r32: Vec<f32> = r.iter().map(|&v| v as f32).collect();
        rowmajor::cholesky_solve(self.lower, self.m, &r32).into_iter().map(f64::from).collect()
    }
    /// A·D²·b − A·D²·Aᵀ·x, computed as A·(D²·(Aᵀx)) in double precision.
    fn residual(&mut self, x: &[f64]) -> Vec<f64> {
        let (a, m, n, d2) = (self.a, self.m, self.n, self.d2);
        let cx = a_d2(a, m, n, d2, &rowmajor::matvec_t(a, m, n, x));
        let r: Vec<f64> = self.rhs.iter().zip(&cx).map(|(p, q)| p - q).collect();
        // Below this, ‖r‖ is the rounding of its own evaluation, not the iterate's error.
        let floor = (n + m) as f64 * f64::EPSILON * (norm2(self.rhs) + norm2(&cx));
        self.norms.push((norm2(&r), floor));
        r
    }
    /// ρ: the largest ratio of successive residual norms (the refinement's observed rate),
    /// leaving out steps that ended at the rounding floor of the residual (there the ratio is
    /// about 1 whatever the rate) except the first.
    pub(super) fn contraction(&self) -> f64 {
        let ratios = self.norms.windows(2).enumerate().filter(|(k, w)| w[0].0 > 0.0 && (*k == 0 || w[1].0 > w[1].1));
        ratios.map(|(_, w)| w[1].0 / w[0].0).fold(0.0, f64::max)
    }
}

fn norm2(v: &[f64]) -> f64 {
    v.iter().map(|p| p * p).sum::<f64>().sqrt()
}

impl Refinable for Normal<'_> {
    type Error = std::convert::Infallible;
    fn start(&mut self) -> Result<(Vec<f64>, Vec<f64>), Self::Error> {
        self.x_single = self.solve32(self.rhs);
        self.single_time = self.t0.elapsed();
        let x = self.x_single.clone();
        let r = self.residual(&x);
        Ok((x, r))
    }
    fn correct(&mut self, x: &mut [f64], r: &[f64]) -> Result<Vec<f64>, Self::Error> {
        let z = self.solve32(r);
        self.step = z.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for (xi, zi) in x.iter_mut().zip(z) {
            *xi += zi;
        }
        Ok(self.residual(x))
    }
    /// 0 when ‖r‖₂/‖x‖₂ ≤ ε (Algorithm 1's test, r the residual that produced x) and
    /// ‖z‖∞/‖x‖∞ ≤ the target; else the larger of the two ratios to their bounds.
    fn criterion(&mut self, x: &[f64], r: &[f64]) -> f64 {
        let paper = norm2(r) / norm2(x);
        let step = self.step / x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        self.history.push(paper);
        self.corrections.push(step);
        let over = |value: f64, bound: f64| if value <= bound { 0.0 } else { value / bound.max(f64::MIN_POSITIVE) };
        over(paper, self.tolerance).max(over(step, self.target))
    }
    /// Refinement must keep halving ‖r‖₂.
    fn progress(&self, _x: &[f64], r: &[f64], _criterion: f64) -> f64 {
        norm2(r)
    }
}
