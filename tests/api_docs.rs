//! The public API is documented item by item: without the `internals` feature the crate denies
//! `missing_docs`, so a new public item (or field, variant, method) without a doc comment makes
//! this check of the library fail. It builds in a folder of its own under target/ (no fight
//! with the main build's lock) and offline (the lock file's crates are already fetched).
use std::process::Command;

#[test]
fn every_public_item_without_internals_is_documented() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new(env!("CARGO"))
        .args(["check", "-p", "glsolve", "--lib", "--offline", "--message-format", "short"])
        .arg("--target-dir")
        .arg(format!("{root}/target/api_docs"))
        .current_dir(root)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("run cargo");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let undocumented: Vec<&str> = stderr.lines().filter(|l| l.contains("missing documentation")).collect();
    assert!(undocumented.is_empty(), "public items without docs:\n{}", undocumented.join("\n"));
    // Every type the API reaches has a public name (rustc's `unnameable_types`: 0).
    let unnameable: Vec<&str> = stderr.lines().filter(|l| l.contains("reachable but cannot be named")).collect();
    assert!(unnameable.is_empty(), "types the API reaches but does not name:\n{}", unnameable.join("\n"));
    assert!(out.status.success(), "cargo check -p glsolve --lib failed:\n{stderr}");
    // The lints are on where the check runs: the crate root still denies them without `internals`.
    let lib = std::fs::read_to_string(format!("{root}/src/lib.rs")).expect("src/lib.rs");
    assert!(lib.contains(r#"#![cfg_attr(not(feature = "internals"), deny(missing_docs))]"#));
    assert!(lib.contains(r#"#![cfg_attr(not(feature = "internals"), deny(unnameable_types))]"#));
}

/// The API's documentation builds without a warning: an intra-doc link to an item the docs do
/// not show (crate-private without `internals`) or to nothing at all fails here. Only this
/// crate is documented (`--no-deps`: its dependencies are only checked), in the folder of the
/// check above, whose checked dependencies it reuses (the two take turns at its lock).
#[test]
fn the_api_documentation_builds_without_warnings() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new(env!("CARGO"))
        .args(["doc", "-p", "glsolve", "--no-deps", "--offline", "--message-format", "short"])
        .arg("--target-dir")
        .arg(format!("{root}/target/api_docs"))
        .current_dir(root)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTDOCFLAGS")
        .env("RUSTDOCFLAGS", "-D warnings")
        .output()
        .expect("run cargo");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "cargo doc -p glsolve --no-deps with RUSTDOCFLAGS=-D warnings failed:\n{stderr}");
}
