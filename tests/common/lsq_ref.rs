//! An independent double-precision reference for weighted least squares min ‖D·(b − Aᵀx)‖₂:
//! Householder QR of B = D·Aᵀ (faer), never the normal equations the code under test forms, and
//! the residual of any x̂ recomputed here in f64 with its own rounding bound.

use faer::linalg::solvers::SolveLstsq;
use faer::Mat;

/// Double precision's unit roundoff.
pub const UD: f64 = f64::EPSILON / 2.0;

fn gamma(k: usize) -> f64 {
    k as f64 * UD / (1.0 - k as f64 * UD)
}

fn norm2(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// The QR solution of the problem and what bounds everything else: A is m×n row-major (m
/// unknowns, n observations), d² and b have n entries.
pub struct Reference {
    pub x: Vec<f64>,
    /// ‖x_qr − x*‖₂ allowed (see `new`).
    pub qr_error: f64,
    /// λ_min and λ_max of C = A·D²·Aᵀ (squares of B's extreme singular values).
    pub lambda_min: f64,
    pub lambda_max: f64,
    a: Vec<f64>,
    d2: Vec<f64>,
    b: Vec<f64>,
    m: usize,
    n: usize,
}

impl Reference {
    /// Householder QR is normwise backward stable for least squares (Higham Thm 20.3):
    /// x_qr solves min ‖(B + ΔB)x − (Db + Δc)‖ with ‖ΔB‖ ≤ ε‖B‖, ‖Δc‖ ≤ ε‖Db‖. The worst-case
    /// ε = γ̃_{mn} holds for every rounding but is pessimistic by orders of magnitude; rounding
    /// errors behave as independent zero-mean variables, and then (Higham & Mary 2019, Thm 2.4)
    /// ε = λ·√(mn)·u with λ = 8 holds with probability ≥ 1 − 2·mn·e^(−32) (≈ 1 − 1e-8 here).
    /// Wedin's bound (Higham Thm 20.1) turns it into the forward error
    ///
    /// ‖x_qr − x*‖/‖x*‖ ≤ κε/(1 − κε)·(2 + (κ + 1)·‖r‖/(‖B‖‖x‖)),  κ = σ_max/σ_min of B.
    pub fn new(a: &[f64], m: usize, n: usize, d2: &[f64], b: &[f64]) -> Reference {
        let bm = Mat::from_fn(n, m, |k, i| d2[k].sqrt() * a[i * n + k]);
        let db = Mat::from_fn(n, 1, |k, _| d2[k].sqrt() * b[k]);
        let x = bm.qr().solve_lstsq(&db);
        let x: Vec<f64> = (0..m).map(|i| x[(i, 0)]).collect();
        let s = bm.singular_values().expect("singular values of D·Aᵀ");
        let (smax, smin) = (s.iter().cloned().fold(0.0, f64::max), s.iter().cloned().fold(f64::INFINITY, f64::min));
        assert!(smin > 0.0, "D·Aᵀ has full column rank");
        let kappa = smax / smin;
        let eps = 8.0 * ((m * n) as f64).sqrt() * UD;
        let r: Vec<f64> =
            (0..n).map(|k| d2[k].sqrt() * (b[k] - (0..m).map(|i| a[i * n + k] * x[i]).sum::<f64>())).collect();
        let xn = norm2(&x);
        let ke = kappa * eps;
        assert!(ke < 0.5, "κ·ε = {ke:e}: the reference itself is not accurate");
        let qr_error = ke / (1.0 - ke) * (2.0 + (kappa + 1.0) * norm2(&r) / (smax * xn)) * xn;
        Reference {
            x,
            qr_error,
            lambda_min: smin * smin,
            lambda_max: smax * smax,
            a: a.to_vec(),
            d2: d2.to_vec(),
            b: b.to_vec(),
            m,
            n,
        }
    }

    /// The normal-equations residual ρ = ‖A·D²·(b − Aᵀx̂)‖₂ computed here in f64, and a bound δ
    /// on its own rounding error: Aᵀx̂ (m terms), b − ·, ·D², A·(n terms) is an inner product
    /// chain of m + n + 2 roundings, so |computed − exact| ≤ γ_{m+n+2}·|A|D²(|b| + |Aᵀ||x̂|).
    pub fn residual(&self, x: &[f64]) -> (f64, f64) {
        let (a, m, n) = (&self.a, self.m, self.n);
        let mut r = vec![0.0; m];
        let mut err = vec![0.0; m];
        for k in 0..n {
            let atx: f64 = (0..m).map(|i| a[i * n + k] * x[i]).sum();
            let abs: f64 = (0..m).map(|i| (a[i * n + k] * x[i]).abs()).sum();
            let w = self.d2[k] * (self.b[k] - atx);
            let wa = self.d2[k] * (self.b[k].abs() + abs);
            for i in 0..m {
                r[i] += a[i * n + k] * w;
                err[i] += a[i * n + k].abs() * wa;
            }
        }
        (norm2(&r), gamma(m + n + 2) * norm2(&err))
    }

    /// ‖x̂ − x_qr‖₂ allowed for an x̂ whose residual is ρ ± δ: ‖x̂ − x*‖₂ ≤ (ρ + δ)/λ_min(C)
    /// exactly (C·(x̂ − x*) is the residual), plus the reference's own error.
    pub fn allowed(&self, x: &[f64]) -> f64 {
        let (rho, delta) = self.residual(x);
        (rho + delta) / self.lambda_min + self.qr_error
    }

    /// ‖x̂ − x_qr‖₂.
    pub fn distance(&self, x: &[f64]) -> f64 {
        norm2(&x.iter().zip(&self.x).map(|(p, q)| p - q).collect::<Vec<_>>())
    }

    /// The residual a backward-stable double-precision solve of the normal equations leaves:
    /// forming C and A·D²·b costs γ_{n+1} componentwise (|A|D²|A|ᵀ and |A|D²|b|), the Cholesky
    /// solve (C + ΔC)x̂ = c with |ΔC| ≤ γ_{3m+1}|L||Lᵀ| (Higham Thm 10.4) and ‖|L||Lᵀ|‖₂ ≤ m‖C‖₂,
    /// so ρ ≤ (γ_{n+1}·‖|A|D²|A|ᵀ‖_F + γ_{3m+1}·m·λ_max)·‖x̂‖₂ + γ_{n+1}·‖|A|D²|b|‖₂.
    pub fn double_solve_residual(&self, x: &[f64]) -> f64 {
        let (a, m, n) = (&self.a, self.m, self.n);
        let mut abs_c = 0.0;
        for i in 0..m {
            for j in 0..m {
                let v: f64 = (0..n).map(|k| (a[i * n + k] * a[j * n + k]).abs() * self.d2[k]).sum();
                abs_c += v * v;
            }
        }
        let abs_rhs: Vec<f64> =
            (0..m).map(|i| (0..n).map(|k| (a[i * n + k] * self.b[k]).abs() * self.d2[k]).sum()).collect();
        (gamma(n + 1) * abs_c.sqrt() + gamma(3 * m + 1) * m as f64 * self.lambda_max) * norm2(x)
            + gamma(n + 1) * norm2(&abs_rhs)
    }
}
