//! The benchmark families (`fixtures::families`) on the cpu backend: each ends optimal with the
//! objective HiGHS found for the same member (tests/data/families/highs.tsv, made by highspy:
//! see its README), on the path the cost model chooses for its shape, and every path forced on
//! it (the full m×m matrix, the block plus a diagonal, the smaller side) gives that optimum too.
//! Each family written as textbooks write it (the t form, the dual, the column player) reaches
//! the same reference: HiGHS solved the generated form only, so the two forms are checked
//! against each other through it.

use glsolve::fixtures::families::{Family, Form};
use glsolve::lp::backend::shape::{with_forced_shape, NormalShape};
use glsolve::lp::backend::CpuPlan;
use glsolve::lp::log::Logger;
use glsolve::lp::standard_form::{standard_form, Presolved};
use glsolve::lp::{solve, Settings, Status};

/// Agreement with HiGHS's objective, relative.
const AGREEMENT: f64 = 1e-8;

/// (family, rows, features, seed, HiGHS ipm's objective) from the references' file.
fn references() -> Vec<(Family, usize, usize, u64, f64)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/families/highs.tsv"))
        .expect("tests/data/families/highs.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f[4], "Optimal", "{l}");
            let num = |k: usize| f[k].parse::<usize>().expect("a count");
            (Family::parse(f[0]).expect("a family"), num(1), num(2), num(3) as u64, f[5].parse().expect("an objective"))
        })
        .collect()
}

/// The references small enough for the test suite.
fn small() -> Vec<(Family, usize, usize, u64, f64)> {
    references().into_iter().filter(|r| r.1 <= 1001 && r.1 * r.2.max(4) <= 60_000).collect()
}

fn solved(family: Family, rows: usize, features: usize, seed: u64) -> (Status, f64, String) {
    let model = family.model(rows, features, seed).expect("a member");
    let st = Settings::default();
    let s = solve(&model, &st, &mut Logger::quiet()).expect("valid settings");
    (s.status, s.objective, s.detail)
}

fn agree(got: f64, highs: f64) -> bool {
    (got - highs).abs() <= AGREEMENT * highs.abs()
}

#[test]
fn families_end_optimal_with_highs_objective_on_their_path() {
    let cases = small();
    assert!(cases.len() >= 6, "the small references are in the file");
    for (family, rows, features, seed, highs) in cases {
        let model = family.model(rows, features, seed).expect("a member");
        let Presolved::Form(sf) = standard_form(&model, true) else { panic!("{family:?} presolved away") };
        let shape = CpuPlan::new(&sf.a, &sf.free_pairs).shape;
        let tall = sf.dims().0 > 4 * CpuPlan::new(&sf.a, &sf.free_pairs).facts.block;
        let expected = match family {
            Family::Papers => NormalShape::Full,
            _ if tall => NormalShape::Schur,
            _ => NormalShape::Diagonal,
        };
        assert_eq!(shape, expected, "{family:?} {rows}×{features}");
        let (status, objective, detail) = solved(family, rows, features, seed);
        assert_eq!(status, Status::Optimal, "{family:?} {rows}×{features}: {detail}");
        assert!(agree(objective, highs), "{family:?} {rows}×{features}: {objective:e} against HiGHS's {highs:e}");
    }
}

#[test]
fn every_path_reaches_the_same_optimum() {
    for (family, rows, features, seed, highs) in small().into_iter().filter(|r| r.0 != Family::Papers) {
        for shape in [NormalShape::Full, NormalShape::Diagonal, NormalShape::Schur, NormalShape::DenseColumns] {
            let (status, objective, detail) = with_forced_shape(shape, || solved(family, rows, features, seed));
            let what = format!("{family:?} {rows}×{features} on the {} path", shape.name());
            assert_eq!(status, Status::Optimal, "{what}: {detail}");
            assert!(agree(objective, highs), "{what}: {objective:e} against HiGHS's {highs:e}");
        }
    }
}

/// L1 regression 2000 × 200: 200 free columns whose reduced costs the proof makes exactly zero
/// through 200 rows' multipliers, beside 1800 rows whose residual column sits at its bound with a
/// reduced cost of order μ. The exact step must take its rows where the columns have room (or
/// move those columns first): a row of a column at its bound would spoil that column's sign, and
/// the best proof left would be reduced accuracy.
#[test]
fn many_free_columns_are_proven_exactly_beside_columns_at_their_bounds() {
    let (family, rows, features, seed, highs) = references()
        .into_iter()
        .find(|r| r.0 == Family::L1Regression && r.1 == 2000)
        .expect("l1 2000 × 200 in the references");
    let (status, objective, detail) = solved(family, rows, features, seed);
    assert_eq!(status, Status::Optimal, "{detail}");
    assert!(agree(objective, highs), "{objective:e} against HiGHS's {highs:e}");
}

