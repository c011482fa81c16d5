//! `glsolve bench tiles` as a whole: the run ([`run`]), its JSON (`docs/bench/tiles.json` with
//! `--report`) and the report's section ([`section`]).

use super::secs;
use super::tiles::{assembly, cholesky, KernelRow};
use super::tiles_lp::{self, LpRow};
use glsolve::lp::BackendKind;
use glsolve::Block;
use glsolve::Gpu;
use glsolve::Variant;
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
    /// The CPU faer's rows ran on (/proc/cpuinfo's model name).
    #[serde(default)]
    pub cpu: String,
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
        tiles: glsolve::gpu::tiled::info_line(gpu.info()),
        draw_buffers: gpu.info().max_targets(),
        lp_num_threads: std::env::var("LP_NUM_THREADS").unwrap_or_else(|_| "default".into()),
        cores: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        cpu: cpu_model(),
        kernels,
        lp,
        provenance: None,
    })
}

/// The CPU's model name, as Linux names it ("unknown" elsewhere).
fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let name =
        info.lines().find_map(|l| l.strip_prefix("model name")?.split_once(':').map(|(_, v)| v.trim().to_string()));
    name.unwrap_or_else(|| "unknown".into())
}

fn fmt_opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or("–".into(), |v| v.to_string())
}

/// The tables: kernels in GFLOP/s beside blocked-16's and faer's, then the LPs.
pub fn markdown(b: &TilesBench) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Renderer: {}, {} draw buffers; register tiles: {}. CPU: {}, {} cores; llvmpipe threads: {}. Every row of one operation and size was timed in the same rounds, one run of each per round after a warm-up round; median of the runs stated.\n",
        b.renderer,
        b.draw_buffers,
        b.tiles,
        if b.cpu.is_empty() { "unknown" } else { &b.cpu },
        b.cores,
        b.lp_num_threads
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
    s.push_str(&reading(b));
    s
}

/// One sentence per operation and size: the fastest tiled variant against blocked-16 (the
/// assembly: the blocked 2×2 kernel) and faer f32, against the targets (3× and ⅓).
fn reading(b: &TilesBench) -> String {
    let mut s = String::new();
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for r in &b.kernels {
        if seen.contains(&(r.operation.as_str(), r.m)) {
            continue;
        }
        seen.push((&r.operation, r.m));
        let of = |v: &str| b.kernels.iter().find(|x| x.operation == r.operation && x.m == r.m && x.variant == v);
        let base = if r.operation == "assembly" { "blocked (2×2)" } else { "blocked-16" };
        let best = b
            .kernels
            .iter()
            .filter(|x| x.operation == r.operation && x.m == r.m && x.variant.starts_with("tiled"))
            .max_by(|x, y| x.gflops.total_cmp(&y.gflops));
        if let (Some(t), Some(base), Some(faer)) = (best, of(base), of("faer f32 (CPU)")) {
            let (vs_base, vs_faer) = (t.gflops / base.gflops, t.gflops / faer.gflops);
            let _ = writeln!(
                s,
                "- {} m = {}: {} at {:.1} GFLOP/s, {:.2}× {} (target ≥ 3: {}) and {:.2} of faer f32's {:.1} GFLOP/s (target ≥ ⅓: {}).",
                r.operation,
                r.m,
                t.variant,
                t.gflops,
                vs_base,
                base.variant,
                if vs_base >= 3.0 { "met" } else { "not met" },
                vs_faer,
                faer.gflops,
                if vs_faer >= 1.0 / 3.0 { "met" } else { "not met" }
            );
        }
    }
    for r in b.lp.iter().filter(|r| r.variant != "blocked-16") {
        if let Some(before) = b.lp.iter().find(|x| x.m == r.m && x.backend == r.backend && x.variant == "blocked-16") {
            let _ = writeln!(
                s,
                "- LP m = {}, {} backend: {} took {:.2} of blocked-16's time ({} against {} iterations; {:.2} per iteration).",
                r.m,
                r.backend.name(),
                r.variant,
                r.median_s / before.median_s,
                r.iterations,
                before.iterations,
                r.per_iteration_s() / before.per_iteration_s()
            );
        }
    }
    if s.is_empty() {
        s
    } else {
        format!("\nReading:\n\n{s}")
    }
}

