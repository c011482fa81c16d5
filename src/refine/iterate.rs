//! The one iterative-refinement loop of glsolve, shared by the dense general solver
//! ([`super::linsolve`]) and weighted least squares ([`crate::lsq::solve`]): the residual in
//! double precision, the correction from a single-precision solve, stall and divergence
//! detection; the caller falls back to double precision when the loop says so.
//!
//! The two papers test at different points, and both are kept exactly:
//! * [`TestPoint::Iterate`] — the mixed-precision paper (Fig. 1 and §2.3): test xₖ by its own
//!   residual rₖ; return xₖ when it passes, else correct it.
//! * [`TestPoint::AfterCorrection`] — the 2008 structure paper's Algorithm 1: correct xₖ with rₖ,
//!   then test ‖rₖ‖/‖xₖ₊₁‖ and return xₖ₊₁ when it passes.
//!
//! Either way `iterations` is the number of corrections applied to the returned x.

/// What a refinement needs from its problem.
pub trait Refinable {
    type Error;
    /// The single-precision solution x₀ and its double-precision residual r₀.
    fn start(&mut self) -> Result<(Vec<f64>, Vec<f64>), Self::Error>;
    /// x += z, z from a single-precision solve with r (the residual of x); returns the residual
    /// of the new x in double precision.
    fn correct(&mut self, x: &mut [f64], r: &[f64]) -> Result<Vec<f64>, Self::Error>;
    /// The stopping test's value for iterate `x` and residual `r` (see [`TestPoint`]).
    fn criterion(&mut self, x: &[f64], r: &[f64]) -> f64;
    /// The quantity that must keep halving (default: the criterion itself).
    fn progress(&self, _x: &[f64], _r: &[f64], criterion: f64) -> f64 {
        criterion
    }
}

/// Where the test is made (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestPoint {
    Iterate,
    AfterCorrection,
}

/// When to stop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stopping {
    pub test: TestPoint,
    /// Converged when the criterion is at most this.
    pub threshold: f64,
    /// Largest number of corrections.
    pub max_iterations: usize,
    /// Corrections without at least halving the best progress value before the loop stalls.
    pub patience: usize,
    /// Diverged when the progress value exceeds this multiple of the best one seen
    /// (`f64::INFINITY`: only a non-finite value counts as divergence).
    pub growth_limit: f64,
}

/// Why the loop ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stop {
    Converged,
    /// No halving for `patience` corrections; the criterion when it gave up.
    Stalled {
        criterion: f64,
    },
    /// The progress value grew beyond the growth limit.
    Diverged {
        criterion: f64,
    },
    /// The criterion became NaN or infinite.
    NonFinite,
    /// `max_iterations` corrections without convergence.
    Exhausted,
}

/// The loop's result. Anything but [`Stop::Converged`] asks for the double-precision fallback.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub x: Vec<f64>,
    /// The residual the last test saw.
    pub r: Vec<f64>,
    /// Corrections applied to `x`.
    pub iterations: usize,
    /// The criterion at every test.
    pub history: Vec<f64>,
    pub stop: Stop,
}

