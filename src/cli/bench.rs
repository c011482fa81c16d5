//! `glsolve bench …`: the only place speed is measured.
use clap::{Args, Subcommand};
use glsolve::bench;
use glsolve::gl::Gpu;
use glsolve::gpu::cholesky::Variant;
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
    /// Variants (comma-separated names, or `all`): triangle-pair, triangle-triad,
    /// triangle-computed, square-pair, square-triad, square-computed, inner.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    variants: Vec<String>,
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
    }
}

/// Prints a benchmark's Markdown and writes its JSON where asked.
fn report<T: serde::Serialize>(
    result: Result<T, impl std::fmt::Display>,
    markdown: impl Fn(&T) -> String,
    json: &Option<std::path::PathBuf>,
) -> ExitCode {
    match result {
        Ok(r) => {
            println!("{}", markdown(&r));
            match json {
                Some(p) => match super::write_json(p, &r) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => super::fail(e),
                },
                None => ExitCode::SUCCESS,
            }
        }
        Err(e) => super::fail(e),
    }
}

fn solve(a: &SolveArgs) -> ExitCode {
    let gpu = match Gpu::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    report(bench::solve::run(&gpu, &a.sizes, a.reps, |line| eprintln!("{line}")), |r| r.markdown(), &a.json)
}

fn assemble(a: &AssembleArgs) -> ExitCode {
    let gpu = match Gpu::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    report(bench::assemble::run(&gpu, &a.sizes, a.ratio, a.reps, |line| eprintln!("{line}")), |r| r.markdown(), &a.json)
}

pub(crate) fn parse_variants(names: &[String]) -> Result<Vec<Variant>, String> {
    if names.iter().any(|n| n == "all") {
        return Ok(Variant::ALL.to_vec());
    }
    names
        .iter()
        .map(|n| {
            Variant::from_name(n).ok_or_else(|| {
                let known: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
                format!("unknown Cholesky variant {n:?}; known: {}", known.join(", "))
            })
        })
        .collect()
}

fn cholesky(a: &CholeskyArgs) -> ExitCode {
    let variants = match parse_variants(&a.variants) {
        Ok(v) => v,
        Err(e) => return super::fail(e),
    };
    let gpu = match Gpu::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    let result = bench::cholesky::run(&gpu, &a.sizes, &variants, a.packed, a.reps, |line| eprintln!("{line}"));
    report(result, |r| r.markdown(), &a.json)
}
