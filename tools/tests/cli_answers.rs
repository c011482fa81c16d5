//! `glsolve linsolve` and `glsolve lsq` give their unknowns back: `--out x.mtx` (Matrix Market,
//! read back bit for bit) and `--json OUT` (x, method, refinement steps, accuracy), checked
//! here against f64 references computed with nalgebra; output paths that cannot be written are
//! refused before the solve with a message naming the flag and the path, never a panic; the time
//! limit is refused or accepted as the library decides.
use glsolve_tools::matrix_market;
use nalgebra::{dmatrix, dvector, DMatrix, DVector};
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(rel: &str) -> String {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("tests/data").join(rel).display().to_string()
}

/// A fresh folder for one test's outputs (under the build's own temporary folder).
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-answers-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch folder");
    d
}

/// Runs glsolve: (success, stdout, stderr).
fn glsolve(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_glsolve")).args(args).output().expect("run glsolve");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The numbers of the array `"key": [...]` of a JSON file's text, each parsed by Rust's
/// correctly rounded `str::parse` (serde_json's own parser may be off by an ulp).
fn json_numbers(path: &Path, key: &str) -> Vec<f64> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let start = text.find(&format!("\"{key}\": [")).unwrap_or_else(|| panic!("no {key} in {text}"));
    let body = &text[start..];
    let inner = &body[body.find('[').unwrap_or(0) + 1..body.find(']').unwrap_or(0)];
    inner.split(',').map(|v| v.trim().parse::<f64>().unwrap_or_else(|e| panic!("{v:?}: {e}"))).collect()
}

/// x from the `--out` file, which must be k×1, and the same bits as the JSON's x.
fn x_of(out: &Path, js: &Path) -> Vec<f64> {
    let m = matrix_market::read_file(out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.cols, 1, "x is a column");
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&m.data), bits(&json_numbers(js, "x")), "--out and --json hold the same x");
    m.data
}

#[test]
fn linsolve_writes_x_of_the_1e30_example_to_f64_accuracy_by_the_mixed_path() {
    // A = [[2, 1], [1, 3]], b = (4e30, 7e30): x = (1e30, 2e30) to within κ∞·(16·n + 4)·ε of
    // nalgebra's f64 LU of the same (A, b), on desktop GL and on OpenGL ES.
    let a = dmatrix![2.0, 1.0; 1.0, 3.0];
    let reference = a.lu().solve(&dvector![4e30, 7e30]).expect("regular");
    let tol = 3.2 * (16.0 * 2.0 + 4.0) * f64::EPSILON;
    for api in ["desktop", "es"] {
        let dir = scratch(&format!("example-{api}"));
        let (out, js) = (dir.join("x.mtx"), dir.join("x.json"));
        let (a_path, b_path) = (data("linsolve/a_2x2.mtx"), data("linsolve/b_1e30.mtx"));
        let args = ["--gl", api, "linsolve", "--matrix", &a_path, "--rhs", &b_path];
        let (ok, stdout, stderr) =
            glsolve(&[&args[..], &["--out", out.to_str().unwrap(), "--json", js.to_str().unwrap()]].concat());
        assert!(ok, "{api}: {stdout}{stderr}");
        assert!(stdout.contains("method             Mixed"), "{api}: {stdout}");
        let report = json(&js);
        let x = x_of(&out, &js);
        let err = (DVector::from_vec(x.clone()) - &reference).amax() / reference.amax();
        assert!(err <= tol, "{api}: x = {x:?}, error {err:e} > {tol:e}");
        assert_eq!(report["method"], "Mixed", "{api}");
        assert!(report["fallback_reason"].is_null(), "{api}");
        assert_eq!(report["n"], 2);
        let steps = report["refinement_steps"].as_u64().expect("steps");
        assert!(stdout.contains(&format!("refinement steps   {steps}\n")), "{api}: {stdout}");
        assert_eq!(report["convergence_test"]["history"].as_array().map(Vec::len), Some(steps as usize + 1));
        let backward = report["backward_error"].as_f64().expect("a backward error");
        assert!((0.0..=16.0).contains(&backward), "{api}: {backward}");
        assert_eq!(report["backward_error_threshold"], 16.0, "{api}");
        let test = &report["convergence_test"];
        assert!(test["value"].as_f64().expect("value") <= test["threshold"].as_f64().expect("threshold"));
    }
}

