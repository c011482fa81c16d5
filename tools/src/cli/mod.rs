//! The command-line interface: one module per subcommand family.
use clap::{Parser, Subcommand};
use glsolve::gl::HeadlessOptions;
use glsolve::machine::GlApi;
use glsolve::GlError;
use glsolve::Gpu;
use std::process::ExitCode;

mod answer;
mod bench;
mod bench_families;
mod bench_lp;
mod bench_lsq;
mod bench_tiles;
mod factor;
mod info;
mod linsolve;
mod lp;
mod lsq;
mod mixed;
mod named;
mod report;
mod show;
mod solution;
mod variant;
mod web;

#[derive(Parser)]
#[command(
    name = "glsolve",
    version,
    about = "Dense LP / least-squares / linear-system solver on the OpenGL raster pipeline"
)]
struct Cli {
    /// Which OpenGL every command's context speaks: desktop OpenGL where the driver offers it,
    /// else OpenGL ES (auto), or only one of them.
    #[arg(long, global = true, default_value = "auto", value_parser = named::named::<GlApi>())]
    gl: GlApi,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The `--gl` choice, set once before any command runs.
static GL_API: std::sync::OnceLock<GlApi> = std::sync::OnceLock::new();

/// The API `--gl` asked for.
pub(crate) fn gl_api() -> GlApi {
    GL_API.get().copied().unwrap_or_default()
}

/// A headless context of the API `--gl` asked for.
pub(crate) fn headless() -> Result<Gpu, GlError> {
    Gpu::headless_with(HeadlessOptions { api: gl_api(), ..Default::default() })
}

#[derive(Subcommand)]
enum Command {
    /// Print the EGL/GL driver found and its capability record (`--gl es`: the OpenGL ES one).
    Info(info::InfoArgs),
    /// Draw the 2006 paper's oversized triangle and check its fragment count against the formula.
    Demo(info::DemoArgs),
    /// Solve a linear program (MPS file or a generated random dense LP).
    Solve(lp::SolveArgs),
    /// Write a random dense LP of the papers' family as an MPS file.
    Generate(lp::GenerateArgs),
    /// Factor a random SPD matrix on the GPU with one Cholesky variant and check it against faer.
    Cholesky(factor::CholeskyArgs),
    /// Weighted least squares with mixed-precision refinement (2008 Algorithm 1), or a data fit.
    Lsq(lsq::LsqArgs),
    /// A dense general system by single-precision GPU LU and double-precision refinement.
    Linsolve(linsolve::LinsolveArgs),
    /// Benchmarks (speed is measured here only).
    Bench(bench::BenchArgs),
    /// Watch an algorithm pass by pass: a window (keys: space, enter, p, +/-, s, q) or PNG dumps.
    Show(show::ShowArgs),
    /// Serve the browser page (built by `bash web/build.sh`) on localhost.
    Web(web::WebArgs),
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let _ = GL_API.set(cli.gl);
    match cli.command {
        None => lp::run_default(),
        Some(Command::Info(a)) => info::info(&a),
        Some(Command::Demo(a)) => info::demo(&a),
        Some(Command::Solve(a)) => lp::solve(&a),
        Some(Command::Generate(a)) => lp::generate(&a),
        Some(Command::Cholesky(a)) => factor::run(&a),
        Some(Command::Lsq(a)) => lsq::lsq(&a),
        Some(Command::Linsolve(a)) => linsolve::linsolve(&a),
        Some(Command::Bench(a)) => bench::run(&a),
        Some(Command::Show(a)) => show::run(&a),
        Some(Command::Web(a)) => web::run(&a),
    }
}

/// Prints an error and returns a failing exit code.
pub(crate) fn fail(e: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {e}");
    ExitCode::FAILURE
}

/// Writes `value` as pretty JSON to `path`.
pub(crate) fn write_json(path: &std::path::Path, value: &impl serde::Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
