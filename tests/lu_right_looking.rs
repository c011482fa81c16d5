//! The right-looking blocked LU (CPU panels, GPU trailing updates on 2×2 blocks, look-ahead) and the
//! paper's split substitutions, against double-precision references and the unblocked baseline.
//!
//! Tolerances (u = 2⁻²⁴):
//! * LU with partial pivoting is backward stable: ‖P·A − L̂·Û‖ ≤ γₙ·‖L̂‖·‖Û‖ ≲ n·u·ρ·‖A‖ with the
//!   growth factor ρ ≤ 10 for these matrices, whatever κ(A); the blocked form adds the product
//!   with the computed L11⁻¹ (Volkov–Demmel), whose error is of the same order for |L| ≤ 1. We
//!   assert ‖P·A − L̂·Û‖_F/‖A‖_F ≤ 8·n·u (as for the unblocked LU in tests/lu.rs).
//! * A solve with a backward-stable factor has relative forward error ≤ κ∞(A)·c·n·u; we assert
//!   16·κ∞·n·u with κ∞ computed by faer, so blocked, unblocked and f64 solutions must agree.
mod common;
use common::with_gpu;
use glsolve::cpu::rowmajor;
use glsolve::fixtures::random;
use glsolve::gl::Measure;
use glsolve::gpu::lu::right_looking::{self, BlockedSettings};
use glsolve::gpu::lu::schedule::Blocking;
use glsolve::gpu::lu::timeline::Recorder;
use glsolve::gpu::{lu, GpuError};

const U: f64 = 5.960_464_5e-8;

fn to32(v: &[f64]) -> Vec<f32> {
    v.iter().map(|&x| x as f32).collect()
}

/// Blocked factor (with L⁻¹·P·b) and unblocked factor of the same matrix.
type Run = (right_looking::RightLookingLu, Vec<f32>, Vec<usize>);

fn run_both(a: &[f64], b: &[f64], n: usize, st: BlockedSettings) -> Result<Run, GpuError> {
    let (a32, b32) = (to32(a), to32(b));
    with_gpu(move |gpu| {
        let f = right_looking::factor(gpu, &a32, n, Some(&b32), &st, &mut Recorder::new())?;
        let u = lu::factor(gpu, &a32, n)?;
        Ok((f, lu::read(gpu, &u)?, u.perm.clone()))
    })
}

fn max_rel(x: &[f64], y: &[f64]) -> f64 {
    let d = x.iter().zip(y).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max);
    d / y.iter().fold(0.0f64, |m, v| m.max(v.abs()))
}

#[test]
fn blocked_lu_matches_f64_and_the_unblocked_baseline_on_well_and_ill_conditioned_matrices() {
    // Sizes around the panel width 8 (n = 1, nb ± 1, 2nb ± 1, odd) and the default 32.
    let cases: Vec<(usize, usize)> = [1usize, 2, 3, 7, 8, 9, 15, 17, 31, 50]
        .iter()
        .map(|&n| (n, 8))
        .chain([(31, 32), (33, 32), (65, 32), (130, 16), (100, 64)])
        .collect();
    for (n, nb) in cases {
        for (label, a) in [
            ("uniform", random::uniform(n, n, -1.0, 1.0, n as u64)),
            ("κ=1e2", random::general_with_condition(n, 1e2, n as u64 + 1)),
            ("κ=1e6", random::general_with_condition(n, 1e6, n as u64 + 2)),
        ] {
            let b = random::uniform(n, 1, -1.0, 1.0, 7);
            let st = BlockedSettings { block: nb, lookahead: true };
            let (f, fu, pu) = run_both(&a, &b, n, st).unwrap_or_else(|e| panic!("n={n} {label}: {e}"));
            let mut sorted = f.perm.clone();
            sorted.sort();
            assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "n={n}: perm is a permutation");
            let e = rowmajor::lu_backward_error(&a, &f.factor, &f.perm, n);
            let eu = rowmajor::lu_backward_error(&a, &fu, &pu, n);
            assert!(e <= 8.0 * n as f64 * U, "n={n} nb={nb} {label}: blocked backward error {e:e}");
            assert!(eu <= 8.0 * n as f64 * U, "n={n} {label}: unblocked backward error {eu:e}");
            for i in 0..n {
                for k in 0..i {
                    assert!(f.factor[i * n + k].abs() <= 1.0, "n={n}: |L({i},{k})| > 1");
                }
            }
            // L⁻¹·P·b carried through the factorization of [A | b] has the backward error of a
            // column of U: ‖L·ŷ − P·b‖ ≤ γₙ·‖|L|·|ŷ|‖ (≤ 8·n·u·… as above).
            let fwd: Vec<f64> = f.forward.as_ref().unwrap().iter().map(|&v| v as f64).collect();
            let (mut gap, mut scale) = (0.0f64, 0.0f64);
            for i in 0..n {
                let l = |k: usize| if k == i { 1.0 } else { f.factor[i * n + k] as f64 };
                let ly: f64 = (0..=i).map(|k| l(k) * fwd[k]).sum();
                gap = gap.max((ly - b[f.perm[i]] as f32 as f64).abs());
                scale = scale.max((0..=i).map(|k| (l(k) * fwd[k]).abs()).sum::<f64>());
            }
            assert!(gap <= 8.0 * n as f64 * U * scale, "n={n} {label}: ‖L·ŷ − P·b‖ = {gap:e}");
            if label != "κ=1e6" {
                // Solutions from the blocked factor, the unblocked factor and f64 LU agree within κ.
                let kappa = rowmajor::condition_inf(&a, n);
                let x64 = rowmajor::solve_general(&a, n, &b).unwrap();
                let f64s = |v: &[f32]| v.iter().map(|&x| x as f64).collect::<Vec<_>>();
                let xb = rowmajor::lu_solve(&f64s(&f.factor), n, &f.perm, &b);
                let xu = rowmajor::lu_solve(&f64s(&fu), n, &pu, &b);
                let tol = 16.0 * kappa * n as f64 * U;
                assert!(max_rel(&xb, &x64) <= tol, "n={n} {label}: blocked vs f64 {:e} > {tol:e}", max_rel(&xb, &x64));
                assert!(max_rel(&xb, &xu) <= 2.0 * tol, "n={n} {label}: blocked vs unblocked");
            }
        }
    }
}

