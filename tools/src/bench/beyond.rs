//! "Beyond the papers": the blocked RGBA kernels and the GPU-resident LP measured beside the
//! papers' one-value-per-fragment design in the same run, the peers (Clarabel, CVXOPT) timed on
//! the same LP file when a Python with them is given, and the GPU memory the blocked LP needs.

use super::assemble::{self, AssembleVariantRow, AssemblyVariant};
use super::cholesky::CholeskyBench;
use super::lp::{random_lp_times, LpBenchRow};
use super::peers::{PeerRow, Peers};
use glsolve::gpu::normal::{self, blocked, NormalOptions};
use glsolve::gpu::TexturePool;
use glsolve::lp::BackendKind;
use glsolve::Block;
use glsolve::Format;
use glsolve::Gpu;
use glsolve::Variant;
use std::fmt::Write as _;

/// The LP of the comparison: the random family's member (m, seed) the issue tracker timed.
pub const LP_SEED: u64 = 7;

/// Texture storage of the blocked LP's normal equations at one size.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct MemoryRow {
    pub m: usize,
    pub n: usize,
    /// [`blocked::texture_bytes`] (asserted equal to the allocation in the tests).
    pub predicted_bytes: u64,
    /// Counted by the GL layer while the system was built here; `None`: not built (too large
    /// for this machine's memory or the driver's texture limit).
    pub measured_bytes: Option<u64>,
}

/// Everything the section reports besides the Cholesky rows of `bench cholesky`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct BeyondBench {
    pub lp_m: usize,
    /// cpu, hybrid and gpu with the blocked kernels, and hybrid and gpu with the papers' design.
    pub lp: Vec<LpBenchRow>,
    pub lp_reps: usize,
    pub peers: Vec<PeerRow>,
    /// Why there are no peer rows, when there are none.
    pub peers_missing: Option<String>,
    /// n = 4m assembly: the papers' per-column passes against the blocked ones.
    pub assemble: Vec<AssembleVariantRow>,
    pub assemble_reps: usize,
    pub memory: Vec<MemoryRow>,
    /// The driver's largest texture side.
    pub texture_limit: usize,
}

/// Sizes of a run.
pub struct BeyondPlan {
    pub lp_m: usize,
    pub lp_reps: usize,
    pub assemble_m: usize,
    pub reps: usize,
    /// Sizes at which the blocked system is built to count its memory.
    pub memory_built: Vec<usize>,
}

/// The largest m of the family (n = 4m) whose blocked LP fits the texture limit: A's texture is
/// M rows of n/4 texels and the factor (M/2)² texels, M = m padded to the block.
pub fn largest_m(limit: usize, block: Block) -> usize {
    let b = block.size();
    (limit / b) * b
}

pub fn run(
    gpu: &Gpu,
    plan: &BeyondPlan,
    peers: Option<&Peers>,
    mut progress: impl FnMut(&str),
) -> Result<BeyondBench, String> {
    let m = plan.lp_m;
    let mut lp = Vec::new();
    for (kind, variant, reps) in [
        (BackendKind::Cpu, Variant::FASTEST, plan.lp_reps),
        (BackendKind::Hybrid, Variant::FASTEST, plan.lp_reps),
        (BackendKind::Gpu, Variant::FASTEST, plan.lp_reps),
        (BackendKind::Hybrid, Variant::PAPER, 1),
        (BackendKind::Gpu, Variant::PAPER, 1),
    ] {
        progress(&format!("LP m={m} {} {}", kind.name(), variant.name()));
        lp.extend(random_lp_times(&[m], LP_SEED, kind, variant, reps, Some(gpu)));
    }
    let (peer_rows, peers_missing) = match peers {
        Some(p) => {
            progress("peers");
            match super::peers::run(p, m, LP_SEED, &std::env::temp_dir()) {
                Ok(r) => (r, None),
                Err(e) => (Vec::new(), Some(format!("the peers failed: {e}"))),
            }
        }
        None => (Vec::new(), Some("not run: no Python with Clarabel and CVXOPT was given (`--peer-python`)".into())),
    };
    progress("assembly n = 4m");
    let variants =
        [AssemblyVariant::PerColumn(Format::Full), AssemblyVariant::Blocked(4), AssemblyVariant::Blocked(usize::MAX)];
    let asm = assemble::run(gpu, &[plan.assemble_m], 4, &variants, plan.reps, |_| {}).map_err(|e| e.to_string())?;
    let limit = gpu.info().max_side() as usize;
    let block = Block::B16;
    let mut memory = Vec::new();
    let mut sizes = plan.memory_built.clone();
    sizes.push(largest_m(limit, block));
    for (k, &mm) in sizes.iter().enumerate() {
        let n = 4 * mm;
        let built = k + 1 < sizes.len();
        let measured = if built {
            progress(&format!("memory m={mm}"));
            Some(measure_memory(gpu, mm, n, block)?)
        } else {
            None
        };
        memory.push(MemoryRow {
            m: mm,
            n,
            predicted_bytes: blocked::texture_bytes(mm, n, block),
            measured_bytes: measured,
        });
    }
    Ok(BeyondBench {
        lp_m: m,
        lp,
        lp_reps: plan.lp_reps,
        peers: peer_rows,
        peers_missing,
        assemble: asm.variants,
        assemble_reps: plan.reps,
        memory,
        texture_limit: limit,
    })
}

