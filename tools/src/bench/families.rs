//! `glsolve bench families`: the dense LPs people bring ([`glsolve::fixtures::families`]) at three
//! sizes each, solved by glsolve with no options (the `auto` backend) and, on the very same MPS
//! file in the same run, by HiGHS's interior-point method and its simplex (highspy, the script
//! beside this file) and by Clarabel (the peers' folder). Repetitions are interleaved: round r
//! runs every solver once on the case before round r + 1 starts, so a slow spell of the shared
//! machine falls on all of them. Each peer is timed by its own clock around its solve call;
//! glsolve by its solve's clock (standard form included, reading the file excluded for all).

pub use super::family_case::{Case, Timed};
use super::peers::Peers;
use glsolve::fixtures::families::Family;
use glsolve::lp::backend::shape::{with_forced_shape, NormalShape};
use glsolve::lp::backend::CpuPlan;
use glsolve::lp::mps::write::to_mps_string;
use glsolve::lp::standard_form::{standard_form, Presolved};
use glsolve::lp::BackendKind;
use glsolve::lp::Settings;
use glsolve::Logger;
use std::path::Path;
use std::process::Command;

/// The HiGHS runner: `highs_mps.py FILE ipm|simplex` prints "status objective iterations" on
/// stderr and its solve seconds on the last line of stdout.
pub const HIGHS_SCRIPT: &str = include_str!("highs_mps.py");

/// The default cases: three sizes per family, the largest with at least 4000 rows (the papers'
/// family excepted: at 4000 rows it has 64 million nonzeros, a 2.5 GB MPS file).
pub fn default_cases() -> Vec<Case> {
    let c = |family, rows, features| Case { family, form: Default::default(), rows, features };
    use Family::*;
    vec![
        c(L1Regression, 1000, 100),
        c(L1Regression, 2000, 200),
        c(L1Regression, 4000, 400),
        c(QuantileRegression, 1000, 100),
        c(QuantileRegression, 2000, 200),
        c(QuantileRegression, 4000, 400),
        c(Chebyshev, 1000, 50),
        c(Chebyshev, 2000, 100),
        c(Chebyshev, 4000, 200),
        c(MatrixGame, 301, 300),
        c(MatrixGame, 601, 600),
        c(MatrixGame, 4001, 400),
        c(Papers, 256, 0),
        c(Papers, 512, 0),
        c(Papers, 1024, 0),
    ]
}

/// One case's results.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct FamilyRow {
    pub case: Case,
    /// The standard form's m × n and the cpu path the cost model chose.
    pub standard_form: (usize, usize),
    pub path: String,
    /// The backend `auto` chose.
    #[serde(default)]
    pub backend: String,
    pub glsolve: Timed,
    /// glsolve forced onto the full m×m path (today's path before the shapes), when asked.
    pub full: Option<Timed>,
    pub peers: Vec<Timed>,
    /// The GL backends asked for (`--backends`).
    #[serde(default)]
    pub gl: Vec<super::families_gl::GlRow>,
}

impl FamilyRow {
    /// The peer named `name`.
    pub fn peer(&self, name: &str) -> Option<&Timed> {
        self.peers.iter().find(|p| p.solver == name)
    }
}

fn timed(solver: &str, runs: &mut [(f64, String, f64, Option<usize>)]) -> Timed {
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let Some(med) = runs.get(runs.len() / 2) else {
        return Timed { solver: solver.into(), status: "no run".into(), objective: f64::NAN, ..Timed::default() };
    };
    Timed {
        solver: solver.into(),
        median_s: med.0,
        min_s: runs[0].0,
        max_s: runs[runs.len() - 1].0,
        reps: runs.len(),
        status: med.1.clone(),
        objective: med.2,
        iterations: med.3,
    }
}

/// One glsolve solve: (seconds, status, objective, iterations), recording in `backend` the
/// backend `auto` chose.
fn glsolve_once(
    model: &glsolve::lp::model::LpModel,
    gpu: Option<&glsolve::gl::Gpu>,
    backend: &mut String,
) -> (f64, String, f64, Option<usize>) {
    let st = Settings::for_backend(BackendKind::Auto);
    match glsolve::lp::solve_on(model, &st, &mut Logger::quiet(), gpu) {
        Ok(s) => {
            *backend = s.backend.name().to_string();
            (s.timings.total.as_secs_f64(), s.status.to_string(), s.objective, Some(s.iterations))
        }
        Err(e) => (f64::NAN, format!("error: {e}"), f64::NAN, None),
    }
}

