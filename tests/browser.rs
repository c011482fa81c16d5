//! The browser build in a real browser: `web/build.sh` builds the page's wasm, `glsolve web`
//! serves it, headless Chromium opens it with `?selftest` on each of its two WebGL2 back-ends
//! (SwiftShader, and ANGLE on Mesa's llvmpipe through EGL), and the page posts its report: every
//! kernel family against f64 references computed in wasm, the NETLIB problems of tests/data on
//! the gpu and hybrid backends, runs recorded by the viewer (bit-identical to unwatched ones,
//! frames drawn), malformed input shown as the page's error. Any failure, a
//! missing report or a timeout fails the test. The wasm32 target and wasm-bindgen-cli are
//! installed where missing (`common/wasm_tools.rs`); Chromium missing fails with what to install.
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// The page's whole suite must report within this.
const TIMEOUT: Duration = Duration::from_secs(900);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[path = "common/wasm_tools.rs"]
mod wasm_tools;

/// The wasm-bindgen version Cargo.lock pins.
fn pinned_wasm_bindgen() -> String {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).expect("Cargo.lock readable");
    wasm_tools::pinned_version(&lock).expect("wasm-bindgen in Cargo.lock")
}

/// Builds the page once per test binary (installing the wasm32 target and wasm-bindgen where
/// they are missing); later callers get the first build's outcome.
fn build() -> &'static Result<(), String> {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    BUILT.get_or_init(|| {
        let bindgen = wasm_tools::ensure(&root(), &pinned_wasm_bindgen())?;
        let out = Command::new("bash")
            .arg(root().join("web/build.sh"))
            .env("WASM_BINDGEN", bindgen)
            .output()
            .map_err(|e| format!("bash: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "web/build.sh failed:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    })
}

fn chromium() -> PathBuf {
    let found = std::env::var_os("PATH")
        .and_then(|p| std::env::split_paths(&p).map(|d| d.join("chromium")).find(|c| c.is_file()));
    found.unwrap_or_else(|| {
        panic!("the browser tests need Chromium (Debian: apt-get install chromium; .ci/run does this)")
    })
}

/// Kills a child process when dropped (a failed assertion must not leave a browser running).
struct Reaped(Child);
impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Serves the page, opens `?selftest` in Chromium with `flags`, and returns the posted report.
fn run_suite(backend: &str, flags: &[&str]) -> serde_json::Value {
    if let Err(e) = build() {
        panic!("{e}");
    }
    let mut server = Reaped(
        Command::new(env!("CARGO_BIN_EXE_glsolve"))
            .args(["web", "--port", "0", "--exit-after-reports", "1", "--root"])
            .arg(root())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start glsolve web"),
    );
    let (tx, rx) = channel();
    let stdout = server.0.stdout.take().expect("the server's output");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let first = rx.recv_timeout(Duration::from_secs(30)).expect("glsolve web names its address");
    let url =
        first.strip_prefix("serving ").and_then(|s| s.split_whitespace().next()).unwrap_or_else(|| panic!("{first}"));
    let profile = std::env::temp_dir().join(format!("glsolve-chromium-{}-{backend}", std::process::id()));
    let _browser = Reaped(
        Command::new(chromium())
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-quic",
                "--no-first-run",
                "--mute-audio",
            ])
            .args(flags)
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("{url}?selftest&backend={backend}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromium"),
    );
    let deadline = std::time::Instant::now() + TIMEOUT;
    let report = loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                if let Some(json) = line.strip_prefix("report: ") {
                    break json.to_string();
                }
            }
            Err(RecvTimeoutError::Timeout) => panic!("{backend}: no report within {TIMEOUT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("{backend}: the server stopped without a report"),
        }
    };
    let _ = std::fs::remove_dir_all(&profile);
    serde_json::from_str(&report).unwrap_or_else(|e| panic!("{backend}: the report is not JSON ({e}): {report}"))
}

/// Asserts the report and prints its counts.
fn check(backend: &str, r: &serde_json::Value) {
    assert!(r["fatal"].is_null(), "{backend}: {}", r["fatal"]);
    let renderer = r["info"]["GL renderer"].as_str().unwrap_or("?");
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
    let buffers: u32 = r["info"]["GL_MAX_DRAW_BUFFERS"].as_str().and_then(|v| v.parse().ok()).unwrap_or(0);
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

/// One browser at a time: two would share the machine's cores and the build.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|p| p.into_inner())
}

#[test]
fn the_page_passes_its_suite_on_swiftshader() {
    let _one = serial();
    let r = run_suite("swiftshader", &["--use-angle=swiftshader", "--enable-unsafe-swiftshader"]);
    check("swiftshader", &r);
}

#[test]
fn the_page_passes_its_suite_on_angle_over_mesa_egl() {
    let _one = serial();
    let r = run_suite("gl-egl", &["--use-gl=angle", "--use-angle=gl-egl", "--ignore-gpu-blocklist"]);
    check("gl-egl", &r);
}

/// Without WebGL2 the page does not go blank: it says why, and the suite reports that message.
#[test]
fn a_browser_without_webgl2_gets_a_message_on_the_page() {
    let _one = serial();
    let r = run_suite("no-webgl", &["--disable-webgl"]);
    let fatal = r["fatal"].as_str().unwrap_or_else(|| panic!("no message: {r}"));
    assert!(fatal.contains("the page did not start") && fatal.contains("no WebGL2"), "{fatal}");
}

/// The wasm-bindgen found is the version Cargo.lock pins, wherever it sits on the search path: one
/// of another version (an older install on PATH) is passed over, and none found is none.
#[test]
fn only_the_pinned_wasm_bindgen_is_taken() {
    use std::os::unix::fs::PermissionsExt;
    let version = pinned_wasm_bindgen();
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