/// Builds the blocked system for a random m×n A and counts the texture bytes it holds.
fn measure_memory(gpu: &Gpu, m: usize, n: usize, block: Block) -> Result<u64, String> {
    let a: Vec<f32> = (0..m * n).map(|k| ((k.wrapping_mul(2_654_435_761) >> 7) % 1000) as f32 * 1e-3).collect();
    let opts = NormalOptions {
        variant: Variant::Blocked(block),
        format: Format::Full,
        substitute_on_gpu: true,
        pivot_tolerance: 1e-6,
        columns_per_pass: usize::MAX,
    };
    let before = gpu.texture_bytes().0;
    let sys = normal::build(gpu, &a, m, n, opts, TexturePool::new()).map_err(|e| e.to_string())?;
    let bytes = gpu.texture_bytes().0 - before;
    drop(sys);
    Ok(bytes)
}

fn mib(b: u64) -> String {
    let m = b as f64 / (1024.0 * 1024.0);
    if m >= 1024.0 {
        format!("{:.2} GiB", m / 1024.0)
    } else {
        format!("{m:.1} MiB")
    }
}

/// The report's section.
pub fn section(chol: &CholeskyBench, b: &BeyondBench) -> String {
    let mut s = String::new();
    // The variant the run measured as the LP's default (the rows name it), whatever the default
    // is now.
    let measured =
        b.lp.iter()
            .filter_map(|r| r.variant.as_deref().and_then(Variant::from_name))
            .find(|v| !v.is_paper())
            .unwrap_or(Variant::FASTEST);
    let default = if measured == Variant::FASTEST {
        format!("the LP backends use `{}` by default", measured.name())
    } else {
        format!(
            "the LP rows below were measured with `{}`, the LP backends' default then; it is `{}` now (\"Register tiles\" below)",
            measured.name(),
            Variant::FASTEST.name()
        )
    };
    let _ = writeln!(s, "## Beyond the papers: blocked RGBA kernels and a GPU-resident LP\n");
    let _ = writeln!(s, "The papers' kernels above shade one value per fragment, fetch three texels per multiply-add and issue one pass per column. The blocked variants keep four values per RGBA texel (a 2×2 block of a matrix, four consecutive entries of a vector), accumulate b columns per pass, and factor right-looking in blocks of B: per step a diagonal-block pass, a panel pass and one rank-B update drawn as the oversized triangle over the trailing blocks. The papers' variants stay as they were and remain the defaults of `cholesky`, `show` and the tables above; {default}.\n");
    // Cholesky, from the run's Cholesky rows.
    let t = |m: usize, v: &str| chol.rows.iter().find(|r| r.m == m && r.variant == v);
    let mut ms: Vec<usize> = chol.rows.iter().map(|r| r.m).collect();
    ms.sort_unstable();
    ms.dedup();
    let _ = writeln!(s, "| m | triangle-pair | blocked-16 | triangle / blocked | passes (triangle, blocked) | fetches per multiply-add (triangle, blocked) | repetitions |\n|---|---|---|---|---|---|---|");
    for &m in &ms {
        if let (Some(p), Some(q)) = (t(m, "triangle-pair"), t(m, "blocked-16")) {
            let _ = writeln!(
                s,
                "| {m} | {} | {} | {:.1} | {}, {} | {:.2}, {:.2} | {} |",
                super::secs(p.median_s),
                super::secs(q.median_s),
                p.median_s / q.median_s,
                p.passes,
                q.passes,
                p.fetches_per_madd,
                q.fetches_per_madd,
                p.reps.max(q.reps)
            );
        }
    }
    let _ = writeln!(s);
    // Assembly.
    let a = |name: &str| b.assemble.iter().find(|r| r.variant.starts_with(name));
    let _ = writeln!(s, "Assembly of A·D²·Aᵀ, n = 4m (median of {} interleaved repetitions):\n", b.assemble_reps);
    let _ = writeln!(s, "| variant | m | n | time | passes | fragments | fetches per multiply-add | largest \\|Ĉ − C\\| / (\\|A\\|D²\\|A\\|ᵀ), entry by entry |\n|---|---|---|---|---|---|---|---|");
    for r in &b.assemble {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {:.2} | {:.2e} |",
            r.variant,
            r.m,
            r.n,
            super::secs(r.median_s),
            r.passes,
            r.fragments,
            r.fetches_per_madd,
            r.max_relative_error
        );
    }
    if let (Some(p), Some(q)) = (a("per-column full"), a("blocked b=n")) {
        let _ = writeln!(
            s,
            "\nReading: the single-pass blocked assembly takes 1/{:.1} of the papers' per-column assembly's time at m = {}, n = {}.",
            p.median_s / q.median_s,
            p.m,
            p.n
        );
    }
    let _ = writeln!(s, "A packed (triangle-only) storage of the blocked C was not built: the blocked assembly already shades only the lower triangle's blocks, so packing would save memory but no fragment, no fetch and no pass.\n");
    // The LP.
    let _ = writeln!(
        s,
        "### The random LP m = {} (seed {}, n = {}) on every backend, and the peers on the same file\n",
        b.lp_m,
        LP_SEED,
        4 * b.lp_m
    );
    let _ = writeln!(s, "| backend | Cholesky variant | status | iterations (GPU) | median solve | assemble | factor | solves | rest | repetitions | bytes read back per iteration | bytes read back outside the iterations | textures created after the first iteration | texture memory (peak) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in &b.lp {
        let its = r.gpu_iterations.map_or(r.iterations.to_string(), |g| format!("{} ({g})", r.iterations));
        let reps = if r.variant.as_deref() == Some(Variant::PAPER.name()) { 1 } else { b.lp_reps };
        let _ = writeln!(
            s,
            "| {} | {} | {:?} | {its} | {} | {} | {} | {} | {} | {reps} | {} | {} | {} | {} |",
            r.backend.name(),
            r.variant.as_deref().unwrap_or("– (f64 CPU)"),
            r.status,
            super::secs(r.median.as_secs_f64()),
            super::secs(r.assemble.as_secs_f64()),
            super::secs(r.factor.as_secs_f64()),
            super::secs(r.solve.as_secs_f64()),
            super::secs(r.rest().as_secs_f64()),
            r.read_back_per_iteration.map_or("–".into(), |v| format!("{v:.0}")),
            r.read_back_outside_iterations.map_or("–".into(), |v| format!("{v:.0}")),
            r.textures_created_after_first.map_or("–".into(), |v| v.to_string()),
            r.texture_bytes_peak.map_or("–".into(), mib),
        );
    }
    let row = |k: BackendKind, v: Variant| {
        b.lp.iter().find(|r| r.backend == k && r.variant.as_deref().is_none_or(|n| n == v.name()))
    };
    let time = |k: BackendKind, v: Variant| row(k, v).map(|r| r.median.as_secs_f64());
    // Time and iterations (blocked, papers'): the ratio mixes faster iterations with any
    // difference in their number, so both counts are stated.
    let compare = |k: BackendKind| match (row(k, Variant::PAPER), row(k, measured)) {
        (Some(old), Some(new)) => Some(format!(
            "1/{:.1} of its time with the papers' kernels ({} iterations against {})",
            old.median.as_secs_f64() / new.median.as_secs_f64(),
            new.iterations,
            old.iterations
        )),
        _ => None,
    };
    if let Some(gpu) = compare(BackendKind::Gpu) {
        let _ = write!(s, "\nReading: the gpu backend with the blocked kernels takes {gpu}");
        if let Some(hybrid) = compare(BackendKind::Hybrid) {
            let _ = write!(s, "; the hybrid backend {hybrid}");
        }
        let _ = writeln!(s, ".");
    }
    if b.peers.is_empty() {
        let _ = writeln!(s, "\nPeers: {}.\n", b.peers_missing.as_deref().unwrap_or("none"));
    } else {
        let _ = writeln!(s, "\n| peer | its solve time (its own clock) | what it printed (status, objective, iterations) | glsolve cpu / peer | glsolve hybrid / peer | glsolve gpu / peer |\n|---|---|---|---|---|---|");
        for p in &b.peers {
            let ratio = |k| time(k, measured).map_or("–".into(), |t| format!("{:.2}", t / p.seconds));
            let _ = writeln!(
                s,
                "| {} | {:.3} s | {} | {} | {} | {} |",
                p.peer,
                p.seconds,
                p.report,
                ratio(BackendKind::Cpu),
                ratio(BackendKind::Hybrid),
                ratio(BackendKind::Gpu)
            );
        }
        let _ = writeln!(s, "\nglsolve's time is the whole solve (reading the model into standard form, the loop, the final check); a peer's is its solver call. Both ran on this machine's 2 cores in the same run.\n");
    }
    let _ = writeln!(s, "{}", super::lp::details(&b.lp));
    let _ = writeln!(s, "Bytes per iteration are those of iterations 2 to the last (a solve stopped after one iteration, subtracted from the whole solve, removes the work before and after the loop); what a solve reads back before or after its loop is in the column beside it.");
    if let Some(g) = row(BackendKind::Gpu, measured).filter(|r| r.read_back_per_iteration.is_some()) {
        let per = g.read_back_per_iteration.unwrap_or(0.0);
        let iterate_bytes = 4.0 * (2 * g.n + g.m) as f64;
        let _ = writeln!(
            s,
            "On the all-GPU path with the blocked kernels an iteration reads back {per:.0} bytes ({:.0} floats: the results of the reductions that decide the step lengths and termination), the factor never; one iterate (x, λ, s in single precision) is {iterate_bytes:.0} bytes, read back only at the end.",
            per / 4.0
        );
    }
    let _ = writeln!(s, "The blocked kernels' textures are made in the first iteration and reused (a texture pool), so the column of textures created afterwards reads 0. The papers' design, kept as it was, makes its Cholesky's textures per factorization.\n");
    // Memory.
    let _ = writeln!(s, "### GPU memory of the blocked LP (n = 4m, B = 16)\n");
    let _ = writeln!(
        s,
        "| m | n | textures of the normal equations (formula) | counted while built here |\n|---|---|---|---|"
    );
    for r in &b.memory {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} |",
            r.m,
            r.n,
            mib(r.predicted_bytes),
            r.measured_bytes.map_or("not built (computed only)".into(), mib)
        );
    }
    let _ = writeln!(s, "\nThe formula (`gpu::normal::blocked::texture_bytes`): three (M/2)² RGBA32F texel matrices for S, T and the factor, A and A·D² as M rows of n/4 texels, and a few vectors; M is m padded to the block. The largest m is set by the driver's texture side ({} here): A's texture has m rows. The iterate vectors (a few dozen of n/4 texels) come on top.\n", b.texture_limit);
    s
}
