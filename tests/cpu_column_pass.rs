//! The column pass under the cpu backend's fused products (`cpu::column_pass`): every kernel
//! this CPU runs against f64 loops written out here, on row counts around the 4-, 8- and
//! 16-wide loop edges, column counts around the four-column groups, a column offset, and
//! strided columns (a transposed view); the same for the A·x half alone (`column_axpy`), with
//! multipliers that are zero in whole groups of four and singly.

mod common;

use common::matrices::entries;
use faer::MatRef;
use glsolve::cpu::column_pass::{column_axpy_with, column_pass_with, PassOutput, PassShapeError};
use glsolve::cpu::syrk::Isa;

/// Unit roundoff of f64.
const U: f64 = f64::EPSILON / 2.0;

fn kernels() -> Vec<Isa> {
    [Isa::Avx512, Isa::Avx2, Isa::Portable].into_iter().filter(|i| i.runs_here()).collect()
}

/// |got − want| ≤ γ_{k+1}·Σ|terms| + tiny, entry by entry (Higham, Thm 3.1, any summation order).
fn assert_within(what: &str, got: &[f64], want: &[f64], abs: &[f64], k: usize) {
    let gamma = (k + 1) as f64 * U / (1.0 - (k + 1) as f64 * U);
    for (i, ((g, w), s)) in got.iter().zip(want).zip(abs).enumerate() {
        let tol = 2.0 * gamma * s + 1e-300;
        assert!((g - w).abs() <= tol, "{what}[{i}]: {g} vs {w} (tolerance {tol:.2e})");
    }
}

/// u, v = θ∘u − t and acc₀ + A·v by loops, with the sums of absolute terms.
#[allow(clippy::type_complexity)]
fn reference(a: MatRef<'_, f64>, y: &[f64], j0: usize, cols: usize, acc0: &[f64]) -> [Vec<f64>; 5] {
    let m = a.nrows();
    let (mut u, mut ua, mut v) = (vec![0.0; cols], vec![0.0; cols], vec![0.0; cols]);
    let (mut acc, mut acca) = (acc0.to_vec(), acc0.iter().map(|x| x.abs()).collect::<Vec<_>>());
    for k in 0..cols {
        let j = j0 + k;
        for i in 0..m {
            u[k] += a[(i, j)] * y[i];
            ua[k] += (a[(i, j)] * y[i]).abs();
        }
        v[k] = map(j, u[k]);
        for i in 0..m {
            acc[i] += v[k] * a[(i, j)];
            acca[i] += (v[k] * a[(i, j)]).abs();
        }
    }
    [u, ua, v, acc, acca]
}

/// The map of the interior-point operator: θⱼ·uⱼ − tⱼ with made-up θ and t.
fn map(j: usize, u: f64) -> f64 {
    (0.5 + (j % 5) as f64) * u - 0.125 * (j % 3) as f64
}

#[test]
fn every_kernel_matches_the_loops_on_every_edge() {
    for isa in kernels() {
        for m in [1, 3, 4, 7, 8, 9, 15, 16, 17, 24, 31, 33, 257] {
            for (j0, cols) in [(0, 1), (0, 3), (0, 4), (0, 5), (2, 9), (1, 16)] {
                let a = entries(m, j0 + cols + 1, (m * 31 + cols) as u64);
                let y = entries(m, 1, 7).col(0).iter().copied().collect::<Vec<_>>();
                let acc0: Vec<f64> = (0..m).map(|i| 0.25 * i as f64).collect();
                let [u, ua, v, acc, acca] = reference(a.as_ref(), &y, j0, cols, &acc0);
                // The same matrix stored by rows: its columns are strided.
                let by_rows = a.transpose().to_owned();
                for (view, a) in [("columns", a.as_ref()), ("strided", by_rows.transpose())] {
                    let (mut gu, mut gv, mut gacc) = (vec![0.0; cols], vec![0.0; cols], acc0.clone());
                    let out = PassOutput { u: &mut gu, v: &mut gv, acc: &mut gacc };
                    column_pass_with(isa, a, &y, j0, out, &map).expect("shapes fit");
                    let what = format!("{isa:?} {view} m {m} j0 {j0} cols {cols}");
                    assert_within(&format!("{what} u"), &gu, &u, &ua, m);
                    // v is a function of u: its error is the map's slope times u's.
                    let va: Vec<f64> = ua.iter().enumerate().map(|(k, s)| 4.5 * s + map(j0 + k, 0.0).abs()).collect();
                    assert_within(&format!("{what} v"), &gv, &v, &va, m + 2);
                    // acc sums m·… terms with perturbed v: bound by the absolute sums of both.
                    let bound: Vec<f64> = acca.iter().map(|s| s * (1.0 + 4.5 * m as f64)).collect();
                    assert_within(&format!("{what} acc"), &gacc, &acc, &bound, cols + m + 2);
                }
            }
        }
    }
}

