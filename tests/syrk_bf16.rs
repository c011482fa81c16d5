//! The weighted symmetric rank-n update in `Precision::Bf16Pair` (bf16 pairs on AMX tiles where
//! this process may use them, the single-precision kernel elsewhere): against f64 sums with
//! the error bound of the split, on sizes around the 16-row tile groups, the 32×32 blocks and
//! the k chunks; adding, negative weights, strided columns, NaN weights, an infinite entry, and
//! products run inside a busy rayon pool.

mod common;

use common::matrices::{entries, weighted_gram_sums};
use faer::{Accum, Mat, MatRef};
use glsolve::cpu::gram::{amx_available, gram_lower, Precision, AMX_KC};
use glsolve::cpu::paths::CpuPaths;

/// Σⱼ a_ij·w_j·a_kj for i ≥ k and the bound on its error in bf16 pairs, times Σⱼ |a_ij·w_j·a_kj|:
/// each entry s = a·√|w| is f32(s) split into hi + lo with |s − hi − lo| ≤ (2⁻¹⁶ + 2⁻²⁴)|s|,
/// and lo·loᵀ (≤ 2⁻¹⁶ of the product) is left out, so each product is off by at most
/// 3.1·2⁻¹⁶ of itself; the three products of a chunk of AMX_KC values of k are summed in f32
/// (γ^{(32)}_{3·AMX_KC+2}), the chunks in f64 (γ_{n+1}). The single-precision fallback is
/// inside the same bound.
fn reference(a: MatRef<'_, f64>, w: &[f64]) -> (Mat<f64>, Mat<f64>) {
    let (m, n) = (a.nrows(), a.ncols());
    let gamma = gamma(n);
    let (c, abs) = weighted_gram_sums(a, w);
    (c, Mat::from_fn(m, m, |i, k| gamma * abs[(i, k)]))
}

/// The bound's factor for n values of k.
fn gamma(n: usize) -> f64 {
    let g = |k: f64, u: f64| k * u / (1.0 - k * u);
    3.1 * 2f64.powi(-16) + g(3.0 * AMX_KC as f64 + 2.0, 2f64.powi(-24)) + g(n as f64 + 1.0, f64::EPSILON / 2.0)
}

/// Weights of both signs, zeros (skipped) and a spread of magnitudes.
fn weights(n: usize) -> Vec<f64> {
    (0..n)
        .map(|j| match j % 5 {
            1 => 0.0,
            3 => -0.5,
            k => (k as f64 + 0.5) * 10f64.powi((j % 7) as i32 - 3),
        })
        .collect()
}

fn product(a: MatRef<'_, f64>, w: &[f64], c: faer::MatMut<'_, f64>, accum: Accum, threads: usize) {
    gram_lower(&CpuPaths::default(), Precision::Bf16Pair, a, w, c, accum, threads).expect("shapes fit");
}

/// The largest error of `c`'s lower triangle against `want` relative to `bound`, and checks
/// that nothing else of `big` (C at offset (1, 1)) was written.
fn check(big: &Mat<f64>, want: &Mat<f64>, bound: &Mat<f64>, what: &str) -> f64 {
    let m = want.nrows();
    let mut worst: f64 = 0.0;
    for j in 0..big.ncols() {
        for i in 0..big.nrows() {
            let v = big[(i, j)];
            if !((1..=m).contains(&i) && (1..=m).contains(&j) && i >= j) {
                assert!(v.is_nan(), "{what}: wrote outside the lower triangle at ({i},{j})");
                continue;
            }
            let (ii, jj) = (i - 1, j - 1);
            let err = (v - want[(ii, jj)]).abs();
            assert!(
                err <= bound[(ii, jj)],
                "{what}: C[{ii},{jj}] = {v:e}, sum {:e}, error {err:e} > bound {:e}",
                want[(ii, jj)],
                bound[(ii, jj)]
            );
            if bound[(ii, jj)] > 0.0 {
                worst = worst.max(err / bound[(ii, jj)]);
            }
        }
    }
    worst
}

