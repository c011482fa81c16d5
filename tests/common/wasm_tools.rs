//! What the browser build needs beside Cargo, installed by the tests where it is missing, so that
//! README's `cargo test --release` passes on a machine with Rust and README's apt packages only:
//! the wasm32 target (`rustup target add`) and wasm-bindgen-cli of the version Cargo.lock pins
//! (`cargo install … --root target/tools`, never over the user's own tools). One process at a
//! time looks and installs (a lock file in target/tools), so test binaries run side by side
//! neither race nor install twice.
use std::path::{Path, PathBuf};
use std::process::Command;

pub const WASM32: &str = "wasm32-unknown-unknown";

/// The version of the `wasm-bindgen` crate in `lock` (Cargo.lock's text).
pub fn pinned_version(lock: &str) -> Option<String> {
    let at = lock.find("name = \"wasm-bindgen\"\nversion = \"")?;
    lock[at..].lines().nth(1)?.split('"').nth(1).map(String::from)
}

/// Whether `exe --version` says `wasm-bindgen <version>`.
fn is_version(exe: &Path, version: &str) -> bool {
    let Ok(out) = Command::new(exe).arg("--version").output() else { return false };
    let text = String::from_utf8_lossy(&out.stdout);
    let mut words = text.split_whitespace();
    out.status.success() && words.next() == Some("wasm-bindgen") && words.next() == Some(version)
}

/// The first `wasm-bindgen` of `version` among `dirs`, in order.
pub fn find_wasm_bindgen(dirs: &[PathBuf], version: &str) -> Option<PathBuf> {
    dirs.iter().map(|d| d.join("wasm-bindgen")).find(|exe| exe.is_file() && is_version(exe, version))
}

/// Runs `cmd`; on failure, what ran and the end of what it said.
fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("could not start {cmd:?}: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = text.lines().collect();
    Err(format!("{cmd:?} failed ({}):\n{}", out.status, lines[lines.len().saturating_sub(20)..].join("\n")))
}

fn has_wasm32() -> bool {
    let out = Command::new("rustc").args(["--print", "target-libdir", "--target", WASM32]).output();
    out.is_ok_and(|o| o.status.success() && Path::new(String::from_utf8_lossy(&o.stdout).trim()).is_dir())
}

/// Makes sure the wasm32 target and wasm-bindgen `version` are there, installing what is
/// missing, and returns the `wasm-bindgen` to use: one on PATH if it is that version, else the
/// one in `root`/target/tools/bin. Every error says what to install by hand.
pub fn ensure(root: &Path, version: &str) -> Result<PathBuf, String> {
    let tools = root.join("target").join("tools");
    std::fs::create_dir_all(&tools).map_err(|e| format!("{}: {e}", tools.display()))?;
    let lock_path = tools.join("install.lock");
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| format!("{}: {e}", lock_path.display()))?;
    // Held until this function returns (the file closes): one installer at a time.
    lock.lock().map_err(|e| format!("locking {}: {e}", lock_path.display()))?;
    if !has_wasm32() {
        eprintln!("browser tests: adding the {WASM32} target (rustup target add {WASM32})");
        run(Command::new("rustup").args(["target", "add", WASM32])).map_err(|e| {
            format!("the browser build needs the {WASM32} target, and adding it failed: {e}\nAdd it by hand: rustup target add {WASM32}")
        })?;
        if !has_wasm32() {
            return Err(format!("rustup added {WASM32}, but rustc still has no standard library for it"));
        }
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    let installed = tools.join("bin");
    dirs.push(installed.clone());
    if let Some(found) = find_wasm_bindgen(&dirs, version) {
        return Ok(found);
    }
    eprintln!("browser tests: installing wasm-bindgen-cli {version} into {} (several minutes)", tools.display());
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    // Without --locked: one of wasm-bindgen-cli's locked dependencies is gone from the registry.
    // --force: a wasm-bindgen of another version there (an older Cargo.lock's) is replaced.
    let mut install = Command::new(cargo);
    install.args(["install", "--force", "wasm-bindgen-cli", "--version", version, "--root"]).arg(&tools);
    run(&mut install).map_err(|e| {
        format!("the browser build needs wasm-bindgen-cli {version}, and installing it failed: {e}\nInstall it by hand: cargo install wasm-bindgen-cli --version {version}")
    })?;
    find_wasm_bindgen(&[installed], version).ok_or_else(|| {
        format!("cargo install ran, but {} holds no wasm-bindgen {version}", tools.join("bin").display())
    })
}
