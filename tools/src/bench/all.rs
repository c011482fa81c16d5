//! `glsolve bench all`: every measurement of the report, in one run, written to `docs/`:
//! `docs/bench/*.json` (machine-readable), `docs/plots/*.png` (and `.svg`), and `docs/results.md`, whose every
//! number comes from this run (the papers' own numbers are quoted from the papers).

use super::report::{json, render, today, RunInfo};
pub use super::Scope;
use super::{assemble, cholesky, counts, linsolve, lu as lu_bench, mixed, netlib, solve};
use glsolve::lp::BackendKind;
use glsolve::Domain;
use glsolve::Gpu;
use glsolve::IndexSource;
use glsolve::Variant;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;

struct Plan {
    cholesky: Vec<usize>,
    cholesky_big: Vec<usize>,
    assemble: Vec<usize>,
    solve: Vec<usize>,
    mixed: Vec<usize>,
    /// Panel widths of the blocked LU benchmark.
    lu_blocks: Vec<usize>,
    lp: Vec<usize>,
    netlib: Option<&'static [&'static str]>,
    reps: usize,
    beyond: super::beyond::BeyondPlan,
}

fn plan(scope: Scope) -> Plan {
    match scope {
        Scope::Quick => Plan {
            cholesky: vec![128, 256],
            cholesky_big: vec![],
            assemble: vec![128, 256],
            solve: vec![128, 256],
            mixed: vec![128, 256],
            lu_blocks: vec![32],
            lp: vec![64, 128],
            netlib: Some(&["afiro", "adlittle", "sc50b", "blend", "beaconfd"]),
            reps: 2,
            beyond: super::beyond::BeyondPlan { lp_m: 64, lp_reps: 1, assemble_m: 64, reps: 2, memory_built: vec![64] },
        },
        Scope::Full => Plan {
            cholesky: vec![256, 512, 1024],
            cholesky_big: vec![2048],
            assemble: vec![512, 1024],
            solve: vec![256, 512, 1024, 2048],
            mixed: vec![512, 1024, 1536, 2048],
            lu_blocks: vec![16, 32, 64],
            lp: vec![128, 256, 512, 1024],
            netlib: None,
            reps: 5,
            beyond: super::beyond::BeyondPlan {
                lp_m: 512,
                lp_reps: 3,
                assemble_m: 512,
                reps: 5,
                memory_built: vec![512, 4096],
            },
        },
    }
}

