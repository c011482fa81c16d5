//! `results.md` says which run each list comes from: a NETLIB list measured apart from the rest
//! of the report (`bench netlib-all --report OUT`) states its own command and date, and the
//! header stops claiming it; a list of the same run as the report says nothing extra. The CPU
//! path's section (`bench cpu --report`) is one more section with a run of its own.

use glsolve_tools::bench::netlib_all::NetlibAllRun;
use glsolve_tools::bench::report::{json, render};
use std::path::{Path, PathBuf};

/// A scratch copy of the repository's `docs/bench/*.json` (the last `bench all` run).
fn scratch(name: &str) -> PathBuf {
    let out = std::env::temp_dir().join(format!("glsolve-report-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(out.join("bench")).expect("temp dir");
    let src = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("docs/bench");
    for entry in std::fs::read_dir(&src).expect("docs/bench exists") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            std::fs::copy(&path, out.join("bench").join(path.file_name().expect("name"))).expect("copy");
        }
    }
    out
}

fn list(out: &Path) -> NetlibAllRun {
    let text = std::fs::read_to_string(out.join("bench/netlib_all.json")).expect("the docs' run has a list");
    serde_json::from_str(&text).expect("parses")
}

#[test]
fn a_separately_measured_list_states_its_own_run() {
    let out = scratch("separate");
    // The CPU path's section (`bench cpu --report`) states its own run too: without it here.
    let _ = std::fs::remove_file(out.join("bench/cpu.json"));
    let mut run = list(&out);
    run.separate = Some(("glsolve bench netlib-all --dir X --time-limit 60 --report docs".into(), "2031-02-03".into()));
    run.time_limit_s = 60.0;
    json(&out, "netlib_all", &run).expect("writes");
    render(&out).expect("renders");
    let md = std::fs::read_to_string(out.join("results.md")).expect("written");
    assert!(md.contains("except the list of the last section, which states its own run"), "header unchanged");
    assert!(md.contains("by `glsolve bench netlib-all --dir X --time-limit 60 --report docs` on 2031-02-03"));
    assert!(md.contains("60 s limit per problem"));

    run.separate = None;
    run.time_limit_s = 120.0;
    json(&out, "netlib_all", &run).expect("writes");
    render(&out).expect("renders");
    let md = std::fs::read_to_string(out.join("results.md")).expect("written");
    assert!(!md.contains("states its own run"));
    assert!(!md.contains("measured apart"));
    assert!(md.contains("120 s limit per problem"));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn parts_measured_again_after_the_run_are_named_in_the_header() {
    let out = scratch("remeasured");
    let path = out.join("bench/run.json");
    let mut run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("run.json")).expect("parses");
    run["remeasured"] = serde_json::json!([["the NETLIB tables", "glsolve bench netlib --json N", "2031-04-05"]]);
    std::fs::write(&path, run.to_string()).expect("writes");
    render(&out).expect("renders");
    let md = std::fs::read_to_string(out.join("results.md")).expect("written");
    let clause = "comes from that run, except the NETLIB tables, measured again by `glsolve bench netlib --json N` on 2031-04-05";
    assert!(md.contains(clause), "{}", md.lines().take(4).collect::<Vec<_>>().join("\n"));
    run["remeasured"] = serde_json::json!([]);
    std::fs::write(&path, run.to_string()).expect("writes");
    render(&out).expect("renders");
    let md = std::fs::read_to_string(out.join("results.md")).expect("written");
    // The header (the report's first lines); sections further down may name their own reruns.
    let header = md.lines().take(4).collect::<Vec<_>>().join("\n");
    assert!(header.contains("comes from that run"), "{header}");
    assert!(!header.contains("measured again"), "{header}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_cpu_section_states_its_own_run_beside_a_separate_list() {
    let out = scratch("cpu");
    assert!(out.join("bench/cpu.json").exists(), "the docs' run has a bench cpu section");
    let mut run = list(&out);
    run.separate = Some(("glsolve bench netlib-all --dir X --report docs".into(), "2031-02-03".into()));
    json(&out, "netlib_all", &run).expect("writes");
    render(&out).expect("renders");
    let md = std::fs::read_to_string(out.join("results.md")).expect("written");
    assert!(md.contains("except the last two sections, which state their own runs"), "header");
    assert!(md.contains("## The CPU path: what is hand-written and why"));

    run.separate = None;
    json(&out, "netlib_all", &run).expect("writes");
    render(&out).expect("renders");
    let md = std::fs::read_to_string(out.join("results.md")).expect("written");
    assert!(md.contains("except the last section, which states its own run"), "header");
    assert!(!md.contains("last two sections"));
    // The section, with what followed the verdicts, is the one docs/results.md shows.
    let docs = std::fs::read_to_string(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("docs/results.md"))
        .expect("docs");
    let section = |t: &str| t[t.find("## The CPU path").expect("the CPU section")..].to_string();
    assert!(md.contains("**After the verdicts.**"));
    assert_eq!(section(&md), section(&docs), "docs/results.md's CPU section is not what cpu.json renders");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_section_whose_run_does_not_read_is_an_error_and_a_failed_peer_is_shown() {
    // The docs' families run holds a peer that failed (Clarabel on the column player's game: no
    // objective, written as null): its section renders, with that peer's status.
    let out = scratch("families");
    let text = std::fs::read_to_string(out.join("bench/families.json")).expect("the docs' families run");
    assert!(text.contains("\"objective\": null"), "the docs' run holds a peer without an objective");
    render(&out).expect("renders");
    let md = std::fs::read_to_string(out.join("results.md")).expect("written");
    assert!(md.contains("## The dense LPs people bring"), "the families' section is there");
    assert!(md.contains("(DualInfeasible)"), "the failed peer's status is shown");
    // A run file that is there but does not read fails the render instead of dropping its section.
    std::fs::write(out.join("bench/families.json"), text.replacen("\"rows\"", "\"rowz\"", 1)).expect("writes");
    let err = render(&out).expect_err("a broken run file is an error");
    assert!(err.contains("families.json"), "{err}");
    let _ = std::fs::remove_dir_all(&out);
}