/// One peer run of `script` (HiGHS with `arg`, or a peers' folder script) on `file`.
fn peer_once(python: &Path, script: &Path, arg: Option<&str>, file: &Path) -> (f64, String, f64, Option<usize>) {
    let out = match Command::new(python).arg(script).arg(file).args(arg).output() {
        Ok(o) => o,
        Err(e) => return (f64::NAN, format!("error: {e}"), f64::NAN, None),
    };
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let seconds = stdout.lines().last().and_then(|l| l.trim().parse::<f64>().ok()).unwrap_or(f64::NAN);
    // "status objective iterations": the line whose second field is a number.
    let line = stderr
        .lines()
        .chain(stdout.lines().rev().skip(1))
        .find(|l| l.split_whitespace().nth(1).is_some_and(|w| w.parse::<f64>().is_ok()))
        .unwrap_or("");
    let mut words = line.split_whitespace();
    let status = words.next().unwrap_or("no report").to_string();
    let objective = words.next().and_then(|w| w.parse().ok()).unwrap_or(f64::NAN);
    let iterations = words.next().and_then(|w| w.parse().ok());
    (seconds, status, objective, iterations)
}

/// What a run asks for.
pub struct FamiliesRun<'a> {
    pub cases: &'a [Case],
    pub seed: u64,
    pub reps: usize,
    /// Also time glsolve forced onto the full path.
    pub compare_full: bool,
    pub peers: Option<&'a Peers>,
    pub gpu: Option<&'a glsolve::gl::Gpu>,
    /// GL backends to run beside (hybrid, gpu), on `gpu`.
    pub gl_backends: &'a [BackendKind],
    /// Where the MPS files are written (and removed after).
    pub dir: &'a Path,
}

/// Runs every case (see the module documentation); `progress` gets a line per finished case.
pub fn run(r: &FamiliesRun<'_>, mut progress: impl FnMut(&FamilyRow)) -> Result<Vec<FamilyRow>, String> {
    let highs = r.dir.join("glsolve_highs_mps.py");
    if r.peers.is_some() {
        std::fs::write(&highs, HIGHS_SCRIPT).map_err(|e| format!("{}: {e}", highs.display()))?;
    }
    let mut rows = Vec::new();
    for &case in r.cases {
        let model = case.model(r.seed).ok_or_else(|| {
            format!(
                "{} has no model of {} rows, {} features",
                case.family.form_name(case.form),
                case.rows,
                case.features
            )
        })?;
        let (sf_dims, path) = match standard_form(&model, true) {
            Presolved::Form(sf) => (sf.dims(), CpuPlan::new(&sf.a, &sf.free_pairs).shape.name().to_string()),
            _ => ((0, 0), "presolved".to_string()),
        };
        let file = r.dir.join(format!("{}.mps", model.name.to_lowercase()));
        if r.peers.is_some() {
            let text = to_mps_string(&model).map_err(|e| e.to_string())?;
            std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
        }
        let mut own = Vec::new();
        let mut full = Vec::new();
        let mut peer_runs: Vec<(String, Vec<_>)> = Vec::new();
        // One warm-up solve (page faults, rayon's pool), then the interleaved rounds.
        let mut backend = String::new();
        let _ = glsolve_once(&model, r.gpu, &mut backend);
        for _ in 0..r.reps.max(1) {
            own.push(glsolve_once(&model, r.gpu, &mut backend));
            if r.compare_full {
                full.push(with_forced_shape(NormalShape::Full, || glsolve_once(&model, r.gpu, &mut String::new())));
            }
            if let Some(p) = r.peers {
                let scripts = [
                    ("HiGHS ipm", highs.clone(), Some("ipm")),
                    ("HiGHS simplex", highs.clone(), Some("simplex")),
                    ("Clarabel", p.scripts.join("clarabel_mps.py"), None),
                ];
                for (name, script, arg) in scripts {
                    let run = peer_once(&p.python, &script, arg, &file);
                    match peer_runs.iter_mut().find(|(n, _)| n == name) {
                        Some((_, v)) => v.push(run),
                        None => peer_runs.push((name.to_string(), vec![run])),
                    }
                }
            }
        }
        let _ = std::fs::remove_file(&file);
        let mut gl = Vec::new();
        for (&backend, gpu) in r.gl_backends.iter().zip(std::iter::repeat(r.gpu)) {
            let Some(gpu) = gpu else { break };
            let with_full = r.compare_full && matches!(backend, BackendKind::Hybrid | BackendKind::Gpu);
            for full in [false, true].into_iter().filter(|&f| !f || with_full) {
                gl.push(super::families_gl::run_case(case, &model, backend, full, r.reps, gpu));
            }
        }
        let row = FamilyRow {
            case,
            standard_form: sf_dims,
            path,
            backend,
            glsolve: timed("glsolve", &mut own),
            full: r.compare_full.then(|| timed("glsolve (full path)", &mut full)),
            peers: peer_runs.iter_mut().map(|(n, v)| timed(n, v)).collect(),
            gl,
        };
        progress(&row);
        rows.push(row);
    }
    let _ = std::fs::remove_file(&highs);
    Ok(rows)
}

/// A whole run, as `--json` writes it and the report reads it (`docs/bench/families.json`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct FamiliesBench {
    /// The command as typed, and the date.
    pub command: String,
    pub date: String,
    pub seed: u64,
    pub reps: usize,
    pub rows: Vec<FamilyRow>,
}