#[test]
fn lookahead_changes_the_schedule_not_the_arithmetic() {
    for (n, nb) in [(45usize, 8usize), (70, 16), (129, 32)] {
        let a = to32(&random::uniform(n, n, -1.0, 1.0, 3));
        let b = to32(&random::uniform(n, 1, -1.0, 1.0, 4));
        let (with, without) = with_gpu(move |gpu| {
            let go = |lookahead| {
                let st = BlockedSettings { block: nb, lookahead };
                right_looking::factor(gpu, &a, n, Some(&b), &st, &mut Recorder::new()).unwrap()
            };
            (go(true), go(false))
        });
        assert_eq!(with.perm, without.perm);
        assert!(with.factor == without.factor, "n={n}: factors differ bit for bit");
        assert_eq!(with.forward, without.forward);
    }
}

#[test]
fn fragments_of_every_pass_are_the_plans_and_the_formulas() {
    for (n, nb, lookahead) in [(1usize, 8usize, true), (9, 8, true), (33, 8, false), (64, 16, true), (71, 32, true)] {
        let log = with_gpu(move |gpu| {
            let a = to32(&random::uniform(n, n, -1.0, 1.0, 5));
            let b = to32(&random::uniform(n, 1, -1.0, 1.0, 6));
            let st = BlockedSettings { block: nb, lookahead };
            let (r, log) = gpu.logged(Measure::FRAGMENTS, |gpu| {
                right_looking::factor(gpu, &a, n, Some(&b), &st, &mut Recorder::new()).map(|_| ())
            });
            r.unwrap();
            log
        });
        let plan = Blocking::new(n, nb, true, lookahead).unwrap();
        let (strip, update) = plan.fragments_by_formula();
        let steps = plan.steps() as u64;
        assert_eq!(log.fragments_of("lu_upper_strip"), strip, "n={n} nb={nb}");
        let measured = log.fragments_of("lu_lookahead_update") + log.fragments_of("lu_trailing_update");
        assert_eq!(measured, update, "n={n} nb={nb}");
        // One strip per step (the last one covers b's column), one or two updates per step but the last.
        assert_eq!(log.count_of("lu_upper_strip"), steps);
        assert_eq!(log.count_of("lu_lookahead_update"), if lookahead { steps - 1 } else { 0 });
        assert_eq!(
            log.passes(),
            log.count_of("lu_upper_strip") + log.count_of("lu_lookahead_update") + log.count_of("lu_trailing_update")
        );
    }
}

