//! `glsolve bench netlib-all`: every NETLIB problem of a folder on the cpu backend, one line
//! each (size, status, iterations, time, objective and its relative error against a reference
//! optimum) — the list for the documentation.
//!
//! Problems and references come from the folder's `optimal_extended.tsv` when there is one
//! (columns `name`, `file`, `rows`, `cols`, the NETLIB README's optimum
//! `netlib_readme_minos53`, and HiGHS's status and objective `highs_*_status`,
//! `highs_*_objective`); otherwise every `.mps` of the folder, with `optimal.tsv` (see
//! [`super::netlib::published_optima`]) for the references. The reference is HiGHS's objective
//! where it reports one (several README values are known to be slightly off), else the
//! README's. HiGHS iteration counts appear only where a column `highs_*_iterations` gives them.

use glsolve::lp::{mps, BackendKind, LpSolver, Settings, Status};
use glsolve::Logger;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One problem of the list.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Problem {
    pub name: String,
    pub file: PathBuf,
    /// The reference optimum (objective constant included) and where it comes from.
    pub reference: Option<f64>,
    pub reference_source: String,
    /// HiGHS's status and iterations where the folder's table has them.
    pub highs_status: Option<String>,
    pub highs_iterations: Option<usize>,
}

/// One solve.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub problem: Problem,
    /// Rows and columns of the model as read (0 when reading failed).
    pub rows: usize,
    pub cols: usize,
    pub status: Option<Status>,
    /// Why it failed to read or solve, or the solver's detail.
    pub detail: String,
    pub iterations: usize,
    pub seconds: f64,
    pub objective: f64,
    /// [`relative_error`] of the objective against the reference.
    pub relative_error: Option<f64>,
    /// The proven enclosure of the optimum (lower, upper), where the solve gave one; an end
    /// that proves nothing (±∞) is written as null.
    #[serde(default, with = "ends")]
    pub enclosure: Option<(f64, f64)>,
    /// Its width relative to the objective's size (the proof's measure).
    #[serde(default)]
    pub width: Option<f64>,
    /// Seconds spent proving (the loop's judgements and the verdict), part of `seconds`.
    #[serde(default)]
    pub proof_seconds: f64,
}

/// An enclosure's ends in JSON, which has no infinities: null for −∞ below and +∞ above.
mod ends {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(e: &Option<(f64, f64)>, s: S) -> Result<S::Ok, S::Error> {
        let finite = |v: f64| v.is_finite().then_some(v);
        e.map(|(lo, hi)| (finite(lo), finite(hi))).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<(f64, f64)>, D::Error> {
        let e = Option::<(Option<f64>, Option<f64>)>::deserialize(d)?;
        Ok(e.map(|(lo, hi)| (lo.unwrap_or(f64::NEG_INFINITY), hi.unwrap_or(f64::INFINITY))))
    }
}

/// The references are printed to 11 significant digits (the NETLIB README's and HiGHS's
/// %.10e alike): the optimum lies within this fraction of one of them.
pub const REFERENCE_DIGITS: f64 = 5e-11;

impl Row {
    /// Whether the enclosure meets the reference to its printed digits (`None` without one of
    /// them).
    pub fn holds_reference(&self) -> Option<bool> {
        let (lo, hi) = self.enclosure?;
        let r = self.problem.reference?;
        let h = REFERENCE_DIGITS * r.abs();
        Some(lo <= r + h && hi >= r - h)
    }
}

/// The problems of `dir` (see the module documentation).
pub fn problems(dir: &Path) -> Result<Vec<Problem>, String> {
    let ext = dir.join("optimal_extended.tsv");
    if let Ok(text) = std::fs::read_to_string(&ext) {
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').map(str::trim).collect();
        let col = |pred: &dyn Fn(&str) -> bool| header.iter().position(|h| pred(h));
        let (Some(name), Some(file)) = (col(&|h| h == "name"), col(&|h| h == "file")) else {
            return Err(format!("{}: no `name` and `file` columns", ext.display()));
        };
        let readme = col(&|h| h.starts_with("netlib_readme"));
        let h_obj = col(&|h| h.starts_with("highs") && h.ends_with("_objective"));
        let h_status = col(&|h| h.starts_with("highs") && h.ends_with("_status"));
        let h_its = col(&|h| h.starts_with("highs") && h.ends_with("_iterations"));
        let mut out = Vec::new();
        for line in lines.filter(|l| !l.trim().is_empty()) {
            let f: Vec<&str> = line.split('\t').map(str::trim).collect();
            let get = |i: Option<usize>| i.and_then(|i| f.get(i).copied()).filter(|v| !v.is_empty());
            let num = |i: Option<usize>| get(i).and_then(|v| v.parse::<f64>().ok());
            let (reference, reference_source) = match (num(h_obj), num(readme)) {
                (Some(h), _) => (Some(h), "HiGHS".to_string()),
                (None, Some(r)) => (Some(r), "NETLIB README".to_string()),
                (None, None) => (None, String::new()),
            };
            out.push(Problem {
                name: get(Some(name)).unwrap_or_default().to_string(),
                file: dir.join(get(Some(file)).unwrap_or_default()),
                reference,
                reference_source,
                highs_status: get(h_status).map(str::to_string),
                highs_iterations: get(h_its).and_then(|v| v.parse().ok()),
            });
        }
        return Ok(out);
    }
    let published = super::netlib::published_optima(dir)?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("mps")))
        .collect();
    files.sort();
    Ok(files
        .into_iter()
        .map(|file| {
            let name = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let reference = published.get(&name).copied();
            Problem {
                name,
                file,
                reference,
                reference_source: if reference.is_some() { "optimal.tsv".into() } else { String::new() },
                highs_status: None,
                highs_iterations: None,
            }
        })
        .collect())
}

