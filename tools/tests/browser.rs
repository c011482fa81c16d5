//! The browser build in real browsers: `web/build.sh --site` builds the package's wasm and
//! writes the page as static files, a plain static server serves that folder, and the page's
//! `?selftest` runs through the package in its worker — in headless Chromium on each of its two
//! WebGL2 back-ends (SwiftShader, and ANGLE on Mesa's llvmpipe through EGL) and in Firefox ESR
//! under Xvfb — and posts its report: every kernel
//! family against f64 references computed in wasm, the NETLIB problems of tests/data on the gpu
//! and hybrid backends, runs recorded by the viewer (bit-identical to unwatched ones, frames
//! drawn), malformed input refused with the right error code. Served by `python3 -m
//! http.server` (no COOP/COEP headers: an abort terminates the worker) in Firefox and on ANGLE,
//! and by a static server that sends the headers on SwiftShader (an abort interrupts the solve).
//! Any failure, a missing report or a timeout fails the test; a missing browser fails it with
//! what to install.
#[path = "support/browser.rs"]
mod browser;
#[path = "../../tests/common/wasm_tools.rs"]
mod wasm_tools;

use browser::{python_server, run, rust_server, serial, site, visit, Browser, FIREFOX, GL_EGL, NO_WEBGL, SWIFTSHADER};
use std::time::Duration;

/// The page's whole suite must report within this.
const TIMEOUT: Duration = Duration::from_secs(900);

fn suite(b: Browser) -> serde_json::Value {
    run(b, "selftest", None, TIMEOUT)
}

/// The static site's suite, served by `python3 -m http.server` or (`isolated`) by a static server
/// that sends COOP/COEP; the abort the package chose there is asserted.
fn site_suite(b: Browser, isolated: bool) -> serde_json::Value {
    let folder = site();
    let served = if isolated { rust_server(Some(&folder), true) } else { python_server(&folder) };
    let r = visit(b, &served, "?selftest", TIMEOUT);
    let label = b.label();
    assert_eq!(r["isolated"], isolated, "{label}: crossOriginIsolated of the static site: {}", r["isolated"]);
    let mode = if isolated { "interrupt" } else { "terminate" };
    assert_eq!(r["abortMode"], mode, "{label}: the package's abort on this host");
    println!(
        "{label}: the static site served by {}: abort by {mode}",
        if isolated { "a server sending COOP/COEP" } else { "python3 -m http.server" }
    );
    r
}

/// Asserts the report and prints its counts.
fn check(backend: &str, r: &serde_json::Value) {
    assert!(r["fatal"].is_null(), "{backend}: {}", r["fatal"]);
    assert_eq!(r["worker"], true, "{backend}: the suite runs in the package's worker");
    assert_eq!(r["stats"]["liveTextures"], 0, "{backend}: textures alive after the suite: {}", r["stats"]);
    let renderer = r["info"]["renderer"].as_str().unwrap_or("?");
    let mut failures = Vec::new();
    let mut count = |list: &str, label: &dyn Fn(&serde_json::Value) -> String| -> usize {
        let items = r[list].as_array().map(Vec::as_slice).unwrap_or_default();
        for c in items.iter().filter(|c| c["passed"] != true) {
            failures.push(format!("{list}: {}: {}", label(c), c["detail"]));
        }
        items.len()
    };
    let kernels = count("kernels", &|c| format!("{} {}", c["family"], c["name"]));
    let lps = count("lp", &|c| format!("{} on {}", c["name"], c["backend"]));
    let errors = count("errors", &|c| c["name"].to_string());
    let watched = count("viewer", &|c| c["name"].to_string());
    assert!(failures.is_empty(), "{backend} ({renderer}):\n{}", failures.join("\n"));
    let families = |name: &str| r["kernels"].as_array().map_or(0, |v| v.iter().filter(|c| c["family"] == name).count());
    for (family, at_least) in [
        ("cholesky", 55),
        ("assembly", 28),
        ("substitution", 16),
        ("blas-1", 18),
        ("blas-2", 4),
        ("lu", 13),
        ("least squares", 3),
    ] {
        assert!(families(family) >= at_least, "{backend}: {} {family} cases, {at_least} expected", families(family));
    }
    // The register tiles ran as tiles (WebGL2 guarantees the four draw buffers a 4×4 tile
    // writes): every tiled case, and no fallback to the blocked kernels; the 8×4 assembly
    // exactly where the context has eight (ANGLE on Mesa: 8; SwiftShader: 6).
    let buffers = r["info"]["maxDrawBuffers"].as_u64().unwrap_or(0);
    assert!(buffers >= 4, "{backend}: {buffers} draw buffers");
    let tiled: Vec<&serde_json::Value> = r["kernels"]
        .as_array()
        .map(|v| v.iter().filter(|c| c["name"].as_str().is_some_and(|n| n.contains("tiled"))).collect())
        .unwrap_or_default();
    assert!(tiled.len() >= 35, "{backend}: {} tiled cases", tiled.len());
    for c in &tiled {
        let detail = c["detail"].as_str().unwrap_or("");
        let wide = c["name"].as_str().is_some_and(|n| n.contains("8×4"));
        if wide && buffers < 8 {
            assert!(detail.contains(&format!("not run: {buffers} draw buffers")), "{backend}: {}: {detail}", c["name"]);
            continue;
        }
        assert!(!detail.contains("not run"), "{backend}: {} was not run: {detail}", c["name"]);
        if c["family"] == "cholesky" {
            assert!(detail.contains("4×4 tiles"), "{backend}: {} did not run on tiles: {detail}", c["name"]);
        }
    }
    let on = |b: &str| r["lp"].as_array().map_or(0, |v| v.iter().filter(|c| c["backend"] == b).count());
    assert_eq!((on("gpu"), on("hybrid")), (10, 20), "{backend}: NETLIB problems per backend");
    assert_eq!(errors, 4, "{backend}: refused inputs");
    assert_eq!(watched, 13, "{backend}: recorded runs");
    println!("{backend}: {buffers} draw buffers, {} tiled kernel cases", tiled.len());
    println!(
        "{backend} ({renderer}): {kernels} kernel cases, {lps} NETLIB solves, {watched} recorded runs, {errors} refused inputs: all passed"
    );
}

