//! Runs a page of the browser build in a real browser and returns the report it posts.
//! `web/build.sh` builds the package's wasm once per test binary; `glsolve web` serves the page
//! (or, with `site`, a project that uses the package) and prints the report the page posts to
//! /report. Chromium runs headless on one of its WebGL2 back-ends; Firefox ESR runs under Xvfb
//! (headless Firefox has no WebGL) with a fresh profile. A missing browser, a missing report, a
//! timeout or a failed build fails the test with what to install or what went wrong — a browser
//! that cannot run is never a skipped test.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// A browser and how it is started.
#[derive(Clone, Copy, Debug)]
pub enum Browser {
    /// Headless Chromium with these flags (`label` names the back-end in reports).
    Chromium { label: &'static str, flags: &'static [&'static str] },
    /// Firefox ESR under Xvfb.
    Firefox,
}

pub const SWIFTSHADER: Browser =
    Browser::Chromium { label: "swiftshader", flags: &["--use-angle=swiftshader", "--enable-unsafe-swiftshader"] };
pub const GL_EGL: Browser =
    Browser::Chromium { label: "gl-egl", flags: &["--use-gl=angle", "--use-angle=gl-egl", "--ignore-gpu-blocklist"] };
/// No GPU and no software rasterizer: no WebGL at all (`--disable-webgl` alone leaves WebGL2 to
/// an OffscreenCanvas in a worker).
pub const NO_WEBGL: Browser =
    Browser::Chromium { label: "no-webgl", flags: &["--disable-gpu", "--disable-software-rasterizer"] };
pub const FIREFOX: Browser = Browser::Firefox;

impl Browser {
    pub fn label(&self) -> &'static str {
        match self {
            Browser::Chromium { label, .. } => label,
            Browser::Firefox => "firefox",
        }
    }
}

pub fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The wasm-bindgen version Cargo.lock pins.
pub fn pinned_wasm_bindgen() -> String {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).expect("Cargo.lock readable");
    crate::wasm_tools::pinned_version(&lock).expect("wasm-bindgen in Cargo.lock")
}

/// Builds the page once per test binary (installing the wasm32 target and wasm-bindgen-cli where
/// they are missing: `common/wasm_tools.rs`); later callers get the first build's outcome.
pub fn build() {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let bindgen = crate::wasm_tools::ensure(&root(), &pinned_wasm_bindgen())?;
        let out = Command::new("bash")
            .arg(root().join("web/build.sh"))
            .env("WASM_BINDGEN", bindgen)
            .output()
            .map_err(|e| format!("bash: {e}"))?;
        if out.status.success() {
            return Ok(());
        }
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        Err(format!("web/build.sh failed:\n{stdout}{stderr}"))
    });
    if let Err(e) = built {
        panic!("{e}");
    }
}

/// `name` on PATH, or a failure saying how to install it.
pub fn tool(name: &str, install: &str) -> PathBuf {
    let found =
        std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join(name)).find(|c| c.is_file()));
    found.unwrap_or_else(|| panic!("the browser tests need {name} ({install}; .ci/run installs it)"))
}

/// One browser at a time: two would share the machine's cores and skew what the pages measure.
pub fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|p| p.into_inner())
}

/// A child in its own process group, which is ended when dropped (a browser's helpers with it).
struct Group(Child);

impl Group {
    fn spawn(cmd: &mut Command) -> Group {
        Group(cmd.process_group(0).spawn().unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}")))
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["-TERM", "--", &group]).stderr(Stdio::null()).status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = Command::new("kill").args(["-KILL", "--", &group]).stderr(Stdio::null()).status();
        let _ = self.0.wait();
    }
}

/// Serves the page (or `site`), opens `?{query}&backend={label}` in `browser`, and returns the
/// report the page posts within `timeout`.
pub fn run(browser: Browser, query: &str, site: Option<&Path>, timeout: Duration) -> serde_json::Value {
    build();
    let label = browser.label();
    let mut server_cmd = Command::new(env!("CARGO_BIN_EXE_glsolve"));
    server_cmd.args(["web", "--port", "0", "--exit-after-reports", "1", "--root"]).arg(root());
    if let Some(site) = site {
        server_cmd.arg("--site").arg(site);
    }
    let mut server = Group::spawn(server_cmd.stdout(Stdio::piped()));
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
    let url = format!("{url}?{query}&backend={label}");
    let profile =
        std::env::temp_dir().join(format!("glsolve-{label}-{}-{:?}", std::process::id(), std::thread::current().id()));
    let _ = std::fs::remove_dir_all(&profile);
    std::fs::create_dir_all(&profile).expect("a profile folder");
    let _browser = match browser {
        Browser::Chromium { flags, .. } => {
            let chromium = tool("chromium", "Debian: apt-get install chromium");
            Group::spawn(
                Command::new(chromium)
                    .args(["--headless=new", "--no-sandbox", "--disable-background-networking"])
                    .args([
                        "--disable-component-update",
                        "--disable-sync",
                        "--disable-quic",
                        "--no-first-run",
                        "--mute-audio",
                    ])
                    .args(flags)
                    .arg(format!("--user-data-dir={}", profile.display()))
                    .arg(&url)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null()),
            )
        }
        Browser::Firefox => {
            let install = "Debian: apt-get install firefox-esr xvfb xauth";
            let firefox = tool("firefox-esr", install);
            Group::spawn(
                Command::new(tool("xvfb-run", install))
                    .arg("-a")
                    .arg(firefox)
                    .args(["--no-remote", "--profile"])
                    .arg(&profile)
                    .arg(&url)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null()),
            )
        }
    };
    let deadline = Instant::now() + timeout;
    let report = loop {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => {
                if let Some(json) = line.strip_prefix("report: ") {
                    break json.to_string();
                }
            }
            Err(RecvTimeoutError::Timeout) => panic!("{label}: no report from {url} within {timeout:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("{label}: the server stopped without a report"),
        }
    };
    drop(_browser);
    drop(server);
    let _ = std::fs::remove_dir_all(&profile);
    serde_json::from_str(&report).unwrap_or_else(|e| panic!("{label}: the report is not JSON ({e}): {report}"))
}
