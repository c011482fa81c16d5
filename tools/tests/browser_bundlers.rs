//! The npm package built into web apps for production, with no glsolve-specific configuration:
//! a Vite app and a webpack 5 app, each a fresh project with the `npm pack` tarball installed,
//! built by `vite build` and by webpack's production mode, the output folder served by
//! `python3 -m http.server` (a plain static host: no COOP/COEP, so an abort terminates the
//! worker) and opened in headless Chromium (ANGLE on Mesa's EGL) and Firefox ESR under Xvfb. The
//! app (web/consumer/main.ts) solves an LP, a Cholesky and a least-squares problem, aborts a
//! solve, and checks that a wasm file or worker script that is not where it is said to be is
//! refused with code `load`, naming the URL and the option.
#[path = "support/browser.rs"]
mod browser;
#[path = "support/consumer.rs"]
mod consumer;
#[path = "../../tests/common/wasm_tools.rs"]
mod wasm_tools;

use browser::{python_server, root, serial, visit, Browser, FIREFOX, GL_EGL};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The files of a build's output folder (relative paths).
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(rel) = p.strip_prefix(dir) {
                out.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out
}

/// Asserts what a production build emitted: the app, glsolve's worker as a file of its own and
/// the wasm module as an asset (neither inlined as a data: URL).
fn emitted(bundler: &str, dist: &Path) -> Vec<String> {
    let out = files(dist);
    assert!(out.iter().any(|f| f.ends_with(".wasm")), "{bundler}: no .wasm among {out:?}");
    let scripts: Vec<&String> = out.iter().filter(|f| f.ends_with(".js")).collect();
    assert!(scripts.len() >= 2, "{bundler}: the worker is not a file of its own: {out:?}");
    for f in &scripts {
        let text = std::fs::read_to_string(dist.join(f)).unwrap_or_default();
        assert!(
            !text.contains("data:text/javascript") && !text.contains("data:application/wasm"),
            "{bundler}: {f} inlines a file as a data: URL"
        );
    }
    out
}

/// The Vite app built for production (once): index.html and main.ts, no vite.config.
fn vite_app() -> &'static Path {
    static DIST: OnceLock<PathBuf> = OnceLock::new();
    DIST.get_or_init(|| {
        let files = [("package.json", "package.json"), ("vite.html", "index.html"), ("main.ts", "main.ts")];
        let dir = consumer::project("glsolve-vite-app", &files);
        let t = Instant::now();
        consumer::must(Command::new(consumer::bin("vite")).args(["build", "--logLevel", "warn"]).current_dir(&dir));
        let dist = dir.join("dist");
        let out = emitted("vite", &dist);
        println!("vite build: {:.1} s, {out:?}", t.elapsed().as_secs_f64());
        dist
    })
}

/// The webpack app built for production (once): tsc's main.js bundled by webpack's API with the
/// configuration every project states (web/consumer/webpack.build.mjs).
fn webpack_app() -> &'static Path {
    static DIST: OnceLock<PathBuf> = OnceLock::new();
    DIST.get_or_init(|| {
        let files = [
            ("package.json", "package.json"),
            ("tsconfig.json", "tsconfig.json"),
            ("webpack.html", "index.html"),
            ("main.ts", "main.ts"),
        ];
        let dir = consumer::project("glsolve-webpack-app", &files);
        let t = Instant::now();
        consumer::must(Command::new(consumer::bin("tsc")).arg("-p").arg(&dir));
        consumer::bin("webpack");
        let node = browser::tool("node", "Debian: apt-get install nodejs");
        consumer::must(Command::new(node).arg(root().join("web/consumer/webpack.build.mjs")).current_dir(&dir));
        let dist = dir.join("dist");
        let out = emitted("webpack", &dist);
        println!("webpack build: {:.1} s, {out:?}", t.elapsed().as_secs_f64());
        dist
    })
}

fn app_in(bundler: &str, dist: &Path, b: Browser) {
    let _one = serial();
    let label = format!("{bundler} app, {}", b.label());
    let served = python_server(dist);
    let t = Instant::now();
    let r = visit(b, &served, "", Duration::from_secs(180));
    consumer::check_report(&label, &r);
    assert_eq!(r["isolated"], false, "{label}: served by python3 -m http.server, not cross-origin isolated");
    let detail = |name: &str| {
        let checks = r["checks"].as_array().cloned().unwrap_or_default();
        checks.iter().find(|c| c["name"] == name).map(|c| c["detail"].to_string()).unwrap_or_default()
    };
    println!(
        "{label} ({}): {} checks passed in {:.1} s; solveLp: {}; abort: {}",
        r["renderer"],
        consumer::CHECKS.len(),
        t.elapsed().as_secs_f64(),
        detail("solveLp"),
        detail("abort")
    );
}

#[test]
fn a_vite_production_build_runs_in_chromium() {
    app_in("vite", vite_app(), GL_EGL);
}

#[test]
fn a_vite_production_build_runs_in_firefox() {
    app_in("vite", vite_app(), FIREFOX);
}

#[test]
fn a_webpack_production_build_runs_in_chromium() {
    app_in("webpack", webpack_app(), GL_EGL);
}

#[test]
fn a_webpack_production_build_runs_in_firefox() {
    app_in("webpack", webpack_app(), FIREFOX);
}
