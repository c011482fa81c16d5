//! The command-line interface: one module per subcommand family.
use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod info;
mod lp;

#[derive(Parser)]
#[command(
    name = "glsolve",
    version,
    about = "Dense LP / least-squares / linear-system solver on the OpenGL raster pipeline"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Print the EGL/GL driver found and what it supports.
    Info,
    /// Draw the 2006 paper's oversized triangle and check its fragment count against the formula.
    Demo(info::DemoArgs),
    /// Solve a linear program (MPS file or a generated random dense LP).
    Solve(lp::SolveArgs),
    /// Write a random dense LP of the papers' family as an MPS file.
    Generate(lp::GenerateArgs),
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => lp::run_default(),
        Some(Command::Info) => info::info(),
        Some(Command::Demo(a)) => info::demo(&a),
        Some(Command::Solve(a)) => lp::solve(&a),
        Some(Command::Generate(a)) => lp::generate(&a),
    }
}
