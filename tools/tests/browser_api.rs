//! The npm package (web/package) in real browsers — headless Chromium (SwiftShader; ANGLE on
//! Mesa's EGL) and Firefox ESR under Xvfb:
//! - the API suite (`?apitest`): every call in the worker (abort by interrupt, the page being
//!   cross-origin isolated, and by terminating the worker) and on the main thread, progress,
//!   abort, context loss, dispose, the fallbacks, malformed input → the right code; in a
//!   Chromium without WebGL2, the fallback alone;
//! - the page's longest frame gap while its LP panel solves the m = 512 LP on the gpu backend,
//!   in the worker (must stay under 100 ms) and on the main thread (the page before the package:
//!   one gap as long as the solve, which shows the meter sees a blocked thread);
//! - a consumer project (web/consumer) that installs the `npm pack` tarball, type-checks against
//!   the package's declarations with TypeScript, and solves an LP, a Cholesky and a least-squares
//!   problem, served as most sites are (not cross-origin isolated).
#[path = "support/browser.rs"]
mod browser;
#[path = "support/consumer.rs"]
mod consumer;
#[path = "../../tests/common/wasm_tools.rs"]
mod wasm_tools;

use browser::{run, serial, Browser, FIREFOX, GL_EGL, NO_WEBGL, SWIFTSHADER};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The checks of each part of the API suite (a part that ran fewer did not run them all).
const PARTS: [(&str, usize); 4] =
    [("worker", 21), ("worker, abort by terminate", 10), ("main thread", 19), ("options", 1)];

fn api_suite(b: Browser) {
    let _one = serial();
    let t = Instant::now();
    let r = run(b, "apitest", None, Duration::from_secs(600));
    let label = b.label();
    assert!(r["fatal"].is_null(), "{label}: {}", r["fatal"]);
    assert_eq!(r["isolated"], true, "{label}: the page is served cross-origin isolated");
    let checks = r["checks"].as_array().cloned().unwrap_or_default();
    let failed: Vec<String> = checks
        .iter()
        .filter(|c| c["passed"] != true)
        .map(|c| format!("{} | {}: {}", c["mode"], c["name"], c["detail"]))
        .collect();
    assert!(failed.is_empty(), "{label}:\n{}", failed.join("\n"));
    for (part, n) in PARTS {
        let ran = checks.iter().filter(|c| c["mode"] == part).count();
        assert_eq!(ran, n, "{label}: {ran} checks of \"{part}\", {n} expected");
    }
    let detail = |part: &str, name: &str| {
        let c = checks.iter().find(|c| c["mode"] == part && c["name"].as_str().is_some_and(|n| n.starts_with(name)));
        c.and_then(|c| c["detail"].as_str()).unwrap_or("").to_string()
    };
    let abort = |part: &str| detail(part, "abort during");
    assert!(abort("worker").starts_with("interrupt:"), "{label}: the worker's abort: {}", abort("worker"));
    assert!(
        abort("worker, abort by terminate").starts_with("terminate:"),
        "{label}: {}",
        abort("worker, abort by terminate")
    );
    println!(
        "{label} ({}): {} checks passed in {:.0} s; abort: {} | {}; too large: {}; 5000×20000: {}",
        r["info"]["renderer"],
        checks.len(),
        t.elapsed().as_secs_f64(),
        abort("worker"),
        abort("worker, abort by terminate"),
        detail("worker", "an LP wider than"),
        detail("worker", "a 5000×20000")
    );
}

#[test]
fn the_package_api_on_angle_over_mesa_egl() {
    api_suite(GL_EGL);
}

#[test]
fn the_package_api_on_swiftshader() {
    api_suite(SWIFTSHADER);
}

#[test]
fn the_package_api_in_firefox() {
    api_suite(FIREFOX);
}

