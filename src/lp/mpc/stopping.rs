//! When the loop stops: the termination tests (6.1)–(6.3) or (3.15), the merit by which the
//! best iterate is kept, and the judge's window and patience.

use crate::lp::log::IterationInfo;
use crate::lp::settings::StoppingRule;

/// In single precision, iterations without a new best iterate (by [`merit`]) after which the
/// loop stops: the arithmetic's floor has been reached and further steps only wander (seen on
/// the random family at m = 512: within 4% of ε = 1e-4 at iteration 11, then 190 iterations
/// without progress). The best iterate is returned and graded by verification like any
/// numerical failure. Double precision has no such rule: there a stalling merit is what the
/// infeasibility tests need time to see.
pub const NO_PROGRESS_ITERATIONS: usize = 10;

/// The merit by which the best iterate is kept for limits and failures, and by which single
/// precision's progress is judged: the largest of the primal and dual measures of (6.1)–(6.2)
/// and `progress_gap`, the papers' |cᵀx − bᵀλ| / (1 + |cᵀx|) on the scaled standard form. That
/// gap falls with μ from the first iteration on, where the relative gap of the log (and of the
/// check) stays near 1 while the objectives are far apart (modszk1: its first 12 iterations);
/// it is no test of optimality, which only the check on the original model makes.
pub fn merit(info: &IterationInfo, progress_gap: f64) -> f64 {
    let m = info.primal_infeasibility.max(info.dual_infeasibility).max(progress_gap);
    if m.is_nan() {
        f64::INFINITY
    } else {
        m
    }
}

/// The check's own factor: a judged point within it of passing (measures ≤ 100·ε) starts the
/// judge's patience, and one within its inverse (measures ≤ ε) stops the loop as optimal.
pub const JUDGE_WINDOW: f64 = crate::lp::verify::VERIFY_FACTOR;

/// Judged iterations without a better judged point after which the loop stops with the best
/// one (near the end each iteration either improves the point or ruins it: degenerate problems
/// lose the last digits to a factorization that can no longer resolve A·Θ·Aᵀ).
pub const JUDGE_PATIENCE: usize = 3;

/// The termination test `rule` on an iteration's measures; `norms` = (‖b‖∞, ‖c‖∞, ‖A‖∞). The
/// measures and norms are those of the standard form in the model's units (`lp::units`), whose
/// weights make the residuals the independent check's: so the test does not depend on the units
/// the model was written in.
pub fn converged(rule: StoppingRule, info: &IterationInfo, [b, c, a]: [f64; 3], eps: f64) -> bool {
    match rule {
        StoppingRule::Separate => {
            info.primal_infeasibility <= eps && info.dual_infeasibility <= eps && info.relative_gap <= eps
        }
        StoppingRule::Combined315 => {
            // The log's measures are ‖r_b‖∞/(1 + ‖b‖∞) and ‖r_c‖∞/(1 + ‖c‖∞): undo the scaling.
            let r = (info.primal_infeasibility * (1.0 + b)).max(info.dual_infeasibility * (1.0 + c));
            let scale = b.max(c).max(a).max(f64::MIN_POSITIVE);
            (r / scale).max(info.relative_gap) <= eps
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(primal: f64, dual: f64, gap: f64) -> IterationInfo {
        IterationInfo {
            primal_infeasibility: primal,
            dual_infeasibility: dual,
            relative_gap: gap,
            ..Default::default()
        }
    }

    #[test]
    fn the_2008_rule_measures_residuals_against_the_largest_norm() {
        // ‖r_b‖ = 1e-6·(1 + 99) = 1e-4, ‖r_c‖ ≈ 0: (6.1) fails at ε = 1e-5, (3.15) divides by
        // max(‖b‖, ‖c‖, ‖A‖) = 1000 and passes (1e-7 ≤ 1e-5) — unless the gap fails it.
        let i = info(1e-6, 0.0, 1e-6);
        let norms = [99.0, 1.0, 1000.0];
        assert!(!converged(StoppingRule::Separate, &i, norms, 1e-7));
        assert!(converged(StoppingRule::Combined315, &i, norms, 1e-5));
        assert!(!converged(StoppingRule::Combined315, &info(1e-6, 0.0, 2e-5), norms, 1e-5));
        // With small data norms (3.15) is the stricter test.
        assert!(converged(StoppingRule::Separate, &info(1e-6, 1e-6, 1e-6), [0.0, 0.0, 0.5], 1e-6));
        assert!(!converged(StoppingRule::Combined315, &info(1e-6, 1e-6, 1e-6), [0.0, 0.0, 0.5], 1e-6));
    }
}
