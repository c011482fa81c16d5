//! Crash hunt: several LP solvers (each with its own GL context), extra contexts made and
//! dropped between their solves, `linsolve` and `Cholesky` on those, and cpu solves of the dense
//! family (the AVX-512/AVX2 column pass, the syrk, the spin-join worker, the huge-page
//! allocator's blocks), interleaved on one thread and run on three threads at once, round after
//! round. Every answer is checked (published NETLIB optima; x = known vectors), and every
//! context must end with as many live textures as it started with.
//!
//! Contexts used by several threads at once crashed inside Mesa's llvmpipe (docs/checks.md):
//! the last test runs the three-thread mixture in child processes under glibc's malloc checker,
//! where it crashed in every run before GL work on software rasterizers was serialized
//! (`gl/serial.rs`). docs/checks.md also runs this file, with the GL and CPU kernel tests,
//! under valgrind and AddressSanitizer.

use glsolve::lp::log::Logger;
use glsolve::lp::random::random_lp;
use glsolve::lp::{mps, solve, BackendKind, LpModel, LpSolver, Settings, Status};
use glsolve::{linsolve, Cholesky, Gpu};
use nalgebra::{dmatrix, dvector, DMatrix, DVector};
use std::path::Path;

/// Rounds per test: a few seconds on two cores with llvmpipe.
const ROUNDS: usize = 6;

fn netlib(name: &str) -> LpModel {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/netlib");
    mps::read_file(&dir.join(format!("{name}.mps"))).expect("fixture readable")
}

/// Published optima (NETLIB's list).
const AFIRO: f64 = -464.75314286;
const BLEND: f64 = -30.812149846;

fn quiet(kind: BackendKind) -> Settings {
    Settings::for_backend(kind)
}

/// Solves `model` with `solver` and checks the objective: 1e-6 relative in double precision,
/// 1e-3 on the single-precision gpu backend (its ε is 1e-4, checked at 1e-3).
fn check_lp(solver: &mut LpSolver, model: &LpModel, want: f64, what: &str) -> Result<(), String> {
    let s = solver.solve(model).map_err(|e| format!("{what}: {e}"))?;
    let tol = if solver.settings().backend() == BackendKind::Gpu { 1e-3 } else { 1e-6 };
    let rel = (s.objective - want).abs() / want.abs();
    if s.status != Status::Optimal || rel.is_nan() || rel > tol {
        return Err(format!("{what}: {:?} objective {} (want {want}): {}", s.status, s.objective, s.detail));
    }
    Ok(())
}

/// On a fresh context: a texture round trip, a linsolve and a Cholesky solve with known answers,
/// and the live textures back to zero once they are dropped.
fn check_dense(gpu: &Gpu, seed: usize) -> Result<(), String> {
    let data: Vec<f32> = (0..12).map(|k| (k * 7 + seed) as f32).collect();
    let t = gpu.upload(4, 3, &data, "round trip").map_err(|e| e.to_string())?;
    if gpu.read(&t).map_err(|e| e.to_string())? != data {
        return Err("a texture came back changed".into());
    }
    let n = 40 + seed % 7;
    let a = DMatrix::from_fn(n, n, |i, j| if i == j { 4.0 } else { ((i * 3 + j * 5 + seed) % 11) as f64 / 11.0 - 0.5 });
    let x = DVector::from_fn(n, |i, _| 1.0 + i as f64 / n as f64);
    let s = linsolve(gpu, &a, &(&a * &x)).map_err(|e| e.to_string())?;
    if (&s.x - &x).amax() > 1e-10 {
        return Err(format!("linsolve off by {:e}", (&s.x - &x).amax()));
    }
    let c = dmatrix![4.0, 2.0; 2.0, 3.0];
    let y = Cholesky::new(gpu, &c).and_then(|f| f.solve(&dvector![6.0, 5.0])).map_err(|e| e.to_string())?;
    if (y[0] - 1.0).abs() > 1e-5 || (y[1] - 1.0).abs() > 1e-5 {
        return Err(format!("Cholesky solve {y}"));
    }
    drop(t);
    match gpu.live_textures() {
        0 => Ok(()),
        live => Err(format!("{live} textures alive after the dense checks")),
    }
}

/// A cpu solve of the dense random family at m = 256 (its kernels: the column pass, the syrk,
/// mixed precision, the spin-join worker); its objective must equal the reference's to 1e-7.
fn check_cpu(model: &LpModel, want: f64) -> Result<(), String> {
    let s = solve(model, &quiet(BackendKind::Cpu), &mut Logger::quiet()).map_err(|e| e.to_string())?;
    let rel = (s.objective - want).abs() / want.abs();
    match (s.status, rel <= 1e-7) {
        (Status::Optimal, true) => Ok(()),
        _ => Err(format!("cpu random LP: {:?} objective {} (want {want})", s.status, s.objective)),
    }
}

