//! The 2006 paper's Tables 1–2 (and the LU and assembly counts beside them): fragments shaded per
//! kernel, from occlusion queries, against the papers' formulas.

use glsolve::fixtures::random;
use glsolve::gl::{Measure, PassLog};
use glsolve::gpu::blocked::cholesky as blocked_cholesky;
use glsolve::gpu::cholesky;
use glsolve::gpu::{assemble, lu, GpuResult};
use glsolve::Block;
use glsolve::Domain;
use glsolve::Format;
use glsolve::Gpu;
use glsolve::Variant;

/// One kernel's count.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CountRow {
    pub algorithm: String,
    pub kernel: String,
    pub formula: String,
    pub expected: u64,
    pub measured: u64,
}

fn row(algorithm: &str, kernel: &str, formula: &str, expected: u64, log: &PassLog, name: &str) -> CountRow {
    CountRow {
        algorithm: algorithm.into(),
        kernel: kernel.into(),
        formula: formula.into(),
        expected,
        measured: log.fragments_of(name),
    }
}

/// Counts for an m×m Cholesky in every variant and format, an m×m LU and an assembly with n = 2m.
pub fn run(gpu: &Gpu, m: usize) -> GpuResult<Vec<CountRow>> {
    let mm = m as u64;
    let c: Vec<f32> = random::spd_well_conditioned(m, 1).iter().map(|&v| v as f32).collect();
    let mut rows = Vec::new();
    let mut cases: Vec<(String, Variant, Format)> =
        Variant::PAPERS.iter().map(|&v| (v.name().to_string(), v, Format::Full)).collect();
    cases.push((format!("packed {}", Variant::PAPER), Variant::PAPER, Format::Packed));
    for (name, v, format) in cases {
        let (r, log) = gpu.logged(Measure::FRAGMENTS, |gpu| cholesky::factor_with(gpu, &c, m, v, format).map(|_| ()));
        r?;
        let alg = format!("Cholesky {name}");
        rows.push(row(&alg, "square root", "m", mm, &log, "sqrt"));
        rows.push(row(&alg, "copy (diagonal)", "m − 1", mm - 1, &log, "copy_diagonal"));
        rows.push(row(&alg, "normalization", "(m−1)m/2", (mm - 1) * mm / 2, &log, "normalize"));
        match v {
            Variant::Outer { domain, .. } => {
                rows.push(row(&alg, "copy (column)", "(m−1)m/2", (mm - 1) * mm / 2, &log, "copy_column"));
                let (f, e) = match domain {
                    Domain::Triangle | Domain::Columns => ("(m−1)m(m+1)/6", (mm - 1) * mm * (mm + 1) / 6),
                    Domain::Square => ("(m−1)m(2m−1)/6", (mm - 1) * mm * (2 * mm - 1) / 6),
                };
                rows.push(row(&alg, "submatrix update", f, e, &log, "outer_update"));
            }
            Variant::Inner => rows.push(row(
                &alg,
                "inner-product subtraction",
                "Σ(m−k−1) = (m−1)m/2",
                (mm - 1) * mm / 2,
                &log,
                "inner_update",
            )),
            Variant::Blocked(_) | Variant::Tiled(_) => {}
        }
    }
    for block in Block::ALL {
        let (r, log) =
            gpu.logged(Measure::FRAGMENTS, |gpu| cholesky::factor(gpu, &c, m, Variant::Blocked(block)).map(|_| ()));
        r?;
        let alg = format!("Cholesky {}", Variant::Blocked(block));
        let what = [
            ("diagonal block", "(B/2)²·M/B"),
            ("panel", "Σ_p (B/2)(M/2 − pB/2)"),
            ("rank-B update (2×2 blocks)", "Σ_p k(k+1)/2, k = M/2 − (p+1)B/2"),
        ];
        for ((kind, n), (label, formula)) in blocked_cholesky::fragments(m, block).into_iter().zip(what) {
            rows.push(row(&alg, label, formula, n, &log, kind.name()));
        }
    }
    for block in Block::ALL {
        let (r, log) =
            gpu.logged(Measure::FRAGMENTS, |gpu| cholesky::factor(gpu, &c, m, Variant::Tiled(block)).map(|_| ()));
        r?;
        let alg = format!("Cholesky {}", Variant::Tiled(block));
        let what = [
            ("diagonal block", "(B/4)²·M/B"),
            ("panel", "Σ_p (B/4)(M/4 − pB/4)"),
            ("rank-B update (4×4 tiles)", "Σ_p k(k+1)/2, k = M/4 − (p+1)B/4"),
        ];
        let padded = glsolve::layout::Tiles::square(m, block.size(), glsolve::gpu::tiled::FACTOR_TILE).padded;
        for ((kind, n), (label, formula)) in
            glsolve::gpu::tiled::cholesky::fragments(padded, block).into_iter().zip(what)
        {
            rows.push(row(&alg, label, formula, n, &log, kind.name()));
        }
    }
    let a: Vec<f32> = random::uniform(m, m, -1.0, 1.0, 2).iter().map(|&v| v as f32).collect();
    let (r, log) = gpu.logged(Measure::FRAGMENTS, |gpu| lu::factor(gpu, &a, m).map(|_| ()));
    r?;
    rows.push(row("LU (partial pivoting)", "normalization", "(m−1)m/2", (mm - 1) * mm / 2, &log, "normalize"));
    rows.push(row(
        "LU (partial pivoting)",
        "elimination",
        "(m−1)m(2m−1)/6",
        (mm - 1) * mm * (2 * mm - 1) / 6,
        &log,
        "elimination",
    ));
    let n = 2 * m;
    let am: Vec<f32> = random::uniform(m, n, 0.0, 1.0, 3).iter().map(|&v| v as f32).collect();
    let d: Vec<f32> = vec![1.0; n];
    for format in [Format::Full, Format::Packed] {
        let (r, log) = gpu.logged(Measure::FRAGMENTS, |gpu| assemble::assemble(gpu, &am, &d, m, n, format).map(|_| ()));
        r?;
        let alg = format!("A·D²·Aᵀ assembly, {} (n = 2m)", format.name());
        rows.push(row(&alg, "column scaling", "n·m", n as u64 * mm, &log, "column_scale"));
        rows.push(row(&alg, "outer-product addition", "n·m(m+1)/2", n as u64 * mm * (mm + 1) / 2, &log, "outer_add"));
    }
    Ok(rows)
}

pub fn markdown(rows: &[CountRow], m: usize) -> String {
    let mut s = format!("Fragments shaded, m = {m}, read from `GL_SAMPLES_PASSED` occlusion queries:\n\n| algorithm | kernel | formula | formula value | measured | equal |\n|---|---|---|---|---|---|\n");
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            r.algorithm,
            r.kernel,
            r.formula,
            r.expected,
            r.measured,
            if r.expected == r.measured { "yes" } else { "**no**" }
        ));
    }
    s
}