#[test]
fn the_static_site_passes_its_suite_on_swiftshader_cross_origin_isolated() {
    let _one = serial();
    check("swiftshader", &site_suite(SWIFTSHADER, true));
}

#[test]
fn the_static_site_passes_its_suite_on_angle_over_mesa_egl() {
    let _one = serial();
    check("gl-egl", &site_suite(GL_EGL, false));
}

#[test]
fn the_static_site_passes_its_suite_in_firefox() {
    let _one = serial();
    check("firefox", &site_suite(FIREFOX, false));
}

/// Without WebGL2 the suite does not run the GPU's cases as if they passed: it reports why it
/// cannot, with the package's code.
#[test]
fn a_browser_without_webgl2_says_so() {
    let _one = serial();
    let r = suite(NO_WEBGL);
    let fatal = r["fatal"].as_str().unwrap_or_else(|| panic!("no message: {r}"));
    assert!(fatal.contains("the suite needs WebGL2") && fatal.contains("[no-webgl2]"), "{fatal}");
    assert_eq!(r["info"]["gpu"], false, "{r}");
    assert!(r["kernels"].as_array().is_some_and(Vec::is_empty), "no kernel case may run: {}", r["kernels"]);
}

/// The wasm-bindgen found is the version Cargo.lock pins, wherever it sits on the search path: one
/// of another version (an older install on PATH) is passed over, and none found is none.
#[test]
fn only_the_pinned_wasm_bindgen_is_taken() {
    use std::os::unix::fs::PermissionsExt;
    let version = browser::pinned_wasm_bindgen();
    let dir = std::env::temp_dir().join(format!("glsolve-bindgen-{}", std::process::id()));
    let fake = |name: &str, says: &str| {
        let d = dir.join(name);
        std::fs::create_dir_all(&d).expect("temp dir");
        let exe = d.join("wasm-bindgen");
        std::fs::write(&exe, format!("#!/bin/sh\necho '{says}'\n")).expect("fake wasm-bindgen");
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).expect("executable");
        d
    };
    let older = fake("older", "wasm-bindgen 0.2.1");
    let other = fake("other", &format!("wasm-opt {version}"));
    let pinned = fake("pinned", &format!("wasm-bindgen {version}"));
    let empty = dir.join("empty");
    let found = wasm_tools::find_wasm_bindgen(&[empty.clone(), older.clone(), other.clone(), pinned.clone()], &version);
    assert_eq!(found, Some(pinned.join("wasm-bindgen")));
    assert_eq!(wasm_tools::find_wasm_bindgen(&[empty, older, other], &version), None);
    let _ = std::fs::remove_dir_all(&dir);
}
