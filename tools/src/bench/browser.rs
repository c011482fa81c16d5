//! The report's "In the browser" section, from `docs/bench/browser.json` (written by
//! `web/bench.mjs`: the page's `?bench` in each browser — headless Chromium on its WebGL2
//! back-ends, Firefox ESR under Xvfb — and the native binary on the same work), with what the
//! worker costs and buys (`browser_worker`) and the cpu backend's wasm builds (`browser_simd`).

use super::browser_worker::{cost, responsiveness, FrameGaps, Machine, WorkerCost};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write;

#[derive(Deserialize)]
pub struct BrowserRun {
    pub date: String,
    pub reps: usize,
    #[serde(default)]
    pub machine: Machine,
    #[serde(default)]
    pub versions: BTreeMap<String, String>,
    /// Browser (and back-end) → the page's report.
    pub browser: BTreeMap<String, PageReport>,
    pub native: Native,
}

#[derive(Deserialize)]
pub struct PageReport {
    pub info: Info,
    pub lp: Vec<LpCase>,
    #[serde(default)]
    pub netlib: Vec<NetlibCase>,
    pub cholesky: Vec<CholeskyCase>,
}

#[derive(Deserialize)]
pub struct Info {
    pub renderer: Option<String>,
}

/// One problem, every solver.
#[derive(Deserialize)]
pub struct Solvers {
    pub glsolve: Cell,
    pub glsolve_auto: Cell,
    #[serde(default)]
    pub glsolve_main: Option<Cell>,
    pub highs: Cell,
    pub highs_ipm: Cell,
    pub glpk: Cell,
}

#[derive(Deserialize)]
pub struct LpCase {
    pub m: usize,
    pub n: usize,
    pub seed: u64,
    #[serde(flatten)]
    pub solvers: Solvers,
    /// The same LP with named Cholesky variants (the blocked kernels and the register tiles),
    /// at the sizes the page was asked for; absent from runs made before.
    #[serde(default)]
    pub variants: Vec<VariantLp>,
    /// When the row was measured again on its own (`SIZES=… node web/bench.mjs`), after the
    /// run the file's date names.
    #[serde(default)]
    pub rerun: Option<Rerun>,
}

/// A row's own measurement.
#[derive(Deserialize)]
pub struct Rerun {
    pub date: String,
    pub reps: usize,
    pub load_before: f64,
    pub load_after: f64,
}

/// "† measured again …" under a browser's table, one line per date.
fn reruns(s: &mut String, r: &PageReport) {
    let mut seen: Vec<&str> = Vec::new();
    for c in &r.lp {
        let Some(x) = &c.rerun else { continue };
        if seen.contains(&x.date.as_str()) {
            continue;
        }
        seen.push(&x.date);
        let sizes: Vec<String> =
            r.lp.iter()
                .filter(|d| d.rerun.as_ref().is_some_and(|y| y.date == x.date))
                .map(|d| d.m.to_string())
                .collect();
        let _ = writeln!(
            s,
            "† m = {}: measured again on {} (load average {:.1} before and {:.1} after; a warm-up, then the median of {} runs, one where the warm-up took over 10 s), with the package as it is now; the other rows are the run above's.\n",
            sizes.join(", "),
            x.date,
            x.load_before,
            x.load_after,
            x.reps
        );
    }
}

/// glsolve gpu in the worker with one named variant, by the solve's own clock.
#[derive(Deserialize)]
pub struct VariantLp {
    pub variant: String,
    pub median_s: f64,
    pub objective: f64,
    pub status: String,
    pub iterations: usize,
}

#[derive(Deserialize)]
pub struct NetlibCase {
    pub name: String,
    pub rows: usize,
    pub cols: usize,
    #[serde(flatten)]
    pub solvers: Solvers,
}

/// One solver on one problem: the median wall-clock time, or why there is none.
#[derive(Deserialize)]
pub struct Cell {
    pub median_s: Option<f64>,
    pub runs: Option<usize>,
    pub objective: Option<f64>,
    pub status: Option<String>,
    /// glsolve: the backend that ran, and the solve's own clock.
    pub backend: Option<String>,
    pub solve_s: Option<f64>,
    pub error: Option<String>,
}

