//! `glsolve solve`, `glsolve generate` and the default job.
use clap::Args;
use std::process::ExitCode;

#[derive(Args)]
pub struct SolveArgs {}

#[derive(Args)]
pub struct GenerateArgs {}

/// Until the LP solver is wired in, the default job demonstrates the GL core.
pub fn run_default() -> ExitCode {
    super::info::demo(&super::info::DemoArgs { m: 64 })
}

pub fn solve(_a: &SolveArgs) -> ExitCode {
    eprintln!("error: the LP solver is not built yet");
    ExitCode::FAILURE
}

pub fn generate(_a: &GenerateArgs) -> ExitCode {
    eprintln!("error: the LP generator is not built yet");
    ExitCode::FAILURE
}
