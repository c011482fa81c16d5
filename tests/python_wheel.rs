//! The wheel as a user gets it: built from the sdist (tests/python_build), checked as a file
//! (name, manylinux tag, METADATA, licenses, linked libraries), then installed into a FRESH
//! virtual environment whose PATH reaches no cargo or rustc and whose environment has no cargo
//! or rustup variable, from PyPI binaries only (`--only-binary :all:`: pip may build nothing):
//!
//! 1. the wheel alone (numpy is its one dependency): glsolve imports and solves, finds the GL
//!    driver, and again with libEGL hidden (glutin dlopens libEGL.so.1, then libEGL.so; an
//!    empty file of each name first on LD_LIBRARY_PATH makes both fail, as where Mesa is not
//!    installed); GlsolveSolver names the extra to install;
//! 2. scipy added: `glsolve.linprog` equal to scipy's HiGHS on a mixed LP, and an unchanged
//!    `scipy.optimize.linprog(c, A_ub, b_ub, method='highs', options={...})` call run with it.
//!
//! What each step printed is printed here (`cargo test --release --test python_wheel --
//! --nocapture` shows it), with the seconds each took.
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

mod python_build;
use python_build::{build_wheel, make_venv, root, target, tools_venv, MANYLINUX};

/// PATH without any folder that holds a cargo or rustc (rustup's ~/.cargo/bin, a system Rust).
fn path_without_rust(venv: &Path) -> OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![venv.join("bin")];
    dirs.extend(std::env::split_paths(&path).filter(|d| !d.join("cargo").exists() && !d.join("rustc").exists()));
    std::env::join_paths(dirs).expect("PATH entries without separators")
}

/// A command run in the consumer's venv: its PATH without Rust, no CARGO*/RUST* variables
/// (cargo sets CARGO and friends for the tests it runs), and `extra` variables.
fn consumer(venv: &Path, program: &str, extra: &[(&str, OsString)]) -> Command {
    let mut cmd = Command::new(venv.join("bin").join(program));
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("CARGO") || key.to_string_lossy().starts_with("RUST") {
            cmd.env_remove(key);
        }
    }
    cmd.env("PATH", path_without_rust(venv)).env("VIRTUAL_ENV", venv).env("PIP_DISABLE_PIP_VERSION_CHECK", "1");
    for (key, value) in extra {
        cmd.env(key, value);
    }
    cmd.current_dir(target());
    cmd
}

/// Runs `cmd`, prints its output and the seconds it took, and returns the output.
fn step(what: &str, cmd: &mut Command, venv: &Path) -> String {
    let start = Instant::now();
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: could not start {cmd:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{what} failed ({}) in {}:\n{text}", out.status, venv.display());
    println!("[{:6.1} s] {what}\n{}", start.elapsed().as_secs_f64(), text.trim_end());
    text
}

#[test]
fn the_wheel_installs_without_rust_and_solves_as_scipy_does() {
    let start = Instant::now();
    let tools = tools_venv();
    let wheel: PathBuf = build_wheel(&tools);
    println!("[{:6.1} s] the wheel built from the sdist: {}", start.elapsed().as_secs_f64(), wheel.display());
    let scripts = root().join("tests/python_build");
    let mut file = Command::new(tools.join("bin").join("python"));
    file.arg(scripts.join("wheel_file.py")).arg(&wheel).arg(root()).arg(MANYLINUX);
    step("the wheel as a file", &mut file, &tools);

    let venv = target().join("python-consumer");
    // Fresh every run: nothing a previous run installed may help this one.
    let _ = std::fs::remove_dir_all(&venv);
    let t = Instant::now();
    make_venv(&venv);
    println!("[{:6.1} s] a fresh venv at {}", t.elapsed().as_secs_f64(), venv.display());
    let consumer_py = scripts.join("consumer.py").into_os_string();
    // --no-compile: Python compiles what it imports anyway; compiling all of scipy at install
    // time cost ~10 s here.
    let mut install = consumer(&venv, "pip", &[]);
    install.args(["install", "--quiet", "--no-compile", "--only-binary", ":all:"]).arg(&wheel);
    step("pip install the wheel (and numpy), no cargo or rustc on PATH", &mut install, &venv);
    let mut core = consumer(&venv, "python", &[]);
    core.arg(&consumer_py).args(["core", "driver"]);
    step("glsolve with numpy only, GL driver present", &mut core, &venv);

    let no_egl = target().join("python-consumer-no-libegl");
    std::fs::create_dir_all(&no_egl).expect("a folder under target/");
    for name in ["libEGL.so.1", "libEGL.so"] {
        std::fs::write(no_egl.join(name), b"").expect("an empty file under target/");
    }
    let mut hidden = consumer(&venv, "python", &[("LD_LIBRARY_PATH", no_egl.into_os_string())]);
    hidden.arg(&consumer_py).args(["core", "no-driver"]);
    step("glsolve with numpy only, libEGL hidden", &mut hidden, &venv);

    let mut scipy = consumer(&venv, "pip", &[]);
    scipy.args(["install", "--quiet", "--no-compile", "--only-binary", ":all:", "scipy"]);
    step("pip install scipy", &mut scipy, &venv);
    let mut against = consumer(&venv, "python", &[]);
    against.arg(&consumer_py).arg("scipy");
    let text = step("glsolve.linprog against scipy's HiGHS", &mut against, &venv);
    assert!(text.contains("glsolve.linprog(c, A_ub, b_ub, method='highs', options="), "{text}");
    println!("[{:6.1} s] in all", start.elapsed().as_secs_f64());
}

#[test]
fn the_build_path_matches_readme() {
    // README's "From Python" shows the command this test's build runs; they must not drift.
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let section = readme.split("## From Python").nth(1).and_then(|s| s.split("\n## ").next()).unwrap_or_default();
    let wanted = format!("MATURIN_PEP517_ARGS=\"--zig --compatibility {MANYLINUX}\"");
    assert!(section.contains(&wanted), "README's From Python must show {wanted}");
    assert!(section.contains("pip install maturin ziglang"), "README's From Python must say what the build needs");
}
