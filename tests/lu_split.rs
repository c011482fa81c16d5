//! The mixed-precision paper's blocked substitutions split between CPU and GPU (Figs. 2–5), and
//! the double-precision residual the GPU forms in the backward sweep.
//!
//! Tolerances:
//! * Triangular substitution in single precision (u = 2⁻²⁴) is backward stable:
//!   ‖T·ŷ − r‖∞ ≤ γₙ·‖|T|·|ŷ|‖∞; the blocked form multiplies by the explicit inverses of the
//!   diagonal blocks (|L| ≤ 1 by pivoting), of the same order. We assert 8·n·u·‖|T|·|ŷ|‖∞.
//! * The residual is formed in double precision (ε = 2⁻⁵³) on both sides, in different orders:
//!   each entry errs by at most γₙ·(|A|·|x| + |b|) from the exact value, so the two differ by at
//!   most 2.01·n·ε·(|A|·|x| + |b|) entry by entry. A single-precision residual would miss this by
//!   a factor of 10⁸.
mod common;
use common::with_gpu;
use glsolve::fixtures::random;
use glsolve::gl::Measure;
use glsolve::gpu::lu::right_looking::{self, BlockedSettings};
use glsolve::gpu::lu::schedule::Blocking;
use glsolve::gpu::lu::substitute::SplitSolver;
use glsolve::gpu::lu::timeline::Recorder;

const U: f64 = 5.960_464_5e-8;
const EPS: f64 = f64::EPSILON / 2.0;

struct Sweeps {
    factor: Vec<f32>,
    perm: Vec<usize>,
    y: Vec<f32>,
    y_without_lookahead: Vec<f32>,
    x: Vec<f64>,
    /// The GPU's double-precision residual; `None` where shaders have no double precision.
    r: Option<Vec<f64>>,
    fp64: bool,
}

fn sweeps(a: &[f64], b: &[f64], r: &[f64], n: usize, nb: usize) -> Sweeps {
    let (a, b, r) = (a.to_vec(), b.to_vec(), r.to_vec());
    with_gpu(move |gpu| {
        let mut rec = Recorder::new();
        let a32: Vec<f32> = a.iter().map(|&v| v as f32).collect();
        let st = BlockedSettings { block: nb, lookahead: true };
        let f = right_looking::factor(gpu, &a32, n, None, &st, &mut rec).unwrap();
        let mut s = SplitSolver::new(gpu, &f.factor, &f.perm, &a, &b, n, nb, true, &mut rec).unwrap();
        let y = s.forward(&r, &mut rec).unwrap();
        let mut x = vec![0.0; n];
        let res = s.backward(y.clone(), &mut x, &mut rec).unwrap();
        let mut t = SplitSolver::new(gpu, &f.factor, &f.perm, &a, &b, n, nb, false, &mut rec).unwrap();
        let y2 = t.forward(&r, &mut rec).unwrap();
        let fp64 = gpu.info().fp64;
        assert_eq!(s.forms_residual(), fp64);
        Sweeps { factor: f.factor, perm: f.perm, y, y_without_lookahead: y2, x, r: res, fp64 }
    })
}