impl Cell {
    fn text(&self) -> String {
        match (&self.error, self.median_s) {
            (Some(e), _) => format!("error: {e}"),
            (None, Some(t)) => {
                let status =
                    self.status.as_deref().filter(|s| *s != "optimal").map(|s| format!(" ({s})")).unwrap_or_default();
                let backend = self.backend.as_deref().map(|b| format!(" {b}")).unwrap_or_default();
                let runs = if self.runs == Some(1) { " (1 run)" } else { "" };
                format!("{t:.3} s{backend}{status}{runs}")
            }
            (None, None) => "—".into(),
        }
    }
    /// The time, where the answer is optimal.
    fn optimal(&self) -> Option<f64> {
        self.median_s.filter(|_| self.error.is_none() && self.status.as_deref() == Some("optimal"))
    }
}

#[derive(Deserialize)]
pub struct CholeskyCase {
    pub variant: String,
    pub m: usize,
    pub median_s: f64,
}

#[derive(Deserialize)]
pub struct Native {
    pub renderer: String,
    pub cholesky: Vec<CholeskyCase>,
    pub lp: Vec<NativeLp>,
}

#[derive(Deserialize)]
pub struct NativeLp {
    pub m: usize,
    pub median_s: f64,
}

/// glsolve's faster backend against the fastest peer (both optimal): the ratio, or why none.
fn ratio(s: &Solvers) -> String {
    let ours = [s.glsolve.optimal(), s.glsolve_auto.optimal()].into_iter().flatten().reduce(f64::min);
    let peers = [s.highs.optimal(), s.highs_ipm.optimal(), s.glpk.optimal()].into_iter().flatten().reduce(f64::min);
    match (ours, peers) {
        (Some(a), Some(b)) => format!("{:.2}", a / b),
        _ => "—".into(),
    }
}

fn row(s: &mut String, label: &str, c: &Solvers, extra: &str) {
    let main = c.glsolve_main.as_ref().map(Cell::text).unwrap_or_else(|| "—".into());
    let _ = writeln!(
        s,
        "| {label} | {} | {} | {main} | {extra}{} | {} | {} | {} |",
        c.glsolve.text(),
        c.glsolve_auto.text(),
        c.highs.text(),
        c.highs_ipm.text(),
        c.glpk.text(),
        ratio(c)
    );
}

