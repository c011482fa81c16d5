//! `glsolve cholesky`: factor a random SPD matrix on the GPU and check it against faer.
use clap::Args;
use glsolve::cpu::{dense, random};
use glsolve::gl::Measure;
use glsolve::gpu::cholesky;
use glsolve::layout::Format;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct CholeskyArgs {
    /// Order of the matrix.
    #[arg(long, default_value_t = 512)]
    m: usize,
    /// The Cholesky variant.
    #[arg(long, default_value = "triangle-pair")]
    #[arg(value_parser = super::named::named::<glsolve::gpu::cholesky::Variant>())]
    variant: glsolve::gpu::cholesky::Variant,
    /// Condition number of the test matrix (default: B·Bᵀ/m + I, well conditioned).
    #[arg(long)]
    cond: Option<f64>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Store the matrix in the rectangular packed format (paper's variant only).
    #[arg(long)]
    packed: bool,
}

pub fn run(a: &CholeskyArgs) -> ExitCode {
    let variant = a.variant;
    let gpu = match super::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    let m = a.m;
    if m == 0 {
        return super::fail("--m must be at least 1");
    }
    let c = match a.cond {
        Some(k) => random::spd_with_condition(m, k, a.seed),
        None => random::spd_well_conditioned(m, a.seed),
    };
    let c32: Vec<f32> = c.iter().map(|&x| x as f32).collect();
    let t = Instant::now();
    let format = if a.packed { Format::Packed } else { Format::Full };
    let (f, log) = gpu.logged(Measure::FRAGMENTS, |gpu| cholesky::factor_with(gpu, &c32, m, variant, format));
    let f = match f {
        Ok(f) => f,
        Err(e) => return super::fail(e),
    };
    let elapsed = t.elapsed();
    let l: Vec<f64> = match cholesky::read_lower(&gpu, &f) {
        Ok(l) => l.into_iter().map(f64::from).collect(),
        Err(e) => return super::fail(e),
    };
    println!("renderer: {}", gpu.info().renderer);
    println!(
        "Cholesky {variant} ({} format), m = {m}: {:.3} s (with fragment counting), {} passes, {} fragments",
        format.name(),
        elapsed.as_secs_f64(),
        log.passes(),
        log.fragments()
    );
    for (name, t) in log.by_name() {
        println!("  {name:<14} {:>6} passes {:>12} fragments", t.passes, t.fragments);
    }
    match dense::cholesky_lower(&c, m) {
        Some(reference) => {
            println!(
                "relative Frobenius error of L against faer f64: {:.2e}",
                dense::relative_frobenius(&l, &reference)
            );
            println!("backward error ‖C − LLᵀ‖/‖C‖: {:.2e}", dense::cholesky_backward_error(&c, &l, m));
        }
        None => println!("faer finds the matrix not positive definite in double precision"),
    }
    ExitCode::SUCCESS
}