#[test]
fn bf16_pair_products_match_the_sums_around_every_tile_block_and_chunk_edge() {
    // m = 129 and 200 are large enough to be split between threads (m²·k/2 ≥ 2·10⁶ for the k
    // columns of positive weight; m = 200 also for the negative ones).
    let sizes_m = [1, 2, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 100, 129, 200];
    let sizes_n = [1, 3, 31, 33, AMX_KC - 1, AMX_KC, AMX_KC + 1, 2 * AMX_KC + 5];
    for (t, &m) in sizes_m.iter().enumerate() {
        let n = sizes_n[t % sizes_n.len()];
        let a = entries(m, n, (m * 7919 + n) as u64);
        let w = weights(n);
        let (want, bound) = reference(a.as_ref(), &w);
        let mut last = None;
        for threads in [1, 2, 3] {
            let mut big = Mat::from_fn(m + 3, m + 2, |_, _| f64::NAN);
            product(a.as_ref(), &w, big.as_mut().submatrix_mut(1, 1, m, m), Accum::Replace, threads);
            check(&big, &want, &bound, &format!("m={m} n={n} threads={threads}"));
            // Every thread count gives the same bits (each entry summed by one thread in a fixed
            // order).
            let lower: Vec<u64> =
                (0..m).flat_map(|j| (j..m).map(move |i| (i, j))).map(|(i, j)| big[(i + 1, j + 1)].to_bits()).collect();
            if let Some(prev) = &last {
                assert!(lower == *prev, "m={m} n={n}: {threads} threads differ");
            }
            last = Some(lower);
        }
    }
}

#[test]
fn bf16_pairs_round_like_their_kernel_and_not_like_single_precision() {
    let (m, n) = (97, 2 * AMX_KC + 3);
    let a = entries(m, n, 5);
    let w = weights(n);
    let (want, bound) = reference(a.as_ref(), &w);
    let mut big = Mat::from_fn(m + 3, m + 2, |_, _| f64::NAN);
    product(a.as_ref(), &w, big.as_mut().submatrix_mut(1, 1, m, m), Accum::Replace, 2);
    let worst = check(&big, &want, &bound, "bf16 pairs");
    let mut single = Mat::zeros(m, m);
    gram_lower(&CpuPaths::default(), Precision::Single, a.as_ref(), &w, single.as_mut(), Accum::Replace, 2)
        .expect("shapes fit");
    let pairs = Mat::from_fn(m, m, |i, j| if i >= j { big[(i + 1, j + 1)] } else { 0.0 });
    if amx_available() {
        // The split keeps 16 bits: its largest error, relative to Σⱼ |a_ij·w_j·a_kj|, is above
        // 1e-6 (single precision's stays near 2⁻²⁴·√KC).
        assert!(pairs != single, "AMX is available but the single-precision kernel ran");
        let relative = worst * gamma(n);
        assert!(relative > 1e-6, "bf16 pairs rounded as little as {relative:e} of the absolute sums");
    } else {
        eprintln!("no AMX in this process: Precision::Bf16Pair ran the single-precision kernel");
        assert!(pairs == single, "without AMX the single-precision kernel runs");
    }
}

#[test]
fn bf16_pairs_add_subtract_and_read_strided_columns() {
    // Large enough for the positive weights' sweep to be split between threads.
    let (m, n) = (150, AMX_KC + 40);
    // A as the transpose of an n×m matrix: its columns have stride n.
    let at = entries(n, m, 11);
    let a = at.transpose();
    let w = weights(n);
    let (want, bound) = reference(a, &w);
    // Add onto C₀ = 3 on the lower triangle.
    let mut big =
        Mat::from_fn(
            m + 3,
            m + 2,
            |i, j| if (1..=m).contains(&i) && (1..=m).contains(&j) && i >= j { 3.0 } else { f64::NAN },
        );
    product(a, &w, big.as_mut().submatrix_mut(1, 1, m, m), Accum::Add, 2);
    let shifted = Mat::from_fn(m, m, |i, j| want[(i, j)] + 3.0);
    // C₀ + Σ adds one f64 rounding of the sum.
    let bound = Mat::from_fn(m, m, |i, j| bound[(i, j)] + f64::EPSILON * (3.0 + want[(i, j)].abs()));
    check(&big, &shifted, &bound, "add, strided");
    // Only negative weights: −|W| gives the negated product.
    let neg: Vec<f64> = w.iter().map(|v| -v.abs()).collect();
    let pos: Vec<f64> = w.iter().map(|v| v.abs()).collect();
    let (mut p, mut q) = (Mat::zeros(m, m), Mat::zeros(m, m));
    product(a, &pos, p.as_mut(), Accum::Replace, 2);
    product(a, &neg, q.as_mut(), Accum::Replace, 2);
    for j in 0..m {
        for i in j..m {
            assert_eq!(q[(i, j)], -p[(i, j)], "negative weights at ({i},{j})");
        }
    }
}

