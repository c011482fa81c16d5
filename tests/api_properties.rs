//! Property tests over the model API (proptest): random well-formed models get a status on
//! every backend, and "optimal" means the point satisfies the model (checked here, independently
//! of the solver's verification); the same models with one mistake a user makes (a NaN, an
//! infinity, a vector too long or short, a row index past the rows, unsorted rows, a broken
//! column pointer, names that disagree, an extra column in A) never panic and get the same typed
//! error on every backend; no model holding a NaN is ever solved, let alone reported optimal.
mod common;
use common::with_gpu;
use glsolve::lp::log::Logger;
use glsolve::lp::solve_on;
use glsolve::{BackendKind, LpModel, Settings, SolveError, SparseColMatrix, Status};
use proptest::prelude::*;

/// A finite coefficient, zero a fifth of the time.
fn coefficient() -> impl Strategy<Value = f64> {
    prop_oneof![4 => -4.0..4.0f64, 1 => Just(0.0)]
}

/// A pair of bounds: finite, one-sided, free, fixed, or contradictory (infeasible, not malformed).
fn bounds() -> impl Strategy<Value = (f64, f64)> {
    let inf = f64::INFINITY;
    prop_oneof![
        12 => (-3.0..0.0f64, 0.0..3.0f64),
        8 => (-3.0..3.0f64).prop_map(move |l| (l, inf)),
        3 => (-3.0..3.0f64).prop_map(move |u| (-inf, u)),
        3 => Just((-inf, inf)),
        2 => (-3.0..3.0f64).prop_map(|v| (v, v)),
        1 => (0.5..3.0f64).prop_map(|v| (v, -v)),
        1 => Just((inf, inf)),
    ]
}

/// A well-formed model of up to 4 rows and 5 columns: any signs, any kinds of bounds.
fn valid_model() -> impl Strategy<Value = LpModel> {
    (0usize..5, 0usize..6).prop_flat_map(|(m, n)| {
        (
            prop::collection::vec(coefficient(), m * n),
            prop::collection::vec(coefficient(), n),
            prop::collection::vec(bounds(), m),
            prop::collection::vec(bounds(), n),
            any::<bool>(),
        )
            .prop_map(move |(dense, c, rows, cols, maximize)| {
                let a = nalgebra::DMatrix::from_vec(m, n, dense);
                let (rl, ru): (Vec<f64>, Vec<f64>) = rows.into_iter().unzip();
                let (cl, cu): (Vec<f64>, Vec<f64>) = cols.into_iter().unzip();
                let b = LpModel::builder(&a).row_bounds(rl, ru).col_bounds(cl, cu);
                let b = if maximize { b.maximize(c) } else { b.minimize(c) };
                b.build().expect("well formed by construction")
            })
    })
}

/// One mistake a user makes, applied to a model at position `k` (wrapped to fit).
#[derive(Clone, Copy, Debug)]
enum Mistake {
    NanIn(usize),
    InfinityIn(usize),
    Longer(usize),
    Shorter(usize),
    RowIndexPastTheRows,
    SwappedRows,
    BrokenPointer,
    WrongNames,
    ExtraColumnInA,
}

fn mistake() -> impl Strategy<Value = (Mistake, usize)> {
    let field = 0usize..6;
    (
        prop_oneof![
            3 => field.clone().prop_map(Mistake::NanIn),
            1 => (0usize..2).prop_map(Mistake::InfinityIn),
            1 => field.clone().prop_map(Mistake::Longer),
            1 => field.prop_map(Mistake::Shorter),
            1 => Just(Mistake::RowIndexPastTheRows),
            1 => Just(Mistake::SwappedRows),
            1 => Just(Mistake::BrokenPointer),
            1 => Just(Mistake::WrongNames),
            1 => Just(Mistake::ExtraColumnInA),
        ],
        0usize..64,
    )
}

/// The vectors of a model by number: c, A's values, row_lower, row_upper, col_lower, col_upper.
fn field(m: &mut LpModel, f: usize) -> &mut Vec<f64> {
    match f % 6 {
        0 => &mut m.c,
        1 => &mut m.a.values,
        2 => &mut m.row_lower,
        3 => &mut m.row_upper,
        4 => &mut m.col_lower,
        _ => &mut m.col_upper,
    }
}

/// `model` with `mistake` made at position `k`; a mistake that does not apply leaves it valid.
fn corrupt(mut model: LpModel, (mistake, k): (Mistake, usize)) -> LpModel {
    match mistake {
        Mistake::NanIn(f) | Mistake::InfinityIn(f) => {
            let v = field(&mut model, f);
            if !v.is_empty() {
                let i = k % v.len();
                v[i] = if matches!(mistake, Mistake::NanIn(_)) { f64::NAN } else { -f64::INFINITY };
            }
        }
        Mistake::Longer(f) => field(&mut model, f).push(1.0),
        Mistake::Shorter(f) => {
            field(&mut model, f).pop();
        }
        Mistake::RowIndexPastTheRows => {
            if let Some(r) = model.a.row_idx.get_mut(k % model.a.values.len().max(1)) {
                *r = model.a.nrows + k % 3;
            }
        }
        Mistake::SwappedRows => {
            let a = &mut model.a;
            if let Some(j) = (0..a.ncols).find(|&j| a.col_ptr[j + 1] >= a.col_ptr[j] + 2) {
                a.row_idx.swap(a.col_ptr[j], a.col_ptr[j] + 1);
            }
        }
        Mistake::BrokenPointer => {
            if let Some(p) = model.a.col_ptr.last_mut() {
                *p += 1 + k % 2;
            }
        }
        Mistake::WrongNames => model.row_names = (0..=model.a.nrows).map(|i| format!("R{i}")).collect(),
        Mistake::ExtraColumnInA => {
            model.a.ncols += 1;
            model.a.col_ptr.push(model.a.values.len());
        }
    }
    model
}

