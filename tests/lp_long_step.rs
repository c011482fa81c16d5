//! The cpu backend's long step (`Settings::long_step_factor`): on the random dense family, whose
//! iterates stay centred, it saves iterations against the short factor alone and reaches the
//! same optimum; a long step that would decentre the iterate is not taken (greenbea, in
//! `lp_cpu_accuracy`, stays optimal with the defaults).

use glsolve::lp::log::Logger;
use glsolve::lp::{random, solve, Accuracy, Settings, Solution, Status};

fn run(m: usize, seed: u64, long_step_factor: Option<f64>) -> Solution {
    let model = random::random_lp(m, seed).to_model(seed);
    let settings = Settings::default().to_builder().long_step_factor(long_step_factor).build().expect("valid");
    let sol = solve(&model, &settings, &mut Logger::quiet()).expect("valid settings");
    assert_eq!(sol.status, Status::Optimal, "m {m} seed {seed}: {}", sol.detail);
    let v = sol.verification.as_ref().expect("the cpu backend verifies");
    assert_eq!(v.accuracy, Accuracy::Tolerance, "{v:?}");
    sol
}

#[test]
fn the_long_step_saves_iterations_on_centred_iterates() {
    for (m, seed) in [(64, 7), (129, 7), (200, 3)] {
        let short = run(m, seed, None);
        let long = run(m, seed, Settings::default().long_step_factor());
        assert!(
            long.iterations < short.iterations,
            "m {m} seed {seed}: {} iterations with the long step, {} without",
            long.iterations,
            short.iterations
        );
        let scale = short.objective.abs().max(1.0);
        assert!((long.objective - short.objective).abs() <= 1e-7 * scale, "{} vs {}", long.objective, short.objective);
    }
}

#[test]
fn a_long_step_below_the_short_one_is_ignored() {
    // 0.9 < 0.95: taken on centred iterates it would change the run; it must not be taken.
    let short = run(64, 7, None);
    let below = run(64, 7, Some(0.9));
    assert_eq!(below.iterations, short.iterations);
    assert_eq!(below.x, short.x);
}

#[test]
fn with_upper_bounds_the_bound_pairs_are_checked_and_the_step_still_pays() {
    // Every third column gets an upper bound at half the largest x of the unbounded optimum, so
    // some bounds are active and the (w, z) pairs take part in the rule beside unbounded columns.
    let base = random::random_lp(96, 5).to_model(5);
    let free = solve(&base, &Settings::default(), &mut Logger::quiet()).expect("valid settings");
    let top = free.x.iter().fold(0.0f64, |m, &v| m.max(v));
    let mut model = base.clone();
    for j in (0..model.col_upper.len()).step_by(3) {
        model.col_upper[j] = 0.5 * top;
    }
    let solve_with = |long_step_factor| {
        let settings = Settings::default().to_builder().long_step_factor(long_step_factor).build().expect("valid");
        let sol = solve(&model, &settings, &mut Logger::quiet()).expect("valid settings");
        assert_eq!(sol.status, Status::Optimal, "{}", sol.detail);
        assert_eq!(sol.verification.as_ref().map(|v| v.accuracy), Some(Accuracy::Tolerance));
        sol
    };
    let (short, long) = (solve_with(None), solve_with(Settings::default().long_step_factor()));
    let at_bound = long.x.iter().zip(&model.col_upper).filter(|(x, u)| (**u - **x).abs() < 1e-6).count();
    assert!(at_bound > 0, "no bound is active: the test lost its point");
    assert!(
        long.iterations < short.iterations,
        "{} iterations with the long step, {} without",
        long.iterations,
        short.iterations
    );
    assert!((long.objective - short.objective).abs() <= 1e-7 * short.objective.abs().max(1.0));
}
