//! The affine predictor's right-hand side made by the residual pass (`Run::residuals`, on
//! backends that fuse it) against the one `direction` builds from scratch: equal bit for bit,
//! and so is the direction, with and without upper bounds, in one column range and in two.

use super::bounds::Bounds;
use super::direction::{Accuracy, Compl};
use super::{Run, State};
use crate::lp::backend::{CpuNormal, CpuVectors};
use crate::lp::mpc::MpcProblem;
use crate::lp::settings::{BackendKind, Settings};

/// One predictor two ways on an m×n dense A (m·n ≥ 2¹⁷ splits the pass in two on two threads).
fn check(m: usize, n: usize, bounded: bool) {
    let a = faer::Mat::from_fn(m, n, |i, j| {
        (((i * 7 + j * 13) % 17) as f64 - 8.0) / 5.0 + if i == j % m { 4.0 } else { 0.0 }
    });
    let (b, c): (Vec<f64>, Vec<f64>) =
        ((0..m).map(|i| 1.0 + i as f64).collect(), (0..n).map(|j| 1.0 + (j % 3) as f64).collect());
    let upper: Vec<f64> = (0..n).map(|j| if bounded && j % 3 == 0 { 5.0 } else { f64::INFINITY }).collect();
    let mut vk = CpuVectors::new(a.as_ref(), &[]);
    let mut ne = CpuNormal::new(m, n);
    let p =
        MpcProblem { b: b.clone(), c: c.clone(), upper: upper.clone(), a_norm_inf: 1.0, ..Default::default() };
    let st = Settings::for_backend(BackendKind::Cpu);
    let mut run = Run::new(&mut vk, &mut ne, &p, &st, None);
    run.bounds = Bounds::upload(&mut *run.vk, &upper).expect("bounds");
    assert_eq!(run.bounds.is_some(), bounded);
    let x: Vec<f64> = (0..n).map(|j| 0.5 + (j % 4) as f64).collect();
    let s: Vec<f64> = (0..n).map(|j| 2.0 - 0.3 * (j % 5) as f64).collect();
    // x + w ≠ u on the bounded columns: the bound residual r_u is not zero.
    let wz = bounded.then(|| {
        let w: Vec<f64> =
            (0..n).map(|j| if upper[j].is_finite() { 0.8 * (upper[j] - x[j]) + 0.3 } else { 1.0 }).collect();
        let z: Vec<f64> = (0..n).map(|j| if upper[j].is_finite() { 0.25 + (j % 2) as f64 } else { 0.0 }).collect();
        (w, z)
    });
    let state = State { x: x.clone(), lambda: (0..m).map(|i| 0.1 * (i % 3) as f64).collect(), s: s.clone(), wz };
    let res = run.residuals(&b, &c, &state).expect("residuals");
    let base = run.newton.predictor.take().expect("dense A fuses the predictor's right-hand side");
    let theta = run.theta(&state).expect("theta");
    run.assemble_and_factor(&theta).expect("factor");
    let xs: Vec<f64> = x.iter().zip(&s).map(|(a, b)| a * b).collect();
    let wzp: Option<Vec<f64>> = state.wz.as_ref().map(|(w, z)| w.iter().zip(z).map(|(a, b)| a * b).collect());
    let compl = || Compl::General { rxs: &xs, rwz: wzp.as_ref() };
    let scratch = run.direction(&state, &res, &theta, compl(), Accuracy::Trial, None).expect("from scratch");
    let fused = run.direction(&state, &res, &theta, compl(), Accuracy::Trial, Some(&base)).expect("on the base");
    let what = format!("{m}×{n}, bounds {bounded}, {} threads", rayon::current_num_threads());
    let (t, rhs) = scratch.rhs.as_ref().expect("general form keeps t");
    assert_eq!((&base.0, &base.1), (t, rhs), "{what}: t and r_b + A·t");
    assert_eq!((&fused.dx, &fused.dl, &fused.ds), (&scratch.dx, &scratch.dl, &scratch.ds), "{what}: direction");
    assert_eq!(fused.dwz, scratch.dwz, "{what}: (Δw, Δz)");
}

#[test]
fn the_residual_pass_gives_the_predictor_bit_for_bit() {
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
        pool.install(|| {
            for bounded in [false, true] {
                check(9, 31, bounded);
                check(67, 1999, bounded);
            }
        });
    }
}