/// Whether a NaN is anywhere in the model.
fn has_nan(m: &LpModel) -> bool {
    [&m.c, &m.a.values, &m.row_lower, &m.row_upper, &m.col_lower, &m.col_upper]
        .iter()
        .any(|v| v.iter().any(|x| x.is_nan()))
}

fn settings(b: BackendKind) -> Settings {
    Settings::builder(b).max_iterations(60).build().expect("valid")
}

/// Solves on every backend (GPU ones on the shared context); a panic anywhere fails the case.
/// A backend's answer: the status and x, or the error's debug text.
type Answer = Result<(Status, Vec<f64>), String>;

fn solve_everywhere(model: LpModel) -> Vec<(BackendKind, Answer)> {
    with_gpu(move |gpu| {
        BackendKind::ALL
            .iter()
            .map(|&b| {
                let r = solve_on(&model, &settings(b), &mut Logger::quiet(), Some(gpu));
                (b, r.map(|s| (s.status, s.x)).map_err(|e| format!("{e:?}")))
            })
            .collect()
    })
}

/// x satisfies rows and bounds of a valid model within `tol` (relative).
fn satisfies(m: &LpModel, x: &[f64], tol: f64) -> bool {
    let ax = glsolve::lp::verify::activities(m, x);
    let within = |v: f64, lo: f64, up: f64| v >= lo - tol * (1.0 + lo.abs()) && v <= up + tol * (1.0 + up.abs());
    ax.iter().enumerate().all(|(i, &v)| within(v, m.row_lower[i], m.row_upper[i]))
        && x.iter().enumerate().all(|(j, &v)| within(v, m.col_lower[j], m.col_upper[j]))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// Well-formed models (any bounds, infeasible and unbounded ones included) get a status on
    /// every backend, never a panic or an error; "optimal" means the point satisfies the model.
    #[test]
    fn valid_models_get_a_status_and_optimal_points_satisfy_them(model in valid_model()) {
        for (backend, r) in solve_everywhere(model.clone()) {
            match r {
                Err(e) => prop_assert!(false, "{}: a valid model refused: {e}", backend.name()),
                Ok((status, x)) => {
                    if status == Status::Optimal {
                        let tol = if backend == BackendKind::Gpu { 1e-2 } else { 1e-5 };
                        prop_assert!(satisfies(&model, &x, tol), "{}: optimal x = {x:?} violates the model", backend.name());
                    }
                }
            }
        }
    }

    /// One mistake in a model: never a panic; the same typed error on every backend; a NaN
    /// anywhere is always refused, so never reported optimal.
    #[test]
    fn malformed_models_never_panic_and_nan_is_never_solved(model in valid_model(), m in mistake()) {
        let model = corrupt(model, m);
        let valid = model.validate();
        if has_nan(&model) {
            prop_assert!(valid.is_err(), "a NaN must be refused");
        }
        for (backend, r) in solve_everywhere(model.clone()) {
            match (&valid, r) {
                (Err(e), Err(got)) => prop_assert_eq!(got, format!("{:?}", SolveError::Model(e.clone())), "{}", backend.name()),
                (Err(e), Ok((status, _))) => prop_assert!(false, "{}: malformed ({e}) but solved: {status}", backend.name()),
                (Ok(()), Err(got)) => prop_assert!(false, "{}: a valid model refused: {got}", backend.name()),
                (Ok(()), Ok(_)) => prop_assert!(!has_nan(&model)),
            }
        }
    }

    /// The constructors refuse what does not fit, never panic, and hand out only valid models.
    #[test]
    fn constructors_never_panic(m in 0usize..4, n in 0usize..4, c in vector(3), b in vector(3),
                                triplets in prop::collection::vec((0usize..5, 0usize..5, value()), 0..6)) {
        if let Ok(a) = SparseColMatrix::from_triplets(m, n, &triplets) {
            prop_assert!(a.validate().is_ok());
            if let Ok(model) = LpModel::builder(a).minimize(c.clone()).rows_at_most(b.clone()).build() {
                prop_assert!(model.validate().is_ok());
            }
        }
        let dense = nalgebra::DMatrix::from_fn(m, n, |i, j| if (i + j) % 2 == 0 { b.first().copied().unwrap_or(1.0) } else { 1.0 });
        if let Ok(model) = LpModel::new(&dense, c, b.clone(), b) {
            prop_assert!(model.validate().is_ok() && !has_nan(&model));
        }
    }
}

/// Values a user might type, the hostile ones included.
fn value() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => -4.0..4.0f64,
        1 => Just(0.0),
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
    ]
}

/// A vector of about `n` entries: usually `n`, sometimes one more or one less, or none.
fn vector(n: usize) -> impl Strategy<Value = Vec<f64>> {
    let len = prop_oneof![8 => Just(n), 1 => Just(n + 1), 1 => Just(n.saturating_sub(1)), 1 => Just(0)];
    len.prop_flat_map(|l| prop::collection::vec(value(), l))
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