#[test]
fn forward_backward_and_the_double_residual_match_their_references() {
    for (n, nb) in [(1usize, 4usize), (2, 4), (5, 4), (9, 8), (17, 8), (40, 8), (63, 16), (100, 32)] {
        let a = random::uniform(n, n, -1.0, 1.0, n as u64 + 20);
        let b = random::uniform(n, 1, -1.0, 1.0, 21);
        let r = random::uniform(n, 1, -1.0, 1.0, 22);
        let s = sweeps(&a, &b, &r, n, nb);
        assert_eq!(s.y, s.y_without_lookahead, "n={n}: look-ahead changes only the schedule");
        let f = |i: usize, k: usize| s.factor[i * n + k] as f64;
        // Forward: L·ŷ = P·r (single precision, r rounded to single first).
        let (mut gap, mut scale) = (0.0f64, 0.0f64);
        for i in 0..n {
            let terms: Vec<f64> =
                (0..=i).map(|k| if k == i { s.y[k] as f64 } else { f(i, k) * s.y[k] as f64 }).collect();
            gap = gap.max((terms.iter().sum::<f64>() - r[s.perm[i]] as f32 as f64).abs());
            scale = scale.max(terms.iter().map(|t| t.abs()).sum::<f64>());
        }
        assert!(gap <= 8.0 * n as f64 * U * scale, "n={n}: forward ‖L·ŷ − P·r‖ = {gap:e}");
        // Backward from x = 0: x̂ solves U·x̂ = ŷ.
        let (mut gap, mut scale) = (0.0f64, 0.0f64);
        for i in 0..n {
            let terms: Vec<f64> = (i..n).map(|k| f(i, k) * s.x[k]).collect();
            gap = gap.max((terms.iter().sum::<f64>() - s.y[i] as f64).abs());
            scale = scale.max(terms.iter().map(|t| t.abs()).sum::<f64>());
        }
        assert!(gap <= 8.0 * n as f64 * U * scale, "n={n}: backward ‖U·x̂ − ŷ‖ = {gap:e}");
        // The GPU's residual of x̂, in double precision, against the CPU's; none where shaders
        // have no double precision (OpenGL ES), and the caller forms it on the CPU.
        let Some(gpu_r) = &s.r else {
            assert!(!s.fp64, "n={n}: a context with double precision returned no residual");
            continue;
        };
        for i in 0..n {
            let row = &a[i * n..(i + 1) * n];
            let cpu = b[i] - row.iter().zip(&s.x).map(|(p, q)| p * q).sum::<f64>();
            let mag = b[i].abs() + row.iter().zip(&s.x).map(|(p, q)| (p * q).abs()).sum::<f64>();
            let tol = 2.01 * (n as f64 + 1.0) * EPS * mag;
            assert!((gpu_r[i] - cpu).abs() <= tol, "n={n} row {i}: GPU r {} vs CPU {cpu} (tol {tol:e})", gpu_r[i]);
        }
    }
}

#[test]
fn sweep_fragments_are_the_plans_and_the_formulas() {
    for (n, nb, lookahead) in [(1usize, 4usize, true), (7, 4, true), (33, 8, true), (33, 8, false), (64, 16, true)] {
        let log = with_gpu(move |gpu| {
            let a = random::uniform(n, n, -1.0, 1.0, 30);
            let b = random::uniform(n, 1, -1.0, 1.0, 31);
            let a32: Vec<f32> = a.iter().map(|&v| v as f32).collect();
            let mut rec = Recorder::new();
            let st = BlockedSettings { block: nb, lookahead };
            let f = right_looking::factor(gpu, &a32, n, None, &st, &mut rec).unwrap();
            let mut s = SplitSolver::new(gpu, &f.factor, &f.perm, &a, &b, n, nb, lookahead, &mut rec).unwrap();
            let (r, log) = gpu.logged(Measure::FRAGMENTS, |_| {
                let y = s.forward(&b, &mut rec)?;
                s.backward(y, &mut vec![0.0; n], &mut rec)
            });
            r.unwrap();
            (log, gpu.info().fp64)
        });
        let (log, fp64) = log;
        let plan = Blocking::new(n, nb, false, lookahead).unwrap();
        let (forward, backward) = plan.sweep_fragments_by_formula();
        assert_eq!(log.fragments_of("forward_lookahead") + log.fragments_of("forward_update"), forward, "n={n}");
        let steps = plan.steps() as u64;
        // Without double precision in shaders the residual is formed on the CPU: no pass.
        assert_eq!(log.fragments_of("residual_update"), if fp64 { backward } else { 0 }, "n={n}");
        assert_eq!(log.count_of("residual_update"), if fp64 { steps } else { 0 });
        assert_eq!(log.count_of("forward_lookahead"), if lookahead { steps - 1 } else { 0 });
    }
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
