//! The standard form of models whose columns are full (every row, as in the papers' dense
//! family): the entry counts and max-norms read such columns lane by lane, without the row map;
//! the result (and ‖A‖∞, summed the same way) must be what the row map gives.

use glsolve::lp::pipeline::presolve;
use glsolve::lp::standard_form::{Presolved, StandardForm, RUIZ_SPREAD};
use glsolve::{LpModel, Settings, SparseColMatrix};

const INF: f64 = f64::INFINITY;

fn form(model: &LpModel) -> StandardForm {
    match presolve(model, &Settings::default()) {
        Presolved::Form(sf) => *sf,
        _ => panic!("a feasible-looking model gives a standard form"),
    }
}

/// Entries spanning six orders of magnitude, none zero.
fn entry(i: usize, j: usize) -> f64 {
    let e = ((i * 7 + j * 3) % 13) as f64 / 2.0 - 3.0;
    (1.0 + ((i + 2 * j) % 5) as f64) * 10f64.powf(e)
}

/// m rows and n columns: columns 0 and 1 full, column 2 full but for a stored zero in row 1,
/// the others with every third row; row 1 ranged (a slack), the others equalities; the last
/// column free (split in two).
fn model(m: usize, n: usize, extra_free_row: Option<usize>) -> LpModel {
    let mut t = Vec::new();
    for j in 0..n {
        for i in 0..m {
            if j < 3 || (i + j) % 3 == 0 {
                t.push((i, j, if j == 2 && i == 1 { 0.0 } else { entry(i, j) }));
            }
        }
    }
    let mut row_lower: Vec<f64> = (0..m).map(|i| 1.0 + i as f64).collect();
    let mut row_upper = row_lower.clone();
    row_upper[1] += 5.0;
    let mut rows = m;
    if let Some(at) = extra_free_row {
        // A free row (dropped by the standard form) with an entry in every column, so that every
        // column is full in the model but the kept rows are renumbered.
        for e in t.iter_mut() {
            if e.0 >= at {
                e.0 += 1;
            }
        }
        t.extend((0..n).map(|j| (at, j, 1.0 + j as f64)));
        row_lower.insert(at, -INF);
        row_upper.insert(at, INF);
        rows += 1;
    }
    let a = SparseColMatrix::from_triplets(rows, n, &t).expect("valid triplets");
    let c: Vec<f64> = (0..n).map(|j| 1.0 + (j % 4) as f64).collect();
    let mut lower = vec![0.0; n];
    lower[n - 1] = -INF;
    LpModel::builder(a)
        .minimize(c)
        .row_bounds(row_lower, row_upper)
        .col_bounds(lower, vec![INF; n])
        .build()
        .expect("a valid model")
}

#[test]
fn full_columns_give_the_standard_form_of_the_row_map() {
    for (m, n) in [(2, 4), (5, 7), (9, 4)] {
        let fast = form(&model(m, n, None));
        for at in [0, m / 2, m] {
            let mapped = form(&model(m, n, Some(at)));
            let what = format!("{m}×{n}, free row at {at}");
            assert_eq!(fast.a.col_ptr, mapped.a.col_ptr, "{what}: column pointers");
            assert_eq!(fast.a.row_idx, mapped.a.row_idx, "{what}: row indices");
            assert_eq!(fast.a.values, mapped.a.values, "{what}: values");
            assert_eq!((&fast.b, &fast.c, &fast.upper), (&mapped.b, &mapped.c, &mapped.upper), "{what}: b, c, u");
            assert_eq!((&fast.row_scale, &fast.col_scale), (&mapped.row_scale, &mapped.col_scale), "{what}: scaling");
        }
        // The stored zero is not an entry: column 2 has m − 1.
        let col2 = fast.a.col_ptr[3] - fast.a.col_ptr[2];
        assert_eq!(col2, m - 1, "{m}×{n}: column 2 keeps its stored zero");
    }
}

#[test]
fn equilibration_of_full_columns_meets_its_stopping_rule() {
    // Every column full, rows and columns each scaled by up to 10³ (entries over 10⁻³..10³).
    let (m, n) = (9, 12);
    let mut t = Vec::new();
    for j in 0..n {
        for i in 0..m {
            let e = (i % 4) as f64 - (j % 3) as f64 * 1.5;
            t.push((i, j, (1.0 + ((i + j) % 3) as f64) * 10f64.powf(e)));
        }
    }
    let a = SparseColMatrix::from_triplets(m, n, &t).expect("valid triplets");
    let b: Vec<f64> = (0..m).map(|i| 1.0 + i as f64).collect();
    let dense = LpModel::builder(a).minimize(vec![1.0; n]).row_bounds(b.clone(), b).build().expect("a valid model");
    let sf = form(&dense);
    let (mut rows, mut cols) = (vec![0.0f64; m], vec![0.0f64; sf.a.ncols]);
    for (j, col) in cols.iter_mut().enumerate() {
        for (i, v) in sf.a.col(j) {
            rows[i] = rows[i].max(v.abs());
            *col = col.max(v.abs());
        }
    }
    let spread = |v: &[f64]| {
        let (lo, hi) = v.iter().fold((INF, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
        hi / lo
    };
    // A wrong max-norm of a full column would leave its row or column far out of line.
    assert!(spread(&rows) <= RUIZ_SPREAD, "row max-norms {rows:?}");
    assert!(spread(&cols) <= RUIZ_SPREAD, "column max-norms {cols:?}");
    assert!(sf.row_scale.iter().chain(&sf.col_scale).any(|&s| s != 1.0), "the model was scaled");
}

#[test]
fn the_infinity_norm_of_full_and_partial_columns_is_the_largest_row_sum() {
    for model in [model(9, 12, None), model(5, 7, Some(2))] {
        let sf = form(&model);
        let mut sums = vec![0.0f64; sf.a.nrows];
        for j in 0..sf.a.ncols {
            for (i, v) in sf.a.col(j) {
                sums[i] += v.abs();
            }
        }
        let want = sums.iter().fold(0.0f64, |m, &s| m.max(s));
        assert!(want > 0.0);
        assert_eq!(sf.a_norm_inf(), want);
    }
}
