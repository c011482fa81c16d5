//! `glsolve bench …`: the only place speed is measured.
use super::report::{report, PeerArgs};
use clap::{Args, Subcommand};
use glsolve_tools::bench;
use std::process::ExitCode;

#[derive(Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: BenchWhat,
}

#[derive(Subcommand)]
enum BenchWhat {
    /// Every Cholesky variant against faer, with passes, fragments, floors and the paper's ratios.
    Cholesky(CholeskyArgs),
    /// A·D²·Aᵀ in full and packed format against faer, and form-versus-factor time.
    Assemble(AssembleArgs),
    /// Substitution on the GPU against read-back + CPU substitution (2008 IPM paper Fig. 4.1).
    Solve(SolveArgs),
    /// Random dense LPs of the papers' family (n = 4m) per backend.
    Lp(super::bench_lp::LpArgs),
    /// The dense LPs people bring (L1 and quantile regression, Chebyshev fit, matrix game, the
    /// papers' family) against HiGHS (ipm, simplex) and Clarabel on the same MPS files.
    Families(super::bench_families::FamiliesArgs),
    /// NETLIB: the 2008 IPM paper's Table 4.1 and the 2006 paper's Table 3.
    Netlib(NetlibArgs),
    /// Every NETLIB .mps of a folder on one backend (cpu by default): a Markdown list of status, iterations,
    /// time, objective and its error against the folder's reference optima (for the docs).
    NetlibAll(NetlibAllArgs),
    /// LU: the right-looking blocked LU (CPU panels, GPU updates; with and without look-ahead)
    /// against the unblocked GPU LU and faer f64/f32 on the CPU, in GFLOP/s; Cholesky against
    /// the unblocked LU (2006 Fig. 8).
    Lu(super::mixed::LuBenchArgs),
    /// Weighted least squares: the 2008 structure paper's Tables 1 and 2.
    Lsq(SizesArgs),
    /// Least squares on designs of chosen condition number, cpu and gpu backends, against an
    /// f64 QR reference: the error, the method the check chose, and its measures.
    LsqAccuracy(super::bench_lsq::LsqAccuracyArgs),
    /// The mixed-precision general solver: effective GFLOP/s, refinement steps, CPU/GPU time
    /// shares and overlap per configuration, faer f64/f32 beside it; optional timeline plots.
    Linsolve(super::mixed::LinsolveBenchArgs),
    /// The same kernels on desktop OpenGL and OpenGL ES, with each way of fetching texels,
    /// interleaved in one run (which fetch each dialect should use).
    Dialects(DialectsArgs),
    /// Each hand-written piece of the CPU path against the library call it stands in for, per
    /// kernel and end to end, interleaved in one run, with the keep/replace verdicts.
    Cpu(CpuArgs),
    /// The register-tile kernels against the blocked ones and faer's f32 product and Cholesky
    /// (GFLOP/s, fetches per multiply-add), and the LP's GPU backends before and after.
    Tiles(super::bench_tiles::TilesArgs),
    /// Everything: regenerates docs/results.md, docs/bench/*.json and docs/plots/*.png (and .svg).
    All(AllArgs),
}

#[derive(Args)]
struct DialectsArgs {
    /// Order of the Cholesky factorizations (the assembly's A is m × 4m).
    #[arg(long, default_value_t = 1024)]
    m: usize,
    /// Timed rounds (after one warm-up run of each case).
    #[arg(long, default_value_t = 5)]
    reps: usize,
    /// Also write the results as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
}

#[derive(Args)]
struct CpuArgs {
    /// Orders m of the products and of the random LPs (n = 4m, seed 7).
    #[arg(long, value_delimiter = ',', default_value = "512,1024,2048")]
    sizes: Vec<usize>,
    /// Repetitions (kernels; the end-to-end cases take twice as many at m ≤ 600 and half at
    /// m > 1200, at least 3).
    #[arg(long, default_value_t = 7)]
    reps: usize,
    /// Folder of NETLIB .mps files (the end-to-end total, and the shapes below).
    #[arg(long, default_value = "tests/data/netlib")]
    netlib: std::path::PathBuf,
    /// Problems of that folder whose standard-form A the products are also timed on.
    #[arg(long, value_delimiter = ',', default_value = "agg2,israel")]
    shapes: Vec<String>,
    /// Also write the results as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
    /// Put the tables into the report of an earlier `bench all` run in this folder (its
    /// bench/cpu.json, then results.md re-rendered), stating this run's command and date.
    #[arg(long, value_name = "OUT")]
    report: Option<std::path::PathBuf>,
}