/// The report's section (when `docs/bench/tiles.json` exists).
pub fn section(b: &TilesBench) -> String {
    let provenance = match &b.provenance {
        Some((command, date)) => format!("Measured by `{command}` on {date}, apart from the rest of this report. "),
        None => String::new(),
    };
    format!(
        "## Register tiles: more output per fragment through multiple render targets\n\n{provenance}The tiled variants compute a 4×4 tile of the result per fragment (8×4 in the assembly where the context has eight draw buffers) and write its 2×2 blocks to four (eight) RGBA targets at once, so each fetched texel serves more multiply-adds (docs/design.md, \"Register tiles\"). The renderer below is the device these rows ran on; on a machine with a GPU the same tables come from `scripts/device/register_tiles.sh`.\n\n{}\n",
        markdown(b)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(operation: &str, variant: &str, m: usize, gflops: f64) -> KernelRow {
        KernelRow {
            operation: operation.into(),
            variant: variant.into(),
            m,
            n: 0,
            runs: vec![1.0],
            median_s: 1.0,
            gflops,
            fetches_per_madd: None,
            passes: Some(3),
            fragments: Some(10),
            predicted_fragments: Some(10),
            error: 1e-7,
        }
    }

    fn lp(backend: BackendKind, variant: &str, median_s: f64, iterations: usize) -> LpRow {
        LpRow {
            m: 512,
            n: 2048,
            seed: 7,
            backend,
            variant: variant.into(),
            status: "optimal".into(),
            iterations,
            gpu_iterations: None,
            runs: vec![median_s],
            median_s,
            assemble_s: 0.0,
            factor_s: 0.0,
            solve_s: 0.0,
            objective: 1.0,
        }
    }

    fn bench(kernels: Vec<KernelRow>, lp: Vec<LpRow>) -> TilesBench {
        TilesBench {
            renderer: "r".into(),
            tiles: "t".into(),
            draw_buffers: 8,
            lp_num_threads: "default".into(),
            cores: 2,
            cpu: "c".into(),
            kernels,
            lp,
            provenance: None,
        }
    }

    #[test]
    fn the_reading_meets_a_target_only_at_or_above_it() {
        // Binary fractions, so that the ratios are exact: 3× blocked-16 and ⅜ of faer meet both
        // targets; 2.9375× and 21/64 (< ⅓) meet neither.
        let rows = |tiled: f64| {
            vec![
                kernel("Cholesky", "blocked-16", 1024, 4.0),
                kernel("Cholesky", "tiled-16", 1024, tiled),
                kernel("Cholesky", "faer f32 (CPU)", 1024, 32.0),
            ]
        };
        let met = reading(&bench(rows(12.0), Vec::new()));
        assert!(met.contains("3.00× blocked-16 (target ≥ 3: met)"), "{met}");
        assert!(met.contains("0.38 of faer f32's 32.0 GFLOP/s (target ≥ ⅓: met)"), "{met}");
        let short = reading(&bench(rows(11.75), Vec::new()));
        assert!(short.contains("2.94× blocked-16 (target ≥ 3: not met)"), "{short}");
        let below_third = reading(&bench(rows(10.5), Vec::new()));
        assert!(below_third.contains("0.33 of faer f32's 32.0 GFLOP/s (target ≥ ⅓: not met)"), "{below_third}");
        assert!(!below_third.contains(": met"), "{below_third}");
    }

    #[test]
    fn the_reading_takes_the_fastest_tiled_variant_and_the_assemblys_own_baseline() {
        let kernels = vec![
            kernel("assembly", "blocked (2×2)", 1024, 5.0),
            kernel("assembly", "tiled 4×4", 1024, 7.5),
            kernel("assembly", "tiled 8×4", 1024, 10.0),
            kernel("assembly", "faer f32 (CPU)", 1024, 40.0),
            // A blocked-16 row of another operation must not stand in for the assembly's.
            kernel("Cholesky", "blocked-16", 1024, 1.0),
        ];
        let s = reading(&bench(kernels, Vec::new()));
        assert!(s.contains("assembly m = 1024: tiled 8×4 at 10.0 GFLOP/s, 2.00× blocked (2×2)"), "{s}");
        // No Cholesky sentence: that size has no tiled or faer row.
        assert!(!s.contains("Cholesky m ="), "{s}");
    }

    #[test]
    fn the_reading_compares_each_lp_with_blocked_16_on_its_own_backend() {
        let rows = vec![
            lp(BackendKind::Gpu, "blocked-16", 4.0, 20),
            lp(BackendKind::Gpu, "tiled-16", 3.0, 10),
            lp(BackendKind::Hybrid, "blocked-16", 2.0, 12),
            lp(BackendKind::Hybrid, "tiled-16", 1.0, 12),
        ];
        let b = bench(Vec::new(), rows);
        // The table's last column: blocked-16's time over the row's.
        let md = markdown(&b);
        let row =
            |backend: &str| md.lines().find(|l| l.contains(&format!("| {backend} | tiled-16 |"))).unwrap_or_default();
        assert!(row("gpu").ends_with("| 1.33 |") && row("hybrid").ends_with("| 2.00 |"), "{md}");
        let s = reading(&b);
        assert!(
            s.contains(
                "gpu backend: tiled-16 took 0.75 of blocked-16's time (10 against 20 iterations; 1.50 per iteration)"
            ),
            "{s}"
        );
        assert!(s.contains("hybrid backend: tiled-16 took 0.50 of blocked-16's time (12 against 12 iterations; 0.50 per iteration)"), "{s}");
    }

    #[test]
    fn a_fragment_count_off_its_formula_is_marked() {
        let mut off = kernel("Cholesky", "tiled-16", 64, 1.0);
        off.fragments = Some(11);
        let s = markdown(&bench(vec![kernel("Cholesky", "blocked-16", 64, 1.0), off], Vec::new()));
        assert!(s.contains("| 10 (=) |"), "{s}");
        assert!(s.contains("| 11 (**≠ 10**) |"), "{s}");
    }
}
