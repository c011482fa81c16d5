//! The report's "In the browser" section, from `docs/bench/browser.json` (written by
//! `web/bench.mjs`: the page's `?bench` on each of headless Chromium's WebGL2 back-ends, and the
//! native binary on the same work), and "One kernel source, several dialects" from
//! `docs/bench/dialects.json` (`glsolve bench dialects --json`).

use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write;

#[derive(Deserialize)]
pub struct BrowserRun {
    pub date: String,
    pub reps: usize,
    /// Back-end name → the page's report.
    pub browser: BTreeMap<String, PageReport>,
    pub native: Native,
}

#[derive(Deserialize)]
pub struct PageReport {
    pub info: BTreeMap<String, String>,
    pub lp: Vec<LpCase>,
    pub cholesky: Vec<CholeskyCase>,
}

#[derive(Deserialize)]
pub struct LpCase {
    pub m: usize,
    pub n: usize,
    pub seed: u64,
    pub glsolve: Solved,
    /// The same LP with named Cholesky variants (the blocked kernels and the register tiles),
    /// at the sizes the page was asked for; absent from runs made before.
    #[serde(default)]
    pub variants: Vec<VariantLp>,
    pub highs: Solved,
    pub highs_ipm: Solved,
}

#[derive(Deserialize)]
pub struct VariantLp {
    pub variant: String,
    pub median_s: f64,
    pub objective: f64,
    pub status: String,
    pub iterations: usize,
}

#[derive(Deserialize)]
pub struct Solved {
    pub median_s: f64,
    pub objective: f64,
    pub status: String,
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

/// The section, with the screenshots of the page.
pub fn section(run: &BrowserRun) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "## In the browser: WebGL2\n");
    let _ = writeln!(
        s,
        "The library compiled to WebAssembly runs its kernels on the page's WebGL2 context (`web/`, README's \"In the browser\"). Measured by `node web/bench.mjs` on {}, in headless Chromium on each WebGL2 back-end this machine offers, median of {} runs after a warm-up. In the same page, [HiGHS](https://highs.dev) compiled to WebAssembly (npm `highs`) solves the same random dense LPs (the file glsolve writes for them), with its default solver (dual simplex) and with its interior-point solver. glsolve's column is its gpu backend (ε = 1e-4, every kernel in WebGL2), timed by the solve's own clock as `glsolve bench lp` times it.\n",
        run.date, run.reps
    );
    for (backend, r) in &run.browser {
        let renderer = r.info.get("GL renderer").map(String::as_str).unwrap_or("?");
        let _ = writeln!(s, "**{backend}** — {renderer}\n");
        let _ = writeln!(s, "| m × n | glsolve gpu | HiGHS (simplex) | HiGHS (ipm) | glsolve / HiGHS simplex | glsolve / HiGHS ipm | objectives (glsolve, HiGHS) |");
        let _ = writeln!(s, "|---|---|---|---|---|---|---|");
        for c in &r.lp {
            let _ = writeln!(
                s,
                "| {} × {} (seed {}) | {:.3} s ({}) | {:.3} s | {:.3} s | {:.2} | {:.2} | {:.6e}, {:.6e} |",
                c.m,
                c.n,
                c.seed,
                c.glsolve.median_s,
                c.glsolve.status,
                c.highs.median_s,
                c.highs_ipm.median_s,
                c.glsolve.median_s / c.highs.median_s,
                c.glsolve.median_s / c.highs_ipm.median_s,
                c.glsolve.objective,
                c.highs.objective
            );
        }
        s.push('\n');
        let with: Vec<&LpCase> = r.lp.iter().filter(|c| !c.variants.is_empty()).collect();
        if !with.is_empty() {
            let _ = writeln!(
                s,
                "The same page, the blocked kernels against the register tiles (each the median of {} solves):\n",
                run.reps
            );
            let _ = writeln!(s, "| m × n | variant | glsolve gpu | iterations | objective | / HiGHS simplex |\n|---|---|---|---|---|---|");
            for c in with {
                for v in &c.variants {
                    let _ = writeln!(
                        s,
                        "| {} × {} | {} | {:.3} s ({}) | {} | {:.6e} | {:.2} |",
                        c.m,
                        c.n,
                        v.variant,
                        v.median_s,
                        v.status,
                        v.iterations,
                        v.objective,
                        v.median_s / c.highs.median_s
                    );
                }
            }
            s.push('\n');
        }
    }
    let _ = writeln!(
        s,
        "**The browser against the native binary** on the same Mesa llvmpipe: the page on ANGLE over EGL (gl-egl) against `glsolve bench` on the desktop GL context ({}), the same runner for the factorization and the same solve clock for the LP:\n",
        run.native.renderer
    );
    let _ = writeln!(s, "| work | WebGL2 (gl-egl) | native | WebGL2 / native |\n|---|---|---|---|");
    if let Some(page) = run.browser.get("gl-egl") {
        for c in &page.cholesky {
            if let Some(n) = run.native.cholesky.iter().find(|n| n.variant == c.variant && n.m == c.m) {
                let _ = writeln!(
                    s,
                    "| Cholesky {}, m = {} | {:.3} s | {:.3} s | {:.2} |",
                    c.variant,
                    c.m,
                    c.median_s,
                    n.median_s,
                    c.median_s / n.median_s
                );
            }
        }
        for n in &run.native.lp {
            if let Some(c) = page.lp.iter().find(|c| c.m == n.m) {
                let _ = writeln!(
                    s,
                    "| LP gpu backend, m = {} | {:.3} s | {:.3} s | {:.2} |",
                    n.m,
                    c.glsolve.median_s,
                    n.median_s,
                    c.glsolve.median_s / n.median_s
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "\nThe page mid-Cholesky (blocked, and the papers' oversized triangle) and mid-LP (the gpu backend's blocked update of its normal matrix; the LP panel's log below), taken by `node web/screenshots.mjs`:\n\n![blocked Cholesky in the browser](pictures/browser_cholesky_blocked.png)\n\n![the oversized triangle in the browser](pictures/browser_cholesky_triangle.png)\n\n![an LP iteration in the browser](pictures/browser_lp_iteration.png)\n"
    );
    s
}
