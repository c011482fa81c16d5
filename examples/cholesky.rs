//! Cholesky factorization of a symmetric positive definite nalgebra matrix on the GL pipeline,
//! checked against nalgebra's double-precision factorization.
//!
//! `cargo run --release --example cholesky`
use glsolve::{Cholesky, Gpu};
use nalgebra::{DMatrix, DVector};

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let m = 64;
    // C = B·Bᵀ/m + I: symmetric positive definite and well conditioned.
    let b = DMatrix::from_fn(m, m, |i, j| ((i * 7 + j * 13) % 17) as f64 / 17.0 - 0.5);
    let c = &b * b.transpose() / m as f64 + DMatrix::identity(m, m);
    let gpu = Gpu::headless()?;
    println!("GL: {}", gpu.info().renderer);
    let chol = Cholesky::new(&gpu, &c)?;
    let l = chol.l();
    let backward = (&c - l * l.transpose()).norm() / c.norm();
    println!("m = {m}: ‖C − L·Lᵀ‖/‖C‖ = {backward:.2e} (single-precision factor)");
    assert!(backward < 1e-5, "single precision gives ≈1e-7");

    let x_true = DVector::from_fn(m, |i, _| 1.0 + i as f64 / m as f64);
    let x = chol.solve(&(&c * &x_true))?;
    let reference = c.clone().cholesky().ok_or("nalgebra: not SPD")?;
    let l_err = (l - reference.l()).norm() / reference.l().norm();
    let x_err = (&x - &x_true).norm() / x_true.norm();
    println!("relative error of L against nalgebra (f64): {l_err:.2e}; of the solve: {x_err:.2e}");
    assert!(l_err < 1e-5 && x_err < 1e-5);
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    run()
}

#[test]
fn example_cholesky_runs() {
    run().expect("the example runs");
}
