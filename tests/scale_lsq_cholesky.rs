//! Every scale-back of least squares and Cholesky: unknowns far from the data's scale (1e±30)
//! and columns spread over 1e±20, solved by `least_squares` (nalgebra layout), `lsq::solve`
//! (the papers' layout) in packed and full storage, refined (`Mixed`) or by the
//! double-precision fallback (`DoubleFallback`), and by `Cholesky` of every variant; on desktop
//! GL and again on OpenGL ES.
//!
//! As in tests/scale_linsolve.rs, each problem is made from one of order one by diagonal
//! powers of ten (C for the columns, s for the unknowns), the reference y is computed here in
//! f64 by nalgebra (QR for least squares, Cholesky for C·x = b), and x is compared in y's units.

mod common;
use common::with_gpu;
use glsolve::gpu::cholesky::Variant;
use glsolve::layout::Format;
use glsolve::lsq::{self, LsqSettings, Method};
use glsolve::{least_squares_with, Cholesky, CholeskyOptions};
use nalgebra::{DMatrix, DVector};

/// 10^(hi … lo) spread evenly over n entries.
fn spread(n: usize, lo: f64, hi: f64) -> Vec<f64> {
    (0..n).map(|i| 10f64.powf(if n == 1 { hi } else { hi + (lo - hi) * i as f64 / (n as f64 - 1.0) })).collect()
}

fn uniform(rows: usize, cols: usize, seed: u64) -> DMatrix<f64> {
    let mut rng = common::Rng::new(seed);
    DMatrix::from_fn(rows, cols, |_, _| f64::from(rng.f32()))
}

/// κ₂ of a symmetric positive definite matrix (nalgebra's f64 eigenvalues).
fn kappa_spd(c: &DMatrix<f64>) -> f64 {
    let e = c.clone().symmetric_eigenvalues();
    e.max() / e.min()
}

/// A weighted least-squares problem far from the unit scale: A = A₀·C (columns 1e20 … 1e−20),
/// b = (A₀·y₀ + a residual)·s, weights of sizes 1e−2 … 1e2 times `w_scale`.
struct Fit {
    a: DMatrix<f64>,
    b: DVector<f64>,
    w: DVector<f64>,
    c: Vec<f64>,
    s: f64,
    /// The f64 reference in y's units (nalgebra's QR of W·A₀), and κ₂(A₀ᵀW²A₀).
    y: DVector<f64>,
    kappa: f64,
}

fn fit(a0: DMatrix<f64>, s: f64, w_scale: f64, seed: u64) -> Fit {
    let (obs, m) = a0.shape();
    let c = spread(m, -20.0, 20.0);
    let y0 = DVector::from_fn(m, |j, _| 1.0 + j as f64 / 2.0);
    let noise = uniform(obs, 1, seed).column(0) * 0.01;
    let b0 = &a0 * &y0 + noise;
    let w = DVector::from_vec(spread(obs, -2.0, 2.0)) * w_scale;
    let a = DMatrix::from_fn(obs, m, |i, j| a0[(i, j)] * c[j]);
    let b = &b0 * s;
    // The reference solves min ‖W·(b/s − A₀·y)‖₂ by QR, with W relative to its largest entry.
    let wr = &w / w.amax();
    let wa = DMatrix::from_fn(obs, m, |i, j| wr[i] * a0[(i, j)]);
    let wb = DVector::from_fn(obs, |i, _| wr[i] * b[i] / s);
    let qr = wa.clone().qr();
    let y = qr.r().solve_upper_triangular(&(qr.q().transpose() * wb)).expect("full rank");
    Fit { kappa: kappa_spd(&(wa.transpose() * &wa)), a, b, w, c, s, y }
}

/// ‖C·x/s − y‖₂ / ‖y‖₂.
fn error(f: &Fit, x: &[f64]) -> f64 {
    let d = DVector::from_fn(x.len(), |j, _| x[j] * f.c[j] / f.s - f.y[j]);
    d.norm() / f.y.norm()
}

/// Solves `f` with both entry points and both storage formats: the method must be `refined` (or
/// the fallback), x within `tol` of the reference in y's units.
fn check_fit(what: &str, f: &Fit, refined: bool, tol: f64) {
    let (obs, m) = f.a.shape();
    let method_ok = |me: &Method| if refined { *me == Method::Mixed } else { matches!(me, Method::DoubleFallback(_)) };
    for format in [Format::Packed, Format::Full] {
        let st = LsqSettings { format, ..LsqSettings::default() };
        let (a, b, w, st2) = (f.a.clone(), f.b.clone(), f.w.clone(), st.clone());
        let s = with_gpu(move |g| least_squares_with(g, &a, &b, Some(&w), &st2))
            .unwrap_or_else(|e| panic!("{what}, {format:?}: {e}"));
        let err = error(f, s.x.as_slice());
        println!(
            "{what}, least_squares {format:?}: {:?}, {} steps, error {err:.1e} (allowed {tol:.1e})",
            s.method, s.iterations
        );
        assert!(method_ok(&s.method), "{what}, least_squares {format:?}: method {:?}", s.method);
        assert!(err <= tol, "{what}, least_squares {format:?}: error {err:e} > {tol:e}: x = {}", s.x);
        // The papers' layout: A transposed (one row per unknown, row-major), d² = w².
        let (a_t, b, d2) = (f.a.as_slice().to_vec(), f.b.as_slice().to_vec(), f.w.map(|v| v * v).as_slice().to_vec());
        let s = with_gpu(move |g| lsq::solve(g, &a_t, m, obs, &d2, &b, &st))
            .unwrap_or_else(|e| panic!("{what}, lsq::solve {format:?}: {e}"));
        let err = error(f, &s.x);
        assert!(method_ok(&s.method), "{what}, lsq::solve {format:?}: method {:?}", s.method);
        assert!(err <= tol, "{what}, lsq::solve {format:?}: error {err:e} > {tol:e}: x = {:?}", s.x);
    }
}

