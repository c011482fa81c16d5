//! What a user gets without options: `solve FILE` chooses its backend and says why; the default
//! job shows the hybrid method and says so.
use std::process::Command;

fn glsolve(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_glsolve")).args(args).output().expect("run glsolve");
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn solve_without_a_backend_chooses_one_and_says_why_in_one_line() {
    let afiro = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/netlib/afiro.mps");
    let (ok, out) = glsolve(&["solve", afiro]);
    assert!(ok, "{out}");
    let first = out.lines().next().unwrap_or_default();
    assert_eq!(first, "auto: cpu (27 rows < 512: too small for GPU passes to pay for themselves)", "{out}");
    assert!(out.contains("backend cpu, standard form 27 x 51"), "{out}");
    let (ok, help) = glsolve(&["solve", "--help"]);
    assert!(ok && help.contains("[default: auto]"), "{help}");
}

/// The threshold behind the message above, pinned by what `auto` decides rather than by its
/// words: a dense LP of 511 rows is sent to the cpu backend without the device being asked, one
/// of 512 rows asks the device (on this machine's software rasterizer, which then says cpu too).
/// The numbers are literals: moving `AUTO_MIN_ROWS` fails here on the decision.
#[test]
fn auto_decides_without_the_device_below_512_dense_rows_only() {
    use glsolve::lp::auto::by_shape;
    use glsolve::lp::backend::sparse_assembly_pays;
    use glsolve::lp::random::random_lp;
    for (m, asks_the_device) in [(1usize, false), (27, false), (511, false), (512, true), (513, true)] {
        let model = random_lp(m, 3).to_model(3);
        let sparse = sparse_assembly_pays(&model.a);
        assert!(!sparse, "the random family is dense (m = {m})");
        let decided = by_shape(model.num_rows(), sparse);
        assert_eq!(decided.is_none(), asks_the_device, "m = {m}: {decided:?}");
        if let Some(choice) = decided {
            assert_eq!(choice.backend, glsolve::lp::BackendKind::Cpu, "m = {m}");
        }
    }
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
