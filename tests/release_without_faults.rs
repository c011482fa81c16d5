//! The fault injections of `glsolve::lp::faults` live behind the `fault-injection` feature,
//! which the tests turn on (a dev-dependency of the crate on itself) and a release build does
//! not: the `glsolve` binary that `cargo build --release` makes (README's first command) holds
//! none of their code. Checked on the binary's bytes — its symbols, debug information and
//! strings — for what only the fault code contains; and the same check finds that code in this
//! test binary, which links it, so it can fail.
use glsolve::lp::faults::{inject, FaultInjection};
use glsolve::lp::log::Logger;
use glsolve::{BackendKind, LpModel, Settings};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Text only the fault code has: the broken kernel's source and file name, the lost context's
/// message, and the module's path in a mangled symbol.
const MARKERS: [&str; 4] = ["this_is_not_glsl", "fault_injection.frag", "injected after a factorization", "2lp6faults"];

fn markers_in(file: &Path) -> Vec<&'static str> {
    let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    MARKERS.into_iter().filter(|m| bytes.windows(m.len()).any(|w| w == m.as_bytes())).collect()
}

/// Builds the release binary as `cargo build --release` does (no extra features) and returns
/// its path, as cargo reports it.
fn release_binary() -> PathBuf {
    let out = Command::new(env!("CARGO"))
        .args(["build", "--release", "--bin", "glsolve", "--message-format", "json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "cargo build --release failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let line = text
        .lines()
        .filter(|l| l.contains("\"reason\":\"compiler-artifact\"") && l.contains("\"executable\":\""))
        .find(|l| l.contains("\"name\":\"glsolve\""))
        .unwrap_or_else(|| panic!("no glsolve executable in cargo's report:\n{text}"));
    let start = line.find("\"executable\":\"").map(|k| k + "\"executable\":\"".len()).expect("an executable");
    let end = line[start..].find('"').map(|k| start + k).expect("a closing quote");
    PathBuf::from(&line[start..end])
}

#[test]
fn the_release_binary_holds_no_fault_injection() {
    let bin = release_binary();
    let found = markers_in(&bin);
    assert!(found.is_empty(), "{} holds fault-injection code: {found:?}", bin.display());
}

#[test]
fn the_check_finds_the_fault_code_where_it_is_linked() {
    // A gpu solve without a context stops before any GL work, but links the whole solve path,
    // the injections included, into this binary.
    let model = LpModel::builder(nalgebra::dmatrix![1.0]).minimize([1.0]).rows_at_least([1.0]).build().expect("valid");
    let st = Settings::for_backend(BackendKind::Gpu);
    for f in [FaultInjection::BrokenKernel, FaultInjection::NanInTexture, FaultInjection::ContextLost] {
        assert!(inject(f, || glsolve::lp::solve_on(&model, &st, &mut Logger::quiet(), None)).is_err());
    }
    let me = std::env::current_exe().expect("this test binary");
    assert_eq!(markers_in(&me), MARKERS.to_vec(), "in {}", me.display());
}
