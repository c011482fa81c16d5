//! A dense general system A·x = b: single-precision LU on the GL pipeline, refined to double
//! precision, checked against nalgebra's LU.
//!
//! `cargo run --release --example linsolve`
use glsolve::{linsolve, Gpu};
use nalgebra::{DMatrix, DVector};

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let n = 100;
    // A diagonally weighted, non-symmetric matrix (pivoting happens: the diagonal is not the
    // largest entry of every column).
    let a =
        DMatrix::from_fn(n, n, |i, j| ((i * 31 + j * 17) % 23) as f64 / 23.0 - 0.5 + if i == j { 2.0 } else { 0.0 });
    let x_true = DVector::from_fn(n, |i, _| (i as f64 * 0.1).cos());
    let b = &a * &x_true;

    let gpu = Gpu::headless()?;
    let s = linsolve(&gpu, &a, &b)?;
    let err = (&s.x - &x_true).amax();
    println!(
        "n = {n}: {:?}, {} refinement steps, LINPACK criterion {:.3}, max error {err:.2e}",
        s.method, s.iterations, s.criterion
    );
    let reference = a.clone().lu().solve(&b).ok_or("nalgebra: singular")?;
    println!("max difference to nalgebra's LU: {:.2e}", (&s.x - &reference).amax());
    assert!(s.criterion <= 16.0 && err < 1e-10);
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    run()
}

#[test]
fn example_linsolve_runs() {
    run().expect("the example runs");
}
