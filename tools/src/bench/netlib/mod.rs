//! `glsolve bench netlib`: the 2008 IPM paper's Table 4.1 (hybrid with GPU or CPU substitution,
//! and the CPU solver: iterations, GPU iterations, time) and the 2006 paper's Table 3 (the gpu
//! backend at the paper's tolerances), measured on the NETLIB problems in a folder.

mod setups;

pub use setups::{setup, Config, Setup, DEFAULT_SETUPS, TABLE3_SETUPS, TABLE41_SETUPS};

use glsolve::lp::{mps, solve_on, Settings, Status};
use glsolve::Gpu;
use glsolve::Logger;
use std::collections::BTreeMap;
use std::path::Path;

/// The 2006 paper's Table 3: problem, ε, and its GPU (outer Cholesky) iterations and MATLAB MPC
/// iterations, as printed.
pub const TABLE3: [(&str, f64, usize, usize); 10] = [
    ("adlittle", 3e-5, 12, 9),
    ("afiro", 4e-5, 7, 7),
    ("agg2", 5e-5, 18, 17),
    ("agg3", 6e-4, 20, 17),
    ("bandm", 2e-3, 12, 12),
    ("beaconfd", 3e-4, 7, 6),
    ("blend", 2e-3, 11, 8),
    ("e226", 9e-4, 18, 16),
    ("sc50b", 3e-5, 6, 6),
    ("sctap1", 5e-4, 15, 13),
];

/// The 2008 IPM paper's Table 4.1 as printed: problem, (GPU subst.) iterations and GPU
/// iterations, (CPU subst.) iterations and GPU iterations, CPU iterations.
pub const TABLE41: [(&str, usize, usize, usize, usize, usize); 10] = [
    ("afiro", 9, 7, 9, 7, 9),
    ("adlittle", 11, 9, 11, 9, 11),
    ("agg2", 20, 15, 20, 15, 20),
    ("agg3", 20, 16, 28, 17, 20),
    ("bandm", 17, 8, 17, 8, 17),
    ("beaconfd", 9, 4, 9, 4, 9),
    ("blend", 11, 6, 11, 6, 11),
    ("e226", 22, 11, 21, 11, 22),
    ("sc50b", 8, 5, 8, 5, 8),
    ("sctap1", 15, 12, 15, 12, 15),
];

/// One solve.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Run {
    pub problem: String,
    pub setup: String,
    /// What the solver was given (read from its settings).
    #[serde(default)]
    pub config: Option<Config>,
    pub tolerance: f64,
    pub status: Status,
    pub iterations: usize,
    pub gpu_iterations: Option<usize>,
    pub objective: f64,
    pub seconds: f64,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct NetlibBench {
    pub renderer: String,
    pub runs: Vec<Run>,
    /// Published optimal objective (with the file's objective constant added) per problem, from
    /// the folder's `optimal.tsv`; empty when there is none.
    #[serde(default)]
    pub published: BTreeMap<String, f64>,
}

/// The folder's `optimal.tsv` (name, rows, cols, nonzeros, optimal objective, objective constant),
/// as name → published objective + constant (the constant is the RHS entry on the objective row).
pub fn published_optima(dir: &Path) -> Result<BTreeMap<String, f64>, String> {
    let path = dir.join("optimal.tsv");
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(BTreeMap::new()) };
    let mut out = BTreeMap::new();
    for (ln, line) in text.lines().enumerate().skip(1).filter(|(_, l)| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let num = |i: usize| -> Result<f64, String> {
            f.get(i)
                .and_then(|v| v.trim().parse::<f64>().ok())
                .ok_or_else(|| format!("{}: line {}: column {} is not a number", path.display(), ln + 1, i + 1))
        };
        out.insert(f[0].trim().to_string(), num(4)? + num(5)?);
    }
    Ok(out)
}

fn run_one(gpu: &Gpu, dir: &Path, name: &str, setup: &str, st: &Settings) -> Result<Run, String> {
    let model = mps::read_file(&dir.join(format!("{name}.mps"))).map_err(|e| format!("{name}: {e}"))?;
    let sol = solve_on(&model, st, &mut Logger::quiet(), Some(gpu)).map_err(|e| format!("{name}: {e}"))?;
    Ok(Run {
        problem: name.into(),
        setup: setup.into(),
        config: Some(Config::of(st)),
        tolerance: st.tolerance(),
        status: sol.status,
        iterations: sol.iterations,
        gpu_iterations: sol.gpu_iterations,
        objective: sol.objective,
        seconds: sol.timings.total.as_secs_f64(),
    })
}