/// One thread's mixture: its own solvers and contexts, `ROUNDS` rounds, in an order that
/// varies with the round and `seed`.
fn mixture(seed: usize) -> Result<(), String> {
    let (afiro, blend) = (netlib("afiro"), netlib("blend"));
    let dense = random_lp(256, 7).to_model(7);
    let reference = solve(&dense, &quiet(BackendKind::Cpu), &mut Logger::quiet()).map_err(|e| e.to_string())?.objective;
    let kinds = [BackendKind::Hybrid, BackendKind::Gpu, BackendKind::Hybrid];
    let mut solvers: Vec<LpSolver> = kinds.iter().map(|&k| LpSolver::new(quiet(k))).collect();
    for round in 0..ROUNDS {
        let extra = Gpu::headless().map_err(|e| e.to_string())?;
        for (k, solver) in solvers.iter_mut().enumerate() {
            let what = format!("thread {seed} round {round} solver {k}");
            if (round + k + seed).is_multiple_of(2) {
                check_lp(solver, &afiro, AFIRO, &what)?;
            } else {
                check_lp(solver, &blend, BLEND, &what)?;
            }
            if k == round % 3 {
                check_dense(&extra, seed + round)?;
            }
        }
        if round % 2 == seed % 2 {
            check_cpu(&dense, reference)?;
        }
        // A solver's context dropped and made again, while the others keep theirs.
        let replaced = (round + seed) % solvers.len();
        solvers[replaced] = LpSolver::new(quiet(kinds[replaced]));
        drop(extra);
    }
    Ok(())
}

#[test]
fn solvers_and_contexts_interleaved_on_one_thread() {
    mixture(0).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn solvers_and_contexts_on_three_threads_at_once() {
    checker_is_loaded_if_asked();
    let handles: Vec<_> = (1..=3).map(|t| std::thread::spawn(move || mixture(t))).collect();
    for (t, h) in handles.into_iter().enumerate() {
        match h.join() {
            Ok(r) => r.unwrap_or_else(|e| panic!("thread {}: {e}", t + 1)),
            Err(p) => std::panic::resume_unwind(p),
        }
    }
}

/// Runs of the three-thread mixture under the checker in `cargo test`; `GLSOLVE_STRESS_RUNS`
/// gives another count (docs/checks.md measures 50).
const CHECKED_RUNS: usize = 3;

/// Set in a child run under glibc's checker: the child checks that the checker's library is
/// mapped into it (a preload that fails is only a warning of the loader's).
const CHILD_CHECKS_PRELOAD: &str = "GLSOLVE_STRESS_CHECKER_PRELOADED";

fn checker_is_loaded_if_asked() {
    if std::env::var_os(CHILD_CHECKS_PRELOAD).is_some() {
        let maps = std::fs::read_to_string("/proc/self/maps").expect("/proc/self/maps readable");
        assert!(maps.contains("libc_malloc_debug.so"), "LD_PRELOAD=libc_malloc_debug.so.0 did not load: no checker");
    }
}

/// The three-thread mixture, each run in a child process of this test binary under glibc's
/// malloc checker (`MALLOC_CHECK_=3`, which aborts on the first inconsistency it sees, and
/// `MALLOC_PERTURB_`, which fills allocated and freed memory with a byte that changes per run,
/// so that reads of stale memory go wrong). From glibc 2.34 the checker lives in
/// `libc_malloc_debug.so.0` and `MALLOC_CHECK_` does nothing unless it is preloaded; the child
/// checks that it was. Every run must end with every answer right and no signal.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn three_threads_never_crash_under_glibcs_malloc_checker() {
    use std::os::unix::process::ExitStatusExt;
    let runs = match std::env::var("GLSOLVE_STRESS_RUNS") {
        Ok(n) => n.parse().unwrap_or_else(|_| panic!("GLSOLVE_STRESS_RUNS={n}: expected a count")),
        Err(_) => CHECKED_RUNS,
    };
    let preload = glibc_needs_preload();
    let (mut crashed, mut failed) = (Vec::new(), Vec::new());
    for run in 0..runs {
        let mut child = std::process::Command::new(std::env::current_exe().expect("this test binary"));
        child.args(["--exact", "solvers_and_contexts_on_three_threads_at_once", "--test-threads=1"]);
        child.env("MALLOC_CHECK_", "3").env("MALLOC_PERTURB_", (1 + run % 255).to_string());
        if preload {
            let before = std::env::var("LD_PRELOAD").unwrap_or_default();
            child.env("LD_PRELOAD", format!("{before} libc_malloc_debug.so.0").trim_start());
            child.env(CHILD_CHECKS_PRELOAD, "1");
        }
        let out = child.output().expect("the child test runs");
        let tail = |b: &[u8]| {
            let text = String::from_utf8_lossy(b);
            let lines: Vec<&str> = text.lines().collect();
            lines[lines.len().saturating_sub(8)..].join("\n")
        };
        let why = format!("{}\n{}", tail(&out.stdout), tail(&out.stderr));
        match (out.status.signal(), out.status.success()) {
            (Some(sig), _) => crashed.push(format!("run {}: signal {sig}\n{why}", run + 1)),
            (None, false) => failed.push(format!("run {}: {}\n{why}", run + 1, out.status)),
            (None, true) => {}
        }
        eprintln!("run {}/{runs}: {} ({} crashed, {} failed so far)", run + 1, out.status, crashed.len(), failed.len());
    }
    eprintln!("{runs} runs under glibc's checker: {} crashed, {} failed", crashed.len(), failed.len());
    assert!(
        crashed.is_empty() && failed.is_empty(),
        "{} of {runs} runs crashed, {} failed:\n{}",
        crashed.len(),
        failed.len(),
        crashed.iter().chain(&failed).cloned().collect::<Vec<_>>().join("\n---\n")
    );
}

/// Whether this glibc keeps `MALLOC_CHECK_`'s checker in `libc_malloc_debug.so.0` (2.34 and
/// later), read from `getconf GNU_LIBC_VERSION` ("glibc 2.36").
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn glibc_needs_preload() -> bool {
    let out = std::process::Command::new("getconf").arg("GNU_LIBC_VERSION").output().expect("getconf runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text.trim().strip_prefix("glibc ").unwrap_or_else(|| panic!("getconf GNU_LIBC_VERSION: {text:?}"));
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    (major, minor) >= (2, 34)
}
