//! `glsolve lsq`: weighted least squares with mixed-precision refinement (2008 Algorithm 1) on a
//! random problem of the paper's Table 1 or 2, a random design of chosen condition number, or a
//! polynomial fit to a data file; on the gpu backend (checked in f64, falling back to f64 QR) or
//! the cpu backend (f64 QR); the method, the check's measures and the unknowns to `--out` and
//! `--json`.
use super::answer::{num, nums, Outputs};
use clap::Args;
use glsolve::cpu::rowmajor;
use glsolve::fixtures::random;
use glsolve::lsq::{self, fit, LsqSolution};
use glsolve::Format;
use glsolve::Gpu;
use glsolve::LeastSquaresMethod as Method;
use glsolve::LeastSquaresSettings as LsqSettings;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct LsqArgs {
    /// A random problem of the 2008 paper's Table 1: m unknowns, n = 2m observations.
    #[arg(long, value_name = "M", conflicts_with = "fit")]
    random: Option<usize>,
    /// With --random: the ill-conditioned weights of Table 2, d²ᵢ = 10^(−4+8i/(n−1)).
    #[arg(long)]
    ill: bool,
    /// A random design U·Σ·Vᵀ of ROWS observations × COLS unknowns (singular values from 1 down
    /// to 1/--cond), b = A·x₀ + --noise·(uniform noise).
    #[arg(long, value_name = "ROWSxCOLS", conflicts_with_all = ["random", "fit"])]
    design: Option<String>,
    /// With --design: its condition number κ.
    #[arg(long, default_value_t = 1e4, requires = "design")]
    cond: f64,
    /// With --design: the size of the noise added to A·x₀.
    #[arg(long, default_value_t = 1e-3, requires = "design")]
    noise: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fit a polynomial to a data file: lines `t y σ` (whitespace-separated, `#` comments).
    #[arg(long, value_name = "FILE")]
    fit: Option<PathBuf>,
    /// Degree of the fitted polynomial.
    #[arg(long, default_value_t = 2)]
    degree: usize,
    /// ε of Algorithm 1's stopping test ‖r‖/‖x‖ ≤ ε.
    #[arg(long, default_value_t = 1e-8)]
    tol: f64,
    /// The bound the mixed answer's forward error ‖x − x*‖∞/‖x‖∞ must meet, else f64 QR answers.
    #[arg(long, default_value_t = 1e-8)]
    accuracy: f64,
    /// Store A·D²·Aᵀ in full format instead of packed.
    #[arg(long)]
    full: bool,
    /// gpu: the single-precision normal equations refined and checked (f64 QR where the check
    /// fails); cpu: f64 Householder QR.
    #[arg(long, value_enum, default_value_t = Backend::Gpu)]
    backend: Backend,
    #[command(flatten)]
    outputs: Outputs,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Backend {
    Gpu,
    Cpu,
}

/// What `lsq` solves.
enum Problem {
    Fit(fit::Samples),
    Random(usize),
    Design(usize, usize),
}

/// The papers' layout (A is unknowns × observations, row-major), d², b.
struct Data {
    a: Vec<f64>,
    m: usize,
    n: usize,
    d2: Vec<f64>,
    b: Vec<f64>,
}

impl Data {
    fn solve(&self, gpu: Option<&Gpu>, st: &LsqSettings) -> Result<LsqSolution, String> {
        let (a, m, n, d2, b) = (&self.a, self.m, self.n, &self.d2, &self.b);
        match gpu {
            Some(g) => lsq::solve(g, a, m, n, d2, b, st),
            None => lsq::solve_qr(a, m, n, d2, b, st),
        }
        .map_err(|e| e.to_string())
    }
}

pub fn lsq(a: &LsqArgs) -> ExitCode {
    let inputs: Vec<&Path> = a.fit.iter().map(PathBuf::as_path).collect();
    if let Err(e) = a.outputs.check(&inputs) {
        return super::fail(e);
    }
    let problem = match (&a.fit, a.random.filter(|&m| m > 0), &a.design) {
        (Some(path), _, _) => match read_samples(path) {
            Ok(s) => Problem::Fit(s),
            Err(e) => return super::fail(e),
        },
        (None, Some(m), _) => Problem::Random(m),
        (None, None, Some(d)) => match parse_design(d, a.cond) {
            Ok((rows, cols)) => Problem::Design(rows, cols),
            Err(e) => return super::fail(e),
        },
        (None, None, None) => return super::fail("give --random M (M ≥ 1), --design ROWSxCOLS or --fit FILE"),
    };
    if !(a.accuracy > 0.0 && a.accuracy.is_finite()) {
        return super::fail(format!("--accuracy {}: must be a positive number", a.accuracy));
    }
    // The cpu backend needs no GL context.
    let gpu = match a.backend {
        Backend::Cpu => None,
        Backend::Gpu => match super::headless() {
            Ok(g) => Some(g),
            Err(e) => return super::fail(e),
        },
    };
    let st = LsqSettings {
        tolerance: a.tol,
        accuracy: a.accuracy,
        format: if a.full { Format::Full } else { Format::Packed },
        ..LsqSettings::default()
    };
    if let Some(g) = &gpu {
        println!("renderer: {}", g.info().renderer);
    }
    let done = match &problem {
        Problem::Fit(s) => fit_samples(gpu.as_ref(), s, a.degree, &st),
        Problem::Random(m) => random_problem(gpu.as_ref(), a, *m, &st),
        Problem::Design(rows, cols) => design_problem(gpu.as_ref(), a, *rows, *cols, &st),
    };
    let (s, mut report) = match done {
        Ok(x) => x,
        Err(e) => return super::fail(e),
    };
    let (method, reason) = match &s.method {
        Method::Mixed => ("Mixed", None),
        Method::Double => ("Double", None),
        Method::DoubleFallback(why) => ("DoubleFallback", Some(why.clone())),
    };
    println!("method             {method}{}", reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default());
    println!("refinement steps   {}", s.iterations);
    let acc = &s.accuracy;
    match &s.method {
        Method::Mixed => println!(
            "forward error      ≤ {:.2e} (bound on ‖x − x*‖∞/‖x‖∞; must be ≤ {:.0e} for the mixed answer: met; refinement's contraction {:.2})",
            acc.forward_error, acc.threshold, acc.contraction
        ),
        _ => println!(
            "forward error      ≤ {:.2e} (bound on ‖x − x*‖∞/‖x‖∞ from the residual; f64 QR is backward stable, and no f64 method's forward error beats κ·u)",
            acc.forward_error
        ),
    }
    println!("backward error     ≤ {:.2e} (normwise, Frobenius, proven)", acc.backward_error);
    let written = a.outputs.write(&s.x, || {
        report["backend"] = if gpu.is_some() { "gpu" } else { "cpu" }.into();
        report["method"] = method.into();
        report["fallback_reason"] = reason.into();
        report["refinement_steps"] = s.iterations.into();
        report["tolerance"] = num(st.tolerance);
        report["accuracy"] = serde_json::json!({
            "forward_error": num(acc.forward_error),
            "threshold": num(acc.threshold),
            "backward_error": num(acc.backward_error),
            "contraction": num(acc.contraction),
        });
        report["history"] = nums(&s.history);
        report["corrections"] = nums(&s.corrections);
        report["x"] = nums(&s.x);
        report["x_single"] = nums(&s.x_single);
        report["time_seconds"] = serde_json::json!({
            "single": s.single_time.as_secs_f64(),
            "refine": s.refine_time.as_secs_f64(),
            "total": s.total_time.as_secs_f64(),
        });
        report
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => super::fail(e),
    }
}

/// `ROWSxCOLS` with ROWS ≥ COLS ≥ 1, and κ ≥ 1.
fn parse_design(d: &str, cond: f64) -> Result<(usize, usize), String> {
    let dims: Option<(usize, usize)> = d.split_once('x').and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)));
    if !(cond.is_finite() && cond >= 1.0) {
        return Err(format!("--cond {cond}: a condition number is finite and ≥ 1"));
    }
    match dims {
        Some((r, c)) if r >= c && c >= 1 => Ok((r, c)),
        _ => Err(format!("--design {d}: expected ROWSxCOLS with ROWS ≥ COLS ≥ 1 (observations × unknowns)")),
    }
}

