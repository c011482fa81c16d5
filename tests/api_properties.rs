//! Property tests over the model API (proptest): random malformed models never panic on any
//! backend and are refused with a typed error; no model holding a NaN is ever solved (let alone
//! reported optimal); random well-formed models get a status, and "optimal" means the point
//! satisfies the model, checked here independently.
mod common;
use common::with_gpu;
use glsolve::lp::log::Logger;
use glsolve::lp::solve_on;
use glsolve::{BackendKind, LpModel, Settings, SolveError, SparseColMatrix, Status, Verbosity};
use proptest::prelude::*;

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

/// Any model: a matrix that may be malformed (row indices out of range or unsorted, pointers
/// that decrease, arrays of different lengths) and vectors that may be too short or long.
fn any_model() -> impl Strategy<Value = LpModel> {
    (0usize..4, 0usize..4).prop_flat_map(|(m, n)| {
        let entries = prop::collection::vec((0..m + 2, value()), 0..(m * n + 3));
        let ptr_noise = prop::collection::vec(0usize..3, n + 1);
        let names = prop_oneof![Just(0usize), Just(m), Just(m + 1)];
        (entries, ptr_noise, vector(n), vector(m), vector(m), vector(n), vector(n), names, any::<bool>()).prop_map(
            move |(entries, noise, c, rl, ru, cl, cu, names, maximize)| {
                // Spread the entries over the columns; `noise` sometimes breaks the pointers.
                let per = entries.len().checked_div(n.max(1)).unwrap_or(0);
                let mut col_ptr: Vec<usize> = (0..=n).map(|j| (j * per).min(entries.len())).collect();
                if let Some(last) = col_ptr.last_mut() {
                    *last = entries.len();
                }
                for (p, d) in col_ptr.iter_mut().zip(&noise) {
                    if *d == 2 {
                        *p = p.saturating_sub(1);
                    }
                }
                let (row_idx, values) = entries.into_iter().unzip();
                LpModel {
                    sense: if maximize { glsolve::Sense::Maximize } else { glsolve::Sense::Minimize },
                    c,
                    row_names: (0..names).map(|i| format!("R{i}")).collect(),
                    a: SparseColMatrix { nrows: m, ncols: n, col_ptr, row_idx, values },
                    row_lower: rl,
                    row_upper: ru,
                    col_lower: cl,
                    col_upper: cu,
                    ..LpModel::default()
                }
            },
        )
    })
}

/// Whether a NaN is anywhere in the model.
fn has_nan(m: &LpModel) -> bool {
    [&m.c, &m.a.values, &m.row_lower, &m.row_upper, &m.col_lower, &m.col_upper]
        .iter()
        .any(|v| v.iter().any(|x| x.is_nan()))
}

fn settings(b: BackendKind) -> Settings {
    Settings { verbosity: Verbosity::Quiet, max_iterations: 60, ..Settings::for_backend(b) }
}

/// Solves on every backend (GPU ones on the shared context); a panic anywhere fails the case.
fn solve_everywhere(model: LpModel) -> Vec<(BackendKind, Result<(Status, Vec<f64>), String>)> {
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
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// Never a panic; a malformed model (or any NaN) is the same typed error on every backend;
    /// whatever is optimal satisfies the model.
    #[test]
    fn random_models_never_panic_and_nan_is_never_solved(model in any_model()) {
        let valid = model.validate();
        let results = solve_everywhere(model.clone());
        for (backend, r) in &results {
            match (&valid, r) {
                (Err(e), Err(got)) => prop_assert_eq!(got, &format!("{:?}", SolveError::Model(e.clone())), "{}", backend.name()),
                (Err(e), Ok((status, _))) => prop_assert!(false, "{}: malformed ({e}) but solved: {status}", backend.name()),
                (Ok(()), Err(got)) => prop_assert!(false, "{}: a valid model refused: {got}", backend.name()),
                (Ok(()), Ok((status, x))) => {
                    prop_assert!(!has_nan(&model), "a model with NaN passed validation");
                    if *status == Status::Optimal {
                        let tol = if *backend == BackendKind::Gpu { 1e-2 } else { 1e-5 };
                        prop_assert!(satisfies(&model, x, tol), "{}: optimal x = {x:?} violates the model", backend.name());
                    }
                }
            }
        }
        if has_nan(&model) {
            prop_assert!(valid.is_err(), "a NaN must be refused");
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