#[test]
fn every_textbook_form_reaches_the_generated_forms_optimum() {
    let cases: Vec<_> = small().into_iter().filter(|r| r.0 != Family::Papers).collect();
    let families: std::collections::BTreeSet<&str> = cases.iter().map(|r| r.0.name()).collect();
    assert_eq!(families.len(), 4, "a small reference of each family with a textbook form: {families:?}");
    for (family, rows, features, seed, highs) in cases {
        let model = family.model_in(Form::Textbook, rows, features, seed).expect("a textbook form");
        let generated = family.model(rows, features, seed).expect("a member");
        // Really another formulation: another shape of A (or sense).
        assert!(
            (model.num_rows(), model.num_cols(), model.sense)
                != (generated.num_rows(), generated.num_cols(), generated.sense),
            "{family:?}: the textbook form is the generated one"
        );
        let s = solve(&model, &Settings::default(), &mut Logger::quiet()).expect("valid settings");
        let what = format!("{} {rows}×{features}", family.form_name(Form::Textbook));
        assert_eq!(s.status, Status::Optimal, "{what}: {}", s.detail);
        assert!(
            agree(s.objective, highs),
            "{what}: {:e} against HiGHS's {highs:e} for the generated form",
            s.objective
        );
    }
}

#[test]
fn a_factorization_asked_for_by_name_is_the_full_matrix_s() {
    // The t-form L1 regression takes the dense-column path under `Auto`; asked for a dense or a
    // sparse factorization, the solve factors the m×m matrix so, says why in the log, and
    // reaches the same optimum.
    use glsolve::lp::NormalFactorization;
    use glsolve::CpuOptions;
    use std::sync::{Arc, Mutex};
    let model = Family::L1Regression.model_in(Form::Textbook, 200, 5, 1).expect("a member");
    let run = |factorization| {
        let lines = Arc::new(Mutex::new(Vec::<String>::new()));
        let sink = lines.clone();
        let mut log = Logger::lines(move |l: &str| sink.lock().expect("the log").push(l.to_string()));
        let st = Settings::builder(glsolve::BackendKind::Cpu)
            .cpu(CpuOptions { factorization, ..Default::default() })
            .build()
            .expect("valid");
        let s = solve(&model, &st, &mut log).expect("solved");
        drop(log);
        let lines = lines.lock().expect("the log").clone();
        (s, lines)
    };
    let (auto, auto_log) = run(NormalFactorization::Auto);
    assert!(auto_log.iter().any(|l| l.contains("cpu dense columns")), "Auto takes the dense-column path");
    for f in [NormalFactorization::Dense, NormalFactorization::Sparse] {
        let (s, log) = run(f);
        assert!(log.iter().any(|l| l.contains("asks for the m×m matrix factored so")), "{f:?}: {log:?}");
        assert!(!log.iter().any(|l| l.contains("cpu dense columns")), "{f:?} took the dense-column path");
        assert_eq!((s.status, auto.status), (Status::Optimal, Status::Optimal), "{f:?}: {}", s.detail);
        assert!(agree(s.objective, auto.objective), "{f:?}: {} against {}", s.objective, auto.objective);
    }
}

/// The solve's log lines.
fn logged(model: &glsolve::lp::LpModel, st: &Settings) -> (glsolve::lp::Solution, Vec<String>) {
    use std::sync::{Arc, Mutex};
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = lines.clone();
    let mut log = Logger::lines(move |l: &str| sink.lock().expect("the log").push(l.to_string()));
    let s = solve(model, st, &mut log).expect("valid settings");
    let lines = lines.lock().expect("the log").clone();
    (s, lines)
}