#[test]
fn least_squares_with_unknowns_at_1e30_and_columns_twenty_orders_apart_is_refined() {
    // Algorithm 1 stops at ‖r‖₂/‖x‖₂ ≤ 1e−8 on the scaled normal equations, whose diagonal is
    // within [¼, 4] of 1 and whose condition is within 16× κ₂ = κ₂(A₀ᵀW²A₀): x̂ is within
    // 4·16·κ₂·1e−8 of the solution, and y's units are within 2 of x̂'s per unknown.
    for (obs, m, seed) in [(11usize, 3usize, 1u64), (40, 7, 2)] {
        for (s, w_scale) in [(1e30, 1.0), (1e-30, 1e100), (1e30, 1e-100)] {
            let f = fit(uniform(obs, m, seed), s, w_scale, seed);
            let tol = 2.0 * 4.0 * 16.0 * f.kappa * 1e-8;
            check_fit(&format!("{obs}×{m}, s = {s:e}, w × {w_scale:e}, κ₂ = {:.1e}", f.kappa), &f, true, tol);
        }
    }
}

#[test]
fn the_least_squares_fallback_scales_back_too() {
    // The last column of A₀ is the sum of two others plus 1e−4 of noise: κ₂(A₀ᵀW²A₀) ≈ 1e11, the
    // single-precision factorization breaks down (or its pivot falls below 1/16384 of its
    // diagonal entry), and the f64 normal equations answer, within 64·m·ε·κ₂ of the reference.
    let (obs, m) = (13usize, 4usize);
    let mut a0 = uniform(obs, m, 7);
    let noise = uniform(obs, 1, 8).column(0) * 1e-4;
    let dependent = a0.column(0) + a0.column(1) + noise;
    a0.set_column(m - 1, &dependent);
    for s in [1e30, 1e-30] {
        let f = fit(a0.clone(), s, 1.0, 9);
        let tol = 64.0 * m as f64 * f64::EPSILON * f.kappa;
        check_fit(&format!("nearly dependent, s = {s:e}, κ₂ = {:.1e}", f.kappa), &f, false, tol);
    }
}

#[test]
fn cholesky_solves_with_unknowns_at_1e30_and_a_diagonal_twenty_orders_apart() {
    // C = D·C₀·D (D from 1e20 to 1e−20), x = s·D⁻¹·y₀: b = D·C₀·y₀·s. The factor is single
    // precision, unrefined: in y's units x errs by at most 8·m·u₃₂·κ₂(C₀)·4 (the powers of two
    // bring C within 2 of C₀'s condition).
    let u32 = f64::from(f32::EPSILON) / 2.0;
    for (m, seed) in [(5usize, 1u64), (17, 2)] {
        let g = uniform(m, m, seed);
        let c0 = &g * g.transpose() + DMatrix::identity(m, m) * m as f64;
        let kappa = kappa_spd(&c0);
        let d = spread(m, -20.0, 20.0);
        let c = DMatrix::from_fn(m, m, |i, j| d[i] * c0[(i, j)] * d[j]);
        let y0 = DVector::from_fn(m, |i, _| if i % 2 == 0 { 1.0 + i as f64 } else { -0.5 });
        let b0 = &c0 * &y0;
        let tol = 8.0 * m as f64 * u32 * kappa * 4.0;
        let options: Vec<CholeskyOptions> = Variant::all()
            .map(|variant| CholeskyOptions { variant, format: Format::Full })
            .chain([CholeskyOptions { variant: Variant::PAPER, format: Format::Packed }])
            .collect();
        for s in [1e30, 1e-30] {
            let b = DVector::from_fn(m, |i, _| d[i] * b0[i] * s);
            let back = DVector::from_fn(m, |i, _| b[i] / d[i] / s);
            let y = c0.clone().cholesky().expect("SPD").solve(&back);
            for o in &options {
                let (c, b, o) = (c.clone(), b.clone(), *o);
                let x = with_gpu(move |gpu| Cholesky::with_options(gpu, &c, o).and_then(|f| f.solve(&b)))
                    .unwrap_or_else(|e| panic!("m = {m}, s = {s:e}, {o:?}: {e}"));
                let err = (0..m).map(|i| (x[i] * d[i] / s - y[i]).abs()).fold(0.0, f64::max) / y.amax();
                assert!(err <= tol, "m = {m}, s = {s:e}, {} {:?}: error {err:e} > {tol:e}", o.variant, o.format);
            }
        }
    }
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
