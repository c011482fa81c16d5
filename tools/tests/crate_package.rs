//! The library as crates.io would ship it: `cargo package` makes the `.crate` from the root
//! manifest's `include` list; the test checks what it holds (the library, its shaders, examples,
//! README and both licenses; no tests, fixtures, docs or other workspace members), unpacks it
//! and builds a fresh project that depends on the unpacked crate — never on the repository —
//! offline (every dependency is already in Cargo's cache from the workspace's own build), then
//! runs it: an LP on the cpu backend and a Cholesky factor on the GPU (the shaders compiled in
//! from the packaged glsl/).
//!
//! The project builds in the workspace's target folder with the release profile the workspace
//! uses (debug info on), so that the dependencies the suite has already compiled are taken as
//! they are (those whose features unify differently there are compiled again, faer among them);
//! the packaged glsolve itself compiles at opt-level 0. Cargo does not hold that folder's lock
//! while tests run.
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

fn must(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

const MAIN: &str = r#"
use glsolve::{BackendKind, Cholesky, Gpu, LpModel, LpSolver, Settings, Status};
use nalgebra::{dmatrix, DMatrix};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // max x + y  s.t.  x + 2y ≤ 4,  3x + y ≤ 6,  x, y ≥ 0: x = 1.6, y = 1.2, objective 2.8.
    let model = LpModel::builder(dmatrix![1.0, 2.0; 3.0, 1.0]).maximize([1.0, 1.0]).rows_at_most([4.0, 6.0]).build()?;
    let s = LpSolver::new(Settings::for_backend(BackendKind::Cpu)).solve(&model)?;
    assert_eq!(s.status, Status::Optimal, "{}", s.detail);
    println!("lp: {} {:.9} at {:?}", s.status, s.objective, s.x);
    let c = DMatrix::from_row_slice(2, 2, &[4.0, 2.0, 2.0, 3.0]);
    let gpu = Gpu::headless()?;
    let l = Cholesky::new(&gpu, &c)?.l().clone();
    println!("cholesky: {:.6} {:.6} {:.6} on {}", l[(0, 0)], l[(1, 0)], l[(1, 1)], gpu.info().renderer);
    Ok(())
}
"#;

#[test]
fn a_project_builds_and_runs_on_the_packaged_crate() {
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("glsolve-crate");
    let t = Instant::now();
    // Its own target folder: the test's `cargo test` holds the workspace's.
    must(
        cargo()
            .args(["package", "-p", "glsolve", "--no-verify", "--allow-dirty", "--target-dir"])
            .arg(work.join("package-target"))
            .current_dir(root()),
    );
    let version = env!("CARGO_PKG_VERSION");
    let crate_file = work.join(format!("package-target/package/glsolve-{version}.crate"));
    let bytes = std::fs::metadata(&crate_file).unwrap_or_else(|e| panic!("{}: {e}", crate_file.display())).len();

    let unpacked = work.join("unpacked");
    let _ = std::fs::remove_dir_all(&unpacked);
    std::fs::create_dir_all(&unpacked).expect("a folder to unpack into");
    must(Command::new("tar").arg("xzf").arg(&crate_file).arg("-C").arg(&unpacked));
    let krate = unpacked.join(format!("glsolve-{version}"));
    let listing = must(Command::new("tar").arg("tzf").arg(&crate_file));
    let files: Vec<&str> = listing.lines().filter(|l| !l.ends_with('/')).collect();
    for needed in
        ["Cargo.toml", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "src/lib.rs", "glsl/pass.vert", "examples/lp.rs"]
    {
        assert!(krate.join(needed).is_file(), "the crate has no {needed}");
    }
    for f in &files {
        let rel = f.split_once('/').map_or(*f, |(_, r)| r);
        let allowed = rel.starts_with("src/")
            || rel.starts_with("glsl/")
            || rel.starts_with("examples/")
            || matches!(
                rel,
                "Cargo.toml"
                    | "Cargo.toml.orig"
                    | "Cargo.lock"
                    | "README.md"
                    | "LICENSE-MIT"
                    | "LICENSE-APACHE"
                    | ".cargo_vcs_info.json"
            );
        assert!(allowed, "the crate holds {rel}, which the include list should leave out");
    }
    let mib = bytes as f64 / (1u64 << 20) as f64;
    assert!(mib < 1.0, "the crate is {mib:.2} MiB");
    for license in ["LICENSE-MIT", "LICENSE-APACHE"] {
        let ours = std::fs::read(root().join(license)).expect("the repository's license");
        assert!(std::fs::read(krate.join(license)).ok() == Some(ours), "the crate's {license} is not the repository's");
    }
    let manifest = std::fs::read_to_string(krate.join("Cargo.toml")).expect("the packaged manifest");
    for field in
        ["repository = ", "documentation = ", "readme = ", "keywords = ", "categories = ", "[package.metadata.docs.rs]"]
    {
        assert!(manifest.contains(field), "the packaged manifest has no {field}");
    }

    // A project of its own (its own workspace), on the unpacked crate, with the workspace's lock
    // as a starting point so that the versions are those already in Cargo's cache.
    let project = work.join("consumer");
    let _ = std::fs::remove_dir_all(&project);
    std::fs::create_dir_all(project.join("src")).expect("a project folder");
    std::fs::write(
        project.join("Cargo.toml"),
        format!(
            "[package]\nname = \"glsolve-crate-consumer\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\nglsolve = {{ path = {:?} }}\nnalgebra = \"0.33\"\n\n[profile.release.package.glsolve]\nopt-level = 0\n\n[workspace]\n",
            krate.to_string_lossy()
        ),
    )
    .expect("Cargo.toml");
    std::fs::write(project.join("src/main.rs"), MAIN).expect("main.rs");
    std::fs::copy(root().join("Cargo.lock"), project.join("Cargo.lock")).expect("Cargo.lock");
    let out = must(
        cargo()
            .args(["run", "--release", "--offline", "--quiet", "--target-dir"])
            .arg(Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("the target folder"))
            .current_dir(&project)
            .env_remove("RUSTFLAGS")
            .env("CARGO_PROFILE_RELEASE_DEBUG", "1"),
    );
    let lp = out.lines().find_map(|l| l.strip_prefix("lp: optimal ")).unwrap_or_else(|| panic!("{out}"));
    let objective: f64 = lp.split_whitespace().next().and_then(|x| x.parse().ok()).unwrap_or(f64::NAN);
    assert!((objective - 2.8).abs() < 1e-6, "objective {objective}, 2.8 expected:\n{out}");
    let l = out.lines().find_map(|l| l.strip_prefix("cholesky: ")).unwrap_or_else(|| panic!("{out}"));
    let v: Vec<f64> = l.split_whitespace().take(3).map(|x| x.parse().unwrap_or(f64::NAN)).collect();
    let want = [2.0, 1.0, 2f64.sqrt()];
    assert!(v.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-5), "L = {v:?}, {want:?} expected");
    println!(
        "glsolve-{version}.crate: {} files, {mib:.2} MiB; a project on it built and ran in {:.0} s:\n{out}",
        files.len(),
        t.elapsed().as_secs_f64()
    );
}
