//! Convergence tests for the refinement of a general system A·x = b (∞-norms throughout).

use crate::cpu::rowmajor;

/// ε of the paper's test: "the max number which makes float(1 + ε) = 1" in double precision,
/// i.e. the unit roundoff 2⁻⁵³ (1 + 2⁻⁵³ rounds to 1 by round-to-nearest-even).
pub const PAPER_EPSILON: f64 = f64::EPSILON / 2.0;

/// Which test stops the refinement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Criterion {
    /// The mixed-precision paper's test, §2.3 Eq. (1) (which it takes from the LINPACK
    /// benchmark): ‖Ax − b‖ / (‖A‖·‖b‖·n·ε) = O(1) with ε = 2⁻⁵³ (`PAPER_EPSILON`); O(1) is read as
    /// ≤ the threshold (16, HPL's constant). Note that it divides by ‖b‖, not ‖x‖: for an
    /// ill-conditioned A, where ‖x‖ ≫ ‖b‖/‖A‖, even the double-precision solution may not meet it.
    Paper,
    /// The normwise backward error in LINPACK's units, ‖b − Ax‖ / (‖A‖·‖x‖·n·ε) with ε = 2⁻⁵²
    /// (the 1000×1000 LINPACK benchmark's form, and glsolve's test before the paper's was
    /// adopted). Met by any backward-stable solve, whatever κ(A); kept as the alternative.
    BackwardError,
}

impl Criterion {
    /// The test's value from ‖r‖∞, ‖A‖∞, ‖b‖∞, ‖x‖∞ and n. A zero residual is 0 whatever the
    /// norms (so b = 0, x = 0 passes).
    pub fn value(self, r_norm: f64, a_norm: f64, b_norm: f64, x_norm: f64, n: usize) -> f64 {
        if r_norm == 0.0 {
            return 0.0;
        }
        match self {
            Criterion::Paper => r_norm / (a_norm * b_norm * n as f64 * PAPER_EPSILON),
            Criterion::BackwardError => r_norm / (a_norm * x_norm * n as f64 * f64::EPSILON),
        }
    }

    /// The formula, for reports.
    pub fn formula(self) -> &'static str {
        match self {
            Criterion::Paper => "‖b − Ax‖∞ / (‖A‖∞·‖b‖∞·n·ε), ε = 2⁻⁵³ (the paper's Eq. 1)",
            Criterion::BackwardError => "‖b − Ax‖∞ / (‖A‖∞·‖x‖∞·n·ε), ε = 2⁻⁵² (normwise backward error)",
        }
    }

    /// The test's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Paper => "paper",
            Criterion::BackwardError => "backward-error",
        }
    }
}

/// ‖v‖∞.
pub fn inf_norm(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, x| m.max(x.abs()))
}

/// ‖b − A·x‖∞ in double precision on the CPU.
fn residual_norm(a: &[f64], n: usize, b: &[f64], x: &[f64]) -> f64 {
    let ax = rowmajor::matvec(a, n, n, x);
    ax.iter().zip(b).map(|(p, q)| (q - p).abs()).fold(0.0, f64::max)
}

/// ‖b − A·x‖∞ / (‖A‖∞·‖x‖∞·n·ε), ε = 2⁻⁵²: [`Criterion::BackwardError`] (the alternative).
pub fn linpack_criterion(a: &[f64], n: usize, b: &[f64], x: &[f64], a_norm: f64) -> f64 {
    Criterion::BackwardError.value(residual_norm(a, n, b, x), a_norm, inf_norm(b), inf_norm(x), n)
}

