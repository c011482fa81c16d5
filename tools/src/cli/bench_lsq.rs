//! `glsolve bench lsq-accuracy`: least squares on designs of chosen condition number, both
//! backends, against an f64 QR reference (what the answer's check decides, and how far it is).
use super::report::report;
use clap::Args;
use glsolve_tools::bench;
use std::process::ExitCode;

#[derive(Args)]
pub struct LsqAccuracyArgs {
    /// Shapes rows×cols of the designs (observations × unknowns).
    #[arg(long, value_delimiter = ',', default_value = "61x13,300x40")]
    shapes: Vec<String>,
    /// Condition numbers κ of the designs.
    #[arg(long, value_delimiter = ',', default_value = "1e2,1e4,1e6,1e7,1e8,1e10")]
    kappas: Vec<f64>,
    /// Size of the noise added to A·x₀.
    #[arg(long, default_value_t = 1e-3)]
    noise: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write the results as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
}

pub fn lsq_accuracy(a: &LsqAccuracyArgs) -> ExitCode {
    let mut shapes = Vec::new();
    for s in &a.shapes {
        let dims: Option<(usize, usize)> =
            s.split_once('x').and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)));
        match dims {
            Some((r, c)) if r >= c && c >= 1 => shapes.push((r, c)),
            _ => return super::fail(format!("--shapes: {s:?} is not ROWSxCOLS with ROWS ≥ COLS ≥ 1")),
        }
    }
    if let Some(k) = a.kappas.iter().find(|k| !(k.is_finite() && **k >= 1.0)) {
        return super::fail(format!("--kappas: {k} is not a condition number (finite, ≥ 1)"));
    }
    let gpu = match super::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    let r = gpu.info().renderer.clone();
    let plan = bench::lsq_accuracy::Plan { shapes, kappas: a.kappas.clone(), noise: a.noise, seed: a.seed };
    let rows = bench::lsq_accuracy::run(&gpu, &plan, |line| eprintln!("{line}"));
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let command = command.replacen(&std::env::args().next().unwrap_or_default(), "glsolve", 1);
    let run = bench::lsq_accuracy::AccuracyRun {
        renderer: r,
        noise: a.noise,
        seed: a.seed,
        command,
        date: bench::report::today(),
        rows,
    };
    report(Ok::<_, String>(run), |x| bench::lsq_accuracy::markdown(&x.rows, &x.renderer, x.noise, x.seed), &a.json)
}
