//! `glsolve solve`, `glsolve generate` and the default job.
use super::named::named;
use clap::Args;
use glsolve::lp::random::random_lp;
use glsolve::lp::{
    mps, mps_write, BackendKind, CpuOptions, GpuOptions, HybridRules, LpModel, NormalFactorization, Settings,
    SettingsError, Status, StoppingRule, Substitution, Verbosity,
};
use glsolve::Format;
use glsolve::Logger;
use glsolve::Variant;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Size and seed of the default job: a random LP of the papers' family.
const DEFAULT_M: usize = 256;
const DEFAULT_SEED: u64 = 1;

#[derive(Args)]
pub struct SolveArgs {
    /// MPS file (fixed or free format, optionally .gz).
    #[arg(required_unless_present = "random", conflicts_with = "random")]
    pub file: Option<PathBuf>,
    /// Solve the random dense LP of the papers' family with M rows and 4M columns instead.
    #[arg(long, value_name = "M")]
    pub random: Option<usize>,
    /// Seed of the random LP.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Backend running the normal-equations kernels (hybrid falls back to cpu, with a notice,
    /// where no GL context can be made).
    #[arg(long, default_value = "auto", value_parser = named::<BackendKind>())]
    pub backend: BackendKind,
    /// The hybrid backend's switching rules as the 2008 paper ran them (without the cost rule).
    #[arg(skip)]
    pub papers_rules: bool,
    /// Where the GPU backends' triangular solves run.
    #[arg(long, default_value = "gpu", value_parser = named::<Substitution>())]
    pub subst: Substitution,
    /// The GPU backends' Cholesky variant (and with it the layout of every GPU kernel): a tiled
    /// one (tiled-8, tiled-16, tiled-32: 4×4 register tiles, the blocked kernels on a context
    /// with fewer than four draw buffers), a blocked one (blocked-8, blocked-16, blocked-32) or
    /// one of the papers' (triangle-pair, square-pair, column-multipass, inner, …).
    #[arg(long, default_value_t = Variant::FASTEST, value_parser = named::<Variant>())]
    pub variant: Variant,
    /// Store A·D²·Aᵀ in full format on the GPU instead of the packed format (the triangle-pair
    /// variant only: the others have no choice).
    #[arg(long)]
    pub full: bool,
    /// Termination tolerance ε of tests (6.1)–(6.3) [default: 1e-8; 1e-4 for --backend gpu].
    #[arg(long)]
    pub tol: Option<f64>,
    /// The termination test: the 2006 paper's (6.1)–(6.3) or the 2008 IPM paper's (3.15).
    #[arg(long, default_value = "6.1-6.3", value_parser = named::<StoppingRule>())]
    pub stop: StoppingRule,
    /// Iteration limit.
    #[arg(long, default_value_t = 200)]
    pub max_iter: usize,
    /// Write status, objective, iterations, time and the primal/dual solution as JSON.
    #[arg(long, value_name = "OUT")]
    pub json: Option<PathBuf>,
    /// No iteration log (same as --log-level quiet).
    #[arg(long, short)]
    pub quiet: bool,
    /// Stop after this many seconds with the best point so far (status "time limit").
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// How much the solver prints.
    #[arg(long, default_value = "normal", value_parser = named::<Verbosity>())]
    pub log_level: Verbosity,
    /// Also write the log to this file.
    #[arg(long, value_name = "PATH")]
    pub log_file: Option<PathBuf>,
    /// cpu backend: form only exact (double-precision) normal matrices, without the
    /// reduced-precision products of the early iterations and of the later ones' smallest
    /// weights.
    #[arg(long)]
    pub no_mixed_precision: bool,
    /// cpu backend with sparse A: how A·D²·Aᵀ is factored (auto: sparse when its predicted
    /// work is well below the dense factorization's).
    #[arg(long, default_value = "auto", value_parser = named::<NormalFactorization>())]
    pub factorization: NormalFactorization,
}

/// Writes every log line to stdout and a file.
struct Tee(Option<std::io::Stdout>, std::fs::File);

impl std::io::Write for Tee {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(o) = self.0.as_mut() {
            o.write_all(buf)?;
        }
        self.1.write_all(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        if let Some(o) = self.0.as_mut() {
            o.flush()?;
        }
        self.1.flush()
    }
}

#[derive(Args)]
pub struct GenerateArgs {
    /// Rows m of the random LP (columns n = 4m).
    #[arg(long, value_name = "M", required_unless_present = "family", conflicts_with = "family")]
    pub random: Option<usize>,
    /// A family of `glsolve bench families` instead: l1, quantile, chebyshev, game or papers, or as textbooks write them: l1-t, quantile-t (the t form), chebyshev-dual, game-column.
    #[arg(long, value_name = "NAME", requires = "rows")]
    pub family: Option<String>,
    /// The family's rows.
    #[arg(long)]
    pub rows: Option<usize>,
    /// The family's features (unknowns of the fit, or the game's row strategies).
    #[arg(long, default_value_t = 1)]
    pub features: usize,
    /// Seed.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Output MPS file.
    #[arg(long, value_name = "FILE.mps")]
    pub out: PathBuf,
}