/// The report's section on the families (present when `bench families --report docs` ran).
pub fn section(b: &FamiliesBench) -> String {
    format!(
        "## The dense LPs people bring: families against HiGHS and Clarabel

Measured apart from the rest of this report, by `{}` on {}: each family of `glsolve::fixtures::families` (seed {}) solved by glsolve with no options (`auto`, which chose {}) and, on the very same MPS file, by HiGHS 1.16's interior-point method (crossover on, its default) and simplex (highspy) and by Clarabel; {}, each solver's own clock around its solve call (reading the file excluded). *path* is the cpu backend's choice of normal equations by its cost model: *full* the m×m matrix over every column, *diagonal* the dense block's product plus the unit columns' diagonal, *schur* the smaller side (the k×k dual normal matrix and the Schur complement of the rows kept exact); *full path* is glsolve forced onto the first, as it solved every family before the shapes. The objective column is |glsolve − HiGHS ipm| / |HiGHS ipm|.\n\n{}\n",
        b.command,
        b.date,
        b.seed,
        chosen(&b.rows),
        if b.reps == 1 { "one round".to_string() } else { format!("medians of {} interleaved rounds", b.reps) },
        markdown(&b.rows),
    ) + &gl_section(&b.rows)
}

/// What `auto` chose over `rows`: one backend for all, or each case's.
fn chosen(rows: &[FamilyRow]) -> String {
    match rows.first().map(|r| &r.backend) {
        Some(b) if rows.iter().all(|r| &r.backend == b) => format!("the {b} backend for every case"),
        _ => rows
            .iter()
            .map(|r| {
                format!(
                    "{} for {} {}×{}",
                    r.backend,
                    r.case.family.form_name(r.case.form),
                    r.case.rows,
                    r.case.features
                )
            })
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The GL backends' table, when a run asked for them.
fn gl_section(rows: &[FamilyRow]) -> String {
    let gl: Vec<_> = rows.iter().flat_map(|r| r.gl.iter().cloned()).collect();
    if gl.is_empty() {
        return String::new();
    }
    let cpu = |c: &Case| {
        rows.iter().find(|r| r.case == *c && r.backend == "cpu").map(|r| (r.glsolve.median_s, r.glsolve.objective))
    };
    format!(
        "The GL backends on the same cases, each with its own defaults (the gpu backend's ε = 1e-4), timed as above (one warm-up iteration first); passes and fragments per iteration are all of a solve's over its iterations, counted in one more, untimed solve (the hybrid backend's CPU iterations draw none). The hybrid backend takes the shapes on both sides (its GPU side's passes over the dense block's columns plus the unit columns' diagonal, or on the dense-column path the dense columns' k×k matrix alone, the sparse part factored on the CPU; its CPU side the cpu backend's path); *shapes off* is the same backend with them turned off, as before them. The gpu backend takes the same split in its normal equations (d² read back each iteration; on the dense-column path its base shape's), its vector kernels over every column.\n\n{}\n",
        super::families_gl::markdown(&gl, cpu)
    )
}

/// The Markdown table of `rows`.
pub fn markdown(rows: &[FamilyRow]) -> String {
    let with_full = rows.iter().any(|r| r.full.is_some());
    let mut s = String::from("| family | data | LP rows × cols (standard form) | path | glsolve | iterations |");
    if with_full {
        s.push_str(" full path | full / new |");
    }
    s.push_str(" HiGHS ipm | HiGHS simplex | Clarabel | glsolve / HiGHS ipm | objective vs HiGHS ipm |\n|---|---|---|---|---|---|");
    s.push_str(if with_full { "---|---|" } else { "" });
    s.push_str("---|---|---|---|---|\n");
    let secs = |t: Option<&Timed>| match t {
        Some(t) if t.median_s.is_finite() && ["optimal", "solved"].contains(&t.status.to_lowercase().as_str()) => {
            format!("{:.3} s", t.median_s)
        }
        Some(t) if t.median_s.is_finite() => format!("{:.3} s ({})", t.median_s, t.status),
        Some(t) => t.status.clone(),
        None => "–".into(),
    };
    for r in rows {
        let c = &r.case;
        let data = c.data();
        let g = &r.glsolve;
        s.push_str(&format!(
            "| {} | {data} | {} × {} | {} | {} | {} |",
            c.title(),
            r.standard_form.0,
            r.standard_form.1,
            r.path,
            secs(Some(g)),
            g.iterations.map_or("–".into(), |i| i.to_string())
        ));
        if with_full {
            let f = r.full.as_ref();
            let ratio = f.map_or("–".into(), |f| format!("{:.2}", f.median_s / g.median_s));
            s.push_str(&format!(" {} | {ratio} |", secs(f)));
        }
        let ipm = r.peer("HiGHS ipm");
        let ratio = ipm.map_or("–".into(), |h| format!("{:.2}", g.median_s / h.median_s));
        let agree = ipm.map_or("–".into(), |h| {
            format!("{:.1e}", (g.objective - h.objective).abs() / h.objective.abs().max(1e-300))
        });
        s.push_str(&format!(
            " {} | {} | {} | {ratio} | {agree} |\n",
            secs(ipm),
            secs(r.peer("HiGHS simplex")),
            secs(r.peer("Clarabel"))
        ));
    }
    s
}
