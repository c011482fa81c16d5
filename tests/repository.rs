//! The repository is self-contained: README's install line is exactly what `.ci/run` installs,
//! and no test reads a file outside the repository.
use std::path::Path;

fn read(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn sorted(words: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = words.collect();
    v.sort();
    v
}

#[test]
fn readme_install_line_is_what_ci_installs() {
    let readme = read("README.md");
    let line = readme.lines().find(|l| l.trim_start().starts_with("apt-get install")).expect("an install line");
    let readme_pkgs = sorted(line.split_whitespace().skip(2).map(String::from));
    let ci = read(".ci/run");
    let list = ci.lines().find(|l| l.trim_start().starts_with("packages=(")).expect("a package list in .ci/run");
    let inner = list.split_once('(').and_then(|(_, r)| r.split_once(')')).map(|(l, _)| l).expect("packages=(…)");
    let ci_pkgs = sorted(inner.split_whitespace().map(String::from));
    assert_eq!(readme_pkgs, ci_pkgs, "README's install line and .ci/run's list differ");
    for needed in ["libegl1", "libgl1-mesa-dri", "xvfb", "xauth"] {
        assert!(ci_pkgs.iter().any(|p| p == needed), "{needed} is missing");
    }
}

#[test]
fn no_test_reads_outside_the_repository() {
    // tests/ is at the root; tools/tests/ one level down, where the root is CARGO_MANIFEST_DIR/..
    // and two levels up is outside.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut offenders = Vec::new();
    let mut seen = 0;
    for (dir, outside) in [(root.join("tests"), "\"/../"), (root.join("tools/tests"), "\"/../../")] {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
            let p = entry.path();
            if p.extension().is_some_and(|e| e == "rs") && p.file_name().is_some_and(|n| n != "repository.rs") {
                seen += 1;
                let text = std::fs::read_to_string(&p).expect("readable");
                for (k, l) in text.lines().enumerate() {
                    if l.contains(outside) || l.contains("../shared") {
                        offenders.push(format!("{}:{}: {}", p.display(), k + 1, l.trim()));
                    }
                }
            }
        }
    }
    assert!(seen > 50, "the test files were read ({seen})");
    assert!(offenders.is_empty(), "tests reading outside the repository:\n{}", offenders.join("\n"));
    assert!(root.join("tests/data/netlib/optimal.tsv").is_file(), "the NETLIB fixtures are in the repository");
}

#[test]
fn readme_names_the_wasm_bindgen_the_lock_file_pins() {
    let lock = read("Cargo.lock");
    let at = lock.find("name = \"wasm-bindgen\"\nversion = \"").expect("wasm-bindgen in Cargo.lock");
    let version = lock[at..].lines().nth(1).and_then(|l| l.split('"').nth(1)).expect("its version");
    let readme = read("README.md");
    assert!(
        readme.contains(&format!("cargo install wasm-bindgen-cli --version {version}")),
        "README must say to install wasm-bindgen-cli {version}, the version Cargo.lock pins"
    );
}

/// CI runs README's test command and nothing else of Cargo's: what passes there is what a user
/// who follows README runs.
#[test]
fn ci_runs_exactly_readmes_test_command() {
    let readme = read("README.md");
    let line = readme
        .lines()
        .find(|l| l.starts_with("cargo test") && l.contains("# the tests"))
        .expect("README's test command");
    let command = line.split('#').next().map(str::trim).expect("a command");
    let ci = read(".ci/run");
    let cargo: Vec<&str> =
        ci.lines().map(str::trim).filter(|l| l.starts_with("cargo") || l.contains(" cargo ")).collect();
    assert_eq!(cargo, [command], ".ci/run's cargo commands");
    let last = ci.lines().map(str::trim).rfind(|l| !l.is_empty() && !l.starts_with('#'));
    assert_eq!(last, Some(command), ".ci/run ends with README's test command");
}
