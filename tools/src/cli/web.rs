//! `glsolve web`: serves the browser page (web/static, the npm package in web/package with its
//! wasm build, the NETLIB fixtures under /data) on localhost. A page posting to /report has its
//! body printed as one line `report: …` (the in-browser test suites and the browser benchmark
//! report that way).
//!
//! Pages are served cross-origin isolated (COOP `same-origin`, COEP `require-corp`), so that
//! they have SharedArrayBuffer and the package can interrupt a solve in its worker; a page asked
//! for with `isolated=0` in its query is served without, as most sites are.
use clap::Args;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct WebArgs {
    /// Port on 127.0.0.1 (0: any free one; the line `serving http://…` names it).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// The repository's root (web/static, web/package and tests/data are served from under it).
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Exit after this many reports have been posted (for test runners).
    #[arg(long)]
    exit_after_reports: Option<usize>,
    /// Serve this folder at / instead of the page (web/package, /data and /report stay): a
    /// project that uses the package, for its tests.
    #[arg(long)]
    site: Option<PathBuf>,
}

pub fn run(a: &WebArgs) -> ExitCode {
    if !a.root.join("web/package/wasm/glsolve_web.js").is_file() {
        return super::fail(format!(
            "{} has no web/package/wasm/glsolve_web.js: build the page first with `bash web/build.sh`",
            a.root.display()
        ));
    }
    let site = Site { root: a.root.clone(), pages: a.site.clone().unwrap_or_else(|| a.root.join("web/static")) };
    let listener = match TcpListener::bind(("127.0.0.1", a.port)) {
        Ok(l) => l,
        Err(e) => return super::fail(format!("cannot listen on 127.0.0.1:{}: {e}", a.port)),
    };
    let port = listener.local_addr().map(|s| s.port()).unwrap_or(a.port);
    println!("serving http://127.0.0.1:{port}/ (Ctrl-C stops)");
    let _ = std::io::stdout().flush();
    let mut reports = 0;
    for stream in listener.incoming().flatten() {
        match handle(stream, &site) {
            Ok(true) => {
                reports += 1;
                if a.exit_after_reports.is_some_and(|n| reports >= n) {
                    return ExitCode::SUCCESS;
                }
            }
            Ok(false) => {}
            Err(e) => eprintln!("request failed: {e}"),
        }
    }
    ExitCode::SUCCESS
}

/// Where the served files are: the repository, and the folder served at /.
struct Site {
    root: PathBuf,
    pages: PathBuf,
}

/// Serves one request; `true` when it was a report.
fn handle(mut stream: TcpStream, site: &Site) -> std::io::Result<bool> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = header.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let isolated = !query.split('&').any(|kv| kv == "isolated=0");
    if method == "POST" && path == "/report" {
        let mut body = vec![0u8; length.min(64 << 20)];
        reader.read_exact(&mut body)?;
        println!("report: {}", String::from_utf8_lossy(&body).replace('\n', " "));
        let _ = std::io::stdout().flush();
        respond(&mut stream, "200 OK", "text/plain", b"ok", true)?;
        return Ok(true);
    }
    match (method, file_for(site, path)) {
        ("GET", Some(file)) => match std::fs::read(&file) {
            Ok(bytes) => respond(&mut stream, "200 OK", content_type(&file), &bytes, isolated)?,
            Err(_) => respond(&mut stream, "404 Not Found", "text/plain", b"not found", true)?,
        },
        _ => respond(&mut stream, "404 Not Found", "text/plain", b"not found", true)?,
    }
    Ok(false)
}

/// The file a URL path names: `/package/…` the npm package (with its wasm build), `/data/…`
/// the test fixtures, `/node_modules/…` the page's npm peers, anything else the static page (or
/// the `--site` folder). Paths with `..` name nothing.
fn file_for(site: &Site, path: &str) -> Option<PathBuf> {
    let root = &site.root;
    let rel = Path::new(path.trim_start_matches('/'));
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let mut parts = rel.iter();
    let first = parts.next().and_then(|s| s.to_str()).unwrap_or("");
    let rest: PathBuf = parts.collect();
    Some(match first {
        "" => site.pages.join("index.html"),
        "package" => root.join("web/package").join(rest),
        "data" => root.join("tests/data").join(rest),
        "node_modules" if site.pages == root.join("web/static") => root.join("web/node_modules").join(rest),
        _ => site.pages.join(rel),
    })
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript",
        "wasm" => "application/wasm",
        "css" => "text/css",
        "json" => "application/json",
        "png" => "image/png",
        _ => "text/plain; charset=utf-8",
    }
}

/// Writes a response; `isolated` adds the headers that make a page cross-origin isolated.
fn respond(stream: &mut TcpStream, status: &str, kind: &str, body: &[u8], isolated: bool) -> std::io::Result<()> {
    let isolation = if isolated {
        "Cross-Origin-Opener-Policy: same-origin\r\nCross-Origin-Embedder-Policy: require-corp\r\n"
    } else {
        ""
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n{isolation}Cross-Origin-Resource-Policy: same-origin\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_map_into_the_served_folders_and_never_above_them() {
        let page = Site { root: PathBuf::from("/r"), pages: PathBuf::from("/r/web/static") };
        let at = |path| file_for(&page, path);
        assert_eq!(at("/"), Some(PathBuf::from("/r/web/static/index.html")));
        assert_eq!(at("/main.js"), Some(PathBuf::from("/r/web/static/main.js")));
        assert_eq!(at("/package/wasm/glsolve_web.js"), Some(PathBuf::from("/r/web/package/wasm/glsolve_web.js")));
        assert_eq!(at("/data/netlib/afiro.mps"), Some(PathBuf::from("/r/tests/data/netlib/afiro.mps")));
        assert_eq!(at("/node_modules/highs/x.js"), Some(PathBuf::from("/r/web/node_modules/highs/x.js")));
        assert_eq!(at("/../etc/passwd"), None);
        assert_eq!(at("/data/../../x"), None);
        let consumer = Site { root: PathBuf::from("/r"), pages: PathBuf::from("/tmp/c") };
        assert_eq!(file_for(&consumer, "/"), Some(PathBuf::from("/tmp/c/index.html")));
        assert_eq!(
            file_for(&consumer, "/node_modules/glsolve/index.js"),
            Some(PathBuf::from("/tmp/c/node_modules/glsolve/index.js")),
            "a site's own node_modules"
        );
        assert_eq!(content_type(Path::new("a.wasm")), "application/wasm");
    }
}
