//! `glsolve linsolve`: a dense general system by single-precision GPU LU and double-precision
//! refinement, on a random system or Matrix Market files; the answer to `--out` and `--json`.
use super::answer::{num, nums, Outputs};
use clap::Args;
use glsolve::cpu::rowmajor;
use glsolve::fixtures::random;
use glsolve::refine::{self, Solved};
use glsolve::LinearMethod as Method;
use glsolve::LinearSettings as RefineSettings;
use glsolve::LuBlocking as BlockedSettings;
use glsolve::LuPath;
use glsolve::RefinementCriterion as Criterion;
use glsolve::RefinementSubstitution as Substitution;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct LinsolveArgs {
    /// A random n×n system (entries uniform in [−1, 1)).
    #[arg(long, value_name = "N", conflicts_with = "matrix")]
    random: Option<usize>,
    /// With --random: a matrix of this condition number (U·Σ·Vᵀ).
    #[arg(long)]
    cond: Option<f64>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The matrix A, Matrix Market (array or coordinate, real).
    #[arg(long, value_name = "A.mtx")]
    matrix: Option<PathBuf>,
    /// The right-hand side b, Matrix Market n×1 [default: A·1, so x = 1].
    #[arg(long, value_name = "b.mtx", requires = "matrix")]
    rhs: Option<PathBuf>,
    /// The single-precision LU: the paper's right-looking blocked LU (CPU panels, GPU updates),
    /// or the unblocked GPU baseline.
    #[arg(long, value_enum, default_value_t = LuChoice::Blocked)]
    lu: LuChoice,
    /// Panel width of the blocked LU (4, 8, 16, 32 or 64).
    #[arg(long, default_value_t = 32)]
    block: usize,
    /// Blocked LU and forward substitution without look-ahead.
    #[arg(long)]
    no_lookahead: bool,
    /// How each refinement step applies the factors: the paper's blocked substitutions split
    /// between CPU and GPU (residual in double on the GPU), or all on the CPU.
    #[arg(long, value_enum, default_value_t = SubstitutionChoice::Split)]
    substitution: SubstitutionChoice,
    /// The convergence test: the paper's Eq. (1), or the normwise backward error.
    #[arg(long, value_enum, default_value_t = CriterionChoice::Paper)]
    criterion: CriterionChoice,
    #[command(flatten)]
    outputs: Outputs,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum LuChoice {
    Blocked,
    Unblocked,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum SubstitutionChoice {
    Split,
    Cpu,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum CriterionChoice {
    Paper,
    BackwardError,
}

fn settings(a: &LinsolveArgs) -> RefineSettings {
    RefineSettings {
        lu: match a.lu {
            LuChoice::Blocked => LuPath::Blocked(BlockedSettings { block: a.block, lookahead: !a.no_lookahead }),
            LuChoice::Unblocked => LuPath::Unblocked,
        },
        substitution: match a.substitution {
            SubstitutionChoice::Split => Substitution::Split,
            SubstitutionChoice::Cpu => Substitution::Cpu,
        },
        criterion: match a.criterion {
            CriterionChoice::Paper => Criterion::Paper,
            CriterionChoice::BackwardError => Criterion::BackwardError,
        },
        ..RefineSettings::default()
    }
}

/// The system to solve: A row-major, its order, b, and a label for the report.
type System = (Vec<f64>, usize, Vec<f64>, String);

fn read_system(a: &LinsolveArgs) -> Result<System, String> {
    if let Some(path) = &a.matrix {
        let m = glsolve_tools::matrix_market::read_file(path).map_err(|e| e.to_string())?;
        if m.rows != m.cols {
            return Err(format!("{}: A is {}×{}, not square", path.display(), m.rows, m.cols));
        }
        let b = match &a.rhs {
            Some(p) => match glsolve_tools::matrix_market::read_file(p).map_err(|e| e.to_string())? {
                v if v.rows == m.rows && v.cols == 1 => v.data,
                v => return Err(format!("{}: b is {}×{}, A needs {}×1", p.display(), v.rows, v.cols, m.rows)),
            },
            None => rowmajor::matvec(&m.data, m.rows, m.cols, &vec![1.0; m.cols]),
        };
        return Ok((m.data, m.rows, b, path.display().to_string()));
    }
    let Some(n) = a.random.filter(|&n| n > 0) else {
        return Err("give --random N (N ≥ 1) or --matrix A.mtx".into());
    };
    let am = match a.cond {
        Some(k) => random::general_with_condition(n, k, a.seed),
        None => random::uniform(n, n, -1.0, 1.0, a.seed),
    };
    Ok((am, n, random::uniform(n, 1, -1.0, 1.0, a.seed + 1), format!("random n = {n}")))
}

pub fn linsolve(a: &LinsolveArgs) -> ExitCode {
    let inputs: Vec<&std::path::Path> = a.matrix.iter().chain(&a.rhs).map(PathBuf::as_path).collect();
    if let Err(e) = a.outputs.check(&inputs) {
        return super::fail(e);
    }
    let (am, n, b, label) = match read_system(a) {
        Ok(s) => s,
        Err(e) => return super::fail(e),
    };
    let gpu = match super::headless() {
        Ok(g) => g,
        Err(e) => return super::fail(e),
    };
    let st = settings(a);
    let s = match refine::linsolve(&gpu, &am, n, &b, &st) {
        Ok(s) => s,
        Err(e) => return super::fail(e),
    };
    println!("renderer: {}", gpu.info().renderer);
    println!("system             {label}");
    println!("LU, substitution   {}, {}", s.lu.name(), s.substitution.name());
    match &s.method {
        Method::Mixed => println!("method             Mixed"),
        Method::DoubleFallback(why) => println!("method             DoubleFallback ({why})"),
    }
    println!("refinement steps   {}", s.iterations);
    println!("convergence test   {:.3} = {} (must be ≤ {})", s.test_value(), s.test.formula(), st.threshold);
    println!(
        "backward error     ≤ {:.3} (proven: (‖b − Ax‖∞ + γ_(n+1)·‖|b| + |A||x|‖∞) / (‖A‖∞‖x‖∞·n·ε), ε = 2⁻⁵²; the mixed answer must be ≤ {})",
        s.criterion(),
        s.threshold
    );
    println!(
        "time               LU {:.3} s, refinement {:.3} s, total {:.3} s",
        s.factor_time.as_secs_f64(),
        s.refine_time.as_secs_f64(),
        s.total_time.as_secs_f64()
    );
    println!("effective rate     {:.3} GFLOP/s ((2/3·n³ + 2n²) / total time)", s.gflops());
    for phase in ["factor", "forward", "backward", "substitute", "residual"] {
        let sh = s.timeline.shares_summed(phase);
        if sh.wall > 0.0 {
            println!(
                "  {phase:<10} wall {:.4} s: host busy {:.4} s, GPU busy {:.4} s, both at once {:.4} s",
                sh.wall, sh.host, sh.gpu, sh.overlap
            );
        }
    }
    match a.outputs.write(&s.x, || report(&label, n, &st, &s)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => super::fail(e),
    }
}

/// The JSON of `--json`.
fn report(label: &str, n: usize, st: &RefineSettings, s: &Solved) -> serde_json::Value {
    let (method, reason) = match &s.method {
        Method::Mixed => ("Mixed", None),
        Method::DoubleFallback(why) => ("DoubleFallback", Some(why.as_str())),
    };
    serde_json::json!({
        "system": label,
        "n": n,
        "method": method,
        "fallback_reason": reason,
        "refinement_steps": s.iterations,
        "backward_error": num(s.criterion()),
        "backward_error_threshold": num(s.threshold),
        "convergence_test": {
            "criterion": s.test.name(),
            "formula": s.test.formula(),
            "value": num(s.test_value()),
            "threshold": num(st.threshold),
            "history": nums(&s.history),
        },
        "lu": s.lu.name(),
        "substitution": s.substitution.name(),
        "time_seconds": {
            "factor": s.factor_time.as_secs_f64(),
            "refine": s.refine_time.as_secs_f64(),
            "total": s.total_time.as_secs_f64(),
        },
        "x": nums(&s.x),
    })
}
