//! The report's "From Python" section, from `docs/bench/python.json` (written by
//! `python/bench/linprog_bench.py`: glsolve.linprog on each backend against scipy's HiGHS,
//! Clarabel and CVXOPT, directly and through CVXPY, time to solution from numpy arrays).

use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write;

#[derive(Deserialize)]
pub struct PythonRun {
    pub date: String,
    pub machine: Machine,
    pub versions: BTreeMap<String, String>,
    pub reps: usize,
    pub budget_s: f64,
    pub seed: u64,
    pub rows: Vec<Row>,
    /// Where rows come from a second run (its command and date), said under the tables.
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Deserialize)]
pub struct Machine {
    pub cpus: usize,
    pub load_before: Vec<f64>,
    pub load_after: Vec<f64>,
    pub gl_renderer: String,
    pub lp_num_threads: String,
}

#[derive(Deserialize)]
pub struct Row {
    pub family: String,
    pub case: String,
    pub solver: String,
    pub median_s: Option<f64>,
    pub reps: Option<usize>,
    pub status: Option<String>,
    pub objective: Option<f64>,
    pub backend_ran: Option<String>,
    pub skipped: Option<String>,
}

impl Row {
    fn optimal(&self) -> bool {
        matches!(self.status.as_deref(), Some("optimal" | "solved"))
    }
    fn is_glsolve(&self) -> bool {
        self.solver.starts_with("glsolve") || self.solver == "CVXPY + glsolve"
    }
}

/// The cases of `family` in the order measured, each with its rows.
fn cases<'a>(run: &'a PythonRun, family: &str) -> Vec<(&'a str, Vec<&'a Row>)> {
    let mut out: Vec<(&str, Vec<&Row>)> = Vec::new();
    for r in run.rows.iter().filter(|r| r.family == family) {
        match out.iter_mut().find(|(c, _)| *c == r.case) {
            Some((_, rows)) => rows.push(r),
            None => out.push((&r.case, vec![r])),
        }
    }
    out
}

fn cell(r: &Row) -> String {
    match (&r.skipped, r.median_s) {
        (Some(why), _) => format!("not run: {why}"),
        (None, Some(t)) if r.optimal() => match &r.backend_ran {
            Some(b) if r.solver.starts_with("glsolve auto") => format!("{t:.3} s ({b})"),
            _ => format!("{t:.3} s"),
        },
        (None, Some(t)) => format!("{t:.3} s ({})", r.status.as_deref().unwrap_or("?")),
        (None, None) => "—".into(),
    }
}

/// The fastest optimal peer (not glsolve) and the fastest optimal glsolve row of a case.
fn best<'a>(rows: &[&'a Row], glsolve: bool) -> Option<&'a Row> {
    rows.iter()
        .copied()
        .filter(|r| r.is_glsolve() == glsolve && r.optimal() && r.median_s.is_some())
        .min_by(|a, b| a.median_s.partial_cmp(&b.median_s).unwrap_or(std::cmp::Ordering::Equal))
}

/// One table per family: solvers as rows, cases as columns, then the ratio line.
fn table(s: &mut String, run: &PythonRun, family: &str) {
    let cs = cases(run, family);
    if cs.is_empty() {
        return;
    }
    let _ = writeln!(s, "| solver | {} |", cs.iter().map(|(c, _)| *c).collect::<Vec<_>>().join(" | "));
    let _ = writeln!(s, "|---|{}", "---|".repeat(cs.len()));
    let mut solvers: Vec<&str> = Vec::new();
    for (_, rows) in &cs {
        for r in rows {
            if !solvers.contains(&r.solver.as_str()) {
                solvers.push(&r.solver);
            }
        }
    }
    for solver in solvers {
        let cells: Vec<String> = cs
            .iter()
            .map(|(_, rows)| rows.iter().find(|r| r.solver == solver).map_or("—".into(), |r| cell(r)))
            .collect();
        let _ = writeln!(s, "| {solver} | {} |", cells.join(" | "));
    }
    let ratios: Vec<String> = cs
        .iter()
        .map(|(_, rows)| match (best(rows, true), best(rows, false)) {
            (Some(g), Some(p)) => {
                let ratio = p.median_s.unwrap_or(f64::NAN) / g.median_s.unwrap_or(f64::NAN);
                // Two significant digits below 1, where glsolve is the slower one.
                let shown = if ratio < 1.0 { format!("{ratio:.2}") } else { format!("{ratio:.1}") };
                format!("**{shown}×** ({} against {})", g.solver, p.solver)
            }
            _ => "—".into(),
        })
        .collect();
    let _ = writeln!(s, "| fastest peer / fastest glsolve | {} |", ratios.join(" | "));
    let _ = writeln!(s);
}