/// What to run on a folder: the backend, ε (`None`: the backend's own), the limit per problem,
/// and the largest model (rows) to solve — larger ones are left out of the list.
#[derive(Clone, Debug)]
pub struct Plan {
    pub backend: BackendKind,
    pub tolerance: Option<f64>,
    pub time_limit: Duration,
    pub max_rows: Option<usize>,
}

/// |objective − reference| / (1 + |reference|): the error every `optimal` is held to (10·ε).
pub fn relative_error(objective: f64, reference: f64) -> f64 {
    (objective - reference).abs() / (1.0 + reference.abs())
}

/// Solves every problem of `dir` as `plan` says, one solver (and GL context) for all.
pub fn run(dir: &Path, plan: &Plan, mut progress: impl FnMut(&str)) -> Result<Vec<Row>, String> {
    let mut builder = Settings::builder(plan.backend).time_limit(plan.time_limit);
    if let Some(eps) = plan.tolerance {
        builder = builder.tolerance(eps);
    }
    let settings = builder.build().map_err(|e| e.to_string())?;
    let mut solver = LpSolver::new(settings).with_logger(Logger::quiet());
    let mut rows = Vec::new();
    for problem in problems(dir)? {
        let mut row = Row {
            problem,
            rows: 0,
            cols: 0,
            status: None,
            detail: String::new(),
            iterations: 0,
            seconds: 0.0,
            objective: f64::NAN,
            relative_error: None,
            enclosure: None,
            width: None,
            proof_seconds: 0.0,
        };
        match mps::read_file(&row.problem.file) {
            Err(e) => row.detail = e.to_string(),
            Ok(model) if plan.max_rows.is_some_and(|max| model.num_rows() > max) => continue,
            Ok(model) => match solver.solve(&model) {
                Err(e) => row.detail = e.to_string(),
                Ok(sol) => {
                    (row.rows, row.cols) = (model.num_rows(), model.num_cols());
                    row.status = Some(sol.status);
                    row.detail = sol.detail;
                    row.iterations = sol.iterations;
                    row.seconds = sol.timings.total.as_secs_f64();
                    row.proof_seconds = sol.timings.proof.as_secs_f64();
                    row.objective = sol.objective;
                    row.relative_error = row.problem.reference.map(|r| relative_error(sol.objective, r));
                    if let Some(v) = &sol.verification {
                        row.enclosure = Some((v.enclosure.lower, v.enclosure.upper));
                        row.width = Some(v.width);
                    }
                }
            },
        }
        let status = row.status.map_or("error".to_string(), |s| s.name().to_string());
        progress(&format!("{}: {status} {} iterations {:.2} s", row.problem.name, row.iterations, row.seconds));
        rows.push(row);
    }
    Ok(rows)
}

/// A run over one folder, as `bench all --netlib-all DIR` records it (or `bench netlib-all
/// --report OUT`, which then states its own command and date).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct NetlibAllRun {
    pub dir: String,
    pub rows: Vec<Row>,
    /// Set when the list was measured apart from the rest of the report: (command, date).
    #[serde(default)]
    pub separate: Option<(String, String)>,
    /// The backend (cpu when not recorded), ε and the per-problem limit in seconds the run used.
    #[serde(default = "default_backend")]
    pub backend: BackendKind,
    #[serde(default = "default_tolerance")]
    pub tolerance: f64,
    #[serde(default = "default_time_limit")]
    pub time_limit_s: f64,
}

