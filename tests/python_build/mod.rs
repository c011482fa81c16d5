//! The Python package as it ships, for the tests that use it (tests/python.rs runs its pytest
//! suite on it, tests/python_wheel.rs installs it as a user would):
//!
//! * one virtual environment, target/python-venv, with the build tools (maturin, and the
//!   `ziglang` package, whose zig links the extension against glibc 2.28's symbols) and the
//!   test dependencies, all from PyPI;
//! * the source distribution (`maturin sdist`), unpacked into target/python-dist/src, and the
//!   wheel built from it by pip — the PEP 517 path `pip install glsolve-X.tar.gz` takes — as
//!   `manylinux_2_28` (maturin checks the symbols and libraries against that policy).
//!
//! Everything is cached under target/: the venv, cargo's build (target/python), zig's cache.
//! The unpacked sdist is rewritten file by file only where the new sdist differs, so cargo
//! rebuilds only for a change of Rust source, and a second call (the other test binary) costs
//! seconds. `cargo test` runs test binaries one after the other, so the two never build at once.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the venv gets from PyPI: the test dependencies (README's "From Python" names them),
/// and the build tools. ziglang is pinned to the minor version the wheel was checked with (zig
/// changes its command line between minor versions).
pub const VENV_PACKAGES: &[&str] =
    &["numpy", "scipy", "cvxpy", "clarabel", "pytest", "maturin>=1.9,<2", "ziglang>=0.17,<0.18"];

/// The glibc the wheel is linked against: its platform tag.
pub const MANYLINUX: &str = "manylinux_2_28";

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn target() -> PathBuf {
    root().join("target")
}

/// Runs `cmd` in the repository root (with `venv`'s bin first on PATH, so that pip's build
/// finds maturin and zig) and panics with its output when it fails.
pub fn run(what: &str, cmd: &mut Command, venv: &Path) -> String {
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

/// A new virtual environment at `venv` (Debian: `apt-get install python3-venv`).
pub fn make_venv(venv: &Path) {
    let mut make = Command::new("python3");
    make.args(["-m", "venv"]).arg(venv);
    run("python3 -m venv (Debian: apt-get install python3-venv)", &mut make, venv);
}

/// target/python-venv with [`VENV_PACKAGES`] (pip skips what is already there).
pub fn tools_venv() -> PathBuf {
    let venv = target().join("python-venv");
    if !venv.join("bin").join("python").exists() {
        make_venv(&venv);
    }
    let mut deps = Command::new(venv.join("bin").join("python"));
    deps.args(["-m", "pip", "install", "--quiet"]).args(VENV_PACKAGES);
    run("pip install of the build tools and test dependencies", &mut deps, &venv);
    venv
}

/// The wheel, built from the sdist of this checkout (see the module's documentation); its path.
pub fn build_wheel(venv: &Path) -> PathBuf {
    let python = venv.join("bin").join("python");
    let dist = target().join("python-dist");
    let (sdist_dir, wheel_dir) = (dist.join("sdist"), dist.join("wheel"));
    for dir in [&sdist_dir, &wheel_dir] {
        // Old files would be taken for this build's.
        let _ = std::fs::remove_dir_all(dir);
    }
    let mut sdist = Command::new(venv.join("bin").join("maturin"));
    sdist.args(["sdist", "--manifest-path", "python/Cargo.toml", "--out"]).arg(&sdist_dir);
    run("maturin sdist", &mut sdist, venv);
    let tarball = only_file(&sdist_dir, ".tar.gz");
    let mut unpack = Command::new(&python);
    unpack.arg(root().join("tests/python_build/sync_sdist.py")).arg(&tarball).arg(dist.join("src"));
    let unpacked = PathBuf::from(run("unpacking the sdist", &mut unpack, venv).trim());
    let mut wheel = Command::new(&python);
    wheel
        .args(["-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--wheel-dir"])
        .arg(&wheel_dir)
        .arg(&unpacked)
        .env("MATURIN_PEP517_ARGS", format!("--zig --compatibility {MANYLINUX}"))
        // A target directory of its own (as web/build.sh has one): the cargo that runs this test
        // may still hold the lock of target/.
        .env("CARGO_TARGET_DIR", target().join("python"))
        // The wheel is stripped: the workspace's release debug information only slows its build.
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0")
        // zig's cache of glibc's stubs and maturin's zig wrappers, inside target/.
        .env("XDG_CACHE_HOME", dist.join("cache"));
    run("pip wheel on the unpacked sdist (maturin --zig)", &mut wheel, venv);
    only_file(&wheel_dir, ".whl")
}

/// The one file in `dir` whose name ends with `suffix`.
fn only_file(dir: &Path, suffix: &str) -> PathBuf {
    let found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    assert_eq!(found.len(), 1, "expected one *{suffix} in {}, found {found:?}", dir.display());
    found.into_iter().next().unwrap_or_default()
}
