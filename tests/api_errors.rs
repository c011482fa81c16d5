//! Every error type of the library is reachable at the crate root, so that a caller can name
//! what a public function returns without knowing the module it lives in; and each is an error
//! a thread can hand on (`Send + Sync + 'static`).
use glsolve::{
    BackendError, CoverageError, DenseError, FactorError, GlError, GpuError, GpuFault, GramShapeError, LsqError,
    ModelError, MpsError, MpsErrorKind, PanelError, PassShapeError, PathError, PatternError, RefineError,
    SettingsError, SolveError,
};
use std::path::{Path, PathBuf};

fn error<T: std::error::Error + Send + Sync + 'static>() {}

#[test]
fn every_error_type_is_a_sendable_error_at_the_root() {
    error::<BackendError>();
    error::<CoverageError>();
    error::<DenseError>();
    error::<FactorError>();
    error::<GlError>();
    error::<GpuError>();
    error::<GramShapeError>();
    error::<LsqError>();
    error::<ModelError>();
    error::<MpsError>();
    error::<PanelError>();
    error::<PassShapeError>();
    error::<PathError>();
    error::<PatternError>();
    error::<RefineError>();
    error::<SettingsError>();
    error::<SolveError>();
    // Kinds that say what went wrong inside an error.
    let _: Option<(GpuFault, MpsErrorKind)> = None;
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable").flatten() {
        let p = entry.path();
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if p.is_dir() && name != "cli" && name != "bench" {
            sources(&p, out);
        } else if name.ends_with(".rs") && name != "main.rs" {
            out.push(p);
        }
    }
}

/// The scan that keeps the list above whole: every `pub enum …Error` and `pub struct …Error` of
/// the library (the command line and the benchmarks aside) is re-exported by `src/lib.rs`.
#[test]
fn no_error_type_is_defined_without_being_reexported_at_the_root() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let reexports: String = lib.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut found = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("source");
        for line in text.lines() {
            let t = line.trim_start();
            let rest = t.strip_prefix("pub enum ").or_else(|| t.strip_prefix("pub struct "));
            let Some(name) = rest.map(|r| r.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or(""))
            else {
                continue;
            };
            if name.ends_with("Error") {
                found.push((name.to_string(), f.clone()));
            }
        }
    }
    assert!(found.len() >= 18, "the scan found only {found:?}");
    let missing: Vec<String> = found
        .iter()
        .filter(|(name, _)| !reexports.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == name))
        .map(|(name, f)| format!("{name} ({})", f.display()))
        .collect();
    assert!(missing.is_empty(), "error types not re-exported at the crate root: {missing:?}");
}
