//! A polynomial least-squares fit: the design matrix has one row per observation and one column
//! per power of t; the weights are 1/σ. Solved on the GL pipeline with double-precision
//! refinement and compared with nalgebra's double-precision QR on the weighted problem.
//!
//! `cargo run --release --example polyfit`
use glsolve::{least_squares, Gpu};
use nalgebra::{DMatrix, DVector};

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let (samples, degree) = (50, 3);
    let t = DVector::from_fn(samples, |k, _| -1.0 + 2.0 * k as f64 / (samples - 1) as f64);
    // y = 1 − 2t + 0.5t² + 0.25t³ plus a small deterministic wiggle; σ grows with |t|.
    let y = t.map(|t| 1.0 - 2.0 * t + 0.5 * t * t + 0.25 * t * t * t + 1e-3 * (40.0 * t).sin());
    let sigma = t.map(|t| 0.01 * (1.0 + t.abs()));
    let a = DMatrix::from_fn(samples, degree + 1, |k, p| t[k].powi(p as i32));
    let w = sigma.map(|s| 1.0 / s);

    let gpu = Gpu::headless()?;
    let fit = least_squares(&gpu, &a, &y, Some(&w))?;
    println!("coefficients of 1, t, t², t³: {:.6?}", fit.x.as_slice());
    println!("method {:?}, {} refinement steps", fit.method, fit.iterations);

    // Reference: QR of the weighted design matrix, in double precision.
    let wa = DMatrix::from_fn(samples, degree + 1, |k, p| w[k] * a[(k, p)]);
    let wy = y.component_mul(&w);
    let qr = wa.qr();
    let reference = qr.r().solve_upper_triangular(&(qr.q().transpose() * wy)).ok_or("rank deficient")?;
    let err = (&fit.x - &reference).amax();
    println!("max difference to nalgebra's QR: {err:.2e}");
    assert!(err < 1e-8);
    assert!((fit.x[1] + 2.0).abs() < 1e-2, "the slope is recovered");
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    run()
}

#[test]
fn example_polyfit_runs() {
    run().expect("the example runs");
}