/// Runs Table 4.1's three setups and Table 3's gpu setup on the problems found in `dir`
/// (`only`: a subset of the tables' problems, for quick runs).
pub fn run(
    gpu: &Gpu,
    dir: &Path,
    only: Option<&[&str]>,
    mut progress: impl FnMut(&str),
) -> Result<NetlibBench, String> {
    let keep = |name: &str| only.is_none_or(|o| o.contains(&name));
    let published = published_optima(dir)?;
    // Table 4.1's problems first, then (full runs) every other problem with a published optimum.
    let mut names: Vec<&str> = TABLE41.iter().map(|t| t.0).filter(|n| keep(n)).collect();
    if only.is_none() {
        let rest: Vec<&str> = published.keys().map(String::as_str).filter(|n| !names.contains(n)).collect();
        names.extend(rest);
    }
    let mut runs = Vec::new();
    for name in names {
        for setup in TABLE41_SETUPS.iter().chain(&DEFAULT_SETUPS) {
            let st = setup.settings(1e-8).map_err(|e| format!("{}: {e}", setup.label))?;
            let r = run_one(gpu, dir, name, setup.label, &st)?;
            let label = setup.label;
            progress(&format!("{name} {label}: {:?} {} iterations {:.2} s", r.status, r.iterations, r.seconds));
            runs.push(r);
        }
    }
    for (name, eps, ..) in TABLE3.into_iter().filter(|t| keep(t.0)) {
        for setup in &TABLE3_SETUPS {
            let st = setup.settings(eps).map_err(|e| format!("{}: {e}", setup.label))?;
            let r = run_one(gpu, dir, name, setup.label, &st)?;
            let label = setup.label;
            progress(&format!(
                "{name} {label} ε={eps:e}: {:?} {} iterations {:.2} s",
                r.status, r.iterations, r.seconds
            ));
            runs.push(r);
        }
    }
    Ok(NetlibBench { renderer: gpu.info().renderer.clone(), runs, published })
}

impl NetlibBench {
    fn find(&self, problem: &str, setup: &str) -> Option<&Run> {
        self.runs.iter().find(|r| r.problem == problem && r.setup == setup)
    }

    /// What a column's heading says it ran: the configuration its runs recorded (from the
    /// settings the solver got), not the one the table meant to give them.
    pub fn recorded(&self, setup: &Setup) -> String {
        let mut configs = self.runs.iter().filter(|r| r.setup == setup.label).map(|r| r.config);
        match configs.next() {
            None => format!("{} (no run)", setup.config().describe()),
            Some(None) => "configuration not recorded".into(),
            Some(Some(c)) if configs.all(|o| o == Some(c)) => c.describe(),
            Some(Some(_)) => "**its runs recorded different configurations**".into(),
        }
    }

    /// Every problem with a published optimum: each setup's status, iterations, relative
    /// objective error |f − f*| / max(1, |f*|) and time, and how many reach 1e-6.
    pub fn all_problems_markdown(&self) -> String {
        const SETUPS: [&str; 3] = ["cpu (default)", "hybrid, blocked (default)", "hybrid, GPU subst."];
        let solved: Vec<(&String, &f64)> =
            self.published.iter().filter(|(name, _)| self.runs.iter().any(|r| &r.problem == *name)).collect();
        if solved.is_empty() {
            return "No problem with a published optimum was run (quick runs use Table 4.1's subset).\n".into();
        }
        let mut s = String::from(
            "| problem | published optimum | cpu (default): iterations | rel. error | s | hybrid, blocked-16: iterations (GPU) | rel. error | s | hybrid, paper's configuration (GPU subst., (3.15)): iterations (GPU) | rel. error | s |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
        );
        let mut within = [0usize; 3];
        for (name, &best) in &solved {
            s.push_str(&format!("| {name} | {best:.10e} |"));
            for (k, setup) in SETUPS.iter().enumerate() {
                match self.find(name, setup) {
                    Some(r) => {
                        let rel = (r.objective - best).abs() / best.abs().max(1.0);
                        if r.status == Status::Optimal && rel <= 1e-6 {
                            within[k] += 1;
                        }
                        let its = match r.gpu_iterations {
                            Some(g) => format!("{} ({g})", r.iterations),
                            None => r.iterations.to_string(),
                        };
                        let its = if r.status == Status::Optimal { its } else { format!("{:?} after {its}", r.status) };
                        s.push_str(&format!(" {its} | {rel:.1e} | {:.2} |", r.seconds));
                    }
                    None => s.push_str(" – | – | – |"),
                }
            }
            s.push('\n');
        }
        s.push_str(&format!(
            "\nOptimal with relative objective error ≤ 1e-6: cpu {}/{n}, hybrid with the blocked kernels {}/{n}, hybrid in the paper's configuration {}/{n}.\n",
            within[0],
            within[1],
            within[2],
            n = solved.len()
        ));
        s
    }