/// `glsolve` with no arguments: solves the random LP m = 256, n = 1024, seed 1 on the hybrid
/// backend (cpu where no GL context exists).
pub fn run_default() -> ExitCode {
    let args = SolveArgs {
        file: None,
        random: Some(DEFAULT_M),
        seed: DEFAULT_SEED,
        backend: BackendKind::Hybrid,
        papers_rules: true,
        subst: Substitution::Gpu,
        variant: Variant::FASTEST,
        stop: StoppingRule::Separate,
        full: false,
        tol: None,
        max_iter: 200,
        json: None,
        quiet: false,
        time_limit: None,
        log_level: Verbosity::Normal,
        log_file: None,
        no_mixed_precision: false,
        factorization: NormalFactorization::Auto,
    };
    println!("glsolve: no command given; solving the default random LP (m = {DEFAULT_M}, n = {}, seed {DEFAULT_SEED}). See `glsolve --help`.", 4 * DEFAULT_M);
    println!(
        "glsolve: this job shows the 2008 paper's hybrid method at work (its switching rules (3.16)–(3.18), \
         as the paper ran them); `glsolve solve FILE` chooses cpu or hybrid per problem (--backend auto)."
    );
    solve(&args)
}

fn load(a: &SolveArgs) -> Result<LpModel, String> {
    match (&a.file, a.random) {
        (_, Some(0)) => Err("--random needs M ≥ 1".into()),
        (_, Some(m)) => Ok(random_lp(m, a.seed).to_model(a.seed)),
        (Some(path), None) => mps::read_file(path).map_err(|e| format!("{}: {e}", path.display())),
        (None, None) => Err("give an MPS file or --random M".into()),
    }
}

pub fn solve(a: &SolveArgs) -> ExitCode {
    let model = match load(a) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    for w in &model.warnings {
        eprintln!("warning: {w}");
    }
    // Ctrl-C raises the flag; the solver stops at the next iteration with the best point.
    let interrupt = Arc::new(AtomicBool::new(false));
    if let Err(e) = signal_hook::flag::register(signal_hook::consts::SIGINT, Arc::clone(&interrupt)) {
        eprintln!("warning: Ctrl-C cannot stop the solve cleanly ({e})");
    }
    let level = if a.quiet { Verbosity::Quiet } else { a.log_level };
    let settings = match settings(a, interrupt) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut log = match (&a.log_file, level) {
        (Some(path), _) => match std::fs::File::create(path) {
            Ok(f) => {
                let out = (level != Verbosity::Quiet).then(std::io::stdout);
                Logger::to_writer(Box::new(Tee(out, f)))
            }
            Err(e) => {
                eprintln!("error: cannot write the log file {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        (None, Verbosity::Quiet) => Logger::quiet(),
        (None, _) => Logger::stdout(),
    }
    // Quiet on the console, but a log file still gets the log (the Tee above leaves stdout out).
    .with_verbosity(if level == Verbosity::Quiet && a.log_file.is_some() { Verbosity::Normal } else { level });
    if level == Verbosity::Verbose {
        for w in &model.warnings {
            log.line(&format!("reader warning: {w}"));
        }
    }
    let sol = match glsolve::lp::solve(&model, &settings, &mut log) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if level == Verbosity::Quiet {
        println!("status      {}", sol.status);
    } else {
        super::solution::summary(&model, &sol);
    }
    if let Some(path) = &a.json {
        if let Err(e) = std::fs::write(path, super::solution::to_json(&model, &sol)) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    if sol.status == Status::Optimal {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The settings the flags ask for: each backend gets the options it reads (the command line's
/// defaults for the others are left out), and the library checks them all.
fn settings(a: &SolveArgs, interrupt: Arc<AtomicBool>) -> Result<Settings, String> {
    let kind = a.backend;
    let mut b = Settings::builder(kind).max_iterations(a.max_iter).stopping(a.stop).interrupt(interrupt);
    if let Some(eps) = a.tol {
        b = b.tolerance(eps);
    }
    if let Some(t) = a.time_limit {
        b = b.time_limit_seconds(t);
    }
    if matches!(kind, BackendKind::Cpu | BackendKind::Auto) {
        b = b.cpu(CpuOptions { mixed_precision: !a.no_mixed_precision, factorization: a.factorization });
    }
    if kind != BackendKind::Cpu {
        let normal_format = a.full.then_some(Format::Full);
        let gl = super::gl_api();
        b = b.gpu(GpuOptions { variant: a.variant, substitution: a.subst, normal_format, gl, ..GpuOptions::default() });
    }
    if matches!(kind, BackendKind::Hybrid | BackendKind::Auto) {
        b = b.hybrid_rules(if a.papers_rules { HybridRules::papers() } else { HybridRules::default() });
    }
    b.build().map_err(|e| match e {
        SettingsError::NormalFormat { .. } => format!("--full: {e}"),
        e => e.to_string(),
    })
}

pub fn generate(a: &GenerateArgs) -> ExitCode {
    let model = match (&a.family, a.random) {
        (Some(name), _) => {
            let Some((family, form)) = glsolve::fixtures::families::Family::parse_form(name) else {
                eprintln!("error: unknown family {name:?} (l1, quantile, chebyshev, game, papers; l1-t, quantile-t, chebyshev-dual, game-column as textbooks write them)");
                return ExitCode::from(2);
            };
            match family.model_in(form, a.rows.unwrap_or(0), a.features, a.seed) {
                Some(m) => m,
                None => {
                    eprintln!("error: {name} has no model with {:?} rows and {} features", a.rows, a.features);
                    return ExitCode::from(2);
                }
            }
        }
        (None, Some(m)) if m > 0 => random_lp(m, a.seed).to_model(a.seed),
        _ => {
            eprintln!("error: --random needs M ≥ 1");
            return ExitCode::from(2);
        }
    };
    let text = match mps_write::to_mps_string(&model) {
        Ok(t) => t,
        Err(e) => return super::fail(e),
    };
    match std::fs::write(&a.out, text) {
        Ok(()) => {
            println!(
                "wrote {} ({} rows, {} columns, seed {})",
                a.out.display(),
                model.num_rows(),
                model.num_cols(),
                a.seed
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", a.out.display());
            ExitCode::from(2)
        }
    }
}
