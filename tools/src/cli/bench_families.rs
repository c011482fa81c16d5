//! `glsolve bench families`: the dense LPs people bring against HiGHS and Clarabel.
use super::report::{report, PeerArgs};
use clap::Args;
use glsolve::fixtures::families::Family;
use glsolve_tools::bench::families::{self, Case, FamiliesRun};
use std::process::ExitCode;

#[derive(Args)]
pub struct FamiliesArgs {
    /// Cases as FAMILY:ROWS:FEATURES (families: l1, quantile, chebyshev, game, papers, and as
    /// textbooks write them: l1-t, quantile-t, chebyshev-dual, game-column); default: three
    /// sizes of each family as the generators write it, up to 4000 rows.
    #[arg(long, value_delimiter = ',')]
    cases: Vec<String>,
    /// Only the default cases of these families.
    #[arg(long, value_delimiter = ',')]
    families: Vec<String>,
    /// Leave out cases with more rows than this.
    #[arg(long)]
    max_rows: Option<usize>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Interleaved rounds per case (after one warm-up solve of glsolve's).
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Also time glsolve forced onto the full m×m normal equations (the path before shapes).
    #[arg(long)]
    compare_full: bool,
    /// GL backends to run beside `auto` (hybrid, gpu): time, passes and fragments per
    /// iteration; with --compare-full also each of them with the shapes off.
    #[arg(long, value_delimiter = ',')]
    backends: Vec<String>,
    #[command(flatten)]
    peers: PeerArgs,
    /// Also write the results as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
    /// Put the table into the report of an earlier `bench all` run in this folder (its
    /// bench/families.json, then results.md re-rendered), stating this run's command and date.
    #[arg(long, value_name = "OUT")]
    report: Option<std::path::PathBuf>,
}

fn parse_case(s: &str) -> Result<Case, String> {
    let parts: Vec<&str> = s.split(':').collect();
    let (family, form) =
        parts.first().and_then(|f| Family::parse_form(f)).ok_or_else(|| format!("{s:?}: unknown family"))?;
    let number = |k: usize| parts.get(k).and_then(|v| v.parse::<usize>().ok());
    match (parts.len(), number(1), number(2).or((family == Family::Papers).then_some(0))) {
        (2 | 3, Some(rows), Some(features)) => Ok(Case { family, form, rows, features }),
        _ => Err(format!("{s:?}: expected FAMILY:ROWS:FEATURES")),
    }
}

pub fn run(a: &FamiliesArgs) -> ExitCode {
    let mut cases = match a.cases.iter().map(|s| parse_case(s)).collect::<Result<Vec<_>, _>>() {
        Ok(c) if !c.is_empty() => c,
        Ok(_) => families::default_cases(),
        Err(e) => return super::fail(e),
    };
    for f in &a.families {
        if Family::parse_form(f).is_none() {
            return super::fail(format!("unknown family {f:?}"));
        }
    }
    cases.retain(|c| {
        a.families.is_empty() || a.families.iter().any(|f| f == c.family.name() || *f == c.family.form_name(c.form))
    });
    cases.retain(|c| a.max_rows.is_none_or(|m| c.rows <= m));
    let mut gl_backends = Vec::new();
    for name in &a.backends {
        match glsolve::lp::BackendKind::ALL.iter().find(|k| k.name() == name && k.uses_gl()) {
            Some(k) => gl_backends.push(*k),
            None => return super::fail(format!("--backends: {name:?} is not a GL backend (hybrid, gpu)")),
        }
    }
    // `auto` asks the GL device; without a context it answers cpu, as the command line does.
    let gpu = match super::headless() {
        Ok(g) => Some(g),
        Err(e) if !gl_backends.is_empty() => return super::fail(e),
        Err(_) => None,
    };
    let peers = a.peers.peers();
    let run = FamiliesRun {
        cases: &cases,
        seed: a.seed,
        reps: a.reps,
        compare_full: a.compare_full,
        peers: peers.as_ref(),
        gpu: gpu.as_ref(),
        gl_backends: &gl_backends,
        dir: &std::env::temp_dir(),
    };
    let rows = families::run(&run, |r| {
        let peers: Vec<String> =
            r.peers.iter().map(|p| format!("{} {:.3} s ({})", p.solver, p.median_s, p.status)).collect();
        eprintln!(
            "{} {}×{}: {} path, glsolve {:.3} s ({}, {:?} iterations){}; {}",
            r.case.family.form_name(r.case.form),
            r.case.rows,
            r.case.features,
            r.path,
            r.glsolve.median_s,
            r.glsolve.status,
            r.glsolve.iterations,
            r.full.as_ref().map_or(String::new(), |f| format!(", full path {:.3} s", f.median_s)),
            peers.join(", ")
        );
        for g in &r.gl {
            let shapes = if g.full { " (shapes off)" } else { "" };
            eprintln!(
                "  {}{shapes}: {:.3} s ({}, {:?} iterations, {:?} on the GPU), {:.0} passes and {:.3e} fragments per iteration",
                g.backend, g.timed.median_s, g.timed.status, g.timed.iterations, g.gpu_iterations, g.passes_per_iteration, g.fragments_per_iteration
            );
        }
    });
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let command = command.replacen(&std::env::args().next().unwrap_or_default(), "glsolve", 1);
    let bench = rows.map(|rows| families::FamiliesBench {
        command,
        date: glsolve_tools::bench::report::today(),
        seed: a.seed,
        reps: a.reps,
        rows,
    });
    if let (Some(out), Ok(b)) = (&a.report, &bench) {
        let written = glsolve_tools::bench::report::json(out, "families", b)
            .and_then(|()| glsolve_tools::bench::report::render(out));
        if let Err(e) = written {
            return super::fail(e);
        }
        eprintln!("wrote {0}/bench/families.json and re-rendered {0}/results.md", out.display());
    }
    report(bench, families::section, &a.json)
}