#[test]
fn a_nan_weight_reaches_the_entries_of_its_column() {
    let (m, n) = (40, 50);
    let a = entries(m, n, 3);
    let mut w = weights(n);
    w[7] = f64::NAN;
    let mut c = Mat::zeros(m, m);
    product(a.as_ref(), &w, c.as_mut(), Accum::Replace, 2);
    for j in 0..m {
        for i in j..m {
            assert!(c[(i, j)].is_nan(), "({i},{j}) = {} despite the NaN weight", c[(i, j)]);
        }
    }
}

#[test]
fn an_infinite_entry_gives_no_finite_value_in_its_row_and_column() {
    let (m, n) = (40, 50);
    let mut a = entries(m, n, 4);
    a[(9, 12)] = f64::INFINITY;
    let w = vec![1.0; n];
    let mut c = Mat::zeros(m, m);
    product(a.as_ref(), &w, c.as_mut(), Accum::Replace, 2);
    for j in 0..m {
        for i in j..m {
            let touched = i == 9 || j == 9;
            assert_eq!(c[(i, j)].is_finite(), !touched, "({i},{j}) = {}", c[(i, j)]);
            // On the tiles hi·lo = ∞·NaN: NaN, as documented (the f32 fallback may give ±∞).
            if touched && amx_available() {
                assert!(c[(i, j)].is_nan(), "({i},{j}) = {}", c[(i, j)]);
            }
        }
    }
}

#[test]
fn products_inside_a_busy_rayon_pool_each_get_their_own_buffers() {
    // Four ranges per product: each waits in a rayon scope, where its thread may pick up
    // another product of the outer loop. A stress test: a shared scratch held across that
    // wait failed it in 2 of 6 runs with 400 products (it panicked on the second borrow).
    use rayon::prelude::*;
    let (m, n) = (200, 300);
    let a = entries(m, n, 8);
    let w = weights(n);
    let mut want = Mat::zeros(m, m);
    product(a.as_ref(), &w, want.as_mut(), Accum::Replace, 1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().expect("a pool");
    pool.install(|| {
        (0..400).into_par_iter().for_each(|_| {
            let mut c = Mat::zeros(m, m);
            product(a.as_ref(), &w, c.as_mut(), Accum::Replace, 4);
            for j in 0..m {
                for i in j..m {
                    assert_eq!(c[(i, j)].to_bits(), want[(i, j)].to_bits(), "({i},{j})");
                }
            }
        })
    });
}

#[test]
fn amx_runs_only_where_the_process_may_use_it_and_the_paths_do_not_switch_it_off() {
    use common::paths::report;
    use glsolve::cpu::paths::Amx;
    let auto = CpuPaths::default();
    let off = CpuPaths { amx: Amx::Off, ..auto };
    let here = if amx_available() { Precision::Bf16Pair } else { Precision::Single };
    assert_eq!(Precision::reduced(&auto), here);
    assert_eq!(Precision::reduced(&off), Precision::Single);
    assert_eq!(Precision::reduced(&CpuPaths::PORTABLE), Precision::Single);
    // Asked for bf16 pairs with AMX switched off, the product is the single-precision one, bit
    // for bit: where AMX is available this runs the fallback that otherwise never runs there.
    let (m, n) = (70, AMX_KC + 9);
    let a = entries(m, n, 21);
    let w = weights(n);
    let (mut pairs, mut single) = (Mat::zeros(m, m), Mat::zeros(m, m));
    gram_lower(&off, Precision::Bf16Pair, a.as_ref(), &w, pairs.as_mut(), Accum::Replace, 2).expect("shapes fit");
    gram_lower(&off, Precision::Single, a.as_ref(), &w, single.as_mut(), Accum::Replace, 2).expect("shapes fit");
    assert!(pairs == single, "AMX switched off, yet bf16 pairs differ from single precision");
    report(if amx_available() {
        "AMX-BF16: ran (the tile kernel), and the f32 fallback with AMX switched off"
    } else {
        "AMX-BF16: this CPU or kernel cannot run it (ran the f32 fallback for bf16 pairs, auto and switched off)"
    });
}
