//! `glsolve bench cpu`: each hand-written piece of the CPU path beside the library call it stands
//! in for, in one run — per kernel and end to end (the random dense family on the cpu backend,
//! and the NETLIB folder's total time) — medians of interleaved repetitions, and the verdict of
//! the rule that a piece stays only where it wins [`KERNEL_RULE`]× on its kernel and
//! [`END_TO_END_RULE`] end to end at every size m ≥ [`RULE_MIN_ROWS`].
//!
//! Each piece is switched at run time through [`CpuPaths`]. Repetitions are interleaved — every round
//! runs each variant once, starting from a different one — so that drift in the machine's load
//! falls on all of them alike.

//!
//! This module holds the pieces, the variants and the rule; `cpu_kernels` times the kernels,
//! `cpu_run` the end-to-end cases and the whole run.

use glsolve::machine::CpuPaths;
use glsolve::machine::Kernels;
use std::time::Instant;

/// The kernel ratio (library time / own time) a piece must reach at every case with m ≥
/// [`RULE_MIN_ROWS`].
pub const KERNEL_RULE: f64 = 1.3;
/// The end-to-end gain (library time / own time − 1) a piece must reach at every size of the
/// dense family with m ≥ [`RULE_MIN_ROWS`].
pub const END_TO_END_RULE: f64 = 0.05;
/// The smallest m the rule looks at.
pub const RULE_MIN_ROWS: usize = 512;

/// A hand-written piece and its library alternative.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Piece {
    /// `cpu::syrk`'s f64 kernels against faer's triangular product (deleted after the recorded
    /// run: named for its rows).
    Syrk,
    /// `cpu::syrk`'s reduced-precision kernels (f32; bf16 pairs on AMX where the CPU has it)
    /// against faer's f32 triangular product per k block.
    SyrkReduced,
    /// `cpu::column_pass` against two faer products.
    ColumnPass,
    /// `cpu::spin_join` against `rayon::join` (deleted after the recorded run: named for its
    /// rows).
    SpinJoin,
    /// `cpu::huge_pages` against the system allocator (deleted after the recorded run: named
    /// for its rows).
    HugePages,
}

impl Piece {
    /// Every piece this build has.
    pub fn all() -> Vec<Piece> {
        let mut all = Vec::new();
        if cfg!(target_arch = "x86_64") {
            all.extend([Piece::SyrkReduced, Piece::ColumnPass]);
        }
        all
    }

    /// The piece and its alternative, for the tables.
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            Piece::Syrk => ("cpu/syrk f64 kernels", "faer triangular matmul"),
            Piece::SyrkReduced => ("cpu/syrk reduced-precision kernels", "faer f32 triangular matmul per k block"),
            Piece::ColumnPass => ("cpu/column_pass", "two faer matmul (gemv)"),
            Piece::SpinJoin => ("cpu/spin_join", "rayon::join"),
            Piece::HugePages => ("cpu/huge_pages", "system allocator"),
        }
    }
}

/// Sets up one variant: every piece its own code, except `library`, which runs its alternative.
pub(super) fn variant(library: Option<Piece>) -> CpuPaths {
    let mut p = CpuPaths::default();
    match library {
        Some(Piece::SyrkReduced) => p.reduced = Kernels::Portable,
        Some(Piece::ColumnPass) => p.pass = Kernels::Portable,
        Some(Piece::Syrk | Piece::SpinJoin | Piece::HugePages) | None => {}
    }
    p
}

/// One kernel case: median seconds of the piece's own code and of the library call.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct KernelRow {
    pub piece: Piece,
    pub case: String,
    /// Rows of the case (the rule looks at m ≥ [`RULE_MIN_ROWS`]).
    pub m: usize,
    pub own_s: f64,
    pub library_s: f64,
    pub reps: usize,
}

/// One end-to-end case: median seconds with every piece its own, and with each piece replaced.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct EndRow {
    /// `random M` (seed 7) or `netlib total`.
    pub case: String,
    /// m of the random LP; 0 for the NETLIB total.
    pub m: usize,
    pub reps: usize,
    pub own_s: f64,
    /// Per piece: the median with that piece's library alternative.
    pub library_s: Vec<(Piece, f64)>,
    /// Every variant's statuses, iterations and objectives agreed (the last repetition's).
    pub same_results: bool,
    /// Iterations of the variant with every piece its own (summed over NETLIB).
    pub iterations: usize,
}

/// A piece's verdict under the rule.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Verdict {
    pub piece: Piece,
    /// The smallest kernel ratio (library / own) over its cases with m ≥ [`RULE_MIN_ROWS`].
    pub kernel_ratio: f64,
    /// The smallest end-to-end gain (library / own − 1) over the dense family at m ≥
    /// [`RULE_MIN_ROWS`].
    pub end_to_end_gain: f64,
    pub keep: bool,
}

/// A whole run.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CpuBench {
    pub kernels: Vec<KernelRow>,
    pub end_to_end: Vec<EndRow>,
    pub verdicts: Vec<Verdict>,
    /// The CPU's best kernels and rayon's threads.
    pub machine: String,
    /// The command and date, when written into a report.
    #[serde(default)]
    pub provenance: Option<(String, String)>,
    /// What followed the verdicts (the commits that deleted the replaced pieces, the dense
    /// family before and after), markdown written into the run's JSON by hand, rendered after
    /// the verdicts; a new run starts without it.
    #[serde(default)]
    pub after: Option<String>,
}

/// `reps` rounds of every closure, each round starting at a different one; in a round each
/// closure runs once untimed (so that it starts from its own steady state: the threads of the
/// previous closure asleep or spinning as its own leave them), then, after `gap` seconds of
/// work on this thread, once timed. Median seconds per closure.
pub(super) fn interleaved(reps: usize, gap: f64, runs: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    let k = runs.len();
    let mut times = vec![Vec::with_capacity(reps); k];
    for r in 0..reps.max(1) {
        for i in 0..k {
            let v = (r + i) % k;
            runs[v]();
            let spin = Instant::now();
            while spin.elapsed().as_secs_f64() < gap {
                std::hint::spin_loop();
            }
            let t = Instant::now();
            runs[v]();
            times[v].push(t.elapsed().as_secs_f64());
        }
    }
    times.into_iter().map(median).collect()
}

pub(super) fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => 0.5 * (v[n / 2 - 1] + v[n / 2]),
    }
}

/// The rule applied to one piece.
pub fn verdict(piece: Piece, kernels: &[KernelRow], end: &[EndRow]) -> Verdict {
    let kernel_ratio = kernels
        .iter()
        .filter(|r| r.piece == piece && r.m >= RULE_MIN_ROWS)
        .map(|r| r.library_s / r.own_s)
        .fold(f64::INFINITY, f64::min);
    let end_to_end_gain = end
        .iter()
        .filter(|r| r.m >= RULE_MIN_ROWS)
        .filter_map(|r| r.library_s.iter().find(|(p, _)| *p == piece).map(|(_, t)| t / r.own_s - 1.0))
        .fold(f64::INFINITY, f64::min);
    let keep = kernel_ratio >= KERNEL_RULE && end_to_end_gain >= END_TO_END_RULE;
    Verdict { piece, kernel_ratio, end_to_end_gain, keep }
}