#[test]
fn a_strided_matrix_takes_the_column_by_column_path() {
    // Rows of a column-major matrix, seen as columns, are strided: the pass must still be right.
    let a = entries(6, 5, 3);
    let at = a.transpose(); // 5×6, columns with stride 6
    let y: Vec<f64> = (0..5).map(|i| 1.0 + i as f64).collect();
    let (mut u, mut v, mut acc) = (vec![0.0; 6], vec![0.0; 6], vec![0.0; 5]);
    column_pass_with(Isa::detect(), at, &y, 0, PassOutput { u: &mut u, v: &mut v, acc: &mut acc }, &|_, x| 2.0 * x)
        .expect("shapes fit");
    for j in 0..6 {
        let want: f64 = (0..5).map(|i| at[(i, j)] * y[i]).sum();
        assert!((u[j] - want).abs() <= 1e-14 * (1.0 + want.abs()), "u[{j}]");
        assert_eq!(v[j], 2.0 * u[j]);
    }
    for i in 0..5 {
        let want: f64 = (0..6).map(|j| v[j] * at[(i, j)]).sum();
        assert!((acc[i] - want).abs() <= 1e-13 * (1.0 + want.abs()), "acc[{i}]");
    }
}

#[test]
fn operands_that_do_not_fit_are_typed_errors_and_nothing_is_written() {
    let a = entries(4, 3, 1);
    let id = |_: usize, x: f64| x;
    let run = |y: &[f64], j0: usize, cols: usize, vlen: usize, alen: usize| {
        let (mut u, mut v, mut acc) = (vec![7.0; cols], vec![7.0; vlen], vec![7.0; alen]);
        let r =
            column_pass_with(Isa::detect(), a.as_ref(), y, j0, PassOutput { u: &mut u, v: &mut v, acc: &mut acc }, &id);
        assert!(u.iter().chain(&v).chain(&acc).all(|&x| x == 7.0), "written despite {r:?}");
        r
    };
    assert_eq!(run(&[1.0; 4], 2, 2, 2, 4), Err(PassShapeError::Columns { end: 4, ncols: 3 }));
    assert_eq!(run(&[1.0; 4], usize::MAX, 2, 2, 4), Err(PassShapeError::Columns { end: usize::MAX, ncols: 3 }));
    assert_eq!(run(&[1.0; 3], 0, 2, 2, 4), Err(PassShapeError::Length { what: "y", expected: 4, got: 3 }));
    assert_eq!(run(&[1.0; 4], 0, 2, 2, 5), Err(PassShapeError::Length { what: "acc", expected: 4, got: 5 }));
    assert_eq!(run(&[1.0; 4], 0, 2, 1, 4), Err(PassShapeError::Length { what: "v", expected: 2, got: 1 }));
}

#[test]
fn the_axpy_half_matches_the_loops_and_skips_only_zero_multipliers() {
    for isa in kernels() {
        for m in [1, 3, 8, 9, 17, 33, 257] {
            for (j0, cols) in [(0, 1), (0, 4), (0, 5), (2, 9), (1, 16), (3, 13)] {
                let a = entries(m, j0 + cols + 1, (m * 17 + cols) as u64);
                // Zeros in the first group of four, and one zero inside a later group.
                let x: Vec<f64> = (0..cols)
                    .map(|k| if (k < 4 && cols > 4) || k == 6 { 0.0 } else { 0.5 + (k % 3) as f64 - 0.25 * k as f64 })
                    .collect();
                let acc0: Vec<f64> = (0..m).map(|i| 1.0 - 0.5 * i as f64).collect();
                let (mut want, mut abs) = (acc0.clone(), acc0.iter().map(|v| v.abs()).collect::<Vec<_>>());
                for (k, &xk) in x.iter().enumerate() {
                    for i in 0..m {
                        want[i] += xk * a[(i, j0 + k)];
                        abs[i] += (xk * a[(i, j0 + k)]).abs();
                    }
                }
                let by_rows = a.transpose().to_owned();
                for (view, a) in [("columns", a.as_ref()), ("strided", by_rows.transpose())] {
                    let mut acc = acc0.clone();
                    column_axpy_with(isa, a, &x, j0, &mut acc).expect("shapes fit");
                    assert_within(&format!("{isa:?} {view} m {m} j0 {j0} cols {cols}"), &acc, &want, &abs, cols + 1);
                }
            }
        }
    }
    // All multipliers zero: the accumulator is left exactly as it was, NaN columns or not.
    let mut a = entries(5, 8, 2);
    a[(2, 3)] = f64::NAN;
    let mut acc = vec![1.5; 5];
    column_axpy_with(Isa::detect(), a.as_ref(), &[0.0; 8], 0, &mut acc).expect("shapes fit");
    assert_eq!(acc, vec![1.5; 5]);
}