/// Without WebGL2: `auto` runs the f64 cpu paths and says why, `gpu` is refused with no-webgl2.
#[test]
fn the_package_falls_back_without_webgl2() {
    let _one = serial();
    let r = run(NO_WEBGL, "apitest", None, Duration::from_secs(300));
    assert!(r["fatal"].is_null(), "{}", r["fatal"]);
    assert_eq!(
        (r["info"]["gpu"].as_bool(), r["info"]["code"].as_str()),
        (Some(false), Some("no-webgl2")),
        "{}",
        r["info"]
    );
    let checks = r["checks"].as_array().cloned().unwrap_or_default();
    assert_eq!(checks.len(), 1, "{checks:?}");
    assert_eq!(checks[0]["passed"], true, "{}", checks[0]);
    println!("no WebGL2: {}", checks[0]["detail"]);
}

/// The page's frame gaps during the m = 512 gpu solve: in the worker the best of three solves
/// under 100 ms; on the main thread the meter must see the blocked thread.
fn frame_gaps(b: Browser) {
    let _one = serial();
    let label = b.label();
    let worker = run(b, "framegap&mode=worker&m=512&reps=3", None, Duration::from_secs(300));
    let main = run(b, "framegap&mode=main&m=512&reps=1", None, Duration::from_secs(300));
    for r in [&worker, &main] {
        assert!(r["fatal"].is_null(), "{label} {}: {}", r["mode"], r["fatal"]);
        for run in r["runs"].as_array().into_iter().flatten() {
            assert_eq!((run["status"].as_str(), run["backendRan"].as_str()), (Some("optimal"), Some("gpu")), "{run}");
        }
    }
    let gaps = |r: &serde_json::Value| {
        let runs = r["runs"].as_array().cloned().unwrap_or_default();
        runs.iter()
            .map(|x| {
                format!(
                    "{:.0} ms in a {:.0} ms solve ({} frames)",
                    x["longestGapMs"].as_f64().unwrap_or(f64::NAN),
                    x["solveMs"].as_f64().unwrap_or(f64::NAN),
                    x["frames"]
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let best = worker["bestLongestGapMs"].as_f64().unwrap_or(f64::INFINITY);
    let blocked = main["runs"][0]["longestGapMs"].as_f64().unwrap_or(0.0);
    let solve = main["runs"][0]["solveMs"].as_f64().unwrap_or(f64::INFINITY);
    println!(
        "{label}: longest frame gap, worker: {} (idle page: {:.0} ms); main thread: {}",
        gaps(&worker),
        worker["idle"]["longestGapMs"].as_f64().unwrap_or(f64::NAN),
        gaps(&main)
    );
    assert!(blocked >= 0.5 * solve, "{label}: on the main thread the longest gap is {blocked:.0} ms of a {solve:.0} ms solve: the meter does not see a blocked thread");
    assert!(best < 100.0, "{label}: the page's longest frame gap during the solve in the worker is {best:.0} ms at best (≥ 100 ms): {}; idle page {}", gaps(&worker), worker["idle"]);
}

#[test]
fn the_page_keeps_drawing_during_a_solve_on_angle_over_mesa_egl() {
    frame_gaps(GL_EGL);
}

#[test]
fn the_page_keeps_drawing_during_a_solve_in_firefox() {
    frame_gaps(FIREFOX);
}

/// The consumer project with the package installed from its tarball and compiled by tsc (once).
fn consumer() -> &'static Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let files = [
            ("package.json", "package.json"),
            ("tsconfig.json", "tsconfig.json"),
            ("index.html", "index.html"),
            ("main.ts", "main.ts"),
        ];
        let dir = consumer::project("glsolve-consumer", &files);
        consumer::must(Command::new(consumer::bin("tsc")).arg("-p").arg(&dir));
        dir
    })
}

fn consumer_in(b: Browser) {
    let _one = serial();
    let label = b.label();
    let r = run(b, "isolated=0", Some(consumer()), Duration::from_secs(180));
    consumer::check_report(label, &r);
    assert_eq!(r["isolated"], false, "{label}: the consumer is served as most sites are");
    println!(
        "{label} ({}): the packed package installed, type-checked and ran: {} checks",
        r["renderer"],
        consumer::CHECKS.len()
    );
}

#[test]
fn a_project_installs_the_packed_package_and_runs_it_in_chromium() {
    consumer_in(GL_EGL);
}

#[test]
fn a_project_installs_the_packed_package_and_runs_it_in_firefox() {
    consumer_in(FIREFOX);
}
