//! Projects that use the npm package as a web developer's would: the package packed by `npm pack`
//! (once per test binary), a fresh folder per project with the tarball installed from the file
//! (no registry), and the tools that build them — TypeScript, Vite and webpack at the versions
//! web/package-lock.json pins, installed once by `npm ci` into web/node_modules.
#![allow(dead_code)]

use crate::browser::{build, root, tool};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The checks web/consumer/main.ts makes, in order.
pub const CHECKS: [&str; 9] = [
    "solveLp",
    "cholesky",
    "lstsq",
    "a parse error",
    "an unknown backend",
    "abort",
    "dispose",
    "a missing wasm file",
    "a missing worker script",
];

/// Asserts a consumer's report: every check ran, in order, and passed.
pub fn check_report(label: &str, r: &serde_json::Value) {
    assert!(r["fatal"].is_null(), "{label}: {}", r["fatal"]);
    let checks = r["checks"].as_array().cloned().unwrap_or_default();
    let names: Vec<&str> = checks.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names, CHECKS, "{label}");
    for c in &checks {
        assert_eq!(c["passed"], true, "{label}: {}: {}", c["name"], c["detail"]);
    }
}

/// Runs `cmd`, failing the test with what it printed.
pub fn must(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

pub fn npm() -> PathBuf {
    tool("npm", "Debian: apt-get install nodejs npm")
}

/// web/node_modules/.bin/`name`, after `npm ci` in web/ where a pinned tool is missing.
pub fn bin(name: &str) -> PathBuf {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    let web = root().join("web");
    INSTALLED.get_or_init(|| {
        let wanted = ["typescript", "vite", "webpack"];
        let pinned: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(web.join("package.json")).expect("web/package.json"))
                .expect("web/package.json is JSON");
        let stale = wanted.iter().any(|p| {
            let installed = std::fs::read_to_string(web.join("node_modules").join(p).join("package.json"));
            let version = installed.ok().and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
            version.map(|v| v["version"].clone()) != Some(pinned["devDependencies"][p].clone())
        });
        if stale {
            must(Command::new(npm()).args(["ci", "--no-audit", "--no-fund"]).current_dir(&web));
        }
    });
    let exe = web.join("node_modules/.bin").join(name);
    assert!(exe.is_file(), "npm ci in web/ installed no {name}");
    exe
}

/// The package packed by `npm pack` (after the wasm build), once per test binary.
pub fn tarball() -> &'static Path {
    static TARBALL: OnceLock<PathBuf> = OnceLock::new();
    TARBALL.get_or_init(|| {
        build();
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("glsolve-pack-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder for the tarball");
        must(
            Command::new(npm())
                .args(["pack", "--silent", "--pack-destination"])
                .arg(&dir)
                .current_dir(root().join("web/package")),
        );
        let manifest = std::fs::read_to_string(root().join("web/package/package.json")).expect("package.json");
        let manifest: serde_json::Value = serde_json::from_str(&manifest).expect("package.json is JSON");
        let file = dir.join(format!("glsolve-{}.tgz", manifest["version"].as_str().expect("a version")));
        assert!(file.is_file(), "npm pack made no {}", file.display());
        file
    })
}

/// A fresh project folder `name` holding `files` (from web/consumer: (source, name in the
/// project)) and the packed package installed from its tarball.
pub fn project(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let tgz = tarball();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder for the project");
    for (from, to) in files {
        std::fs::copy(root().join("web/consumer").join(from), dir.join(to))
            .unwrap_or_else(|e| panic!("web/consumer/{from}: {e}"));
    }
    let install = ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"];
    must(Command::new(npm()).args(install).arg(tgz).current_dir(&dir));
    let installed = dir.join("node_modules/glsolve");
    for license in ["LICENSE-MIT", "LICENSE-APACHE"] {
        let ours = std::fs::read(root().join(license)).expect("the repository's license");
        let theirs = std::fs::read(installed.join(license)).unwrap_or_default();
        assert!(ours == theirs, "the tarball's {license} is not the repository's");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(installed.join("package.json")).expect("package.json"))
            .expect("JSON");
    assert!(
        manifest["repository"]["url"].as_str().is_some_and(|u| u.contains("glsolve")),
        "{}",
        manifest["repository"]
    );
    dir
}
