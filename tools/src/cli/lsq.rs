//! `glsolve lsq`: weighted least squares with mixed-precision refinement (2008 Algorithm 1) on a
//! random problem of the paper's Table 1 or 2, or a polynomial fit to a data file; the unknowns
//! to `--out` and `--json`.
use super::answer::{num, nums, Outputs};
use clap::Args;
use glsolve::cpu::{dense, random};
use glsolve::gl::Gpu;
use glsolve::layout::Format;
use glsolve::lsq::{self, fit, LsqSettings, LsqSolution, Method};
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
    /// Store A·D²·Aᵀ in full format instead of packed.
    #[arg(long)]
    full: bool,
    #[command(flatten)]
    outputs: Outputs,
}

/// What `lsq` solves.
enum Problem {
    Fit(fit::Samples),
    Random(usize),
}

pub fn lsq(a: &LsqArgs) -> ExitCode {
    let inputs: Vec<&Path> = a.fit.iter().map(PathBuf::as_path).collect();
    if let Err(e) = a.outputs.check(&inputs) {
        return super::fail(e);
    }
    let problem = match (&a.fit, a.random.filter(|&m| m > 0)) {
        (Some(path), _) => match read_samples(path) {
            Ok(s) => Problem::Fit(s),
            Err(e) => return super::fail(e),
        },
        (None, Some(m)) => Problem::Random(m),
        (None, None) => return super::fail("give --random M (M ≥ 1) or --fit FILE"),
    };
    let gpu = match super::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    let st = LsqSettings {
        tolerance: a.tol,
        format: if a.full { Format::Full } else { Format::Packed },
        ..LsqSettings::default()
    };
    let done = match &problem {
        Problem::Fit(s) => fit_samples(&gpu, s, a.degree, &st),
        Problem::Random(m) => random_problem(&gpu, a, *m, &st),
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
    let written = a.outputs.write(&s.x, || {
        report["method"] = method.into();
        report["fallback_reason"] = reason.into();
        report["refinement_steps"] = s.iterations.into();
        report["tolerance"] = num(st.tolerance);
        report["history"] = nums(&s.history);
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

/// A random problem of the paper's tables, checked against the CPU's double-precision answer.
fn random_problem(
    gpu: &Gpu,
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
    let s = lsq::solve(gpu, &am, m, n, &d2, &b, st).map_err(|e| e.to_string())?;
    let (single, refined) = (dense::relative_frobenius(&s.x_single, &exact), dense::relative_frobenius(&s.x, &exact));
    println!("renderer: {}", gpu.info().renderer);
    println!("weighted least squares, m = {m}, n = {n}{}", if a.ill { ", ill-conditioned weights" } else { "" });
    println!("method             {:?}", s.method);
    println!(
        "relative error     x⁰_sgl {single:.2e}, refined {refined:.2e} (against the double-precision CPU solution)"
    );
    println!("refinement steps   {}", s.iterations);
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
        "relative_error_against_cpu": { "single": num(single), "refined": num(refined) },
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
    gpu: &Gpu,
    samples: &fit::Samples,
    degree: usize,
    st: &LsqSettings,
) -> Result<(LsqSolution, serde_json::Value), String> {
    let basis = fit::polynomial(degree);
    let refs: Vec<fit::Basis> = basis.iter().map(|b| b.as_ref()).collect();
    let sol = fit::fit(gpu, samples, &refs, st).map_err(|e| e.to_string())?;
    println!(
        "polynomial fit of degree {degree} to {} samples ({:?}, {} refinement steps)",
        samples.t.len(),
        sol.method,
        sol.iterations
    );
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
