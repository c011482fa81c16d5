//! What the benchmark commands share: printing a result and writing its JSON, and the peer
//! solvers' options.
use clap::Args;
use glsolve_tools::bench;
use std::process::ExitCode;

/// The peer solvers (Clarabel, CVXOPT) timed on the same LP files.
#[derive(Args)]
pub struct PeerArgs {
    /// A Python with Clarabel, CVXOPT and highspy installed (e.g. made by ../shared/peers/setup.sh) …
    #[arg(long, requires = "peer_scripts")]
    peer_python: Option<std::path::PathBuf>,
    /// … and the folder of their scripts (clarabel_mps.py, cvxopt_mps.py).
    #[arg(long, requires = "peer_python")]
    peer_scripts: Option<std::path::PathBuf>,
}

impl PeerArgs {
    pub fn peers(&self) -> Option<bench::peers::Peers> {
        let (python, scripts) = (self.peer_python.clone()?, self.peer_scripts.clone()?);
        Some(bench::peers::Peers { python, scripts })
    }
}

/// Prints a benchmark's Markdown and writes its JSON where asked.
pub(crate) fn report<T: serde::Serialize>(
    result: Result<T, impl std::fmt::Display>,
    markdown: impl Fn(&T) -> String,
    json: &Option<std::path::PathBuf>,
) -> ExitCode {
    match result {
        Ok(r) => {
            println!("{}", markdown(&r));
            match json {
                Some(p) => match super::write_json(p, &r) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => super::fail(e),
                },
                None => ExitCode::SUCCESS,
            }
        }
        Err(e) => super::fail(e),
    }
}
