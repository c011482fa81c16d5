//! `glsolve bench tiles` as a whole: the run ([`run`]), its JSON (`docs/bench/tiles.json` with
//! `--report`) and the report's section ([`section`]).

use super::secs;
use super::tiles::{assembly, cholesky, KernelRow};
use super::tiles_lp::{self, LpRow};
use crate::gl::Gpu;
use crate::gpu::blocked::Block;
use crate::gpu::cholesky::Variant;
use crate::lp::BackendKind;
use std::fmt::Write as _;

/// What one run measures.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The assembly's (m, n); `None`: no assembly.
    pub assembly: Option<(usize, usize)>,
    pub cholesky: Vec<usize>,
    pub variants: Vec<Variant>,
    pub reps: usize,
    pub lp: Vec<usize>,
    pub lp_reps: usize,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct TilesBench {
    pub renderer: String,
    /// What the context's tile plan is (`glsolve info`'s line).
    pub tiles: String,
    pub draw_buffers: u32,
    /// llvmpipe's rasterizer threads (`LP_NUM_THREADS`, "default" when unset) and the cores.
    pub lp_num_threads: String,
    pub cores: usize,
    pub kernels: Vec<KernelRow>,
    pub lp: Vec<LpRow>,
    /// The command and the date, when written into a report.
    #[serde(default)]
    pub provenance: Option<(String, String)>,
}

/// Runs the kernels, then the LPs.
pub fn run(gpu: &Gpu, plan: &Plan, progress: impl Fn(&str)) -> Result<TilesBench, String> {
    let mut kernels = match plan.assembly {
        Some((m, n)) => assembly(gpu, m, n, plan.reps, &progress)?,
        None => Vec::new(),
    };
    for &m in &plan.cholesky {
        kernels.extend(cholesky(gpu, m, &plan.variants, plan.reps, &progress)?);
    }
    let cases: Vec<(BackendKind, Variant)> = [BackendKind::Gpu, BackendKind::Hybrid]
        .into_iter()
        .flat_map(|b| [Variant::Blocked(Block::B16), Variant::Tiled(Block::B16)].map(|v| (b, v)))
        .collect();
    let lp =
        if plan.lp.is_empty() { Vec::new() } else { tiles_lp::run(gpu, &plan.lp, &cases, plan.lp_reps, 7, &progress)? };
    Ok(TilesBench {
        renderer: gpu.info().renderer.clone(),
        tiles: crate::gpu::tiled::info_line(gpu.info()),
        draw_buffers: gpu.info().max_targets(),
        lp_num_threads: std::env::var("LP_NUM_THREADS").unwrap_or_else(|_| "default".into()),
        cores: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        kernels,
        lp,
        provenance: None,
    })
}

fn fmt_opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or("–".into(), |v| v.to_string())
}

/// The tables: kernels in GFLOP/s beside blocked-16's and faer's, then the LPs.
pub fn markdown(b: &TilesBench) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Renderer: {}, {} draw buffers; register tiles: {}. llvmpipe threads: {} ({} cores). Every row of one operation and size was timed in the same rounds, one run of each per round after a warm-up round; median of the runs stated.\n",
        b.renderer, b.draw_buffers, b.tiles, b.lp_num_threads, b.cores
    );
    if b.kernels.is_empty() {
        s.push_str("(No kernels in this run.)\n");
    }
    s.push_str("| operation | m | n | variant | median | runs | GFLOP/s | / blocked | / faer f32 | fetches per multiply-add | passes | fragments (measured = formula) | error against f64 |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for r in &b.kernels {
        let same = |v: &str| b.kernels.iter().find(|x| x.operation == r.operation && x.m == r.m && x.variant == v);
        let base = if r.operation == "assembly" { "blocked (2×2)" } else { "blocked-16" };
        let ratio = |o: Option<&KernelRow>| o.map_or("–".into(), |o| format!("{:.2}", r.gflops / o.gflops));
        let counted = match (r.fragments, r.predicted_fragments) {
            (Some(f), Some(p)) if f == p => format!("{f} (=)"),
            (Some(f), Some(p)) => format!("{f} (**≠ {p}**)"),
            _ => "–".into(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {:.1} | {} | {} | {} | {} | {} | {:.1e} |",
            r.operation,
            r.m,
            if r.n > 0 { r.n.to_string() } else { "–".into() },
            r.variant,
            secs(r.median_s),
            r.runs.len(),
            r.gflops,
            ratio(same(base)),
            ratio(same("faer f32 (CPU)")),
            r.fetches_per_madd.map_or("–".into(), |f| format!("{f:.3}")),
            fmt_opt(r.passes),
            counted,
            r.error
        );
    }
    s.push_str("\nFlops: the assembly's lower triangle m²n (m(m+1)/2·n multiply-adds, two flops each), the Cholesky m³/3. Error: the assembly's largest |Ĉ − C|/(|A|D²|A|ᵀ) over the lower triangle, the Cholesky's ‖C − L̂L̂ᵀ‖_F/‖C‖_F, both against double precision. faer's rows are its f32 triangular product (the lower triangle of (A·D²)·Aᵀ) and its f32 Cholesky on all cores of the same CPU.\n");
    if !b.lp.is_empty() {
        s.push_str("\nThe LP's GPU backends on the random dense family (seed 7, n = 4m), blocked-16 against tiled-16 interleaved:\n\n| m | backend | variant | status | iterations (GPU) | median solve | runs | per iteration | assemble | factor | solves | blocked / tiled |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for r in &b.lp {
            let before = b.lp.iter().find(|x| x.m == r.m && x.backend == r.backend && x.variant == "blocked-16");
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} ({}) | {} | {} | {} | {} | {} | {} | {} |",
                r.m,
                r.backend.name(),
                r.variant,
                r.status,
                r.iterations,
                fmt_opt(r.gpu_iterations),
                secs(r.median_s),
                r.runs.len(),
                secs(r.per_iteration_s()),
                secs(r.assemble_s),
                secs(r.factor_s),
                secs(r.solve_s),
                before.map_or("–".into(), |x| format!("{:.2}", x.median_s / r.median_s))
            );
        }
    }
    s
}

/// The report's section (when `docs/bench/tiles.json` exists).
pub fn section(b: &TilesBench) -> String {
    let provenance = match &b.provenance {
        Some((command, date)) => format!("Measured by `{command}` on {date}, apart from the rest of this report. "),
        None => String::new(),
    };
    format!(
        "## Register tiles: more output per fragment through multiple render targets\n\n{provenance}The tiled variants compute a 4×4 tile of the result per fragment (8×4 in the assembly where the context has eight draw buffers) and write its 2×2 blocks to four (eight) RGBA targets at once, so each fetched texel serves more multiply-adds (docs/design.md, \"Register tiles\").\n\n{}\n",
        markdown(b)
    )
}
