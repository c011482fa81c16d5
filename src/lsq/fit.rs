//! Data fitting on top of weighted least squares: basis functions φ₀…φ_{m−1} evaluated at the
//! sample times give A (A(i, k) = φᵢ(t_k)); measurement uncertainties σ_k give the weights
//! D = diag(1/σ_k); the observations are b. The fit minimizes Σ_k ((y_k − Σᵢ xᵢ·φᵢ(t_k))/σ_k)².

use super::{solve, LsqError, LsqSettings, LsqSolution};
use crate::gl::Gpu;

/// Observations y_k at times t_k with standard deviations σ_k > 0.
#[derive(Clone, Debug)]
pub struct Samples {
    pub t: Vec<f64>,
    pub y: Vec<f64>,
    pub sigma: Vec<f64>,
}

/// A basis function.
pub type Basis<'a> = &'a dyn Fn(f64) -> f64;

/// The monomials 1, t, …, t^degree.
pub fn polynomial(degree: usize) -> Vec<Box<dyn Fn(f64) -> f64>> {
    (0..=degree).map(|p| Box::new(move |t: f64| t.powi(p as i32)) as Box<dyn Fn(f64) -> f64>).collect()
}

/// A fit's weighted least-squares data.
#[derive(Clone, Debug)]
pub struct Design {
    /// (basis size)×(samples), row-major.
    pub a: Vec<f64>,
    pub d2: Vec<f64>,
    pub b: Vec<f64>,
}

/// The weighted least-squares data of a fit.
pub fn design(samples: &Samples, basis: &[Basis]) -> Result<Design, LsqError> {
    let n = samples.t.len();
    if samples.y.len() != n || samples.sigma.len() != n {
        return Err(LsqError::Shape(format!(
            "{n} times, {} values, {} uncertainties",
            samples.y.len(),
            samples.sigma.len()
        )));
    }
    if let Some(index) = samples.sigma.iter().position(|s| !(s.is_finite() && *s > 0.0)) {
        return Err(LsqError::NonFinite { what: "σ (must be finite and > 0)", index });
    }
    let m = basis.len();
    let mut a = Vec::with_capacity(m * n);
    for phi in basis {
        a.extend(samples.t.iter().map(|&t| phi(t)));
    }
    let d2 = samples.sigma.iter().map(|s| 1.0 / (s * s)).collect();
    Ok(Design { a, d2, b: samples.y.clone() })
}

/// Fits the coefficients of `basis` to `samples` on `gpu`.
pub fn fit(gpu: &Gpu, samples: &Samples, basis: &[Basis], st: &LsqSettings) -> Result<LsqSolution, LsqError> {
    let d = design(samples, basis)?;
    solve(gpu, &d.a, basis.len(), samples.t.len(), &d.d2, &d.b, st)
}
