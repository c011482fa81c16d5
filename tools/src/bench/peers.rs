//! Peer solvers timed on the very same LP files as glsolve: the scripts of a folder (Clarabel,
//! CVXOPT; each prints its solve seconds on its last line) run through a Python interpreter that
//! has them installed. Optional: a run without them says so and reports no ratio.

use glsolve::lp::mps::write::to_mps_string;
use glsolve::lp::random::random_lp;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One peer's solve of one random LP.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct PeerRow {
    pub m: usize,
    pub n: usize,
    pub seed: u64,
    pub peer: String,
    /// The solve time the script reports (its own clock around the solve call).
    pub seconds: f64,
    /// What the script printed besides the time (status, objective, iterations).
    pub report: String,
}

/// Where the peers are.
#[derive(Clone, Debug)]
pub struct Peers {
    pub python: PathBuf,
    /// Folder of `clarabel_mps.py` and `cvxopt_mps.py`.
    pub scripts: PathBuf,
}

/// The peers the report compares with, as script names.
pub const SCRIPTS: [(&str, &str); 2] = [("Clarabel", "clarabel_mps.py"), ("CVXOPT", "cvxopt_mps.py")];

/// Writes the random LP (m, seed) of the papers' family as MPS and times each peer on it.
pub fn run(peers: &Peers, m: usize, seed: u64, dir: &Path) -> Result<Vec<PeerRow>, String> {
    let model = random_lp(m, seed).to_model(seed);
    let file = dir.join(format!("random_{m}_{seed}.mps"));
    let text = to_mps_string(&model).map_err(|e| e.to_string())?;
    std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut rows = Vec::new();
    for (peer, script) in SCRIPTS {
        let out = Command::new(&peers.python)
            .arg(peers.scripts.join(script))
            .arg(&file)
            .output()
            .map_err(|e| format!("{}: {e}", peers.python.display()))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let seconds = stdout.lines().last().and_then(|l| l.trim().parse::<f64>().ok()).ok_or_else(|| {
            format!("{peer} printed no time (exit {:?}): {}{}", out.status.code(), stdout.trim(), stderr.trim())
        })?;
        // The scripts print "status objective iterations" (on stdout or stderr) besides HiGHS's
        // reader banner: keep the line whose second field is a number.
        let status_line = |l: &&str| l.split_whitespace().nth(1).is_some_and(|w| w.parse::<f64>().is_ok());
        let report = stderr.lines().chain(stdout.lines().rev().skip(1)).find(status_line).unwrap_or("").trim();
        rows.push(PeerRow { m, n: model.num_cols(), seed, peer: peer.into(), seconds, report: report.into() });
    }
    let _ = std::fs::remove_file(&file);
    Ok(rows)
}