#[test]
fn linsolve_reports_the_fallback_and_its_reason() {
    // κ = 1e9 is beyond single-precision refinement: the f64 LU answers, and the JSON says why.
    // x is checked against nalgebra's f64 LU of the same system (read back from a file the test
    // writes with the library's writer): within 64·n·ε·κ∞.
    let dir = scratch("fallback");
    let n = 20;
    let a = DMatrix::from_row_slice(n, n, &glsolve::fixtures::random::general_with_condition(n, 1e9, 3)) * 1e30;
    let b = DVector::from_fn(n, |i, _| if i % 3 == 0 { 1e-30 } else { (i as f64) * 1e30 });
    let write = |name: &str, m: &DMatrix<f64>| {
        let path = dir.join(name);
        let dense = matrix_market::Dense { rows: m.nrows(), cols: m.ncols(), data: m.transpose().as_slice().to_vec() };
        matrix_market::write_file(&path, &dense).expect("written");
        path.display().to_string()
    };
    let (a_path, b_path) = (write("a.mtx", &a), write("b.mtx", &DMatrix::from_column_slice(n, 1, b.as_slice())));
    let (out, js) = (dir.join("x.mtx"), dir.join("x.json"));
    let (ok, stdout, stderr) = glsolve(&[
        "linsolve",
        "--matrix",
        &a_path,
        "--rhs",
        &b_path,
        "--out",
        out.to_str().unwrap(),
        "--json",
        js.to_str().unwrap(),
    ]);
    assert!(ok, "{stdout}{stderr}");
    let report = json(&js);
    assert_eq!(report["method"], "DoubleFallback", "{report}");
    assert!(!report["fallback_reason"].as_str().unwrap_or_default().is_empty(), "{report}");
    let x = DVector::from_vec(x_of(&out, &js));
    let reference = a.clone().lu().solve(&b).expect("regular");
    let inv = a.clone().try_inverse().expect("regular");
    let norm = |m: &DMatrix<f64>| m.row_iter().map(|r| r.iter().map(|v| v.abs()).sum::<f64>()).fold(0.0, f64::max);
    let tol = 64.0 * n as f64 * f64::EPSILON * norm(&a) * norm(&inv);
    let err = (&x - &reference).amax() / reference.amax();
    assert!(err <= tol, "error {err:e} > {tol:e}");
}

#[test]
fn lsq_writes_the_fitted_coefficients_far_from_one() {
    // y = 1e30·(1 + 2t − 3t²) at 12 times with σ of mixed sizes, plus a deterministic wobble:
    // the coefficients against nalgebra's QR of the weighted Vandermonde matrix, within
    // 4·16·κ₂(AᵀW²A)·1e−8 (Algorithm 1's stopping test; see tests/scale_lsq_cholesky.rs).
    let dir = scratch("fit");
    let k = 12;
    let t: Vec<f64> = (0..k).map(|i| i as f64 / (k as f64 - 1.0)).collect();
    let sigma: Vec<f64> = (0..k).map(|i| 1e28 * if i % 2 == 0 { 1.0 } else { 30.0 }).collect();
    let y: Vec<f64> = t
        .iter()
        .enumerate()
        .map(|(i, &t)| 1e30 * (1.0 + 2.0 * t - 3.0 * t * t) + 1e28 * ((i * 7 % 5) as f64 - 2.0))
        .collect();
    let text: String = (0..k).map(|i| format!("{:e} {:e} {:e}\n", t[i], y[i], sigma[i])).collect();
    let file = dir.join("samples.txt");
    std::fs::write(&file, format!("# t y sigma\n{text}")).expect("written");
    let (out, js) = (dir.join("x.mtx"), dir.join("x.json"));
    let (ok, stdout, stderr) = glsolve(&[
        "lsq",
        "--fit",
        file.to_str().unwrap(),
        "--degree",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--json",
        js.to_str().unwrap(),
    ]);
    assert!(ok, "{stdout}{stderr}");
    let report = json(&js);
    assert_eq!(report["method"], "Mixed", "{report}");
    assert!(report["accuracy"]["forward_error"].as_f64() <= report["accuracy"]["threshold"].as_f64(), "{report}");
    assert_eq!((report["unknowns"].as_u64(), report["observations"].as_u64()), (Some(3), Some(k as u64)));
    let x = x_of(&out, &js);
    let wa = DMatrix::from_fn(k, 3, |i, p| t[i].powi(p as i32) / sigma[i] * 1e28);
    let wb = DVector::from_fn(k, |i, _| y[i] / sigma[i] * 1e28);
    let qr = wa.clone().qr();
    let reference = qr.r().solve_upper_triangular(&(qr.q().transpose() * wb)).expect("full rank");
    let e = (wa.transpose() * &wa).symmetric_eigenvalues();
    let tol = 4.0 * 16.0 * (e.max() / e.min()) * 1e-8;
    let err = (DVector::from_vec(x.clone()) - &reference).norm() / reference.norm();
    assert!(err <= tol, "x = {x:?}, reference {reference}, error {err:e} > {tol:e}");
    // --random: the JSON carries the error against the CPU's f64 answer.
    let (ok, stdout, stderr) = glsolve(&["lsq", "--random", "9", "--json", js.to_str().unwrap()]);
    assert!(ok, "{stdout}{stderr}");
    let report = json(&js);
    assert_eq!(report["x"].as_array().map(Vec::len), Some(9));
    let refined = report["relative_error_against_cpu"]["refined"].as_f64().expect("an error");
    assert!(refined <= 1e-7, "{report}");
}