/// ‖x − y‖₂/‖y‖₂.
fn relative(x: &[f64], y: &[f64]) -> f64 {
    let d: f64 = x.iter().zip(y).map(|(p, q)| (p - q) * (p - q)).sum();
    (d / y.iter().map(|q| q * q).sum::<f64>()).sqrt()
}

/// A random problem of the paper's tables, checked against the CPU's double-precision answers
/// (the normal equations, the paper's reference, and QR).
fn random_problem(
    gpu: Option<&Gpu>,
    a: &LsqArgs,
    m: usize,
    st: &LsqSettings,
) -> Result<(LsqSolution, serde_json::Value), String> {
    let n = 2 * m;
    let am = random::uniform(m, n, 0.0, 1.0, a.seed);
    let d2: Vec<f64> = if a.ill {
        (0..n).map(|i| 10f64.powf(-4.0 + 8.0 * i as f64 / (n as f64 - 1.0).max(1.0))).collect()
    } else {
        random::uniform(n, 1, 0.0, 1.0, a.seed + 1)
    };
    let b = random::uniform(n, 1, 0.0, 1.0, a.seed + 2);
    let t = std::time::Instant::now();
    let exact = lsq::solve_cpu(&am, m, n, &d2, &b).map_err(|e| e.to_string())?;
    let cpu_time = t.elapsed();
    let data = Data { a: am, m, n, d2, b };
    let qr = data.solve(None, st)?;
    let s = data.solve(gpu, st)?;
    let (single, refined) =
        (rowmajor::relative_frobenius(&s.x_single, &exact), rowmajor::relative_frobenius(&s.x, &exact));
    let against_qr = relative(&s.x, &qr.x);
    println!("weighted least squares, m = {m}, n = {n}{}", if a.ill { ", ill-conditioned weights" } else { "" });
    println!(
        "relative error     x⁰_sgl {single:.2e}, answer {refined:.2e} (against the f64 normal equations), {against_qr:.2e} (against f64 QR)"
    );
    println!(
        "time               GPU x⁰ {:.3} s, refine {:.3} s, total {:.3} s; CPU only {:.3} s",
        s.single_time.as_secs_f64(),
        s.refine_time.as_secs_f64(),
        s.total_time.as_secs_f64(),
        cpu_time.as_secs_f64()
    );
    let report = serde_json::json!({
        "problem": format!("random m = {m}, n = {n}{}", if a.ill { ", ill-conditioned weights" } else { "" }),
        "unknowns": m,
        "observations": n,
        "relative_error_against_cpu": { "single": num(single), "refined": num(refined), "qr": num(against_qr) },
    });
    Ok((s, report))
}