#[test]
fn bad_input_singular_matrices_and_block_sizes_are_typed_errors() {
    with_gpu(|gpu| {
        let st = BlockedSettings { block: 4, lookahead: true };
        let mut rec = Recorder::new();
        let mut go = |a: &[f32], n: usize, b: Option<&[f32]>, st: &BlockedSettings| {
            right_looking::factor(gpu, a, n, b, st, &mut rec).map(|_| ())
        };
        assert!(matches!(go(&[], 0, None, &st), Err(GpuError::Shape(_))));
        assert!(matches!(go(&[1.0; 5], 2, None, &st), Err(GpuError::Shape(_))));
        assert!(matches!(go(&[1.0; 4], 2, Some(&[1.0]), &st), Err(GpuError::Shape(_))));
        let mut a = vec![1.0f32; 9];
        a[5] = f32::NAN;
        assert!(matches!(go(&a, 3, None, &st), Err(GpuError::NonFinite { row: 1, col: 2, .. })));
        let nan_b = [1.0, f32::INFINITY, 0.0];
        assert!(matches!(
            go(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], 3, Some(&nan_b), &st),
            Err(GpuError::NonFinite { row: 1, .. })
        ));
        assert!(matches!(
            go(&[1.0; 4], 2, None, &BlockedSettings { block: 6, lookahead: true }),
            Err(GpuError::Unsupported(_))
        ));
        // Column 2 = column 0 + column 1: singular at column 2, as the unblocked LU says.
        let s = [1.0, 2.0, 3.0, 4.0, 5.0, 9.0, 7.0, 8.0, 15.0];
        assert!(matches!(go(&s, 3, None, &st), Err(GpuError::Singular { column: 2 })));
        assert!(matches!(go(&[0.0; 16], 4, None, &st), Err(GpuError::Singular { column: 0 })));
    });
    // A dependency found in a later panel: column 13 = column 2 + column 5 (n = 20, nb = 4).
    let n = 20;
    let mut a = random::uniform(n, n, -1.0, 1.0, 11);
    for i in 0..n {
        a[i * n + 13] = a[i * n + 2] + a[i * n + 5];
    }
    let a32 = to32(&a);
    let (blocked_err, unblocked_err) = with_gpu(move |gpu| {
        let st = BlockedSettings { block: 4, lookahead: true };
        let b = right_looking::factor(gpu, &a32, n, None, &st, &mut Recorder::new()).map(|_| ());
        (b, lu::factor(gpu, &a32, n).map(|_| ()))
    });
    assert!(matches!(blocked_err, Err(GpuError::Singular { column: 13 })), "{blocked_err:?}");
    assert!(matches!(unblocked_err, Err(GpuError::Singular { column: 13 })), "{unblocked_err:?}");
}

#[test]
fn malformed_inputs_never_panic_and_never_give_non_finite_factors() {
    use common::Rng;
    use glsolve::refine::{self, RefineSettings};
    let mut rng = Rng::new(77);
    let cases: Vec<(usize, Vec<f32>, Vec<f32>, usize)> = (0..40)
        .map(|_| {
            let n = (rng.next_u64() % 12) as usize;
            let len = (n * n + (rng.next_u64() % 3) as usize).saturating_sub(1);
            let mut a: Vec<f32> = (0..len).map(|_| rng.f32()).collect();
            let mut b: Vec<f32> = (0..n + (rng.next_u64() % 2) as usize).map(|_| rng.f32()).collect();
            for v in a.iter_mut().chain(b.iter_mut()) {
                match rng.next_u64() % 60 {
                    0 => *v = f32::NAN,
                    1 => *v = f32::INFINITY,
                    2 => *v = 0.0,
                    _ => {}
                }
            }
            let block = [3usize, 4, 8, 16, 32, 64][(rng.next_u64() % 6) as usize];
            (n, a, b, block)
        })
        .collect();
    with_gpu(move |gpu| {
        for (n, a, b, block) in cases {
            let st = BlockedSettings { block, lookahead: rng.next_u64().is_multiple_of(2) };
            if let Ok(f) = right_looking::factor(gpu, &a, n, Some(&b), &st, &mut Recorder::new()) {
                assert!(f.factor.iter().all(|v| v.is_finite()), "n={n}: a factor with NaN or ∞");
            }
            let (a64, b64): (Vec<f64>, Vec<f64>) =
                (a.iter().map(|&v| v as f64).collect(), b.iter().map(|&v| v as f64).collect());
            let rs = RefineSettings { lu: refine::LuPath::Blocked(st), ..RefineSettings::default() };
            if let Ok(s) = refine::linsolve(gpu, &a64, n, &b64, &rs) {
                assert!(s.x.iter().all(|v| v.is_finite()), "n={n}: a solution with NaN or ∞");
            }
        }
    });
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
