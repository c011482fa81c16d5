//! The report's paragraph on the cpu backend's wasm builds (`docs/bench/wasm_simd.json`, from
//! `node web/bench.mjs simd`): the same solves in workers running the wasm module built without
//! and with wasm SIMD (simd128), builds interleaved, every reading kept.

use super::browser_worker::Machine;
use super::cpu::median;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write;

#[derive(Deserialize)]
pub struct SimdRun {
    pub date: String,
    pub reps: usize,
    pub machine: Machine,
    pub versions: BTreeMap<String, String>,
    pub browsers: BTreeMap<String, SimdPage>,
}

#[derive(Deserialize)]
pub struct SimdPage {
    pub cpu: Vec<SimdCase>,
}

/// One problem, every build; the first build is the one the others are set against.
#[derive(Deserialize)]
pub struct SimdCase {
    pub problem: String,
    pub rows: usize,
    pub cols: usize,
    pub builds: Vec<BuildReadings>,
}

#[derive(Deserialize)]
pub struct BuildReadings {
    pub build: String,
    pub status: String,
    pub own_s: Vec<f64>,
}

/// The table: per browser and problem, each build's median and readings (the solve's own
/// clock), and each build's median over the first build's.
pub fn section(r: &SimdRun) -> String {
    let mut s = String::new();
    let versions: Vec<String> = r.versions.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    let _ = writeln!(
        s,
        "**wasm SIMD for the cpu backend.** The cpu backend (double precision in wasm, `backend: 'cpu'`) in one worker per build of the wasm module, the builds taking turns (a warm-up of each, then a solve of each in turn, {} rounds): measured by `node web/bench.mjs simd` on {} ({} CPUs, load average {:.1} before and {:.1} after; {}). The builds: `scalar`, wasm32's baseline instructions; `simd128`, compiled with `-C target-feature=+simd128` (the compiler's own use of the 128-bit vectors); `simd128+gemm`, that and the f64x2 matrix-product kernels of faer's `gemm` (gemm-common's `wasm-simd128-enable`), what `web/build.sh` builds. The solve's own clock (`timings.total`), median and every reading in the order taken; the ratio is a build's median over the first build's:\n",
        r.reps,
        r.date,
        r.machine.cpus,
        r.machine.load_before,
        r.machine.load_after,
        versions.join(", ")
    );
    let Some(names) = r
        .browsers
        .values()
        .flat_map(|p| p.cpu.first())
        .next()
        .map(|c| c.builds.iter().map(|b| b.build.clone()).collect::<Vec<_>>())
    else {
        return s;
    };
    let mut head = String::from("| browser | problem |");
    let mut rule = String::from("|---|---|");
    for (k, n) in names.iter().enumerate() {
        head.push_str(&format!(" {n} |"));
        rule.push_str("---|");
        if k > 0 {
            head.push_str(&format!(" {n} / {} |", names[0]));
            rule.push_str("---|");
        }
    }
    let _ = writeln!(s, "{head}\n{rule}");
    for (browser, page) in &r.browsers {
        for c in &page.cpu {
            let base = c.builds.first().map(|b| median(b.own_s.clone())).unwrap_or(f64::NAN);
            let shape = format!("{} × {}", c.rows, c.cols);
            let label = if c.problem == shape { shape } else { format!("{} ({shape})", c.problem) };
            let _ = write!(s, "| {browser} | {label} |");
            for (k, b) in c.builds.iter().enumerate() {
                let all: Vec<String> = b.own_s.iter().map(|x| format!("{x:.3}")).collect();
                let status = if b.status == "optimal" { String::new() } else { format!(" {}", b.status) };
                let mid = median(b.own_s.clone());
                let _ = write!(s, " {mid:.3} s{status} ({}) |", all.join(", "));
                if k > 0 {
                    let ratio = mid / base;
                    let _ = write!(s, " {} |", if ratio.is_finite() { format!("{ratio:.2}") } else { "—".into() });
                }
            }
            s.push('\n');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_build_is_set_against_the_first() {
        // scalar 2.0, 1.0, 3.0 (median 2.0); simd128 1.0, 1.2, 0.5 (median 1.0): 0.50. A build
        // whose solve was not optimal says so.
        let json = r#"{"date": "d", "reps": 3, "machine": {"cpus": 2, "load_before": 1.0, "load_after": 1.5},
          "versions": {}, "browsers": {"gl-egl": {"cpu": [{"problem": "afiro", "rows": 27, "cols": 32, "builds": [
            {"build": "scalar", "status": "optimal", "own_s": [2.0, 1.0, 3.0]},
            {"build": "simd128", "status": "numerical failure", "own_s": [1.0, 1.2, 0.5]}]}]}}}"#;
        let s = section(&serde_json::from_str(json).unwrap());
        assert!(s.contains("| browser | problem | scalar | simd128 | simd128 / scalar |"), "{s}");
        assert!(
            s.contains("| gl-egl | afiro (27 × 32) | 2.000 s (2.000, 1.000, 3.000) | 1.000 s numerical failure (1.000, 1.200, 0.500) | 0.50 |"),
            "{s}"
        );
    }
}