#[derive(Args)]
struct AllArgs {
    /// Small sizes and a NETLIB subset: a few minutes instead of tens.
    #[arg(long)]
    quick: bool,
    /// Measure nothing: rewrite results.md and the plots from the JSON of an earlier run in OUT/bench.
    #[arg(long, conflicts_with = "quick")]
    report_only: bool,
    /// Where the report goes.
    #[arg(long, default_value = "docs")]
    out: std::path::PathBuf,
    /// Folder with the NETLIB .mps files.
    #[arg(long, default_value = "tests/data/netlib")]
    netlib: std::path::PathBuf,
    /// Also solve every .mps file of this folder on the cpu backend and list them (a larger
    /// NETLIB collection, with an optimal_extended.tsv or optimal.tsv of reference optima).
    #[arg(long)]
    netlib_all: Option<std::path::PathBuf>,
    #[command(flatten)]
    peers: PeerArgs,
}

#[derive(Args)]
struct SizesArgs {
    /// Orders.
    #[arg(long, value_delimiter = ',', default_value = "512,1024,1536,2048")]
    sizes: Vec<usize>,
    /// Timed runs per measurement where repeated (after one warm-up run).
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Also write the results as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
}

#[derive(Args)]
struct NetlibArgs {
    /// Folder with the NETLIB .mps files.
    #[arg(long, default_value = "tests/data/netlib")]
    dir: std::path::PathBuf,
    /// Also write the results as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
}

#[derive(Args)]
struct NetlibAllArgs {
    /// Folder with the .mps files (and optimal_extended.tsv or optimal.tsv).
    #[arg(long, default_value = "tests/data/netlib-all")]
    dir: std::path::PathBuf,
    /// The LP backend.
    #[arg(long, default_value = "cpu", value_parser = super::named::named::<glsolve::BackendKind>())]
    backend: glsolve::BackendKind,
    /// Termination tolerance ε (default: the backend's own, 1e-8 on cpu and hybrid, 1e-4 on gpu).
    #[arg(long)]
    tolerance: Option<f64>,
    /// Leave out the models with more rows than this.
    #[arg(long)]
    max_rows: Option<usize>,
    /// Time limit per problem, seconds.
    #[arg(long, default_value_t = 120.0)]
    time_limit: f64,
    /// Also write the results as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
    /// Put the list into the report of an earlier `bench all` run in this folder (its
    /// bench/netlib_all.json, then results.md re-rendered), stating this run's command and date.
    #[arg(long, value_name = "OUT")]
    report: Option<std::path::PathBuf>,
}

#[derive(Args)]
struct SolveArgs {
    /// Orders m of the factor.
    #[arg(long, value_delimiter = ',', default_value = "256,512,1024,2048")]
    sizes: Vec<usize>,
    /// Timed runs per measurement (after one warm-up run).
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Also write the results as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
}

#[derive(Args)]
struct AssembleArgs {
    /// Orders m of C.
    #[arg(long, value_delimiter = ',', default_value = "512,1024,2048")]
    sizes: Vec<usize>,
    /// n = ratio·m columns of A.
    #[arg(long, default_value_t = 2)]
    ratio: usize,
    /// Timed runs per measurement (after one warm-up run).
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Also write the results as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
}

#[derive(Args)]
struct CholeskyArgs {
    /// Matrix orders.
    #[arg(long, value_delimiter = ',', default_value = "256,512,1024,2048")]
    sizes: Vec<usize>,
    /// Variants, comma-separated, or `all`.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    variants: Vec<super::variant::VariantsArg>,
    /// Timed runs per measurement (after one warm-up run).
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Also time the paper's variant in the rectangular packed format (packed/full ratio).
    #[arg(long)]
    packed: bool,
    /// Also write the results as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
}

