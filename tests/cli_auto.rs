//! What a user gets without options: `solve FILE` chooses its backend and says why; the default
//! job shows the hybrid method and says so.
use std::process::Command;

fn glsolve(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_glsolve")).args(args).output().expect("run glsolve");
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn solve_without_a_backend_chooses_one_and_says_why_in_one_line() {
    let afiro = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/netlib/afiro.mps");
    let (ok, out) = glsolve(&["solve", afiro]);
    assert!(ok, "{out}");
    let first = out.lines().next().unwrap_or_default();
    assert_eq!(first, "auto: cpu (27 rows < 512: too small for GPU passes to pay for themselves)", "{out}");
    assert!(out.contains("backend cpu, standard form 27 x 51"), "{out}");
    let (ok, help) = glsolve(&["solve", "--help"]);
    assert!(ok && help.contains("[default: auto]"), "{help}");
}

#[test]
fn the_default_job_runs_the_hybrid_method_and_says_so() {
    let (ok, out) = glsolve(&[]);
    assert!(ok, "{out}");
    assert!(out.contains("this job shows the 2008 paper's hybrid method at work"), "{out}");
    assert!(out.contains("backend hybrid, standard form 256 x 1024"), "{out}");
    // The GPU did part of the work (this machine has a GL driver: Mesa's llvmpipe in CI).
    let gpu_its: usize = out
        .lines()
        .find_map(|l| l.strip_prefix("iterations").and_then(|r| r.split('(').nth(1)))
        .and_then(|r| r.split_whitespace().next())
        .and_then(|k| k.parse().ok())
        .unwrap_or_else(|| panic!("no GPU iteration count in:\n{out}"));
    assert!(gpu_its > 0, "{out}");
    assert!(!out.contains("cost rule"), "the papers' rules alone:\n{out}");
}