/// Runs everything and writes the report under `out` (normally `docs/`).
pub fn run(
    gpu: &Gpu,
    scope: Scope,
    out: &Path,
    netlib_dir: &Path,
    peers: Option<&super::peers::Peers>,
    netlib_all: Option<&Path>,
) -> Result<(), String> {
    let p = plan(scope);
    let bar = ProgressBar::new(11);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}").map_err(|e| e.to_string())?,
    );
    let step = |msg: &str| {
        bar.set_message(msg.to_string());
        bar.inc(1);
    };
    let quiet = |_: &str| {};
    let info = gpu.info().clone();

    bar.set_message("fragment counts");
    let count_m = 64;
    let counts = counts::run(gpu, count_m).map_err(|e| e.to_string())?;
    json(out, "counts", &counts)?;
    step("Cholesky variants");
    let mut chol = cholesky::run(gpu, &p.cholesky, &Variant::all().collect::<Vec<_>>(), true, p.reps, quiet)
        .map_err(|e| e.to_string())?;
    if !p.cholesky_big.is_empty() {
        // At the largest size only the comparisons the report reads: the papers' triangle and
        // square domains, blocked-16 and the LP's default (each paper variant takes tens of
        // seconds per run there on a software rasterizer).
        let square = Variant::Outer { domain: Domain::Square, index: IndexSource::Pair };
        let mut big_variants = vec![Variant::PAPER, square, Variant::Blocked(glsolve::Block::B16)];
        if !big_variants.contains(&Variant::FASTEST) {
            big_variants.push(Variant::FASTEST);
        }
        let big = cholesky::run(gpu, &p.cholesky_big, &big_variants, false, p.reps.min(3), quiet)
            .map_err(|e| e.to_string())?;
        chol.rows.extend(big.rows);
        chol.cpu.extend(big.cpu);
    }
    json(out, "cholesky", &chol)?;
    step("assembly");
    let variants = assemble::default_variants();
    let mut asm = assemble::run(gpu, &p.assemble, 2, &variants, p.reps, quiet).map_err(|e| e.to_string())?;
    if scope == Scope::Full {
        let big = assemble::run(gpu, &[2048], 2, &variants, 1, quiet).map_err(|e| e.to_string())?;
        asm.rows.extend(big.rows);
        asm.variants.extend(big.variants);
    }
    json(out, "assemble", &asm)?;
    step("substitution");
    let sol = solve::run(gpu, &p.solve, p.reps, quiet).map_err(|e| e.to_string())?;
    json(out, "solve", &sol)?;
    step("LU: blocked, unblocked, faer; Cholesky");
    let lu = lu_bench::run(gpu, &p.mixed, &p.lu_blocks, true, p.reps.min(3), quiet).map_err(|e| e.to_string())?;
    json(out, "lu", &lu)?;
    step("weighted least squares");
    let lsq = mixed::lsq_tables(gpu, &p.mixed, quiet).map_err(|e| e.to_string())?;
    json(out, "lsq", &lsq)?;
    step("mixed-precision LU solver");
    let (lin, timeline) = linsolve::run(gpu, &p.mixed, p.reps.min(3), true, quiet).map_err(|e| e.to_string())?;
    json(out, "linsolve", &lin)?;
    if let Some(t) = &timeline {
        json(out, "linsolve_timeline", t)?;
    }
    step("NETLIB");
    let net = netlib::run(gpu, netlib_dir, p.netlib, quiet)?;
    json(out, "netlib", &net)?;
    step("random LPs");
    let mut lp = Vec::new();
    for kind in [BackendKind::Cpu, BackendKind::Hybrid, BackendKind::Gpu] {
        for &m in &p.lp {
            lp.extend(crate::bench::lp::random_lp_times(&[m], 1, kind, Variant::FASTEST, 1, Some(gpu)));
        }
    }
    json(out, "lp", &lp)?;
    step("beyond the papers: blocked kernels, the LP against its peers, memory");
    let beyond = super::beyond::run(gpu, &p.beyond, peers, quiet)?;
    json(out, "beyond", &beyond)?;
    if let Some(dir) = netlib_all {
        bar.set_message("every NETLIB problem of a folder on the cpu backend");
        let plan = super::netlib_all::Plan {
            backend: glsolve::lp::BackendKind::Cpu,
            tolerance: Some(1e-8),
            time_limit: std::time::Duration::from_secs(120),
            max_rows: None,
        };
        let rows = super::netlib_all::run(dir, &plan, quiet)?;
        json(
            out,
            "netlib_all",
            &super::netlib_all::NetlibAllRun {
                dir: dir.display().to_string(),
                rows,
                separate: None,
                backend: plan.backend,
                tolerance: 1e-8,
                time_limit_s: 120.0,
            },
        )?;
    } else {
        // A report never shows the list of an earlier run as if it were this one's.
        let _ = std::fs::remove_file(out.join("bench").join("netlib_all.json"));
    }
    let mut options = String::new();
    if let Some(p) = peers {
        options += &format!(" --peer-python {} --peer-scripts {}", p.python.display(), p.scripts.display());
    }
    if let Some(d) = netlib_all {
        options += &format!(" --netlib-all {}", d.display());
    }
    json(out, "run", &RunInfo { info, scope, date: today(), count_m, options, remeasured: Vec::new() })?;
    step("plots and report");
    render(out)?;
    bar.finish_with_message("done");
    Ok(())
}
