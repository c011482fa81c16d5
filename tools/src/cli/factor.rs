//! `glsolve cholesky`: factor a random SPD matrix on the GPU, say its accuracy (the factor's
//! backward error in f64) and a refined solve's method, and check it against faer.
use super::answer::num;
use clap::Args;
use glsolve::cpu::rowmajor;
use glsolve::fixtures::random;
use glsolve::gl::Measure;
use glsolve::Format;
use glsolve::{Cholesky, CholeskyOptions, LinearMethod};
use nalgebra::{DMatrix, DVector};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct CholeskyArgs {
    /// Order of the matrix.
    #[arg(long, default_value_t = 512)]
    m: usize,
    /// The Cholesky variant.
    #[arg(long, default_value = "triangle-pair")]
    #[arg(value_parser = super::named::named::<glsolve::Variant>())]
    variant: glsolve::Variant,
    /// Condition number of the test matrix (default: B·Bᵀ/m + I, well conditioned).
    #[arg(long)]
    cond: Option<f64>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Store the matrix in the rectangular packed format (paper's variant only).
    #[arg(long)]
    packed: bool,
    /// Write the factorization's summary as JSON to this file (the factor's backward error, the
    /// refined solve's method, passes, fragments, times).
    #[arg(long, value_name = "OUT")]
    json: Option<std::path::PathBuf>,
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
    let c_na = DMatrix::from_row_slice(m, m, &c);
    let t = Instant::now();
    let format = if a.packed { Format::Packed } else { Format::Full };
    let options = CholeskyOptions { variant, format };
    let (f, log) = gpu.logged(Measure::FRAGMENTS, |gpu| Cholesky::with_options(gpu, &c_na, options));
    let f = match f {
        Ok(f) => f,
        Err(e) => return super::fail(e),
    };
    let elapsed = t.elapsed();
    let l: Vec<f64> = f.l().transpose().as_slice().to_vec();
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
    let t = Instant::now();
    let backward = f.backward_error();
    let check_s = t.elapsed().as_secs_f64();
    println!("backward error     ‖C − LLᵀ‖_F/‖C‖_F = {backward:.2e} in f64 ({check_s:.3} s; single precision keeps it a small multiple of m·u₃₂)");
    // C·x = C·1, refined to double precision on request.
    let ones = DVector::from_element(m, 1.0);
    let solved = f.solve_refined(&(&c_na * &ones));
    let solve = match &solved {
        Ok(s) => {
            let (method, reason) = match &s.method {
                LinearMethod::Mixed => ("Mixed", None),
                LinearMethod::DoubleFallback(why) => ("DoubleFallback", Some(why.clone())),
            };
            let err = (&s.x - &ones).amax();
            println!(
                "refined solve      {method}{}: {} steps, backward-error bound {:.3} (≤ {} asked), ‖x − 1‖∞ = {err:.2e}",
                reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default(),
                s.iterations,
                s.criterion,
                s.threshold
            );
            serde_json::json!({
                "method": method, "fallback_reason": reason, "refinement_steps": s.iterations,
                "backward_error": num(s.criterion), "threshold": num(s.threshold), "error_against_ones": num(err),
            })
        }
        Err(e) => {
            println!("refined solve      error: {e}");
            serde_json::json!({ "error": e.to_string() })
        }
    };
    let reference = rowmajor::cholesky_lower(&c, m);
    let l_error = reference.as_ref().map(|r| rowmajor::relative_frobenius(&l, r));
    match l_error {
        Some(e) => println!("relative Frobenius error of L against faer f64: {e:.2e}"),
        None => println!("faer finds the matrix not positive definite in double precision"),
    }
    if let Some(path) = &a.json {
        let report = serde_json::json!({
            "m": m,
            "variant": variant.to_string(),
            "format": format.name(),
            "method": "gpu single precision",
            "backward_error": num(backward),
            "l_error_against_f64": l_error.map(num),
            "refined_solve": solve,
            "passes": log.passes(),
            "fragments": log.fragments(),
            "time_seconds": { "factor": elapsed.as_secs_f64(), "check": check_s },
        });
        if let Err(e) = super::write_json(path, &report) {
            return super::fail(e);
        }
        println!("JSON written to   {}", path.display());
    }
    ExitCode::SUCCESS
}
