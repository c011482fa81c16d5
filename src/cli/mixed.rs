//! `glsolve lsq` and `glsolve linsolve`: the mixed-precision solvers on generated or given data.
use clap::Args;
use glsolve::cpu::{dense, random};
use glsolve::gl::Gpu;
use glsolve::gpu::lu::blocked::BlockedSettings;
use glsolve::layout::Format;
use glsolve::lsq::{self, fit, LsqSettings};
use glsolve::refine::{self, Criterion, LuPath, RefineSettings, Substitution};
use std::path::PathBuf;
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
}

#[derive(Args)]
pub struct LinsolveArgs {
    /// A random n×n system (entries uniform in [−1, 1)).
    #[arg(long, value_name = "N", conflicts_with = "matrix")]
    random: Option<usize>,
    /// With --random: a matrix of this condition number (U·Σ·Vᵀ).
    #[arg(long)]
    cond: Option<f64>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The matrix A, Matrix Market (array or coordinate, real).
    #[arg(long, value_name = "A.mtx")]
    matrix: Option<PathBuf>,
    /// The right-hand side b, Matrix Market n×1 [default: A·1, so x = 1].
    #[arg(long, value_name = "b.mtx", requires = "matrix")]
    rhs: Option<PathBuf>,
    /// The single-precision LU: the paper's hybrid blocked LU, or the unblocked GPU baseline.
    #[arg(long, value_enum, default_value_t = LuChoice::Blocked)]
    lu: LuChoice,
    /// Panel width of the blocked LU (4, 8, 16, 32 or 64).
    #[arg(long, default_value_t = 32)]
    block: usize,
    /// Blocked LU and forward substitution without look-ahead.
    #[arg(long)]
    no_lookahead: bool,
    /// How each refinement step applies the factors: the paper's blocked substitutions split
    /// between CPU and GPU (residual in double on the GPU), or all on the CPU.
    #[arg(long, value_enum, default_value_t = SubstitutionChoice::Split)]
    substitution: SubstitutionChoice,
    /// The convergence test: the paper's Eq. (1), or the normwise backward error.
    #[arg(long, value_enum, default_value_t = CriterionChoice::Paper)]
    criterion: CriterionChoice,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum LuChoice {
    Blocked,
    Unblocked,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum SubstitutionChoice {
    Split,
    Cpu,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum CriterionChoice {
    Paper,
    BackwardError,
}

fn settings(a: &LinsolveArgs) -> RefineSettings {
    RefineSettings {
        lu: match a.lu {
            LuChoice::Blocked => LuPath::Blocked(BlockedSettings { block: a.block, lookahead: !a.no_lookahead }),
            LuChoice::Unblocked => LuPath::Unblocked,
        },
        substitution: match a.substitution {
            SubstitutionChoice::Split => Substitution::Split,
            SubstitutionChoice::Cpu => Substitution::Cpu,
        },
        criterion: match a.criterion {
            CriterionChoice::Paper => Criterion::Paper,
            CriterionChoice::BackwardError => Criterion::BackwardError,
        },
        ..RefineSettings::default()
    }
}

fn gpu() -> Result<Gpu, ExitCode> {
    super::headless().map_err(super::fail)
}

pub fn lsq(a: &LsqArgs) -> ExitCode {
    let gpu = match gpu() {
        Ok(g) => g,
        Err(c) => return c,
    };
    let st = LsqSettings {
        tolerance: a.tol,
        format: if a.full { Format::Full } else { Format::Packed },
        ..LsqSettings::default()
    };
    if let Some(path) = &a.fit {
        return fit_file(&gpu, path, a.degree, &st);
    }
    let Some(m) = a.random.filter(|&m| m > 0) else {
        return super::fail("give --random M (M ≥ 1) or --fit FILE");
    };
    let n = 2 * m;
    let am = random::uniform(m, n, 0.0, 1.0, a.seed);
    let d2: Vec<f64> = if a.ill {
        (0..n).map(|i| 10f64.powf(-4.0 + 8.0 * i as f64 / (n as f64 - 1.0).max(1.0))).collect()
    } else {
        random::uniform(n, 1, 0.0, 1.0, a.seed + 1)
    };
    let b = random::uniform(n, 1, 0.0, 1.0, a.seed + 2);
    let t = std::time::Instant::now();
    let exact = match lsq::solve_cpu(&am, m, n, &d2, &b) {
        Ok(x) => x,
        Err(e) => return super::fail(e),
    };
    let cpu_time = t.elapsed();
    match lsq::solve(&gpu, &am, m, n, &d2, &b, &st) {
        Ok(s) => {
            println!("renderer: {}", gpu.info().renderer);
            println!(
                "weighted least squares, m = {m}, n = {n}{}",
                if a.ill { ", ill-conditioned weights" } else { "" }
            );
            println!("method             {:?}", s.method);
            println!(
                "relative error     x⁰_sgl {:.2e}, refined {:.2e} (against the double-precision CPU solution)",
                dense::relative_frobenius(&s.x_single, &exact),
                dense::relative_frobenius(&s.x, &exact)
            );
            println!("refinement steps   {}", s.iterations);
            println!(
                "time               GPU x⁰ {:.3} s, refine {:.3} s, total {:.3} s; CPU only {:.3} s",
                s.single_time.as_secs_f64(),
                s.refine_time.as_secs_f64(),
                s.total_time.as_secs_f64(),
                cpu_time.as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(e),
    }
}

fn fit_file(gpu: &Gpu, path: &PathBuf, degree: usize, st: &LsqSettings) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return super::fail(format!("{}: {e}", path.display())),
    };
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
            _ => return super::fail(format!("{}:{}: expected three numbers `t y σ`", path.display(), n + 1)),
        }
    }
    let basis = fit::polynomial(degree);
    let refs: Vec<fit::Basis> = basis.iter().map(|b| b.as_ref()).collect();
    match fit::fit(gpu, &s, &refs, st) {
        Ok(sol) => {
            println!(
                "polynomial fit of degree {degree} to {} samples ({:?}, {} refinement steps)",
                s.t.len(),
                sol.method,
                sol.iterations
            );
            for (p, c) in sol.x.iter().enumerate() {
                println!("  x^{p}: {c:.12e}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(e),
    }
}

pub fn linsolve(a: &LinsolveArgs) -> ExitCode {
    let (am, n, b, label) = if let Some(path) = &a.matrix {
        let m = match glsolve::matrix_market::read_file(path) {
            Ok(m) => m,
            Err(e) => return super::fail(e),
        };
        if m.rows != m.cols {
            return super::fail(format!("{}: A is {}×{}, not square", path.display(), m.rows, m.cols));
        }
        let b = match &a.rhs {
            Some(p) => match glsolve::matrix_market::read_file(p) {
                Ok(v) if v.rows == m.rows && v.cols == 1 => v.data,
                Ok(v) => {
                    return super::fail(format!("{}: b is {}×{}, A needs {}×1", p.display(), v.rows, v.cols, m.rows))
                }
                Err(e) => return super::fail(e),
            },
            None => dense::matvec(&m.data, m.rows, m.cols, &vec![1.0; m.cols]),
        };
        (m.data, m.rows, b, path.display().to_string())
    } else if let Some(n) = a.random.filter(|&n| n > 0) {
        let am = match a.cond {
            Some(k) => random::general_with_condition(n, k, a.seed),
            None => random::uniform(n, n, -1.0, 1.0, a.seed),
        };
        (am, n, random::uniform(n, 1, -1.0, 1.0, a.seed + 1), format!("random n = {n}"))
    } else {
        return super::fail("give --random N (N ≥ 1) or --matrix A.mtx");
    };
    let gpu = match gpu() {
        Ok(g) => g,
        Err(c) => return c,
    };
    let st = settings(a);
    match refine::linsolve(&gpu, &am, n, &b, &st) {
        Ok(s) => {
            println!("renderer: {}", gpu.info().renderer);
            println!("system             {label}");
            println!("LU, substitution   {}, {}", s.lu.name(), s.substitution.name());
            println!("method             {:?}", s.method);
            println!("refinement steps   {}", s.iterations);
            println!("convergence test   {:.3} = {} (must be ≤ {})", s.test_value(), s.test.formula(), st.threshold);
            println!("backward error     {:.3} (‖b − Ax‖∞ / (‖A‖∞‖x‖∞·n·ε), ε = 2⁻⁵²)", s.criterion());
            println!(
                "time               LU {:.3} s, refinement {:.3} s, total {:.3} s",
                s.factor_time.as_secs_f64(),
                s.refine_time.as_secs_f64(),
                s.total_time.as_secs_f64()
            );
            println!("effective rate     {:.3} GFLOP/s ((2/3·n³ + 2n²) / total time)", s.gflops());
            for phase in ["factor", "forward", "backward", "substitute", "residual"] {
                let sh = s.timeline.shares_summed(phase);
                if sh.wall > 0.0 {
                    println!(
                        "  {phase:<10} wall {:.4} s: host busy {:.4} s, GPU busy {:.4} s, both at once {:.4} s",
                        sh.wall, sh.host, sh.gpu, sh.overlap
                    );
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(e),
    }
}

// `glsolve bench lu` and `glsolve bench linsolve` (their subcommands are declared in bench.rs).

#[derive(Args)]
pub struct LuBenchArgs {
    /// Orders.
    #[arg(long, value_delimiter = ',', default_value = "512,1024,1536,2048")]
    sizes: Vec<usize>,
    /// Panel widths of the blocked LU (each timed with and without look-ahead).
    #[arg(long, value_delimiter = ',', default_value = "32")]
    blocks: Vec<usize>,
    /// Skip the unblocked GPU LU and Cholesky (slow at large n).
    #[arg(long)]
    no_unblocked: bool,
    /// Timed runs per measurement (after one warm-up run).
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Also write the results as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
}

#[derive(Args)]
pub struct LinsolveBenchArgs {
    /// Orders.
    #[arg(long, value_delimiter = ',', default_value = "512,1024,1536,2048")]
    sizes: Vec<usize>,
    /// Timed runs per measurement (after one warm-up run).
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Skip the unblocked GPU LU configuration (slow at large n).
    #[arg(long)]
    no_unblocked: bool,
    /// Write timeline plots (one per phase, the largest size) into this folder.
    #[arg(long, value_name = "DIR")]
    plots: Option<std::path::PathBuf>,
    /// Write the largest size's timeline as JSON (`bench all` keeps it as linsolve_timeline.json).
    #[arg(long, value_name = "FILE")]
    timeline_json: Option<std::path::PathBuf>,
    /// Also write the results as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
}

/// `glsolve bench lu`.
pub fn bench_lu(a: &LuBenchArgs) -> ExitCode {
    let gpu = match super::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    let r = gpu.info().renderer.clone();
    let rows = glsolve::bench::lu::run(&gpu, &a.sizes, &a.blocks, !a.no_unblocked, a.reps, |line| eprintln!("{line}"));
    super::report::report(rows, |x| glsolve::bench::lu::markdown(x, &r), &a.json)
}

/// `glsolve bench linsolve`.
pub fn bench_linsolve(a: &LinsolveBenchArgs) -> ExitCode {
    let gpu = match super::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    let r = gpu.info().renderer.clone();
    let (rows, timeline) =
        match glsolve::bench::linsolve::run(&gpu, &a.sizes, a.reps, !a.no_unblocked, |line| eprintln!("{line}")) {
            Ok(x) => x,
            Err(e) => return super::fail(e),
        };
    if let (Some(dir), Some(t)) = (&a.plots, &timeline) {
        let written = std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))
            .and_then(|()| glsolve::bench::linsolve::timeline_plots(dir, "lu_timeline", t));
        if let Err(e) = written {
            return super::fail(e);
        }
        eprintln!("timeline plots of n = {} in {}", t.n, dir.display());
    }
    if let (Some(path), Some(t)) = (&a.timeline_json, &timeline) {
        if let Err(e) = super::write_json(path, t) {
            return super::fail(e);
        }
    }
    super::report::report(Ok::<_, String>(rows), |x| glsolve::bench::linsolve::markdown(x, &r), &a.json)
}
