//! `glsolve solve`, `glsolve generate` and the default job.
use clap::Args;
use std::process::ExitCode;

#[derive(Args)]
pub struct SolveArgs {}

#[derive(Args)]
pub struct GenerateArgs {}

pub fn run_default() -> ExitCode {
    ExitCode::SUCCESS
}

pub fn solve(_a: &SolveArgs) -> ExitCode {
    ExitCode::SUCCESS
}

pub fn generate(_a: &GenerateArgs) -> ExitCode {
    ExitCode::SUCCESS
}
