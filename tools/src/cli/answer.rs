//! Where `linsolve` and `lsq` put their unknowns: `--out x.mtx` (Matrix Market, each value the
//! shortest decimal that reads back as the same f64) and `--json OUT` (x beside what the solve
//! did). Both paths are checked before the solve, so that a typo costs no solve; a write that
//! still fails is an error naming the path.
use clap::Args;
use glsolve_tools::matrix_market::{self, Dense};
use std::path::{Path, PathBuf};

/// The files a solve's answer goes to.
#[derive(Args)]
pub struct Outputs {
    /// Write the unknowns x to this file, Matrix Market (array real general, k×1), every value
    /// to full f64 precision: read back, it is the same x bit for bit.
    #[arg(long, value_name = "x.mtx")]
    out: Option<PathBuf>,
    /// Write the solve as JSON to this file: x, the method (with the fallback's reason), the
    /// refinement steps and the accuracy measures.
    #[arg(long, value_name = "OUT")]
    json: Option<PathBuf>,
}

impl Outputs {
    /// Refuses, before anything is solved, an output path that cannot be a new or replaced
    /// file: a folder, a file in a folder that does not exist, the same path for both outputs,
    /// or an input's path (`inputs`).
    pub fn check(&self, inputs: &[&Path]) -> Result<(), String> {
        let outs: Vec<(&str, &PathBuf)> = [("--out", &self.out), ("--json", &self.json)]
            .into_iter()
            .filter_map(|(f, p)| Some((f, p.as_ref()?)))
            .collect();
        for (flag, path) in &outs {
            if path.is_dir() {
                return Err(format!("{flag} {}: is a folder, not a file", path.display()));
            }
            let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            if !parent.is_dir() {
                return Err(format!("{flag} {}: the folder {} does not exist", path.display(), parent.display()));
            }
            if let Some(input) = inputs.iter().find(|i| same_file(i, path)) {
                return Err(format!(
                    "{flag} {}: is the input {}; it would be overwritten",
                    path.display(),
                    input.display()
                ));
            }
        }
        if let [(_, a), (_, b)] = outs[..] {
            if same_file(a, b) {
                return Err(format!("--out and --json name the same file {}", a.display()));
            }
        }
        Ok(())
    }

    /// Writes x (and the JSON `report`, which the caller builds with x in it) where asked,
    /// saying so on standard output.
    pub fn write(&self, x: &[f64], report: impl FnOnce() -> serde_json::Value) -> Result<(), String> {
        if let Some(path) = &self.out {
            let m = Dense { rows: x.len(), cols: 1, data: x.to_vec() };
            matrix_market::write_file(path, &m).map_err(|e| e.to_string())?;
            println!("x written to      {} ({} values, Matrix Market)", path.display(), x.len());
        }
        if let Some(path) = &self.json {
            let text = serde_json::to_string_pretty(&report()).map_err(|e| e.to_string())?;
            std::fs::write(path, text).map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
            println!("JSON written to   {}", path.display());
        }
        Ok(())
    }
}

/// Whether two paths name one file (an existing file by its canonical path, else by the text).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(p), Ok(q)) => p == q,
        _ => a == b,
    }
}

/// A finite number, or null (JSON has no NaN or ∞).
pub fn num(v: f64) -> serde_json::Value {
    if v.is_finite() {
        serde_json::json!(v)
    } else {
        serde_json::Value::Null
    }
}

/// A vector of numbers (x is always finite; a measure may not be).
pub fn nums(v: &[f64]) -> serde_json::Value {
    serde_json::Value::Array(v.iter().map(|&x| num(x)).collect())
}
