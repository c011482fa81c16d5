//! The end-to-end cases of `glsolve bench cpu` (see [`super::cpu`]) and the whole run.

use super::cpu::{median, variant, verdict, CpuBench, EndRow, Piece};
use super::cpu_kernels::{kernels, Plan};
use glsolve::cpu::products;
use glsolve::lp::random::random_lp;
use glsolve::lp::{mps, solve, BackendKind, LpModel, Settings, Status};
use glsolve::machine::CpuPaths;
use glsolve::Logger;
use std::time::Instant;

/// (status, iterations, objective) of a solve, for the check that every variant agrees.
type Outcome = (Status, usize, f64);

fn solve_quiet(model: &LpModel, paths: CpuPaths) -> Result<Outcome, String> {
    let st = Settings::builder(BackendKind::Cpu).cpu_paths(paths).build().map_err(|e| e.to_string())?;
    let s = solve(model, &st, &mut Logger::quiet()).map_err(|e| e.to_string())?;
    Ok((s.status, s.iterations, s.objective))
}

/// Whether two outcomes agree: same status and iterations, objectives within 1e-9 relative.
fn agree(a: &[Outcome], b: &[Outcome]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| x.0 == y.0 && x.1 == y.1 && (x.2 - y.2).abs() <= 1e-9 * (1.0 + x.2.abs()))
}

/// One end-to-end case: every variant (own, then each piece's library) on `models`, timed in
/// total, interleaved.
fn end_case(case: String, m: usize, models: &[LpModel], pieces: &[Piece], reps: usize) -> Result<EndRow, String> {
    let variants: Vec<Option<Piece>> = std::iter::once(None).chain(pieces.iter().copied().map(Some)).collect();
    let k = variants.len();
    let mut times = vec![Vec::new(); k];
    let mut outcomes = vec![Vec::new(); k];
    for r in 0..reps + 1 {
        for i in 0..k {
            let v = (r + i) % k;
            let paths = variant(variants[v]);
            let t = Instant::now();
            let out = models.iter().map(|model| solve_quiet(model, paths)).collect::<Result<Vec<_>, _>>()?;
            let dt = t.elapsed().as_secs_f64();
            if r > 0 {
                times[v].push(dt);
            }
            outcomes[v] = out;
        }
    }
    variant(None);
    let same_results = outcomes.iter().all(|o| agree(o, &outcomes[0]));
    let iterations = outcomes[0].iter().map(|o| o.1).sum();
    let mut medians = times.into_iter().map(median);
    let own_s = medians.next().unwrap_or(f64::NAN);
    let library_s = pieces.iter().copied().zip(medians).collect();
    Ok(EndRow { case, m, reps, own_s, library_s, same_results, iterations })
}

/// The whole run: kernels, then end to end, then the verdicts.
pub fn run(plan: &Plan, progress: impl Fn(&str)) -> Result<CpuBench, String> {
    let pieces = Piece::all();
    let kernels = kernels(plan, &pieces, &progress)?;
    let mut end_to_end = Vec::new();
    for &m in &plan.sizes {
        let model = random_lp(m, 7).to_model(7);
        let reps = match m {
            0..=600 => 2 * plan.reps,
            601..=1200 => plan.reps,
            _ => plan.reps.div_ceil(2).max(3),
        };
        let row = end_case(format!("random {m} (seed 7)"), m, &[model], &pieces, reps)?;
        progress(&format!("{}: own {:.3} s, {:?}", row.case, row.own_s, row.library_s));
        end_to_end.push(row);
    }
    let mut files: Vec<_> = std::fs::read_dir(&plan.netlib)
        .map_err(|e| format!("{}: {e}", plan.netlib.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "mps"))
        .collect();
    files.sort();
    let models = files
        .iter()
        .map(|p| mps::read_file(p).map_err(|e| format!("{}: {e}", p.display())))
        .collect::<Result<Vec<_>, _>>()?;
    let row = end_case(format!("netlib total ({} problems)", models.len()), 0, &models, &pieces, plan.reps)?;
    progress(&format!("{}: own {:.3} s, {:?}", row.case, row.own_s, row.library_s));
    end_to_end.push(row);
    let verdicts = pieces.iter().map(|&p| verdict(p, &kernels, &end_to_end)).collect();
    let machine = format!(
        "{} kernels, AMX {}, {} rayon threads",
        glsolve::cpu::paths::Isa::detect().name(),
        if glsolve::cpu::gram::amx_available() { "available" } else { "not available" },
        products::threads()
    );
    Ok(CpuBench { kernels, end_to_end, verdicts, machine, provenance: None, after: None })
}
