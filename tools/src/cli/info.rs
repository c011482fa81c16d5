//! `glsolve info` and `glsolve demo`.
use clap::Args;
use glsolve::geometry::cholesky::fig5_outer_update_triangle;
use glsolve::gl::{HeadlessOptions, Measure, Pass};
use glsolve::kernels;
use glsolve::Gpu;
use std::process::ExitCode;

#[derive(Args)]
pub struct DemoArgs {
    /// Order of the matrix whose trailing triangles are drawn.
    #[arg(long, default_value_t = 64)]
    pub m: u32,
}

#[derive(Args)]
pub struct InfoArgs {
    /// Use at most this many draw buffers (shows what a context with fewer runs).
    #[arg(long)]
    pub max_draw_buffers: Option<u32>,
}

pub fn info(a: &InfoArgs) -> ExitCode {
    let opts = HeadlessOptions { api: super::gl_api(), max_draw_buffers: a.max_draw_buffers, ..Default::default() };
    let gpu = match Gpu::headless_with(opts) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut lines = gpu.info().lines();
    if let Some(cap) = a.max_draw_buffers {
        lines.push(("draw buffers used", format!("at most {cap} (--max-draw-buffers)")));
    }
    lines.push(("register tiles", glsolve::gpu::tiled::info_line(gpu.info())));
    let width = lines.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(0) + 1;
    for (name, value) in lines {
        println!("{:width$} {value}", format!("{name}:"));
    }
    ExitCode::SUCCESS
}

/// Draws the Fig. 5 triangle for every step k of an m×m factorization and checks the shaded
/// fragment count against the paper's (m−1)m(m+1)/6.
pub fn demo(a: &DemoArgs) -> ExitCode {
    match run_demo(a.m) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

pub fn run_demo(m: u32) -> Result<bool, glsolve::gl::GlError> {
    let gpu = super::headless()?;
    println!("renderer: {} ({})", gpu.info().renderer, gpu.info().version);
    let target = gpu.texture(m as usize, m as usize, "demo target")?;
    let (_, log) = gpu.logged(Measure::FRAGMENTS, |gpu| -> Result<(), glsolve::gl::GlError> {
        for k in 0..m.saturating_sub(1) {
            let p = Pass::new("outer_update", &kernels::FILL, &target, &[], fig5_outer_update_triangle(k, m))
                .uniforms(&[("value", 1.0)])
                .step(k);
            gpu.run(&p)?;
        }
        Ok(())
    });
    let m64 = m as u64;
    let expected = m64.saturating_sub(1) * m64 * (m64 + 1) / 6;
    let got = log.fragments();
    println!(
        "oversized triangles (Fig. 5) for m = {m}: {} passes, {got} fragments shaded; (m-1)m(m+1)/6 = {expected}: {}",
        log.passes(),
        if got == expected { "match" } else { "MISMATCH" }
    );
    Ok(got == expected)
}