/// Runs the refinement of `p` until `rules` stop it.
pub fn refine<P: Refinable>(p: &mut P, rules: &Stopping) -> Result<Outcome, P::Error> {
    let (mut x, mut r) = p.start()?;
    let mut history = Vec::new();
    let (mut iterations, mut best, mut since_best) = (0usize, f64::INFINITY, 0usize);
    let done = |x: Vec<f64>, r: Vec<f64>, iterations, history, stop| Outcome { x, r, iterations, history, stop };
    loop {
        let (criterion, progress) = match rules.test {
            TestPoint::Iterate => {
                let c = p.criterion(&x, &r);
                (c, p.progress(&x, &r, c))
            }
            TestPoint::AfterCorrection => {
                if iterations == rules.max_iterations {
                    return Ok(done(x, r, iterations, history, Stop::Exhausted));
                }
                let before = std::mem::take(&mut r);
                r = p.correct(&mut x, &before)?;
                iterations += 1;
                let c = p.criterion(&x, &before);
                (c, p.progress(&x, &before, c))
            }
        };
        history.push(criterion);
        if criterion <= rules.threshold {
            return Ok(done(x, r, iterations, history, Stop::Converged));
        }
        if !criterion.is_finite() || !progress.is_finite() {
            return Ok(done(x, r, iterations, history, Stop::NonFinite));
        }
        if progress > rules.growth_limit * best {
            return Ok(done(x, r, iterations, history, Stop::Diverged { criterion }));
        }
        if progress < 0.5 * best {
            best = progress;
            since_best = 0;
        } else {
            since_best += 1;
            if since_best >= rules.patience {
                return Ok(done(x, r, iterations, history, Stop::Stalled { criterion }));
            }
        }
        if rules.test == TestPoint::Iterate {
            if iterations == rules.max_iterations {
                return Ok(done(x, r, iterations, history, Stop::Exhausted));
            }
            r = p.correct(&mut x, &r)?;
            iterations += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// x·a = b in "single precision" by a solve with an inexact a; the criterion is |r|.
    struct Scalar {
        a: f64,
        approx: f64,
        b: f64,
        solves: usize,
    }

    impl Refinable for Scalar {
        type Error = ();
        fn start(&mut self) -> Result<(Vec<f64>, Vec<f64>), ()> {
            let x = vec![self.b / self.approx];
            let r = vec![self.b - self.a * x[0]];
            Ok((x, r))
        }
        fn correct(&mut self, x: &mut [f64], r: &[f64]) -> Result<Vec<f64>, ()> {
            self.solves += 1;
            x[0] += r[0] / self.approx;
            Ok(vec![self.b - self.a * x[0]])
        }
        fn criterion(&mut self, _x: &[f64], r: &[f64]) -> f64 {
            r[0].abs()
        }
    }

    fn rules(test: TestPoint) -> Stopping {
        Stopping { test, threshold: 1e-12, max_iterations: 30, patience: 3, growth_limit: 1e3 }
    }

    #[test]
    fn converges_and_counts_the_corrections_at_either_test_point() {
        let mut p = Scalar { a: 3.0, approx: 3.0 * (1.0 + 1e-3), b: 1.0, solves: 0 };
        let o = refine(&mut p, &rules(TestPoint::Iterate)).unwrap();
        assert_eq!(o.stop, Stop::Converged);
        assert_eq!(o.iterations, p.solves);
        assert_eq!(o.history.len(), o.iterations + 1);
        assert!((o.x[0] - 1.0 / 3.0).abs() < 1e-12);
        let mut q = Scalar { a: 3.0, approx: 3.0 * (1.0 + 1e-3), b: 1.0, solves: 0 };
        let o = refine(&mut q, &rules(TestPoint::AfterCorrection)).unwrap();
        assert_eq!(o.stop, Stop::Converged);
        assert_eq!((o.iterations, o.history.len()), (q.solves, q.solves));
        // Algorithm 1 tests the residual that produced the correction (r₀ first), not the new one.
        let x0: f64 = 1.0 / (3.0 * (1.0 + 1e-3));
        assert_eq!(o.history[0], (1.0 - 3.0 * x0).abs());
        // The paper's test point tests x₀ by r₀ first, and returns the x it tested.
        let mut p = Scalar { a: 3.0, approx: 3.0 * (1.0 + 1e-3), b: 1.0, solves: 0 };
        let o = refine(&mut p, &rules(TestPoint::Iterate)).unwrap();
        assert_eq!(o.history[0], (1.0 - 3.0 * x0).abs());
        assert_eq!(*o.history.last().unwrap(), (1.0 - 3.0 * o.x[0]).abs());
    }

    #[test]
    fn divergence_stall_and_limits_are_reported() {
        // An approximation of the wrong sign: the residual grows elevenfold each step.
        let mut p = Scalar { a: 3.0, approx: -0.3, b: 1.0, solves: 0 };
        let o = refine(&mut p, &rules(TestPoint::Iterate)).unwrap();
        assert!(matches!(o.stop, Stop::Diverged { .. }), "{:?}", o.stop);
        let mut no_growth_rule = rules(TestPoint::Iterate);
        no_growth_rule.growth_limit = f64::INFINITY;
        let o = refine(&mut Scalar { a: 3.0, approx: -0.3, b: 1.0, solves: 0 }, &no_growth_rule).unwrap();
        assert!(matches!(o.stop, Stop::Stalled { .. }), "{:?}", o.stop);
        assert_eq!(o.iterations, 3);
        // approx = a/2: the error changes sign each step without shrinking.
        let o = refine(&mut Scalar { a: 3.0, approx: 1.5, b: 1.0, solves: 0 }, &rules(TestPoint::Iterate)).unwrap();
        assert!(matches!(o.stop, Stop::Stalled { .. }));
        let mut few = rules(TestPoint::AfterCorrection);
        few.max_iterations = 1;
        let o = refine(&mut Scalar { a: 3.0, approx: 3.3, b: 1.0, solves: 0 }, &few).unwrap();
        assert_eq!((o.stop, o.iterations), (Stop::Exhausted, 1));
        let o = refine(&mut Scalar { a: 3.0, approx: 0.0, b: 1.0, solves: 0 }, &rules(TestPoint::Iterate)).unwrap();
        assert_eq!(o.stop, Stop::NonFinite);
    }
}
