//! `glsolve info` and `glsolve demo`.
use clap::Args;
use std::process::ExitCode;

#[derive(Args)]
pub struct DemoArgs {}

pub fn info() -> ExitCode {
    ExitCode::SUCCESS
}

pub fn demo(_a: &DemoArgs) -> ExitCode {
    ExitCode::SUCCESS
}