fn default_backend() -> BackendKind {
    BackendKind::Cpu
}

fn default_tolerance() -> f64 {
    1e-8
}

fn default_time_limit() -> f64 {
    120.0
}

/// The Markdown table of `rows`, then a count by status.
pub fn markdown(rows: &[Row]) -> String {
    let with_highs = rows.iter().any(|r| r.problem.highs_iterations.is_some());
    let mut md = String::from(
        "| problem | rows | cols | status | iterations | time | objective | reference | rel. error | enclosure width | holds reference |",
    );
    md.push_str(if with_highs { " HiGHS status | HiGHS iterations |\n" } else { " HiGHS status |\n" });
    md.push_str(if with_highs {
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    } else {
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    });
    for r in rows {
        let status = r.status.map_or_else(|| format!("error: {}", r.detail), |s| s.name().to_string());
        md.push_str(&format!(
            "| {} | {} | {} | {status} | {} | {} | {:.10e} | {} | {} | {} | {} | {} |",
            r.problem.name,
            r.rows,
            r.cols,
            r.iterations,
            crate::bench::secs(r.seconds),
            r.objective,
            r.problem.reference.map_or("–".into(), |v| format!("{v:.10e} ({})", r.problem.reference_source)),
            r.relative_error.map_or("–".into(), |e| format!("{e:.1e}")),
            r.width.map_or("–".into(), |w| format!("{w:.1e}")),
            r.holds_reference().map_or("–", |h| if h { "yes" } else { "**no**" }),
            r.problem.highs_status.as_deref().unwrap_or("–"),
        ));
        if with_highs {
            md.push_str(&format!(" {} |", r.problem.highs_iterations.map_or("–".into(), |i| i.to_string())));
        }
        md.push('\n');
    }
    let mut counts = std::collections::BTreeMap::new();
    for r in rows {
        *counts.entry(r.status.map_or("error", |s| s.name())).or_insert(0usize) += 1;
    }
    let list: Vec<String> = counts.iter().map(|(s, n)| format!("{n} {s}")).collect();
    md.push_str(&format!("\n{} problems: {}\n", rows.len(), list.join(", ")));
    let optimal: Vec<&Row> = rows.iter().filter(|r| r.status == Some(Status::Optimal)).collect();
    let held = optimal.iter().filter(|r| r.holds_reference() == Some(true)).count();
    let widest = optimal.iter().filter_map(|r| r.width).fold(0.0, f64::max);
    md.push_str(&format!(
        "Of the {} optimal: {held} enclosures hold the reference (to its printed digits), the widest {widest:.1e} of the objective's size.\n",
        optimal.len()
    ));
    let (total, proof): (f64, f64) =
        rows.iter().map(|r| (r.seconds, r.proof_seconds)).fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    if total > 0.0 {
        md.push_str(&format!(
            "Proving took {proof:.2} s of the {total:.2} s solved ({:.1} %).\n",
            100.0 * proof / total
        ));
    }
    md.push_str(STEP_FACTOR_HISTORY);
    md
}

/// How the cpu backend's step factors (`lp::settings::values`) were chosen on this collection:
/// measured once, with the build of that time, and kept here rather than in the API's docs.
const STEP_FACTOR_HISTORY: &str = "
### How the cpu backend's step factors were chosen

Measured on this collection when each default was chosen, with the build of that time (the list above is today's run):

- **0.95 of the maximal step** (`CPU_STEP_FACTOR`; the papers' 0.99 stays the GPU backends' default). With 0.99 the double-precision loop let a few complementarity products of greenbea fall to 1e-2·μ and below; Θ = x/s then spanned 1e24, conjugate gradients could no longer refine the directions, and the run crawled to reduced accuracy in 170 iterations. At 0.95 it was optimal in 94, every problem of the collection ended at full accuracy or with a certificate, in 1878 iterations in all against 1913 at 0.99; the random dense family took one iteration more (13 against 12 at m = 512 and 1024, seed 7).
- **0.995 where the step keeps the iterate centred** (`CPU_LONG_STEP_FACTOR`). The statuses stayed those of 0.95 alone, greenbea included, in 1846 iterations against 1879 for 0.95 alone in the same build; the random dense family (m = 512 and 1024, seed 7) took 12 iterations against 13.
";
