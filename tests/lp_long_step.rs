//! The cpu backend's long step (`Settings::long_step_factor`): on the random dense family, whose
//! iterates stay centred, it saves iterations against the short factor alone and reaches the
//! same optimum; a long step that would decentre the iterate is not taken (greenbea, in
//! `lp_cpu_accuracy`, stays optimal with the defaults).

use glsolve::lp::log::Logger;
use glsolve::lp::{random, solve, Accuracy, Settings, Solution, Status, Verbosity};

fn run(m: usize, seed: u64, long_step_factor: Option<f64>) -> Solution {
    let model = random::random_lp(m, seed).to_model(seed);
    let settings = Settings { verbosity: Verbosity::Quiet, long_step_factor, ..Settings::default() };
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
        let long = run(m, seed, Settings::default().long_step_factor);
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
fn a_long_step_not_above_the_short_one_changes_nothing() {
    let short = run(64, 7, None);
    let same = run(64, 7, Some(Settings::default().step_factor));
    assert_eq!(same.iterations, short.iterations);
    assert_eq!(same.x, short.x);
}