/// A design U·Σ·Vᵀ of condition number --cond, b = A·x₀ + noise, checked against f64 QR.
fn design_problem(
    gpu: Option<&Gpu>,
    a: &LsqArgs,
    rows: usize,
    cols: usize,
    st: &LsqSettings,
) -> Result<(LsqSolution, serde_json::Value), String> {
    let design = random::design_with_condition(rows, cols, a.cond, a.seed);
    let x0 = random::uniform(cols, 1, -1.0, 1.0, a.seed + 1);
    let e = random::uniform(rows, 1, -1.0, 1.0, a.seed + 2);
    let b: Vec<f64> = (0..rows)
        .map(|k| design[k * cols..(k + 1) * cols].iter().zip(&x0).map(|(p, q)| p * q).sum::<f64>() + a.noise * e[k])
        .collect();
    // The papers' layout: one row per unknown.
    let at: Vec<f64> = (0..cols * rows).map(|p| design[(p % rows) * cols + p / rows]).collect();
    let data = Data { a: at, m: cols, n: rows, d2: vec![1.0; rows], b };
    let qr = data.solve(None, st)?;
    let s = data.solve(gpu, st)?;
    let err = relative(&s.x, &qr.x);
    println!(
        "least squares, design {rows}×{cols} (observations × unknowns), κ = {:.1e}, noise {:.1e}",
        a.cond, a.noise
    );
    println!("relative error     {err:.2e} (‖x − x_QR‖₂/‖x_QR‖₂ against f64 Householder QR)");
    let report = serde_json::json!({
        "problem": format!("design {rows}×{cols}, κ = {:e}, noise {:e}, seed {}", a.cond, a.noise, a.seed),
        "unknowns": cols,
        "observations": rows,
        "relative_error_against_qr": num(err),
    });
    Ok((s, report))
}

/// Lines `t y σ` of a data file; a line that is not three numbers is an error naming it.
fn read_samples(path: &Path) -> Result<fit::Samples, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut s = fit::Samples { t: Vec::new(), y: Vec::new(), sigma: Vec::new() };
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let v: Result<Vec<f64>, _> = line.split_whitespace().map(str::parse::<f64>).collect();
        match v {
            Ok(v) if v.len() == 3 => {
                s.t.push(v[0]);
                s.y.push(v[1]);
                s.sigma.push(v[2]);
            }
            _ => return Err(format!("{}:{}: expected three numbers `t y σ`", path.display(), n + 1)),
        }
    }
    Ok(s)
}

/// The polynomial fit of `degree` to `samples`.
fn fit_samples(
    gpu: Option<&Gpu>,
    samples: &fit::Samples,
    degree: usize,
    st: &LsqSettings,
) -> Result<(LsqSolution, serde_json::Value), String> {
    let basis = fit::polynomial(degree);
    let refs: Vec<fit::Basis> = basis.iter().map(|b| b.as_ref()).collect();
    let sol = match gpu {
        Some(g) => fit::fit(g, samples, &refs, st).map_err(|e| e.to_string())?,
        None => {
            let d = fit::design(samples, &refs).map_err(|e| e.to_string())?;
            Data { a: d.a, m: refs.len(), n: samples.t.len(), d2: d.d2, b: d.b }.solve(None, st)?
        }
    };
    println!("polynomial fit of degree {degree} to {} samples", samples.t.len());
    for (p, c) in sol.x.iter().enumerate() {
        println!("  x^{p}: {c:.12e}");
    }
    let report = serde_json::json!({
        "problem": format!("polynomial fit of degree {degree}"),
        "unknowns": degree + 1,
        "observations": samples.t.len(),
    });
    Ok((sol, report))
}
