//! The loop end to end on a 2×4 LP with an optimum (x = (1.5, 2.5, 0, 0), cᵀx = −6.5), where a
//! judge or the data is planted wrong: none of them may end as optimal, and bad shapes are named.
use crate::lp::backend::{CpuNormal, CpuVectors};
use crate::lp::log::Logger;
use crate::lp::mpc::{solve, solve_judged, Iterate, Judge, MpcOutcome, MpcProblem, Weights};
use crate::lp::settings::{BackendKind, Settings};
use crate::lp::status::Status;

fn run(p: &MpcProblem, judge: Option<Judge<'_>>) -> MpcOutcome {
    let a = faer::mat![[1.0, 1.0, 1.0, 0.0], [-1.0, 1.0, 0.0, 1.0]];
    let mut vk = CpuVectors::new(a.as_ref(), &[]);
    let mut ne = CpuNormal::new(2, 4);
    let st = Settings::for_backend(BackendKind::Cpu);
    match judge {
        Some(j) => solve_judged(&mut vk, &mut ne, p, &st, &mut Logger::quiet(), Some(j)),
        None => solve(&mut vk, &mut ne, p, &st, &mut Logger::quiet()),
    }
}

fn problem() -> MpcProblem {
    MpcProblem { b: vec![4.0, 1.0], c: vec![-1.0, -2.0, 0.0, 0.0], a_norm_inf: 3.0, ..Default::default() }
}

#[test]
fn the_unjudged_loop_finds_the_optimum() {
    let out = run(&problem(), None);
    assert_eq!(out.status, Status::Optimal, "{}", out.detail);
    let x = &out.iterate.x;
    let obj = -x[0] - 2.0 * x[1];
    assert!((obj + 6.5).abs() < 1e-6, "cᵀx = {obj}");
}

#[test]
fn a_judge_that_stays_above_its_tolerance_ends_in_failure_not_optimal() {
    // Within the window (≤ 10) but never ≤ 1: the loop's own test passes, the check does not.
    let out = run(&problem(), Some(&|_: &Iterate, _| 5.0));
    assert_eq!(out.status, Status::NumericalFailure, "{}", out.detail);
    assert!(out.detail.contains("5.0× its tolerance"), "{}", out.detail);
}

#[test]
fn a_nan_judge_never_passes() {
    let out = run(&problem(), Some(&|_: &Iterate, _| f64::NAN));
    assert_ne!(out.status, Status::Optimal, "{}", out.detail);
}

#[test]
fn a_judge_that_passes_confirms_the_loops_own_test() {
    // In double precision a judge passing at ε ends the loop where the loop's own test passes
    // (no later: the judge confirms it), and as optimal.
    let own = run(&problem(), None);
    let out = run(&problem(), Some(&|_: &Iterate, _| 0.05));
    assert_eq!((out.status, out.iterations), (Status::Optimal, own.iterations), "{}", out.detail);
}

#[test]
fn only_the_judgement_that_can_end_the_loop_is_told_so() {
    // Double precision: the judgements before the loop's own test passes only rank iterates
    // (their dual side may be an estimate); the one that ends the loop is decisive. A judge
    // that passes only when told it is decisive still ends the loop where its own test does.
    let own = run(&problem(), None);
    let flags = std::cell::RefCell::new(Vec::new());
    let judge = |_: &Iterate, decisive: bool| {
        flags.borrow_mut().push(decisive);
        if decisive {
            0.05
        } else {
            1e6
        }
    };
    let out = run(&problem(), Some(&judge));
    assert_eq!((out.status, out.iterations), (Status::Optimal, own.iterations), "{}", out.detail);
    let flags = flags.into_inner();
    assert_eq!(flags.last(), Some(&true), "{flags:?}");
    assert!(flags[..flags.len() - 1].iter().all(|d| !d), "{flags:?}");
}

