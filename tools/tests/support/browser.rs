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
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
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

/// The page as static files (`web/build.sh --site`), written by [`build`].
pub fn site() -> PathBuf {
    build();
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("glsolve-site")
}

/// Builds the page once per test binary (installing the wasm32 target and wasm-bindgen-cli where
/// they are missing: `common/wasm_tools.rs`), with its static site ([`site`]); later callers
/// get the first build's outcome.
pub fn build() {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let bindgen = crate::wasm_tools::ensure(&root(), &pinned_wasm_bindgen())?;
        let out = Command::new("bash")
            .arg(root().join("web/build.sh"))
            .arg("--site")
            .arg(Path::new(env!("CARGO_TARGET_TMPDIR")).join("glsolve-site"))
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
pub struct Group(Child);

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

/// The lines a child prints, as they come.
fn lines_of(child: &mut Child) -> Receiver<String> {
    let (tx, rx) = channel();
    let stdout = child.stdout.take().expect("the child's output");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
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
    let rx = lines_of(&mut server.0);
    let first = rx.recv_timeout(Duration::from_secs(30)).expect("glsolve web names its address");
    let url =
        first.strip_prefix("serving ").and_then(|s| s.split_whitespace().next()).unwrap_or_else(|| panic!("{first}"));
    let report = open(browser, &format!("{url}?{query}&backend={label}"), &rx, timeout);
    drop(server);
    report
}

/// A folder served as a static host serves it, and where the pages' reports arrive.
pub struct Served {
    /// The folder's root URL.
    pub url: String,
    /// Lines `report: …`, one per report posted (to `report_url`).
    pub reports: Receiver<String>,
    /// Where pages post their reports (`?report=` of the static pages).
    pub report_url: String,
    _server: Option<Group>,
}

/// `dir` served by `python3 -m http.server` (no special headers: not cross-origin isolated, no
/// POST), and a collector on another port for the reports.
pub fn python_server(dir: &Path) -> Served {
    let python = tool("python3", "Debian: apt-get install python3");
    let mut server = Group::spawn(
        Command::new(python)
            .args(["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory"])
            .arg(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null()),
    );
    let lines = lines_of(&mut server.0);
    // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
    let first = lines.recv_timeout(Duration::from_secs(30)).expect("python3 -m http.server names its port");
    let port =
        first.split(" port ").nth(1).and_then(|s| s.split_whitespace().next()).unwrap_or_else(|| panic!("{first}"));
    let collector = rust_server(None, false);
    Served {
        url: format!("http://127.0.0.1:{port}/"),
        reports: collector.reports,
        report_url: collector.report_url,
        _server: Some(server),
    }
}

/// A small static server in this process: `dir` (if any) with or without the headers that make
/// a page cross-origin isolated, and POST /report (allowed from any origin: the collector of
/// pages another server serves).
pub fn rust_server(dir: Option<&Path>, isolated: bool) -> Served {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port on 127.0.0.1");
    let port = listener.local_addr().expect("its address").port();
    let (tx, rx) = channel();
    let dir = dir.map(Path::to_path_buf);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (tx, dir) = (tx.clone(), dir.clone());
            std::thread::spawn(move || {
                let mut stream = stream;
                let mut reader = BufReader::new(stream.try_clone().expect("a stream"));
                let mut line = String::new();
                if reader.read_line(&mut line).is_err() {
                    return;
                }
                let mut parts = line.split_whitespace();
                let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
                let mut length = 0usize;
                loop {
                    let mut header = String::new();
                    if reader.read_line(&mut header).unwrap_or(0) == 0 || header.trim().is_empty() {
                        break;
                    }
                    if let Some((k, v)) = header.split_once(':') {
                        if k.trim().eq_ignore_ascii_case("content-length") {
                            length = v.trim().parse().unwrap_or(0);
                        }
                    }
                }
                let path = target.split('?').next().unwrap_or("/");
                let (status, kind, body) = match (method, &dir) {
                    ("POST", _) if path == "/report" => {
                        let mut body = vec![0u8; length.min(64 << 20)];
                        if reader.read_exact(&mut body).is_ok() {
                            let _ = tx.send(format!("report: {}", String::from_utf8_lossy(&body).replace('\n', " ")));
                        }
                        ("200 OK", "text/plain", b"ok".to_vec())
                    }
                    ("OPTIONS", _) => ("204 No Content", "text/plain", Vec::new()),
                    ("GET", Some(dir)) => {
                        let rel = Path::new(path.trim_start_matches('/'));
                        let safe = rel.components().all(|c| matches!(c, std::path::Component::Normal(_)));
                        let file = if path.ends_with('/') { dir.join(rel).join("index.html") } else { dir.join(rel) };
                        match std::fs::read(&file) {
                            Ok(bytes) if safe => ("200 OK", content_type(&file), bytes),
                            _ => ("404 Not Found", "text/plain", b"not found".to_vec()),
                        }
                    }
                    _ => ("404 Not Found", "text/plain", b"not found".to_vec()),
                };
                let isolation = if isolated {
                    "Cross-Origin-Opener-Policy: same-origin\r\nCross-Origin-Embedder-Policy: require-corp\r\n"
                } else {
                    ""
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n{isolation}Access-Control-Allow-Origin: *\r\nAccess-Control-Allow-Headers: *\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(&body));
            });
        }
    });
    let url = format!("http://127.0.0.1:{port}/");
    Served { report_url: format!("{url}report"), url, reports: rx, _server: None }
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript",
        "wasm" => "application/wasm",
        "css" => "text/css",
        "json" => "application/json",
        _ => "text/plain; charset=utf-8",
    }
}

/// Opens `page` (a path and query under `served`'s root) in `browser`, its report posted to
/// `served`'s collector; returns the report.
pub fn visit(browser: Browser, served: &Served, page: &str, timeout: Duration) -> serde_json::Value {
    let sep = if page.contains('?') { '&' } else { '?' };
    let report = encode(&served.report_url);
    let url = format!("{}{page}{sep}backend={}&report={report}", served.url, browser.label());
    open(browser, &url, &served.reports, timeout)
}

/// `s` as a query value.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Opens `url` in `browser` and returns the first report that arrives on `rx` within `timeout`.
pub fn open(browser: Browser, url: &str, rx: &Receiver<String>, timeout: Duration) -> serde_json::Value {
    let label = browser.label();
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
                    .arg(url)
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
                    .arg(url)
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
    let _ = std::fs::remove_dir_all(&profile);
    serde_json::from_str(&report).unwrap_or_else(|e| panic!("{label}: the report is not JSON ({e}): {report}"))
}