/// A proven upper bound on the normwise backward error in LINPACK's units: the smallest
/// ‖ΔA‖∞/‖A‖∞ with (A + ΔA)·x = b is ‖b − Ax‖∞/(‖A‖∞‖x‖∞) exactly (Rigal & Gaches 1967; Higham,
/// *Accuracy and Stability*, Thm 7.1), and the computed residual errs from the exact one by at
/// most γ_{n+1}·(|b| + |A|·|x|) componentwise (Higham §3.1), which is added. Divided by n·ε,
/// ε = 2⁻⁵², as [`Criterion::BackwardError`] is; that addition alone is at most about 1 in
/// these units, so the bound can certify the LINPACK/HPL threshold 16.
pub fn backward_error_bound(a: &[f64], n: usize, b: &[f64], x: &[f64], a_norm: f64) -> f64 {
    let ax = rowmajor::matvec(a, n, n, x);
    let r_norm = ax.iter().zip(b).map(|(p, q)| (q - p).abs()).fold(0.0, f64::max);
    let size = (0..n)
        .map(|i| b[i].abs() + a[i * n..(i + 1) * n].iter().zip(x).map(|(p, q)| (p * q).abs()).sum::<f64>())
        .fold(0.0, f64::max);
    let u = f64::EPSILON / 2.0;
    let gamma = |k: usize| k as f64 * u / (1.0 - k as f64 * u);
    // The bound's own sums round too: a relative γ of their length covers them.
    let slack = (1.0 + gamma(n + 2)).powi(2);
    let x_norm = inf_norm(x);
    if r_norm == 0.0 && size == 0.0 {
        return 0.0;
    }
    (r_norm + gamma(n + 1) * size) * slack / (a_norm * x_norm * n as f64 * f64::EPSILON)
}

/// ‖b − A·x‖∞ / (‖A‖∞·‖b‖∞·n·ε), ε = 2⁻⁵³: [`Criterion::Paper`].
pub fn paper_criterion(a: &[f64], n: usize, b: &[f64], x: &[f64], a_norm: f64) -> f64 {
    Criterion::Paper.value(residual_norm(a, n, b, x), a_norm, inf_norm(b), inf_norm(x), n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bound is never below the computed criterion, stays below the threshold 16 for an
    /// exact answer, and rejects an answer planted 1e-10 off.
    #[test]
    fn the_backward_error_bound_holds_the_criterion_and_rejects_a_planted_answer() {
        let (a, n) = ([4.0, 1.0, 0.0, 1.0, 3.0, 1.0, 0.0, 1.0, 2.0], 3);
        let x = [1.0, -2.0, 3.0];
        let b = rowmajor::matvec(&a, n, n, &x);
        let a_norm = rowmajor::norm_inf(&a, n, n);
        let exact = backward_error_bound(&a, n, &b, &x, a_norm);
        assert!(exact >= linpack_criterion(&a, n, &b, &x, a_norm) && exact < 2.0, "{exact}");
        let off = backward_error_bound(&a, n, &b, &[1.0 + 1e-10, -2.0, 3.0], a_norm);
        assert!(off > 16.0, "{off}");
        // A residual that computes to 0 is not a proof of 0: the rounding's share remains.
        let x = [0.1, 0.2, 0.7];
        let b = rowmajor::matvec(&a, n, n, &x);
        assert_eq!(linpack_criterion(&a, n, &b, &x, a_norm), 0.0);
        let bound = backward_error_bound(&a, n, &b, &x, a_norm);
        assert!(bound > 0.1 && bound < 2.0, "{bound}");
    }

    #[test]
    fn the_two_tests_differ_by_norm_of_x_over_norm_of_b_and_a_factor_two() {
        let (r, a, b, x, n) = (3e-14, 2.0, 0.5, 4.0, 10);
        let p = Criterion::Paper.value(r, a, b, x, n);
        let q = Criterion::BackwardError.value(r, a, b, x, n);
        assert!((p / q - 2.0 * x / b).abs() < 1e-12);
        assert_eq!(p, 3e-14 / (2.0 * 0.5 * 10.0 * 2f64.powi(-53)));
        assert_eq!(Criterion::Paper.value(0.0, 1.0, 0.0, 0.0, 3), 0.0);
        // The largest ε with 1 + ε = 1: the next double up already rounds away from 1.
        let (one, eps) = (std::hint::black_box(1.0f64), std::hint::black_box(PAPER_EPSILON));
        assert_eq!(one + eps, one);
        assert!(one + eps * (1.0 + f64::EPSILON) > one);
    }
}