#[test]
fn a_free_column_stays_one_column() {
    // The t-form L1 regression: β (p columns) free, t ≥ 0 (n columns), 2n inequality rows (one
    // slack each). Split, β would be 2p columns of the standard form.
    use glsolve::lp::standard_form::ColumnMap;
    let (n, p) = (61, 5);
    let model = Family::L1Regression.model_in(Form::Textbook, n, p, 3).expect("a member");
    assert_eq!((model.num_rows(), model.num_cols()), (2 * n, p + n), "the t form's shape");
    let Presolved::Form(sf) = standard_form(&model, true) else { panic!("presolved away") };
    assert_eq!(sf.dims(), (2 * n, p + n + 2 * n), "one standard-form column per model column and slack");
    assert_eq!((sf.free.len(), sf.free_pairs.len()), (p, 0), "β's columns are the free ones, none split");
    let kept: Vec<usize> = sf
        .columns
        .iter()
        .filter_map(|c| match c {
            ColumnMap::Free { col } => Some(*col),
            _ => None,
        })
        .collect();
    assert_eq!(kept, sf.free, "each free model column maps to its one free column");
    // The solve keeps them (the dense-column path) and reaches the generated form's optimum.
    let (s, log) = logged(&model, &Settings::default());
    assert_eq!(s.status, Status::Optimal, "{}", s.detail);
    assert_eq!(s.standard_form_size, (2 * n, p + n + 2 * n), "the solve's standard form");
    assert!(
        log.iter().any(|l| l == &format!("free columns: {p} kept whole, each one column with no bound")),
        "{log:?}"
    );
    let generated =
        solve(&Family::L1Regression.model(n, p, 3).expect("a member"), &Settings::default(), &mut Logger::quiet())
            .expect("valid settings");
    assert!(
        agree(s.objective, generated.objective),
        "{:e} against the generated form's {:e}",
        s.objective,
        generated.objective
    );
    // Asked for the full matrix's factorization, the same solve splits them and says why.
    use glsolve::lp::NormalFactorization;
    let st = Settings::builder(glsolve::BackendKind::Cpu)
        .cpu(glsolve::CpuOptions { factorization: NormalFactorization::Dense, ..Default::default() })
        .build()
        .expect("valid");
    let (s, log) = logged(&model, &st);
    assert_eq!(s.status, Status::Optimal, "{}", s.detail);
    assert_eq!(s.standard_form_size, (2 * n, 2 * p + n + 2 * n), "β split");
    assert!(
        log.iter().any(|l| l.starts_with(&format!("free columns: {p} split into x⁺ − x⁻ (a factorization asked for"))),
        "{log:?}"
    );
    assert!(agree(s.objective, generated.objective), "{:e} against {:e}", s.objective, generated.objective);
}

#[test]
fn free_columns_reach_negative_optima_and_their_edge_cases() {
    use glsolve::lp::LpModel;
    use nalgebra::dmatrix;
    let inf = f64::INFINITY;
    // min 2·x₁ + x₂, both free: x₁ + x₂ ≥ −3, x₁ − x₂ ≥ −1, x₂ ≤ 7: the optimum is the vertex
    // x = (−2, −1) (value −5, duals 1.5 and 0.5), every coordinate negative.
    let model = LpModel::builder(dmatrix![1.0, 1.0; 1.0, -1.0; 0.0, 1.0])
        .minimize([2.0, 1.0])
        .row_bounds([-3.0, -1.0, -inf], [inf, inf, 7.0])
        .free_columns()
        .build()
        .expect("a model");
    let Presolved::Form(sf) = standard_form(&model, true) else { panic!("presolved away") };
    assert_eq!((sf.dims().1, sf.free.len()), (5, 2), "two free columns and three slacks");
    let (s, log) = logged(&model, &Settings::default());
    assert_eq!(s.status, Status::Optimal, "{}", s.detail);
    // Within the default tolerance (1e-7, relative), as the verdict proves it.
    assert!((s.objective + 5.0).abs() <= 1e-7 * 5.0, "{}", s.objective);
    assert!((s.x[0] + 2.0).abs() <= 1e-6 && (s.x[1] + 1.0).abs() <= 1e-6, "{:?}", s.x);
    // Three rows, five columns: the full matrix's path, where free columns are split.
    assert!(
        log.iter().any(|l| l.starts_with("free columns: 2 split into x⁺ − x⁻ (the full m×m matrix's path")),
        "{log:?}"
    );
    // Unbounded below along x₁ = x₂ → −∞ (a ray and a feasible point: unbounded).
    let open = LpModel::builder(dmatrix![1.0, -1.0])
        .minimize([1.0, 1.0])
        .row_bounds([-1.0], [1.0])
        .free_columns()
        .build()
        .expect("a model");
    let s = solve(&open, &Settings::default(), &mut Logger::quiet()).expect("valid settings");
    assert_eq!(s.status, Status::Unbounded, "{}", s.detail);
    // A free column in no row: at 0 when it costs nothing, a ray (of a feasible model) when it
    // costs.
    for (cost, status) in [(0.0, Status::Optimal), (-1.0, Status::Unbounded), (1.0, Status::Unbounded)] {
        let m = LpModel::builder(dmatrix![1.0, 0.0])
            .minimize([1.0, cost])
            .row_bounds([2.0], [5.0])
            .free_columns()
            .build()
            .expect("a model");
        let s = solve(&m, &Settings::default(), &mut Logger::quiet()).expect("valid settings");
        assert_eq!(s.status, status, "cost {cost}: {}", s.detail);
        if status == Status::Optimal {
            assert_eq!(s.x[1], 0.0, "the empty free column sits at 0");
            assert!((s.objective - 2.0).abs() <= 1e-7 * 2.0, "{}", s.objective);
        }
    }
}
