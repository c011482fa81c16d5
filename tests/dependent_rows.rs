//! Dependent rows of A (`lp::backend::dependent_rows`): found on incidence matrices whose
//! dependencies are known by construction (the node rows of a connected graph sum to zero:
//! one dependent row per component), dropped only when the right-hand side agrees and the
//! combination reproduces the row, and looked for only where A is sparse.

use glsolve::lp::backend::{dependent_rows, CANDIDATE_PIVOT};
use glsolve::lp::standard_form::standard_form;
use glsolve::lp::{LpModel, SparseColMatrix};

/// Node-arc incidence matrix of `cycles` disjoint cycles of `len` nodes, both arc directions
/// (a column per arc: +1 at its tail, −1 at its head). Component c has nodes c·len..(c+1)·len.
fn cycles_incidence(cycles: usize, len: usize) -> SparseColMatrix {
    let mut t = Vec::new();
    let mut col = 0;
    for c in 0..cycles {
        for i in 0..len {
            let (u, v) = (c * len + i, c * len + (i + 1) % len);
            t.push((u, col, 1.0));
            t.push((v, col, -1.0));
            t.push((v, col + 1, 1.0));
            t.push((u, col + 1, -1.0));
            col += 2;
        }
    }
    SparseColMatrix::from_triplets(cycles * len, col, &t).expect("valid triplets")
}

#[test]
fn one_dependent_row_per_connected_component_is_found() {
    for (cycles, len) in [(1, 101), (3, 41), (2, 257), (5, 7)] {
        let a = cycles_incidence(cycles, len);
        let found = dependent_rows(&a, &vec![0.0; a.nrows]).expect("valid input");
        assert!(found.examined, "{cycles}×{len}: a sparse A is examined");
        assert_eq!(found.rows.len(), cycles, "{cycles}×{len}: one per component: {:?}", found.rows);
        let mut components: Vec<usize> = found.rows.iter().map(|r| r / len).collect();
        components.dedup();
        assert_eq!(components.len(), cycles, "{cycles}×{len}: each component once: {:?}", found.rows);
        assert_eq!(found.kept_candidates, 0);
    }
}

#[test]
fn a_dependent_row_with_an_inconsistent_right_hand_side_stays() {
    // Supply 1 at node 0 and no demand: the rows still sum to zero, their right-hand sides to 1.
    let a = cycles_incidence(1, 101);
    let mut b = vec![0.0; a.nrows];
    b[0] = 1.0;
    let found = dependent_rows(&a, &b).expect("valid input");
    assert!(found.rows.is_empty(), "{:?}", found.rows);
    assert_eq!(found.kept_candidates, 1);
    // Balanced supplies (1 at node 0, −1 at node 3) agree: the row goes.
    b[3] = -1.0;
    assert_eq!(dependent_rows(&a, &b).expect("valid input").rows.len(), 1);
}

#[test]
fn a_nearly_dependent_row_stays() {
    // One entry off by 1e-6: the rows no longer sum to zero (the last row's part outside the
    // others is ≈ 1e-6 of its norm, a pivot ≈ 1e-12 ≤ the candidate threshold), and the
    // combination misses it by 1e-6, far above the dependence tolerance.
    const { assert!(1e-12 <= CANDIDATE_PIVOT) };
    let mut a = cycles_incidence(1, 31);
    a.values[0] = 1.0 + 1e-6;
    let found = dependent_rows(&a, &vec![0.0; a.nrows]).expect("valid input");
    assert!(found.rows.is_empty(), "{:?}", found.rows);
}

#[test]
fn independent_rows_are_kept_and_dense_matrices_are_not_examined() {
    // A path (a cycle without its closing arcs) is a tree: its rows are independent.
    let a = cycles_incidence(1, 60);
    let keep: Vec<usize> = (0..a.ncols).filter(|&j| j < a.ncols - 2).collect();
    let mut t = Vec::new();
    for (k, &j) in keep.iter().enumerate() {
        for (i, v) in a.col(j) {
            t.push((i, k, v));
        }
    }
    // Without the closing arcs the rows still sum to zero (every arc has +1 and −1); adding a
    // column with a single entry in row 0 breaks the dependency.
    t.push((0, keep.len(), 1.0));
    let tree = SparseColMatrix::from_triplets(60, keep.len() + 1, &t).expect("valid triplets");
    let found = dependent_rows(&tree, &vec![0.0; 60]).expect("valid input");
    assert!(found.examined);
    assert!(found.rows.is_empty(), "{:?}", found.rows);
    // A dense 20 × 80 matrix is taken as it is (no A·Aᵀ of it is formed).
    let mut t = Vec::new();
    for j in 0..80 {
        for i in 0..20 {
            t.push((i, j, 1.0 + ((i * 7 + j * 13) % 11) as f64));
        }
    }
    let dense = SparseColMatrix::from_triplets(20, 80, &t).expect("valid triplets");
    let found = dependent_rows(&dense, &[1.0; 20]).expect("valid input");
    assert!(!found.examined);
    assert!(found.rows.is_empty());
}

#[test]
fn dropping_rows_keeps_the_map_to_the_original_rows() {
    // min Σ x s.t. the cycle's flow rows = b: the standard form has the model's rows; dropping
    // one maps that model row to none and renumbers the rest.
    let a = cycles_incidence(1, 9);
    let mut b = vec![0.0; 9];
    b[0] = 1.0;
    b[3] = -1.0;
    let model = LpModel::builder(a).minimize(vec![1.0; 18]).rows_equal(b.clone()).build().expect("valid model");
    let glsolve::lp::standard_form::Presolved::Form(mut sf) = standard_form(&model, false) else {
        panic!("a feasible model")
    };
    assert_eq!(sf.dims(), (9, 18));
    sf.drop_rows(&[4]);
    assert_eq!(sf.dims(), (8, 18));
    assert_eq!(sf.b, [1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(sf.row_of[4], None);
    assert_eq!(sf.row_of[5], Some(4));
    assert_eq!(sf.row_of[3], Some(3));
    assert_eq!(sf.row_scale.len(), 8);
    // Row 4's entries are gone from A, the others moved up by one.
    assert_eq!(sf.a.nnz(), 36 - 4);
    assert!(sf.a.row_idx.iter().all(|&i| i < 8));
}

#[test]
fn bad_inputs_are_typed_errors() {
    use glsolve::lp::ModelError;
    let a = cycles_incidence(1, 7);
    assert!(matches!(dependent_rows(&a, &[0.0; 6]), Err(ModelError::Length { field: "b", found: 6, expected: 7, .. })));
    let mut b = vec![0.0; 7];
    b[4] = f64::NAN;
    assert_eq!(dependent_rows(&a, &b), Err(ModelError::NotANumber { field: "b", index: 4 }));
    let mut broken = a.clone();
    broken.row_idx[0] = 99;
    assert!(dependent_rows(&broken, &[0.0; 7]).is_err());
    let mut broken = a;
    broken.col_ptr.pop();
    assert!(dependent_rows(&broken, &[0.0; 7]).is_err());
}