#[test]
fn the_axpy_half_reports_operands_that_do_not_fit() {
    let a = entries(4, 3, 1);
    let mut acc = vec![7.0; 4];
    assert_eq!(
        column_axpy_with(Isa::detect(), a.as_ref(), &[1.0; 2], 2, &mut acc),
        Err(PassShapeError::Columns { end: 4, ncols: 3 })
    );
    let mut short = vec![7.0; 3];
    assert_eq!(
        column_axpy_with(Isa::detect(), a.as_ref(), &[1.0; 2], 0, &mut short),
        Err(PassShapeError::Length { what: "acc", expected: 4, got: 3 })
    );
    assert!(acc.iter().chain(&short).all(|&v| v == 7.0), "written despite the error");
}

#[test]
fn a_second_map_is_the_same_pass_again_and_its_operands_are_checked() {
    use glsolve::cpu::column_pass::{column_pass_pair, SecondMap};
    let g = |j: usize, u: f64| 0.25 * u + j as f64;
    for (m, n) in [(1, 1), (5, 7), (33, 9), (17, 16)] {
        let a = entries(m, n, 3);
        let y: Vec<f64> = (0..m).map(|i| 1.0 - i as f64 / 7.0).collect();
        let (mut u, mut v, mut acc, mut v2, mut acc2) =
            (vec![0.0; n], vec![0.0; n], vec![0.0; m], vec![0.0; n], vec![0.0; m]);
        let out = PassOutput { u: &mut u, v: &mut v, acc: &mut acc };
        column_pass_pair(a.as_ref(), &y, 0, out, &map, SecondMap { f: &g, v: &mut v2, acc: &mut acc2 }).unwrap();
        // Each half bit for bit a pass of its own with this CPU's kernel.
        for (f, want_v, want_acc) in [(&map as &(dyn Fn(usize, f64) -> f64 + Sync), &v, &acc), (&g, &v2, &acc2)] {
            let (mut u1, mut v1, mut acc1) = (vec![0.0; n], vec![0.0; n], vec![0.0; m]);
            let out = PassOutput { u: &mut u1, v: &mut v1, acc: &mut acc1 };
            column_pass_with(Isa::detect(), a.as_ref(), &y, 0, out, f).unwrap();
            assert_eq!((&u1, &v1, &acc1), (&u, want_v, want_acc), "{m}×{n}");
        }
    }
    let a = entries(4, 3, 1);
    let run = |v2len: usize, acc2len: usize| {
        let (mut u, mut v, mut acc, mut v2, mut acc2) =
            (vec![7.0; 3], vec![7.0; 3], vec![7.0; 4], vec![7.0; v2len], vec![7.0; acc2len]);
        let out = PassOutput { u: &mut u, v: &mut v, acc: &mut acc };
        let r = column_pass_pair(a.as_ref(), &[1.0; 4], 0, out, &g, SecondMap { f: &g, v: &mut v2, acc: &mut acc2 });
        assert!(u.iter().chain(&v).chain(&acc).chain(&v2).chain(&acc2).all(|&x| x == 7.0), "written despite {r:?}");
        r
    };
    assert_eq!(run(2, 4), Err(PassShapeError::Length { what: "second v", expected: 3, got: 2 }));
    assert_eq!(run(3, 5), Err(PassShapeError::Length { what: "second acc", expected: 4, got: 5 }));
}
