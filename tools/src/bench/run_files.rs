//! The files of a run under `OUT/bench/`: each part's results as `NAME.json`, written by the
//! command that measured it and read back by the report.

use std::path::Path;

/// Writes `text` to `path`, making its folder.
pub(super) fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `v` as `out/bench/NAME.json`.
pub fn json<T: serde::Serialize>(out: &Path, name: &str, v: &T) -> Result<(), String> {
    let text = serde_json::to_string_pretty(v).map_err(|e| e.to_string())?;
    write(&out.join("bench").join(format!("{name}.json")), &text)
}

/// Reads `out/bench/NAME.json` (an error names the file and what is wrong with it).
pub(super) fn load<T: serde::de::DeserializeOwned>(out: &Path, name: &str) -> Result<T, String> {
    let path = out.join("bench").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// `out/bench/{name}.json` when the run wrote it (`None` when it is not there); one that is there
/// but does not read is an error, not a missing section.
pub(super) fn load_written<T: serde::de::DeserializeOwned>(out: &Path, name: &str) -> Result<Option<T>, String> {
    match out.join("bench").join(format!("{name}.json")).exists() {
        true => load(out, name).map(Some),
        false => Ok(None),
    }
}
