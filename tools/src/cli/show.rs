//! `glsolve show`: watch an algorithm pass by pass in a window, or dump its frames as PNGs.
use clap::{Args, ValueEnum};
use glsolve::debug::dump::{Dump, TextureExport};
use glsolve::debug::window::{self, WindowOptions};
use glsolve::debug::{Algorithm, DebugError, DebugResult, Direction, Scenario, Sink, Viewer};
use glsolve::gl::PassObserver;
use glsolve::Format;
use std::cell::RefCell;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;

/// What to watch; `lu` and `lp` are reserved for their GPU implementations.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ShowAlgorithm {
    /// Cholesky factorization (Algorithm 5), any variant, full or packed.
    Cholesky,
    /// Assembly of C = A·D²·Aᵀ (Algorithm 3), full or packed.
    Assemble,
    /// Forward and back substitution with a Cholesky factor.
    Solve,
    /// LU factorization with partial pivoting.
    Lu,
    /// Weighted least squares (2008 Algorithm 1): m unknowns, n samples.
    Lsq,
    /// The interior-point LP solver's gpu backend on a random LP (m rows, 4m columns).
    Lp,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ShowDirection {
    Forward,
    Backward,
    Both,
}

#[derive(Args)]
pub struct ShowArgs {
    #[arg(value_enum)]
    algorithm: ShowAlgorithm,
    /// Order of the matrix (rows of A for `assemble`).
    #[arg(long, default_value_t = 8)]
    m: usize,
    /// Columns of A for `assemble` (default 2m).
    #[arg(long)]
    n: Option<usize>,
    /// The Cholesky variant (Cholesky; assembly, solves and LP take its layout: blocked variants
    /// watch the blocked kernels).
    #[arg(long, default_value = "triangle-pair")]
    #[arg(value_parser = super::named::named::<glsolve::Variant>())]
    variant: glsolve::Variant,
    /// The rectangular packed format (Cholesky's paper variant, assembly, solves).
    #[arg(long)]
    packed: bool,
    /// Which substitutions `solve` shows.
    #[arg(long, value_enum, default_value_t = ShowDirection::Both)]
    direction: ShowDirection,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write one PNG per pass into DIR instead of opening a window.
    #[arg(long, value_name = "DIR")]
    dump: Option<PathBuf>,
    /// Export one texture at one pass: PASS:ROLE:FILE, ROLE = target | source0 | source1 …
    /// (passes count from 0). Repeatable; no window is opened.
    #[arg(long, value_name = "PASS:ROLE:FILE")]
    texture: Vec<String>,
    /// Only dump passes FROM..TO (0-based, end excluded).
    #[arg(long, value_name = "FROM..TO")]
    passes: Option<String>,
    /// Frame size WxH in pixels (window start size; dump size).
    #[arg(long, value_name = "WxH")]
    size: Option<String>,
    /// Pixels per texel of dumps and texture exports (default: about 360 pixels per texture).
    #[arg(long)]
    texel: Option<f32>,
    /// Window: start playing instead of paused.
    #[arg(long)]
    play: bool,
    /// Window: passes per second while playing.
    #[arg(long, default_value_t = 4.0)]
    speed: f64,
    /// Window: after pass --at, save what the window shows to FILE and close it (implies --play).
    #[arg(long, value_name = "FILE", requires = "at")]
    screenshot: Option<PathBuf>,
    /// Window: the pass (0-based) of --screenshot.
    #[arg(long, requires = "screenshot")]
    at: Option<u64>,
    /// Window: close when the computation ends.
    #[arg(long)]
    exit_at_end: bool,
    /// Run again without the viewer on the same context and check the results are bit-identical.
    #[arg(long)]
    check_identical: bool,
}

fn parse_pair(s: &str, sep: &str, what: &str) -> DebugResult<(u64, u64)> {
    let bad = || DebugError::Invalid(format!("{what} {s:?}: expected A{sep}B"));
    let (a, b) = s.split_once(sep).ok_or_else(bad)?;
    Ok((a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?))
}

fn scenario(a: &ShowArgs) -> DebugResult<Scenario> {
    let algorithm = match a.algorithm {
        ShowAlgorithm::Cholesky => Algorithm::Cholesky,
        ShowAlgorithm::Assemble => Algorithm::Assemble,
        ShowAlgorithm::Solve => Algorithm::Solve,
        ShowAlgorithm::Lu => Algorithm::Lu,
        ShowAlgorithm::Lsq => Algorithm::LeastSquares,
        ShowAlgorithm::Lp => Algorithm::Lp,
    };
    let variant = a.variant;
    if a.m == 0 {
        return Err(DebugError::Invalid("--m must be at least 1".into()));
    }
    Ok(Scenario {
        algorithm,
        m: a.m,
        n: a.n.unwrap_or(2 * a.m).max(1),
        variant,
        format: if a.packed { Format::Packed } else { Format::Full },
        direction: match a.direction {
            ShowDirection::Forward => Direction::Forward,
            ShowDirection::Backward => Direction::Backward,
            ShowDirection::Both => Direction::Both,
        },
        seed: a.seed,
    })
}

pub fn run(a: &ShowArgs) -> ExitCode {
    match show(a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => super::fail(e),
    }
}

fn show(a: &ShowArgs) -> DebugResult<()> {
    let sc = scenario(a)?;
    let size = a.size.as_deref().map(|s| parse_pair(s, "x", "--size")).transpose()?;
    let size = size.map(|(w, h)| (w.clamp(64, 8192) as u32, h.clamp(64, 8192) as u32));
    let headless = a.dump.is_some() || !a.texture.is_empty();
    let mut sinks: Vec<Box<dyn Sink>> = Vec::new();
    let gpu = if headless {
        if let Some(dir) = &a.dump {
            let passes = a.passes.as_deref().map(|p| parse_pair(p, "..", "--passes")).transpose()?;
            sinks.push(Box::new(Dump::new(dir, size, a.texel, passes.map(|(f, t)| f..t))));
        }
        for spec in &a.texture {
            sinks.push(Box::new(TextureExport::parse(spec, a.texel)?));
        }
        super::headless()?
    } else {
        let opts = WindowOptions {
            title: format!("glsolve show {}", sc.algorithm.name()),
            size: size.unwrap_or((1280, 720)),
            play: a.play,
            speed: a.speed,
            screenshot: a.screenshot.clone().zip(a.at),
            exit_at_end: a.exit_at_end,
            save_dir: PathBuf::from("."),
        };
        let (gpu, sink) = window::open(opts)?;
        sinks.push(Box::new(sink));
        gpu
    };
    eprintln!("GL: {} on {}", gpu.info().renderer, gpu.info().platform);
    // The reference run, unobserved: the number of passes for the status line, and the bits the
    // watched run must reproduce.
    let reference = sc.run(&gpu, None)?;
    let mut label = sc.label();
    label.total = Some(reference.passes);
    let viewer = Rc::new(RefCell::new(Viewer::new(label, sinks)));
    let observer: Rc<RefCell<dyn PassObserver>> = viewer.clone();
    let watched = sc.run(&gpu, Some(observer))?;
    viewer.borrow_mut().finish(&gpu)?;
    let same = watched.result.len() == reference.result.len()
        && watched.result.iter().zip(&reference.result).all(|(x, y)| x.to_bits() == y.to_bits());
    if a.check_identical {
        if !same {
            return Err(DebugError::Invalid("results with the viewer differ from results without it".into()));
        }
        println!(
            "bit-identical: {} values, {} passes with and without the viewer",
            watched.result.len(),
            watched.passes
        );
    }
    Ok(())
}