/// The section.
pub fn section(run: &PythonRun) -> String {
    let mut s = String::new();
    let m = &run.machine;
    let versions: Vec<String> = run.versions.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(s, "## From Python\n");
    let _ = writeln!(
        s,
        "`glsolve.linprog` (README's \"From Python\") against scipy's HiGHS (`linprog(method=\"highs-ipm\")` and `\"highs-ds\"`), Clarabel and CVXOPT called directly, and the same solvers and glsolve (`GlsolveSolver`) through CVXPY. Measured by `python python/bench/linprog_bench.py --out docs/bench/python.json` on {}: {} CPUs (load average {:.2} before, {:.2} after; the machine is shared), GL renderer {}, LP_NUM_THREADS {}; {}. Every time is time to solution from numpy arrays — the conversions each solver needs (scipy.sparse, cvxopt matrices, a CVXPY problem and its compilation) are inside the clock; median of {} repetitions for runs under 10 s, one above; a solver whose time predicts more than {:.0} s at the next size (× 8 for twice the rows) is not run there. glsolve's backends answer at ε = 1e-8 (gpu: 1e-4, single precision), checked in double precision on the original problem; `auto` names the backend it chose.\n",
        run.date,
        m.cpus,
        m.load_before.first().copied().unwrap_or(f64::NAN),
        m.load_after.first().copied().unwrap_or(f64::NAN),
        m.gl_renderer,
        m.lp_num_threads,
        versions.join(", "),
        run.reps,
        run.budget_s
    );
    let _ = writeln!(s, "**The papers' dense family** (min 1ᵀx, A·x = b, x ≥ 0, A m × 4m, seed {}):\n", run.seed);
    table(&mut s, run, "dense");
    let _ = writeln!(
        s,
        "**L1 regression** (min ‖X·β − y‖₁, X dense n × p: the LP min 1ᵀ(u + v), X·β + u − v = y, u, v ≥ 0, given to linprog, HiGHS, Clarabel and CVXOPT as that LP and to CVXPY as `norm1`):\n"
    );
    table(&mut s, run, "l1");
    if run.rows.iter().any(|r| r.family == "l1dual") {
        let _ = writeln!(
            s,
            "**The same L1 regressions written as their dual LP** (max yᵀλ s.t. Xᵀλ = 0, −1 ≤ λ ≤ 1: p rows and n columns instead of n rows and p + 2n columns; the optimum is the same; objectives below are −‖X·β − y‖₁ for the solvers that minimize):\n"
        );
        table(&mut s, run, "l1dual");
    }
    if run.rows.iter().any(|r| r.family == "l1t") {
        let _ = writeln!(
            s,
            "**The same L1 regressions in their t form** (min 1ᵀt s.t. −t ≤ X·β − y ≤ t: `A_ub = [[X, −I], [−X, −I]]`, β free, t ≥ 0 — 2n rows and p + n columns as written; given as that LP to the linprog-shaped solvers only):\n"
        );
        table(&mut s, run, "l1t");
    }
    let disagree: Vec<String> = run
        .rows
        .iter()
        .filter(|r| r.skipped.is_none() && !r.optimal())
        .map(|r| format!("{} on {} {}: {}", r.solver, r.family, r.case, r.status.as_deref().unwrap_or("?")))
        .collect();
    if !disagree.is_empty() {
        let _ = writeln!(s, "Not optimal: {}.\n", disagree.join("; "));
    }
    if let Some(note) = &run.note {
        let _ = writeln!(s, "{note}\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(case: &str, solver: &str, t: Option<f64>, status: &str) -> Row {
        Row {
            family: "dense".into(),
            case: case.into(),
            solver: solver.into(),
            median_s: t,
            reps: t.map(|_| 3),
            status: Some(status.into()),
            objective: Some(1.0),
            backend_ran: Some("cpu".into()),
            skipped: None,
        }
    }

    #[test]
    fn the_ratio_is_the_fastest_optimal_peer_over_the_fastest_optimal_glsolve() {
        let run = PythonRun {
            date: "2026-11-27".into(),
            machine: Machine {
                cpus: 2,
                load_before: vec![1.0],
                load_after: vec![2.0],
                gl_renderer: "llvmpipe".into(),
                lp_num_threads: "default".into(),
            },
            versions: BTreeMap::new(),
            reps: 3,
            budget_s: 240.0,
            seed: 7,
            note: None,
            rows: vec![
                row("m = 8", "glsolve cpu", Some(0.5), "optimal"),
                row("m = 8", "glsolve gpu", Some(0.1), "numerical failure"),
                row("m = 8", "HiGHS ipm", Some(4.0), "optimal"),
                row("m = 8", "Clarabel", Some(2.0), "solved"),
                row("m = 8", "CVXOPT", Some(1.0), "error: x"),
                Row {
                    skipped: Some("predicted > 240 s".into()),
                    median_s: None,
                    ..row("m = 16", "Clarabel", None, "")
                },
                row("m = 32", "glsolve cpu", Some(4.0), "optimal"),
                row("m = 32", "HiGHS ipm", Some(1.0), "optimal"),
            ],
        };
        let s = section(&run);
        // A failed run is neither the fastest glsolve nor the fastest peer.
        assert!(s.contains("**4.0×** (glsolve cpu against Clarabel)"), "{s}");
        assert!(s.contains("| **0.25×** (glsolve cpu against HiGHS ipm) |"), "{s}");
        assert!(s.contains("| 0.100 s (numerical failure) |"), "{s}");
        assert!(s.contains("not run: predicted > 240 s"), "{s}");
        assert!(
            s.contains("Not optimal: glsolve gpu on dense m = 8: numerical failure; CVXOPT on dense m = 8: error: x.")
        );
    }
}