/// The section (with the worker's cost and the page's frame gaps, where measured), with the
/// screenshots of the page.
pub fn section(
    run: &BrowserRun,
    gaps: Option<&FrameGaps>,
    worker: Option<&WorkerCost>,
    simd: Option<&super::browser_simd::SimdRun>,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "## In the browser: WebGL2\n");
    let versions: Vec<String> = run.versions.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    let _ = writeln!(
        s,
        "glsolve's npm package (`web/package`, README's \"From JavaScript\") in the browsers this machine offers. Measured by `node web/bench.mjs` on {} ({} CPUs, load average {:.1} before and {:.1} after; the machine is shared); {}. In the same page, [HiGHS](https://highs.dev) (npm `highs`: dual simplex, and interior point) and [GLPK](https://www.gnu.org/software/glpk/) (npm `glpk.js`: simplex), both compiled to WebAssembly, solve the same problems. Every time is wall-clock from the page's side of the call with the model already in each solver's input form (glsolve: arrays, posted to its worker; HiGHS: MPS text, parsed in the call; GLPK: its JSON); a warm-up, then the median of {} runs (one where the warm-up took over 10 s); rows marked † were measured again later, as the note under their table says. glsolve gpu is every kernel in WebGL2 (single precision, ε = 1e-4); auto picks the cpu or hybrid backend (ε = 1e-8; the backend it ran is named); \"main thread\" is the gpu backend without the worker (the page's thread blocked), its runs alternating with the worker's so that the machine's load falls on both. The last column is glsolve's faster backend over the fastest peer, optimal answers only.\n",
        run.date,
        run.machine.cpus,
        run.machine.load_before,
        run.machine.load_after,
        versions.join(", "),
        run.reps
    );
    for (browser, r) in &run.browser {
        let renderer = r.info.renderer.as_deref().unwrap_or("?");
        let _ = writeln!(s, "**{browser}** — {renderer}\n");
        let head = "| glsolve gpu (worker) | glsolve auto (worker) | glsolve gpu (main thread) | worker / main | HiGHS simplex | HiGHS ipm | GLPK | glsolve / best peer |";
        let _ = writeln!(s, "| m × n (seed) {head}\n|---|---|---|---|---|---|---|---|---|");
        for c in &r.lp {
            let cost = match (c.solvers.glsolve.median_s, c.solvers.glsolve_main.as_ref().and_then(|m| m.median_s)) {
                (Some(w), Some(m)) => format!("{:.2} | ", w / m),
                _ => "— | ".into(),
            };
            let mark = if c.rerun.is_some() { " †" } else { "" };
            row(&mut s, &format!("{} × {} ({}){mark}", c.m, c.n, c.seed), &c.solvers, &cost);
        }
        for c in &r.netlib {
            row(&mut s, &format!("{} ({} × {})", c.name, c.rows, c.cols), &c.solvers, "— | ");
        }
        s.push('\n');
        reruns(&mut s, r);
        variants(&mut s, r, run.reps);
    }
    let _ = writeln!(
        s,
        "**The browser against the native binary** on the same Mesa llvmpipe: the page on ANGLE over EGL (gl-egl) against `glsolve bench` on the desktop GL context ({}), the same runner for the factorization and the solve's own clock for the LP:\n",
        run.native.renderer
    );
    let _ = writeln!(s, "| work | WebGL2 (gl-egl) | native | WebGL2 / native |\n|---|---|---|---|");
    if let Some(page) = run.browser.get("gl-egl") {
        for c in &page.cholesky {
            if let Some(n) = run.native.cholesky.iter().find(|n| n.variant == c.variant && n.m == c.m) {
                let (w, n) = (c.median_s, n.median_s);
                let _ = writeln!(s, "| Cholesky {}, m = {} | {w:.3} s | {n:.3} s | {:.2} |", c.variant, c.m, w / n);
            }
        }
        // A row measured again later is not set against the native run of another time.
        for n in &run.native.lp {
            if let Some(w) =
                page.lp.iter().find(|c| c.m == n.m && c.rerun.is_none()).and_then(|c| c.solvers.glsolve.solve_s)
            {
                let _ = writeln!(
                    s,
                    "| LP gpu backend, m = {} | {w:.3} s | {:.3} s | {:.2} |",
                    n.m,
                    n.median_s,
                    w / n.median_s
                );
            }
        }
    }
    if let Some(c) = worker {
        s.push('\n');
        s.push_str(&cost(c));
    }
    if let Some(f) = gaps {
        s.push('\n');
        s.push_str(&responsiveness(f));
    }
    if let Some(r) = simd {
        s.push('\n');
        s.push_str(&super::browser_simd::section(r));
    }
    let _ = writeln!(
        s,
        "\nThe page mid-Cholesky (blocked, and the papers' oversized triangle) and mid-LP (the gpu backend's blocked update of its normal matrix; the LP panel's log below), taken by `node web/screenshots.mjs`:\n\n![blocked Cholesky in the browser](pictures/browser_cholesky_blocked.png)\n\n![the oversized triangle in the browser](pictures/browser_cholesky_triangle.png)\n\n![an LP iteration in the browser](pictures/browser_lp_iteration.png)\n"
    );
    s
}

