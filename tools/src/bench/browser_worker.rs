//! What the package's worker costs and what it buys, for the report's "In the browser" section:
//! the gpu solve in the worker against the same solve on the page's thread, reading by reading
//! (`docs/bench/worker.json`, from `node web/bench.mjs worker`), and the page's longest frame
//! gaps during a solve (`docs/bench/framegap.json`, from `node web/bench.mjs framegap`).

use super::cpu::median;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The machine a browser run was measured on.
#[derive(Deserialize, Default)]
pub struct Machine {
    pub cpus: usize,
    pub load_before: f64,
    #[serde(default)]
    pub load_after: f64,
}

/// `docs/bench/worker.json`: per browser, the interleaved pairs (worker, main, worker, main, …).
#[derive(Deserialize)]
pub struct WorkerCost {
    pub date: String,
    pub reps: usize,
    pub machine: Machine,
    pub versions: BTreeMap<String, String>,
    pub browsers: BTreeMap<String, CostRuns>,
}

#[derive(Deserialize)]
pub struct CostRuns {
    pub renderer: Option<String>,
    pub pairs: Vec<CostPair>,
}

/// One LP, both modes.
#[derive(Deserialize)]
pub struct CostPair {
    pub m: usize,
    pub n: usize,
    pub worker: Readings,
    pub main: Readings,
}

/// One mode's readings in the order taken: the page's wall clock and the solve's own.
#[derive(Deserialize)]
pub struct Readings {
    pub status: String,
    pub iterations: usize,
    pub wall_s: Vec<f64>,
    pub own_s: Vec<f64>,
}

/// "median (every reading)".
fn readings(v: &[f64]) -> String {
    let all: Vec<String> = v.iter().map(|x| format!("{x:.2}")).collect();
    format!("{:.2} s ({})", median(v.to_vec()), all.join(", "))
}

/// The median of wall − own clock, run by run: the call's time outside the solve.
fn outside(r: &Readings) -> f64 {
    median(r.wall_s.iter().zip(&r.own_s).map(|(w, o)| w - o).collect())
}

/// The worker's median over the main thread's.
fn ratio(worker: &[f64], main: &[f64]) -> String {
    let (w, m) = (median(worker.to_vec()), median(main.to_vec()));
    if w.is_finite() && m.is_finite() && m > 0.0 {
        format!("{:.2}", w / m)
    } else {
        "—".into()
    }
}

/// The worker against the main thread, every reading shown.
pub fn cost(c: &WorkerCost) -> String {
    let mut s = String::new();
    let versions: Vec<String> = c.versions.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    let _ = writeln!(
        s,
        "**What the worker costs.** glsolve gpu (its default kernels) on the random dense LP (seed 7) in the package's worker and on the page's thread (`createSolver({{worker: false}})`), alternately — a warm-up of each, then worker, main, worker, main, … — {} of each per browser (`node web/bench.mjs worker` on {}, {} CPUs, load average {:.1} before and {:.1} after; {}). The solve's own clock is `timings.total`, the solve alone in its thread; the wall clock is the page's side of the call (for the worker: the model posted to it, the iteration rows posted back as they come, the answer transferred). Medians, then every reading in the order taken; the last column is the median of wall − own clock, the call's time outside the solve:\n",
        c.reps,
        c.date,
        c.machine.cpus,
        c.machine.load_before,
        c.machine.load_after,
        versions.join(", ")
    );
    let _ = writeln!(
        s,
        "| browser | m × n | iterations (worker, main) | worker: own clock | main thread: own clock | worker / main (own) | worker: wall clock | main thread: wall clock | worker / main (wall) | outside the solve (worker, main) |\n|---|---|---|---|---|---|---|---|---|---|"
    );
    for (browser, r) in &c.browsers {
        for p in &r.pairs {
            let status = |x: &Readings| if x.status == "optimal" { String::new() } else { format!(" {}", x.status) };
            let _ = writeln!(
                s,
                "| {browser} | {} × {} | {}{}, {}{} | {} | {} | {} | {} | {} | {} | {:.3} s, {:.3} s |",
                p.m,
                p.n,
                p.worker.iterations,
                status(&p.worker),
                p.main.iterations,
                status(&p.main),
                readings(&p.worker.own_s),
                readings(&p.main.own_s),
                ratio(&p.worker.own_s, &p.main.own_s),
                readings(&p.worker.wall_s),
                readings(&p.main.wall_s),
                ratio(&p.worker.wall_s, &p.main.wall_s),
                outside(&p.worker),
                outside(&p.main)
            );
        }
    }
    let renderers: Vec<String> =
        c.browsers.iter().map(|(b, r)| format!("{b}: {}", r.renderer.as_deref().unwrap_or("?"))).collect();
    let _ = writeln!(s, "\n(Renderers — {}.)", renderers.join("; "));
    s
}

