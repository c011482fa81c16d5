//! `glsolve bench lu` and `glsolve bench linsolve`: the mixed-precision solvers' benchmarks.
use clap::Args;
use std::process::ExitCode;

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
    let rows =
        glsolve_tools::bench::lu::run(&gpu, &a.sizes, &a.blocks, !a.no_unblocked, a.reps, |line| eprintln!("{line}"));
    super::report::report(rows, |x| glsolve_tools::bench::lu::markdown(x, &r), &a.json)
}

/// `glsolve bench linsolve`.
pub fn bench_linsolve(a: &LinsolveBenchArgs) -> ExitCode {
    let gpu = match super::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    let r = gpu.info().renderer.clone();
    let (rows, timeline) = match glsolve_tools::bench::linsolve::run(&gpu, &a.sizes, a.reps, !a.no_unblocked, |line| {
        eprintln!("{line}")
    }) {
        Ok(x) => x,
        Err(e) => return super::fail(e),
    };
    if let (Some(dir), Some(t)) = (&a.plots, &timeline) {
        let written = std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))
            .and_then(|()| glsolve_tools::bench::linsolve::timeline_plots(dir, "lu_timeline", t));
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
    super::report::report(Ok::<_, String>(rows), |x| glsolve_tools::bench::linsolve::markdown(x, &r), &a.json)
}