pub fn run(a: &BenchArgs) -> ExitCode {
    match &a.what {
        BenchWhat::Cholesky(c) => cholesky(c),
        BenchWhat::Assemble(c) => assemble(c),
        BenchWhat::Solve(c) => solve(c),
        BenchWhat::Lp(c) => super::bench_lp::lp(c),
        BenchWhat::Families(c) => super::bench_families::run(c),
        BenchWhat::Netlib(c) => netlib(c),
        BenchWhat::NetlibAll(c) => {
            let plan = bench::netlib_all::Plan {
                backend: c.backend,
                tolerance: c.tolerance,
                time_limit: std::time::Duration::from_secs_f64(c.time_limit.max(0.0)),
                max_rows: c.max_rows,
            };
            let rows = bench::netlib_all::run(&c.dir, &plan, |line| eprintln!("{line}"));
            if let (Some(out), Ok(rows)) = (&c.report, &rows) {
                let command = std::env::args().collect::<Vec<_>>().join(" ");
                let command = command.replacen(&std::env::args().next().unwrap_or_default(), "glsolve", 1);
                let run = bench::netlib_all::NetlibAllRun {
                    dir: c.dir.display().to_string(),
                    rows: rows.clone(),
                    separate: Some((command, bench::report::today())),
                    backend: plan.backend,
                    tolerance: c.tolerance.unwrap_or(glsolve::lp::Settings::default_tolerance(plan.backend)),
                    time_limit_s: c.time_limit,
                };
                if let Err(e) = bench::report::json(out, "netlib_all", &run).and_then(|()| bench::report::render(out)) {
                    return super::fail(e);
                }
                eprintln!("wrote {0}/bench/netlib_all.json and re-rendered {0}/results.md", out.display());
            }
            report(rows, |r| bench::netlib_all::markdown(r), &c.json)
        }
        BenchWhat::Lu(c) => super::mixed::bench_lu(c),
        BenchWhat::Lsq(c) => mixed(c, Mixed::Lsq),
        BenchWhat::LsqAccuracy(c) => super::bench_lsq::lsq_accuracy(c),
        BenchWhat::Linsolve(c) => super::mixed::bench_linsolve(c),
        BenchWhat::Dialects(c) => {
            let p = |line: &str| eprintln!("{line}");
            report(bench::dialects::run(c.m, c.reps, p), |b| b.markdown(), &c.json)
        }
        BenchWhat::Cpu(c) => cpu(c),
        BenchWhat::Tiles(c) => super::bench_tiles::tiles(c),
        BenchWhat::All(c) => all(c),
    }
}

fn cpu(a: &CpuArgs) -> ExitCode {
    let plan = bench::cpu_kernels::Plan {
        sizes: a.sizes.clone(),
        reps: a.reps,
        netlib: a.netlib.clone(),
        shapes: a.shapes.clone(),
    };
    let mut result = bench::cpu_run::run(&plan, |line| eprintln!("{line}"));
    if let (Some(out), Ok(b)) = (&a.report, &mut result) {
        let command = std::env::args().collect::<Vec<_>>().join(" ");
        let command = command.replacen(&std::env::args().next().unwrap_or_default(), "glsolve", 1);
        b.provenance = Some((command, bench::report::today()));
        if let Err(e) = bench::report::json(out, "cpu", &*b).and_then(|()| bench::report::render(out)) {
            return super::fail(e);
        }
        eprintln!("wrote {0}/bench/cpu.json and re-rendered {0}/results.md", out.display());
    }
    report(result, bench::cpu_report::markdown, &a.json)
}

fn all(a: &AllArgs) -> ExitCode {
    if a.report_only {
        return match bench::report::render(&a.out) {
            Ok(()) => {
                println!("rewrote {0}/results.md and {0}/plots from {0}/bench/*.json", a.out.display());
                ExitCode::SUCCESS
            }
            Err(e) => super::fail(e),
        };
    }
    let gpu = match super::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    let scope = if a.quick { bench::all::Scope::Quick } else { bench::all::Scope::Full };
    match bench::all::run(&gpu, scope, &a.out, &a.netlib, a.peers.peers().as_ref(), a.netlib_all.as_deref()) {
        Ok(()) => {
            println!("wrote {0}/results.md, {0}/bench/*.json, {0}/plots/*.png and *.svg", a.out.display());
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(e),
    }
}

enum Mixed {
    Lsq,
}

fn mixed(a: &SizesArgs, what: Mixed) -> ExitCode {
    let gpu = match super::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    let r = gpu.info().renderer.clone();
    let p = |line: &str| eprintln!("{line}");
    match what {
        Mixed::Lsq => {
            report(bench::mixed::lsq_tables(&gpu, &a.sizes, p), |x| bench::mixed::lsq_markdown(x, &r), &a.json)
        }
    }
}

fn netlib(a: &NetlibArgs) -> ExitCode {
    let gpu = match super::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    report(bench::netlib::run(&gpu, &a.dir, None, |line| eprintln!("{line}")), |r| r.markdown(), &a.json)
}

fn solve(a: &SolveArgs) -> ExitCode {
    let gpu = match super::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    report(bench::solve::run(&gpu, &a.sizes, a.reps, |line| eprintln!("{line}")), |r| r.markdown(), &a.json)
}

fn assemble(a: &AssembleArgs) -> ExitCode {
    let gpu = match super::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    report(
        bench::assemble::run(&gpu, &a.sizes, a.ratio, &bench::assemble::default_variants(), a.reps, |line| {
            eprintln!("{line}")
        }),
        |r| r.markdown(),
        &a.json,
    )
}

fn cholesky(a: &CholeskyArgs) -> ExitCode {
    let variants = super::variant::expand(&a.variants);
    let gpu = match super::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    let result = bench::cholesky::run(&gpu, &a.sizes, &variants, a.packed, a.reps, |line| eprintln!("{line}"));
    report(result, |r| r.markdown(), &a.json)
}