/// `docs/bench/framegap.json` (`node web/bench.mjs framegap`): the page's frame gaps during the
/// m = 512 gpu solve, in the worker and on the main thread, per browser.
#[derive(Deserialize)]
pub struct FrameGaps {
    pub date: String,
    pub machine: Machine,
    pub versions: BTreeMap<String, String>,
    pub browsers: BTreeMap<String, GapPair>,
}

#[derive(Deserialize)]
pub struct GapPair {
    pub worker: GapReport,
    pub main: GapReport,
}

#[derive(Deserialize)]
pub struct GapReport {
    pub idle: GapRun,
    pub runs: Vec<GapRun>,
}

#[derive(Deserialize)]
pub struct GapRun {
    #[serde(rename = "longestGapMs")]
    pub longest_gap_ms: f64,
    pub frames: usize,
    #[serde(rename = "solveMs", default)]
    pub solve_ms: f64,
}

/// The page's responsiveness during a solve, worker against main thread.
pub fn responsiveness(f: &FrameGaps) -> String {
    let mut s = String::new();
    let versions: Vec<String> = f.versions.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    let _ = writeln!(
        s,
        "**The page stays responsive.** The page's LP panel solves the m = 512 random LP on the gpu backend while `requestAnimationFrame` counts frames (`?framegap`; measured by `node web/bench.mjs framegap` on {}, {} CPUs, load average {:.1} before and {:.1} after; {}). Each solve's longest gap between two frames, from the click to the answer shown — three solves in the worker, one on the main thread (the page before the package) — and the idle page's longest gap in the second before:\n",
        f.date,
        f.machine.cpus,
        f.machine.load_before,
        f.machine.load_after,
        versions.join(", ")
    );
    let _ = writeln!(
        s,
        "| browser | worker: longest gap per solve | main thread: longest gap | idle page |\n|---|---|---|---|"
    );
    let runs = |r: &GapReport| {
        let v: Vec<String> = r
            .runs
            .iter()
            .map(|x| format!("{:.0} ms of {:.1} s ({} frames)", x.longest_gap_ms, x.solve_ms / 1e3, x.frames))
            .collect();
        v.join("; ")
    };
    for (browser, p) in &f.browsers {
        let _ = writeln!(
            s,
            "| {browser} | {} | {} | {:.0} ms |",
            runs(&p.worker),
            runs(&p.main),
            p.worker.idle.longest_gap_ms
        );
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cost_is_the_ratio_of_medians_with_every_reading_shown() {
        // Worker own clock 3.0, 2.0, 4.0 (median 3.0) against 2.0, 2.5, 5.0 (median 2.5): 1.20;
        // wall clock 0.1 s more per run in the worker, 0.05 s on the main thread. The main
        // thread's last solve was not optimal: the row says so.
        let json = r#"{"date": "d", "reps": 3, "machine": {"cpus": 2, "load_before": 1.0, "load_after": 2.0},
          "versions": {"firefox": "f"}, "browsers": {"firefox": {"renderer": "llvmpipe", "pairs": [{"m": 8, "n": 32,
          "worker": {"status": "optimal", "iterations": 12, "own_s": [3.0, 2.0, 4.0], "wall_s": [3.1, 2.1, 4.1]},
          "main": {"status": "iteration limit", "iterations": 9, "own_s": [2.0, 2.5, 5.0], "wall_s": [2.05, 2.55, 5.05]}}]}}}"#;
        let c: WorkerCost = serde_json::from_str(json).unwrap();
        let s = cost(&c);
        let row = s.lines().find(|l| l.starts_with("| firefox | 8 × 32")).expect(&s);
        assert_eq!(
            row,
            "| firefox | 8 × 32 | 12, 9 iteration limit | 3.00 s (3.00, 2.00, 4.00) | 2.50 s (2.00, 2.50, 5.00) | 1.20 | 3.10 s (3.10, 2.10, 4.10) | 2.55 s (2.05, 2.55, 5.05) | 1.22 | 0.100 s, 0.050 s |"
        );
        assert!(s.contains("3 of each per browser") && s.contains("load average 1.0 before and 2.0 after"), "{s}");
    }

    #[test]
    fn no_readings_give_no_ratio() {
        assert_eq!(ratio(&[], &[1.0]), "—");
        assert_eq!(ratio(&[1.0], &[0.0]), "—");
        assert_eq!(ratio(&[1.0, 3.0], &[1.0]), "2.00", "an even count's median is the mean of the middle two");
    }
}