    /// Table 4.1 as the 2008 IPM paper ran it, beside the paper's numbers.
    pub fn table41_markdown(&self) -> String {
        let cell = |r: Option<&Run>| match r {
            Some(r) if r.status == Status::Optimal => match r.gpu_iterations {
                Some(g) => format!("{} ({g}) | {:.2}", r.iterations, r.seconds),
                None => format!("{} | {:.2}", r.iterations, r.seconds),
            },
            Some(r) => format!("{:?} after {} | {:.2}", r.status, r.iterations, r.seconds),
            None => "– | –".into(),
        };
        let mut s = format!(
            "Renderer: {}. Iterations (GPU iterations) and seconds, one run each. Configurations: ",
            self.renderer
        );
        let configs: Vec<String> =
            TABLE41_SETUPS.iter().map(|t| format!("*{}* = {}", t.label, self.recorded(t))).collect();
        s.push_str(&configs.join("; "));
        s.push_str("; ε = 1e-8.\n\n");
        let [g, c, cpu] = TABLE41_SETUPS.map(|t| t.label);
        s.push_str(&format!("| problem | paper: GPU subst. | ours: {g} | s | paper: CPU subst. | ours: {c} | s | paper: CPU | ours: {cpu} | s |\n|---|---|---|---|---|---|---|---|---|---|\n"));
        for (name, gi, gg, ci, cg, cpu_its) in TABLE41 {
            s.push_str(&format!(
                "| {name} | {gi} ({gg}) | {} | {ci} ({cg}) | {} | {cpu_its} | {} |\n",
                cell(self.find(name, g)),
                cell(self.find(name, c)),
                cell(self.find(name, cpu)),
            ));
        }
        s
    }

    /// Table 3 as the 2006 paper ran it, then the other variants and the CPU-substitution column.
    pub fn table3_markdown(&self) -> String {
        let mut s = String::from("Configurations: ");
        let configs: Vec<String> =
            TABLE3_SETUPS.iter().map(|t| format!("*{}* = {}", t.label, self.recorded(t))).collect();
        s.push_str(&configs.join("; "));
        s.push_str("; ε per problem as in the paper.\n\n| problem | ε | paper: GPU iterations | paper: MATLAB MPC iterations |");
        for t in &TABLE3_SETUPS {
            s.push_str(&format!(" ours: {} | s |", t.label));
        }
        s.push_str("\n|---|---|---|---|");
        s.push_str(&"---|---|".repeat(TABLE3_SETUPS.len()));
        s.push('\n');
        for (name, eps, gpu_its, mpc_its) in TABLE3 {
            s.push_str(&format!("| {name} | {eps:e} | {gpu_its} | {mpc_its} |"));
            for t in &TABLE3_SETUPS {
                match self.find(name, t.label) {
                    Some(r) if r.status == Status::Optimal => {
                        s.push_str(&format!(" {} | {:.2} |", r.iterations, r.seconds))
                    }
                    Some(r) => s.push_str(&format!(" {:?} after {} | {:.2} |", r.status, r.iterations, r.seconds)),
                    None => s.push_str(" – | – |"),
                }
            }
            s.push('\n');
        }
        s
    }

    pub fn markdown(&self) -> String {
        format!("{}\n{}", self.table41_markdown(), self.table3_markdown())
    }
}
