//! `glsolve web`: serves the browser page (web/static, the wasm build in web/pkg, the NETLIB
//! fixtures under /data) on localhost. A page posting to /report has its body printed as one
//! line `report: …` (the in-browser test suite and the browser benchmark report that way).
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
    /// The repository's root (web/static, web/pkg and tests/data are served from under it).
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Exit after this many reports have been posted (for test runners).
    #[arg(long)]
    exit_after_reports: Option<usize>,
}

pub fn run(a: &WebArgs) -> ExitCode {
    if !a.root.join("web/pkg/glsolve_web.js").is_file() {
        return super::fail(format!(
            "{} has no web/pkg/glsolve_web.js: build the page first with `bash web/build.sh`",
            a.root.display()
        ));
    }
    let listener = match TcpListener::bind(("127.0.0.1", a.port)) {
        Ok(l) => l,
        Err(e) => return super::fail(format!("cannot listen on 127.0.0.1:{}: {e}", a.port)),
    };
    let port = listener.local_addr().map(|s| s.port()).unwrap_or(a.port);
    println!("serving http://127.0.0.1:{port}/ (Ctrl-C stops)");
    let _ = std::io::stdout().flush();
    let mut reports = 0;
    for stream in listener.incoming().flatten() {
        match handle(stream, &a.root) {
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

/// Serves one request; `true` when it was a report.
fn handle(mut stream: TcpStream, root: &Path) -> std::io::Result<bool> {
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
    let path = target.split('?').next().unwrap_or("/");
    if method == "POST" && path == "/report" {
        let mut body = vec![0u8; length.min(64 << 20)];
        reader.read_exact(&mut body)?;
        println!("report: {}", String::from_utf8_lossy(&body).replace('\n', " "));
        let _ = std::io::stdout().flush();
        respond(&mut stream, "200 OK", "text/plain", b"ok")?;
        return Ok(true);
    }
    match (method, file_for(root, path)) {
        ("GET", Some(file)) => match std::fs::read(&file) {
            Ok(bytes) => respond(&mut stream, "200 OK", content_type(&file), &bytes)?,
            Err(_) => respond(&mut stream, "404 Not Found", "text/plain", b"not found")?,
        },
        _ => respond(&mut stream, "404 Not Found", "text/plain", b"not found")?,
    }
    Ok(false)
}

/// The file a URL path names: `/pkg/…` the wasm build, `/data/…` the test fixtures,
/// `/node_modules/…` the page's npm peer, anything else the static page. Paths with `..` name
/// nothing.
fn file_for(root: &Path, path: &str) -> Option<PathBuf> {
    let rel = Path::new(path.trim_start_matches('/'));
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let mut parts = rel.iter();
    let first = parts.next().and_then(|s| s.to_str()).unwrap_or("");
    let rest: PathBuf = parts.collect();
    Some(match first {
        "" => root.join("web/static/index.html"),
        "pkg" => root.join("web/pkg").join(rest),
        "data" => root.join("tests/data").join(rest),
        "node_modules" => root.join("web/node_modules").join(rest),
        _ => root.join("web/static").join(rel),
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

fn respond(stream: &mut TcpStream, status: &str, kind: &str, body: &[u8]) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
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
        let root = Path::new("/r");
        assert_eq!(file_for(root, "/"), Some(PathBuf::from("/r/web/static/index.html")));
        assert_eq!(file_for(root, "/app.js"), Some(PathBuf::from("/r/web/static/app.js")));
        assert_eq!(file_for(root, "/pkg/glsolve_web.js"), Some(PathBuf::from("/r/web/pkg/glsolve_web.js")));
        assert_eq!(file_for(root, "/data/netlib/afiro.mps"), Some(PathBuf::from("/r/tests/data/netlib/afiro.mps")));
        assert_eq!(file_for(root, "/../etc/passwd"), None);
        assert_eq!(file_for(root, "/data/../../x"), None);
        assert_eq!(content_type(Path::new("a.wasm")), "application/wasm");
    }
}
