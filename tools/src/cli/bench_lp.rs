//! `glsolve bench lp`: random dense LPs on each backend, with the peers when asked.
use super::report::{report, PeerArgs};
use clap::Args;
use glsolve::BackendKind;
use glsolve::Variant;
use std::process::ExitCode;

#[derive(Args)]
pub struct LpArgs {
    /// Orders m (n = 4m).
    #[arg(long, value_delimiter = ',', default_value = "128,256,512,1024")]
    sizes: Vec<usize>,
    /// Backends to run.
    #[arg(long, value_delimiter = ',', default_value = "cpu", value_parser = super::named::named::<BackendKind>())]
    backend: Vec<BackendKind>,
    #[command(flatten)]
    peers: PeerArgs,
    /// Cholesky variants of the GPU backends (each GPU backend runs with each).
    #[arg(long, value_delimiter = ',', default_values_t = [Variant::FASTEST], value_parser = super::named::named::<Variant>())]
    variant: Vec<Variant>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Timed runs per measurement (after one warm-up run).
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Also write the results as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
}

pub fn lp(a: &LpArgs) -> ExitCode {
    let kinds = a.backend.clone();
    if kinds.contains(&BackendKind::Auto) {
        return super::fail("bench lp times the backends themselves: cpu, gpu or hybrid, not auto");
    }
    let gpu = if kinds.iter().any(|k| k.uses_gl()) {
        match super::headless() {
            Ok(g) => Some(g),
            Err(e) => return super::fail(e),
        }
    } else {
        None
    };
    let mut rows = Vec::new();
    for kind in kinds {
        let variants: Vec<_> = if kind.uses_gl() { a.variant.clone() } else { vec![Variant::FASTEST] };
        for v in variants {
            for &m in &a.sizes {
                let r = glsolve_tools::bench::lp::random_lp_times(&[m], a.seed, kind, v, a.reps, gpu.as_ref());
                for row in &r {
                    eprintln!("m={m} {} {v}: {:?} in {:.3} s", kind.name(), row.status, row.median.as_secs_f64());
                }
                rows.extend(r);
            }
        }
    }
    let mut peers = Vec::new();
    if let Some(p) = a.peers.peers() {
        for &m in &a.sizes {
            match glsolve_tools::bench::peers::run(&p, m, a.seed, &std::env::temp_dir()) {
                Ok(r) => {
                    for row in &r {
                        eprintln!("m={m} {}: {:.3} s ({})", row.peer, row.seconds, row.report);
                    }
                    peers.extend(r);
                }
                Err(e) => return super::fail(e),
            }
        }
    }
    let mut md = glsolve_tools::bench::lp::markdown(&rows, &a.sizes);
    let time =
        |m: usize, k: &str| rows.iter().find(|r| r.m == m && r.backend.name() == k).map(|r| r.median.as_secs_f64());
    if !peers.is_empty() {
        md.push_str("\n| m | peer | its solve time | glsolve cpu / peer | glsolve hybrid / peer | glsolve gpu / peer | what it printed (status, objective, iterations) |\n|---|---|---|---|---|---|---|\n");
        for p in &peers {
            let ratio = |k| time(p.m, k).map_or("–".into(), |t| format!("{:.3}", t / p.seconds));
            md.push_str(&format!(
                "| {} | {} | {:.3} s | {} | {} | {} | {} |\n",
                p.m,
                p.peer,
                p.seconds,
                ratio("cpu"),
                ratio("hybrid"),
                ratio("gpu"),
                p.report
            ));
        }
    }
    #[derive(serde::Serialize)]
    struct Out<'a> {
        rows: &'a [glsolve_tools::bench::lp::LpBenchRow],
        peers: &'a [glsolve_tools::bench::peers::PeerRow],
    }
    report(Ok::<_, String>(Out { rows: &rows, peers: &peers }), |_| md.clone(), &a.json)
}
