//! The Python package, as a user gets it: a virtual environment under target/, the test
//! dependencies from PyPI, `pip install ./python` (maturin builds the extension with this
//! checkout's library), then pytest on python/tests. Any failure fails this test with pytest's
//! (or pip's) output.
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the tests import beside glsolve (README's "From Python" names the same).
const TEST_DEPENDENCIES: &[&str] = &["numpy", "scipy", "cvxpy", "clarabel", "pytest", "maturin"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cmd` (with the venv's bin first on PATH, so that pip's build finds maturin) and
/// panics with its output when it fails.
fn run(what: &str, cmd: &mut Command, venv: &Path) -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![venv.join("bin")];
    dirs.extend(std::env::split_paths(&path));
    let joined = std::env::join_paths(dirs).expect("PATH entries without separators");
    let out = cmd
        .current_dir(root())
        .env("PATH", joined)
        .env("VIRTUAL_ENV", venv)
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        .output()
        .unwrap_or_else(|e| panic!("{what}: could not start {cmd:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{what} failed ({}):\n{text}", out.status);
    text
}

#[test]
fn python_package_builds_installs_and_passes_its_tests() {
    let venv = root().join("target").join("python-venv");
    let python = venv.join("bin").join("python");
    if !python.exists() {
        let mut make = Command::new("python3");
        make.args(["-m", "venv"]).arg(&venv);
        run("python3 -m venv (Debian: apt-get install python3-venv)", &mut make, &venv);
    }
    let mut deps = Command::new(&python);
    deps.args(["-m", "pip", "install", "--quiet"]).args(TEST_DEPENDENCIES);
    run("pip install of the test dependencies", &mut deps, &venv);
    let mut package = Command::new(&python);
    package.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-build-isolation",
        "--force-reinstall",
        "--no-deps",
        "./python",
    ]);
    // A target directory of its own (as web/build.sh has one): the cargo that runs this test
    // may still hold the lock of target/.
    package.env("CARGO_TARGET_DIR", root().join("target").join("python"));
    // The wheel is stripped: the workspace's release debug information only slows its build.
    package.env("CARGO_PROFILE_RELEASE_DEBUG", "0");
    run("pip install ./python", &mut package, &venv);
    let mut pytest = Command::new(&python);
    pytest.args(["-m", "pytest", "-q", "-rs", "python/tests"]);
    let text = run("pytest python/tests", &mut pytest, &venv);
    println!("{text}");
    assert!(!text.contains(" skipped"), "no Python test may be skipped:\n{text}");
}
