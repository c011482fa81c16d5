//! `glsolve bench tiles`: the register-tile kernels against the blocked ones and faer, and the
//! LP's GPU backends before and after.
use super::report::report;
use clap::Args;
use glsolve_tools::bench;
use std::process::ExitCode;

#[derive(Args)]
pub struct TilesArgs {
    /// The assembly's m and n (A is m × n).
    #[arg(long, value_delimiter = ',', default_value = "1024,4096")]
    assembly: Vec<usize>,
    /// Orders of the Cholesky factorizations.
    #[arg(long, value_delimiter = ',', default_value = "1024,2048")]
    cholesky: Vec<usize>,
    /// Blocked and tiled variants of the Cholesky.
    #[arg(long, value_delimiter = ',', default_value = "blocked-16,tiled-16,tiled-32", value_parser = super::named::named::<glsolve::Variant>())]
    variants: Vec<glsolve::Variant>,
    /// Timed rounds of the kernels (after a warm-up round).
    #[arg(long, default_value_t = 5)]
    reps: usize,
    /// Orders m of the random LPs (n = 4m) on the gpu and hybrid backends; empty: none.
    #[arg(long, value_delimiter = ',', default_value = "512,1024,2048")]
    lp: Vec<usize>,
    /// Timed rounds of the LPs (after a warm-up round at the first size); odd, for a middle run.
    #[arg(long, default_value_t = 3)]
    lp_reps: usize,
    /// No LPs (the kernels only).
    #[arg(long)]
    no_lp: bool,
    /// No kernels (the LPs only).
    #[arg(long, conflicts_with = "no_lp")]
    no_kernels: bool,
    /// Also write the results as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
    /// Put the tables into the report of an earlier `bench all` run in this folder (its
    /// bench/tiles.json, then results.md re-rendered), stating this run's command and date.
    #[arg(long, value_name = "OUT")]
    report: Option<std::path::PathBuf>,
}

pub fn tiles(a: &TilesArgs) -> ExitCode {
    let variants = a.variants.clone();
    if let Some(v) = variants.iter().find(|v| v.is_paper()) {
        return super::fail(format!("--variants: {v} is not a blocked or tiled variant"));
    }
    if a.assembly.len() != 2 || a.assembly.contains(&0) || a.cholesky.contains(&0) || a.lp.contains(&0) {
        return super::fail("--assembly takes m,n and every size must be at least 1");
    }
    let gpu = match super::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    let plan = bench::tiles_report::Plan {
        assembly: (!a.no_kernels).then_some((a.assembly[0], a.assembly[1])),
        cholesky: if a.no_kernels { Vec::new() } else { a.cholesky.clone() },
        variants,
        reps: a.reps,
        lp: if a.no_lp { Vec::new() } else { a.lp.clone() },
        lp_reps: a.lp_reps,
    };
    let mut result = bench::tiles_report::run(&gpu, &plan, |line| eprintln!("{line}"));
    if let (Some(out), Ok(b)) = (&a.report, &mut result) {
        let command = std::env::args().collect::<Vec<_>>().join(" ");
        let command = command.replacen(&std::env::args().next().unwrap_or_default(), "glsolve", 1);
        b.provenance = Some((command, bench::report::today()));
        if let Err(e) = bench::report::json(out, "tiles", &*b).and_then(|()| bench::report::render(out)) {
            return super::fail(e);
        }
        eprintln!("wrote {0}/bench/tiles.json and re-rendered {0}/results.md", out.display());
    }
    report(result, bench::tiles_report::markdown, &a.json)
}