/// glsolve gpu with named variants (where the page measured them), against the default's own
/// clock.
fn variants(s: &mut String, r: &PageReport, reps: usize) {
    let with: Vec<&LpCase> = r.lp.iter().filter(|c| !c.variants.is_empty()).collect();
    if with.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "The same page, glsolve gpu in the worker with the blocked kernels and with the register tiles named, by the solve's own clock (each the median of {reps} solves), against the default's own clock above:\n"
    );
    let head = "| m × n | variant | glsolve gpu | iterations | objective | / default |";
    let _ = writeln!(s, "{head}\n|---|---|---|---|---|---|");
    for c in with {
        for v in &c.variants {
            let against = c.solvers.glsolve.solve_s.map_or("—".into(), |d| format!("{:.2}", v.median_s / d));
            let (time, status, iterations) = (v.median_s, &v.status, v.iterations);
            let (m, n, variant, objective) = (c.m, c.n, &v.variant, v.objective);
            let _ = writeln!(
                s,
                "| {m} × {n} | {variant} | {time:.3} s ({status}) | {iterations} | {objective:.6e} | {against} |"
            );
        }
    }
    s.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(t: f64, status: &str) -> String {
        format!(r#"{{"median_s": {t}, "runs": 3, "objective": 1.0, "status": "{status}"}}"#)
    }

    #[test]
    fn the_ratio_counts_only_optimal_answers_and_the_faster_of_ours() {
        // glsolve auto 0.5 s beats its gpu 0.8 s; the fastest peer (0.1 s) did not end optimal,
        // so the best peer is GLPK's 1.0 s: 0.5 / 1.0.
        let json = format!(
            r#"{{"glsolve": {}, "glsolve_auto": {}, "highs": {}, "highs_ipm": {}, "glpk": {}}}"#,
            cell(0.8, "optimal"),
            cell(0.5, "optimal"),
            cell(0.1, "HiGHS model status 8"),
            r#"{"error": "out of memory"}"#,
            cell(1.0, "optimal")
        );
        let s: Solvers = serde_json::from_str(&json).unwrap();
        assert_eq!(ratio(&s), "0.50");
        let mut line = String::new();
        row(&mut line, "x", &s, "— | ");
        assert!(line.contains("0.100 s (HiGHS model status 8)") && line.contains("error: out of memory"), "{line}");
        let none = format!(
            r#"{{"glsolve": {}, "glsolve_auto": {}, "highs": {}, "highs_ipm": {}, "glpk": {}}}"#,
            cell(0.8, "numerical failure"),
            r#"{"error": "x"}"#,
            cell(0.1, "optimal"),
            cell(0.1, "optimal"),
            cell(0.1, "optimal")
        );
        assert_eq!(ratio(&serde_json::from_str(&none).unwrap()), "—", "no optimal glsolve answer: no ratio");
    }

    #[test]
    fn rows_measured_again_are_marked_with_their_own_date() {
        let ok = cell(1.0, "optimal");
        let peers = format!(r#""glsolve": {ok}, "glsolve_auto": {ok}, "highs": {ok}, "highs_ipm": {ok}, "glpk": {ok}"#);
        let again = r#""rerun": {"date": "D2", "reps": 3, "load_before": 4.0, "load_after": 5.5}"#;
        let json = format!(
            r#"{{"info": {{"renderer": "x"}}, "cholesky": [], "lp": [{{"m": 64, "n": 256, "seed": 7, {peers}}},
            {{"m": 256, "n": 1024, "seed": 7, {peers}, {again}}}, {{"m": 512, "n": 2048, "seed": 7, {peers}, {again}}}]}}"#
        );
        let mut s = String::new();
        reruns(&mut s, &serde_json::from_str(&json).unwrap());
        assert_eq!(s.lines().count(), 2, "one note per date: {s}");
        assert!(s.starts_with("† m = 256, 512: measured again on D2 (load average 4.0 before and 5.5 after;"), "{s}");
    }

    #[test]
    fn a_variant_is_set_against_the_default_on_the_same_clock() {
        // The default's own clock 2.0 s (wall clock 2.5 s; HiGHS 1.0 s): tiled-16 at 1.0 s is
        // 0.50 of it. A case without variants adds nothing; without the default's clock, no ratio.
        let ok = cell(1.0, "optimal");
        let peers = format!(r#""glsolve_auto": {ok}, "highs": {ok}, "highs_ipm": {ok}, "glpk": {ok}"#);
        let json = |solve_s: &str| {
            format!(
                r#"{{"info": {{"renderer": "x"}}, "cholesky": [], "lp": [
                {{"m": 8, "n": 32, "seed": 7, "glsolve": {{"median_s": 2.5{solve_s}, "status": "optimal"}}, {peers},
                  "variants": [{{"variant": "tiled-16", "median_s": 1.0, "objective": 3.0, "status": "optimal", "iterations": 12}}]}},
                {{"m": 4, "n": 16, "seed": 7, "glsolve": {ok}, {peers}}}]}}"#
            )
        };
        let mut s = String::new();
        variants(&mut s, &serde_json::from_str(&json(r#", "solve_s": 2.0"#)).unwrap(), 3);
        assert!(s.contains("| 8 × 32 | tiled-16 | 1.000 s (optimal) | 12 | 3.000000e0 | 0.50 |"), "{s}");
        assert!(!s.contains("4 × 16"), "{s}");
        let mut s = String::new();
        variants(&mut s, &serde_json::from_str(&json("")).unwrap(), 3);
        assert!(s.contains("| 12 | 3.000000e0 | — |"), "{s}");
    }
}
