//! The NETLIB tables of the report say which configuration each column ran: the configuration
//! recorded in each run's JSON (read from the settings the solver got) must be the one the
//! column's label names, stated here literally, and the heading must print what was recorded.
#[path = "../../tests/common/mod.rs"]
mod common;
use common::with_gpu;
use glsolve::gpu::cholesky::{Domain, IndexSource, Variant};
use glsolve::lp::{BackendKind, StoppingRule, Substitution};
use glsolve::Format;
use glsolve_tools::bench::netlib::{self, Config, TABLE3_SETUPS, TABLE41_SETUPS};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/netlib"))
}

/// What each label promises, written out by hand from the papers' descriptions.
fn promised(label: &str) -> Config {
    let square = Variant::Outer { domain: Domain::Square, index: IndexSource::Pair };
    // The gpu backend runs the papers' method unrefined in these tables (hybrid's vectors are
    // double precision, where that setting does not apply).
    let gl = |backend, variant, format, substitution, stopping| Config {
        backend,
        variant: Some(variant),
        format: Some(format),
        substitution: Some(substitution),
        stopping,
        gpu_refinement: (backend == BackendKind::Gpu).then_some(false),
    };
    let cpu = |stopping| Config {
        backend: BackendKind::Cpu,
        variant: None,
        format: None,
        substitution: None,
        stopping,
        gpu_refinement: None,
    };
    match label {
        // 2008 IPM paper, Table 4.1: packed triangle-pair, (3.15).
        "hybrid, GPU subst." => {
            gl(BackendKind::Hybrid, Variant::PAPER, Format::Packed, Substitution::Gpu, StoppingRule::Combined315)
        }
        "hybrid, CPU subst." => {
            gl(BackendKind::Hybrid, Variant::PAPER, Format::Packed, Substitution::Cpu, StoppingRule::Combined315)
        }
        "cpu" => cpu(StoppingRule::Combined315),
        // 2006 paper, Table 3: the square-domain update, substitution on the GPU, (6.1)–(6.3).
        "gpu, square" => gl(BackendKind::Gpu, square, Format::Full, Substitution::Gpu, StoppingRule::Separate),
        "gpu, triangle" => {
            gl(BackendKind::Gpu, Variant::PAPER, Format::Packed, Substitution::Gpu, StoppingRule::Separate)
        }
        "gpu, inner" => gl(BackendKind::Gpu, Variant::Inner, Format::Full, Substitution::Gpu, StoppingRule::Separate),
        "gpu, square, CPU subst." => {
            gl(BackendKind::Gpu, square, Format::Full, Substitution::Cpu, StoppingRule::Separate)
        }
        other => panic!("no promise written for the column {other:?}"),
    }
}

#[test]
fn every_netlib_column_ran_the_configuration_its_heading_names() {
    // afiro is in Table 4.1, sc50b in both tables.
    let bench = with_gpu(|gpu| netlib::run(gpu, &dir(), Some(&["afiro", "sc50b"]), |_| {}).expect("bench"));
    let labels: Vec<&str> = TABLE41_SETUPS.iter().chain(&TABLE3_SETUPS).map(|s| s.label).collect();
    for label in &labels {
        let runs: Vec<_> = bench.runs.iter().filter(|r| r.setup == *label).collect();
        assert!(!runs.is_empty(), "{label}: no run");
        for r in runs {
            assert_eq!(r.config, Some(promised(label)), "{label} on {}", r.problem);
        }
    }
    let md = bench.markdown();
    for setup in TABLE41_SETUPS.iter().chain(&TABLE3_SETUPS) {
        let heading = format!("*{}* = {}", setup.label, promised(setup.label).describe());
        assert!(md.contains(&heading), "the tables' text lacks {heading:?}");
    }
    // A run that recorded something else shows in the heading instead of the promise.
    let mut forged = bench.clone();
    let r = forged.runs.iter_mut().find(|r| r.setup == "gpu, square").expect("a square run");
    r.config = Some(promised("gpu, triangle"));
    assert!(forged.table3_markdown().contains("**its runs recorded different configurations**"));
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
