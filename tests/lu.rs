//! LU with partial pivoting on the GL pipeline, against double-precision references.
//!
//! Tolerance: Gaussian elimination with partial pivoting is backward stable,
//! ‖P·A − L̂·Û‖ ≤ c·m·u·ρ·‖A‖ with growth factor ρ small in practice for random matrices
//! (≤ 10 here); we assert ‖P·A − L̂·Û‖_F/‖A‖_F ≤ 8·m·u.
mod common;
use common::with_gpu;
use glsolve::cpu::rowmajor;
use glsolve::fixtures::random;
use glsolve::gl::Measure;
use glsolve::gpu::{lu, GpuError};

const U: f64 = 5.960_464_5e-8;

/// ‖P·A − L·U‖_F / ‖A‖_F.
fn backward_error(a: &[f64], f: &[f32], perm: &[usize], m: usize) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..m {
        for j in 0..m {
            let lu: f64 = (0..m)
                .map(|k| {
                    let l = if k < i {
                        f[i * m + k] as f64
                    } else if k == i {
                        1.0
                    } else {
                        0.0
                    };
                    let u = if k <= j { f[k * m + j] as f64 } else { 0.0 };
                    l * u
                })
                .sum();
            let pa = a[perm[i] * m + j];
            num += (pa - lu).powi(2);
            den += pa * pa;
        }
    }
    (num / den).sqrt()
}

fn run(a: Vec<f64>, m: usize) -> Result<(Vec<f32>, Vec<usize>), GpuError> {
    with_gpu(move |gpu| {
        let a32: Vec<f32> = a.iter().map(|&v| v as f32).collect();
        let f = lu::factor(gpu, &a32, m)?;
        Ok((lu::read(gpu, &f)?, f.perm.clone()))
    })
}

#[test]
fn random_matrices_factor_and_solve() {
    for m in [1usize, 2, 3, 17, 64, 255, 256] {
        let a = random::uniform(m, m, -1.0, 1.0, m as u64);
        let (f, perm) = run(a.clone(), m).unwrap_or_else(|e| panic!("m={m}: {e}"));
        let mut sorted = perm.clone();
        sorted.sort();
        assert_eq!(sorted, (0..m).collect::<Vec<_>>(), "perm is a permutation");
        let e = backward_error(&a, &f, &perm, m);
        assert!(e <= 8.0 * m as f64 * U, "m={m}: backward error {e:e}");
        // Partial pivoting keeps every multiplier |L(i,k)| ≤ 1.
        for i in 0..m {
            for k in 0..i {
                assert!(f[i * m + k].abs() <= 1.0, "m={m}: |L({i},{k})| = {}", f[i * m + k]);
            }
        }
        // A solve with the read-back factor (f64 substitution) has a small residual.
        let b = random::uniform(m, 1, -1.0, 1.0, 99);
        let f64s: Vec<f64> = f.iter().map(|&v| v as f64).collect();
        let x = rowmajor::lu_solve(&f64s, m, &perm, &b);
        let r: f64 =
            (0..m).map(|i| ((0..m).map(|j| a[i * m + j] * x[j]).sum::<f64>() - b[i]).abs()).fold(0.0, f64::max);
        let scale: f64 = (0..m).map(|i| (0..m).map(|j| (a[i * m + j] * x[j]).abs()).sum::<f64>()).fold(0.0, f64::max);
        assert!(r <= 16.0 * m as f64 * U * scale.max(1.0), "m={m}: residual {r:e}");
    }
}

#[test]
fn pivoting_hard_matrices_need_and_get_row_swaps() {
    // Zero on the diagonal: [[0, 1], [1, 0]] factors only with a swap.
    let (f, perm) = run(vec![0.0, 1.0, 1.0, 0.0], 2).unwrap();
    assert_eq!(perm, vec![1, 0]);
    assert_eq!(f, vec![1.0, 0.0, 0.0, 1.0]);
    // A matrix whose every step pivots on the last row (reverse identity plus a small ramp).
    let m = 9;
    let mut a = vec![0.0; m * m];
    for i in 0..m {
        a[i * m + (m - 1 - i)] = 1.0 + i as f64;
        a[i * m + i] += 1e-3;
    }
    let (f, perm) = run(a.clone(), m).unwrap();
    assert!(perm != (0..m).collect::<Vec<_>>(), "swaps happened");
    assert!(backward_error(&a, &f, &perm, m) <= 8.0 * m as f64 * U);
}

#[test]
fn singular_and_non_finite_inputs_are_typed_errors() {
    // Column 2 is a combination of columns 0 and 1: no pivot in column 2 after two steps.
    let a = vec![1.0, 2.0, 3.0, 4.0, 5.0, 9.0, 7.0, 8.0, 15.0];
    match run(a, 3) {
        Err(GpuError::Singular { column: 2 }) => {}
        other => panic!("expected singular at column 2, got {:?}", other.map(|_| ())),
    }
    match run(vec![0.0; 16], 4) {
        Err(e @ GpuError::Singular { column: 0 }) => assert!(e.to_string().contains("column 0")),
        other => panic!("expected singular at column 0, got {:?}", other.map(|_| ())),
    }
    let mut a = random::uniform(5, 5, -1.0, 1.0, 3);
    a[7] = f64::NAN;
    assert!(matches!(run(a, 5), Err(GpuError::NonFinite { row: 1, col: 2, .. })));
}

#[test]
fn fragment_counts_of_normalization_and_elimination() {
    for m in [2u64, 5, 16, 33] {
        let log = with_gpu(move |gpu| {
            let a: Vec<f32> = random::uniform(m as usize, m as usize, -1.0, 1.0, 4).iter().map(|&v| v as f32).collect();
            let (r, log) = gpu.logged(Measure::FRAGMENTS, |gpu| lu::factor(gpu, &a, m as usize).map(|_| ()));
            r.unwrap();
            log
        });
        assert_eq!(log.fragments_of("normalize"), (m - 1) * m / 2, "m={m}");
        assert_eq!(log.fragments_of("elimination"), (m - 1) * m * (2 * m - 1) / 6, "m={m}");
        assert_eq!(log.count_of("elimination"), m - 1);
        assert_eq!(log.fragments_of("pivot_gather"), m * (m + 1) / 2);
    }
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
