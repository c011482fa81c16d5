//! The command line's help lists every Cholesky variant that works, wherever a variant is asked
//! for, and every one of them is accepted there.
use glsolve::Variant;
use std::process::Command;

fn glsolve(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_glsolve")).args(args).output().expect("run glsolve");
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn every_variant_is_listed_wherever_a_variant_is_asked_for() {
    for command in [&["cholesky"][..], &["show"], &["solve"], &["bench", "cholesky"], &["bench", "lp"]] {
        let mut args = command.to_vec();
        args.push("--help");
        let (ok, help) = glsolve(&args);
        assert!(ok, "{args:?}: {help}");
        for v in Variant::all() {
            assert!(
                help.contains(v.name()) && help.contains(v.description()),
                "{args:?} --help lacks {}:\n{help}",
                v.name()
            );
        }
    }
}

#[test]
fn a_variant_that_does_not_exist_is_refused_with_the_list() {
    let (ok, text) = glsolve(&["cholesky", "--m", "4", "--variant", "triangle-quad"]);
    assert!(!ok);
    assert!(
        text.contains("triangle-quad") && text.contains("column-multipass") && text.contains("blocked-32"),
        "{text}"
    );
}

#[test]
fn every_variant_is_accepted_by_cholesky() {
    for v in Variant::all() {
        let (ok, text) = glsolve(&["cholesky", "--m", "9", "--variant", v.name()]);
        assert!(ok && text.contains("backward error"), "{}: {text}", v.name());
    }
}