#[test]
fn a_point_ranked_by_an_estimate_is_judged_in_full_before_it_is_returned() {
    // Planted: the estimate passes every point, the full judgement none. The best point by
    // estimate must not come back as optimal.
    let out = run(&problem(), Some(&|_: &Iterate, decisive: bool| if decisive { 5.0 } else { 0.5 }));
    assert_eq!(out.status, Status::NumericalFailure, "{}", out.detail);
    assert!(out.detail.contains("5.0× its tolerance"), "{}", out.detail);
}

#[test]
fn weights_of_the_wrong_length_are_an_error_not_dropped() {
    let w = Weights { primal: vec![1.0; 2], dual: vec![1.0; 3], bound: vec![0.0; 4], objective_offset: 0.0 };
    let out = run(&MpcProblem { weights: Some(w), ..problem() }, None);
    assert_eq!(out.status, Status::NumericalFailure);
    assert!(out.detail.contains("dual weights"), "{}", out.detail);
}

#[test]
fn data_of_the_wrong_length_is_named_before_any_step() {
    let cases = [
        (MpcProblem { b: vec![4.0], ..problem() }, "b"),
        (MpcProblem { c: vec![-1.0; 5], ..problem() }, "c"),
        (MpcProblem { upper: vec![1.0; 3], ..problem() }, "upper bounds"),
    ];
    for (p, what) in cases {
        let out = run(&p, None);
        assert_eq!((out.status, out.iterations), (Status::NumericalFailure, 0), "{what}");
        assert!(out.detail.contains(&format!("mismatch in {what}:")), "{what}: {}", out.detail);
    }
}

#[test]
fn nan_data_ends_in_numerical_failure() {
    let out = run(&MpcProblem { c: vec![-1.0, f64::NAN, 0.0, 0.0], ..problem() }, None);
    assert_eq!(out.status, Status::NumericalFailure, "{}", out.detail);
}

/// min 2x₁ + x₂ s.t. x₁ + x₂ − r₁ = −3, x₁ − x₂ − r₂ = −1, r ≥ 0, with x₁, x₂ as `free` says:
/// free, the optimum is x = (−2, −1) (value −5); kept ≥ 0 it would be x = 0 (value 0).
fn free_vertex(free: Vec<usize>) -> MpcOutcome {
    let a = faer::mat![[1.0, 1.0, -1.0, 0.0], [1.0, -1.0, 0.0, -1.0]];
    let mut vk = CpuVectors::new(a.as_ref(), &[]);
    let mut ne = CpuNormal::new(2, 4);
    let st = Settings::for_backend(BackendKind::Cpu);
    let p = MpcProblem { b: vec![-3.0, -1.0], c: vec![2.0, 1.0, 0.0, 0.0], a_norm_inf: 3.0, free, ..Default::default() };
    solve(&mut vk, &mut ne, &p, &st, &mut Logger::quiet())
}

#[test]
fn free_columns_reach_a_negative_vertex_with_no_dual_slack() {
    let out = free_vertex(vec![0, 1]);
    assert_eq!(out.status, Status::Optimal, "{}", out.detail);
    let x = &out.iterate.x;
    assert!((x[0] + 2.0).abs() < 1e-6 && (x[1] + 1.0).abs() < 1e-6, "x = {x:?}");
    assert_eq!((out.iterate.s[0], out.iterate.s[1]), (0.0, 0.0), "a free column has no dual slack");
    // The same columns held ≥ 0 end elsewhere: the free ones were carried free.
    let held = free_vertex(Vec::new());
    assert_eq!(held.status, Status::Optimal, "{}", held.detail);
    assert!(held.iterate.x[0].abs() < 1e-6 && held.iterate.x[1].abs() < 1e-6, "x = {:?}", held.iterate.x);
}

#[test]
fn a_free_column_out_of_range_is_named() {
    let out = free_vertex(vec![0, 4]);
    assert_eq!(out.status, Status::NumericalFailure);
    assert!(out.detail.contains("free columns"), "{}", out.detail);
}