#[test]
fn lsq_on_a_design_of_chosen_condition_says_its_method_and_measures() {
    // κ = 1e2: the mixed answer passes its check; κ = 1e10: f64 QR answers, and says why; the
    // cpu backend is f64 QR. Each within 1e-8 of f64 QR (tests/dense_proof.rs says why).
    let dir = scratch("design");
    let js = dir.join("x.json");
    for (cond, backend, method) in
        [("1e2", "gpu", "Mixed"), ("1e10", "gpu", "DoubleFallback"), ("1e10", "cpu", "Double")]
    {
        let args = ["lsq", "--design", "61x13", "--cond", cond, "--backend", backend, "--json", js.to_str().unwrap()];
        let (ok, stdout, stderr) = glsolve(&args);
        assert!(ok, "{stdout}{stderr}");
        let report = json(&js);
        assert_eq!(report["method"], method, "κ = {cond} {backend}: {report}");
        assert_eq!(report["backend"], backend);
        assert_eq!(report["fallback_reason"].is_string(), method == "DoubleFallback", "{report}");
        let err = report["relative_error_against_qr"].as_f64().expect("an error");
        assert!(err <= 1e-8, "κ = {cond} {backend}: {err:e}");
        for key in ["forward_error", "threshold", "backward_error", "contraction"] {
            assert!(report["accuracy"][key].is_number() || key == "forward_error", "{key}: {report}");
        }
        assert!(stdout.contains(&format!("method             {method}")), "{stdout}");
    }
    let (ok, _, stderr) = glsolve(&["lsq", "--design", "5x9", "--cond", "10"]);
    assert!(!ok && stderr.contains("ROWS ≥ COLS"), "{stderr}");
}

#[test]
fn outputs_that_cannot_be_written_are_refused_before_the_solve() {
    let dir = scratch("refused");
    let (a, b) = (data("linsolve/a_2x2.mtx"), data("linsolve/b_1e30.mtx"));
    let nowhere = dir.join("no/such/folder/x.mtx");
    let nowhere = nowhere.to_str().unwrap();
    let folder = dir.to_str().unwrap();
    let same = dir.join("same.out");
    let same = same.to_str().unwrap();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec!["linsolve", "--matrix", &a, "--rhs", &b, "--out", nowhere], format!("--out {nowhere}: the folder")),
        (vec!["linsolve", "--matrix", &a, "--rhs", &b, "--json", folder], format!("--json {folder}: is a folder")),
        (vec!["linsolve", "--matrix", &a, "--rhs", &b, "--out", &b], format!("--out {b}: is the input {b}")),
        (
            vec!["linsolve", "--matrix", &a, "--out", same, "--json", same],
            format!("--out and --json name the same file {same}"),
        ),
        (vec!["lsq", "--random", "4", "--out", nowhere], format!("--out {nowhere}: the folder")),
        (vec!["lsq", "--random", "4", "--json", folder], format!("--json {folder}: is a folder")),
        (vec!["linsolve", "--matrix", nowhere, "--out", same], format!("{nowhere}: cannot read")),
        (vec!["lsq", "--fit", nowhere, "--out", same], format!("{nowhere}: No such file")),
    ];
    for (args, expected) in cases {
        let (ok, stdout, stderr) = glsolve(&args);
        assert!(!ok, "{args:?} succeeded: {stdout}");
        assert!(stderr.starts_with("error: ") && stderr.contains(&expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: nothing is solved before the refusal: {stdout}");
    }
    assert!(!Path::new(same).exists(), "no output file was left behind");
    assert_eq!(
        std::fs::read_to_string(&b).expect("b"),
        std::fs::read_to_string(data("linsolve/b_1e30.mtx")).expect("b")
    );
}

#[test]
fn the_time_limit_is_refused_or_accepted_as_the_library_decides() {
    // The same rule as `Settings` (and the npm and Python packages): > 0 seconds and finite.
    use glsolve::{BackendKind, Settings};
    for (text, refused) in [("0", true), ("-1", true), ("nan", true), ("inf", true), ("1e300", true), ("0.5", false)] {
        let (ok, out, err) = glsolve(&["solve", "--random", "8", "--backend", "cpu", &format!("--time-limit={text}")]);
        assert_eq!(!ok, refused, "--time-limit {text}: {out}{err}");
        let library = Settings::builder(BackendKind::Cpu).time_limit_seconds(text.parse().expect("a number")).build();
        assert_eq!(library.is_err(), refused, "the library on {text}");
        if let Err(e) = library {
            assert!(err.contains(&e.to_string()), "--time-limit {text}: the library says {e}, the CLI {err}");
            assert!(err.contains("the time limit must be > 0 seconds and finite"), "{err}");
        } else {
            assert!(out.contains("optimal"), "{out}");
        }
    }
}
