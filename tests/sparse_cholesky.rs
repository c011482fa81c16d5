//! The sparse Cholesky (`cpu::sparse_cholesky`) and the sparse normal matrix it factors in the
//! cpu backend: solves against dense double-precision solutions written out here, the pivot
//! rule on dependent rows, malformed patterns as typed errors, and whole LPs solved through the
//! sparse factor agreeing with the dense one.

use faer::Mat;
use faer::Par;
use glsolve::cpu::products::SparsePlan;
use glsolve::cpu::sparse_cholesky::{FactorError, LowerPattern, PatternError, SparseCholesky};
use glsolve::lp::backend::{CpuNormal, CpuVectors, NormalEquations, TINY_PIVOT};
use glsolve::lp::log::Logger;
use glsolve::lp::{LpModel, NormalFactorization, Settings, SparseColMatrix, Status};

/// Deterministic values in [−1, 1).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
}

/// A sparse m×n matrix with about `per_col` nonzeros per column at pseudo-random rows.
fn sparse_a(m: usize, n: usize, per_col: usize, seed: u64) -> SparseColMatrix {
    let mut r = Lcg(seed);
    let mut t = Vec::new();
    for j in 0..n {
        for _ in 0..per_col {
            let i = (((r.next() + 1.0) / 2.0) * m as f64) as usize % m;
            t.push((i, j, r.next() + 2.0 * r.next().signum()));
        }
    }
    SparseColMatrix::from_triplets(m, n, &t).unwrap()
}

/// The lower triangle of A·diag(d)·Aᵀ on its pattern, and the full matrix, summed here.
fn normal(a: &SparseColMatrix, d: &[f64]) -> (LowerPattern, Vec<f64>, Mat<f64>) {
    let m = a.nrows;
    let mut full = Mat::<f64>::zeros(m, m);
    for (j, &dj) in d.iter().enumerate() {
        let col = a.col_ptr[j]..a.col_ptr[j + 1];
        for p in col.clone() {
            for q in col.clone() {
                full[(a.row_idx[p], a.row_idx[q])] += a.values[p] * dj * a.values[q];
            }
        }
    }
    let plan = SparsePlan::new(a.csc(), 2);
    let pattern = plan.pattern(a.csc());
    let mut values = vec![f64::NAN; pattern.nnz()];
    plan.assemble_on_pattern(a.csc(), d, &pattern, &mut values);
    (pattern, values, full)
}

/// The relative residual ‖M·x − r‖∞ / (‖M‖∞·‖x‖∞ + ‖r‖∞).
fn residual(full: &Mat<f64>, x: &[f64], r: &[f64]) -> f64 {
    let m = r.len();
    let (mut res, mut norm, mut xn, mut rn) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for i in 0..m {
        let mut s = -r[i];
        let mut row = 0.0;
        for k in 0..m {
            s += full[(i, k)] * x[k];
            row += full[(i, k)].abs();
        }
        res = res.max(s.abs());
        norm = norm.max(row);
        xn = xn.max(x[i].abs());
        rn = rn.max(r[i].abs());
    }
    res / (norm * xn + rn)
}

#[test]
fn assembly_on_the_pattern_matches_the_sums() {
    for &(m, n, k, seed) in &[(1, 3, 1, 1), (7, 20, 2, 2), (33, 90, 3, 3), (100, 257, 4, 4)] {
        let a = sparse_a(m, n, k, seed);
        let d: Vec<f64> = (0..n).map(|j| 0.5 + (j % 5) as f64).collect();
        let (p, values, full) = normal(&a, &d);
        p.validate().unwrap();
        for j in 0..m {
            let entries = p.col_ptr[j]..p.col_ptr[j + 1];
            for (&i, &got) in p.row_idx[entries.clone()].iter().zip(&values[entries]) {
                let want = full[(i, j)];
                assert!((got - want).abs() <= 1e-13 * (1.0 + want.abs()), "m {m}: ({i},{j}) {got} vs {want}");
            }
            // Every entry outside the pattern is an exact zero of the sum.
            for i in j..m {
                if !p.row_idx[p.col_ptr[j]..p.col_ptr[j + 1]].contains(&i) {
                    assert_eq!(full[(i, j)], 0.0, "m {m}: ({i},{j}) outside the pattern");
                }
            }
        }
    }
}

#[test]
fn sparse_factor_solves_like_the_dense_solution() {
    for &(m, n, k, seed) in &[(1, 2, 1, 5), (2, 5, 2, 6), (31, 95, 3, 7), (64, 200, 3, 8), (129, 390, 5, 9)] {
        let a = sparse_a(m, n, k, seed);
        let d: Vec<f64> = (0..n).map(|j| 10f64.powi((j % 9) as i32 - 4)).collect();
        let (p, values, full) = normal(&a, &d);
        let mut chol = SparseCholesky::analyze(&p, Par::Seq).unwrap();
        // Full rank (n ≥ 3m with random rows): nothing to replace.
        let replaced = chol.factor(&values, 1e-300, 1.0).unwrap();
        assert_eq!(replaced, 0, "m {m}");
        let r: Vec<f64> = (0..m).map(|i| 1.0 + (i % 3) as f64).collect();
        let mut x = r.clone();
        chol.solve_in_place(&mut x).unwrap();
        let res = residual(&full, &x, &r);
        assert!(res < 1e-13, "m {m}: relative residual {res:e}");
        // Its own multiply-adds never exceed the dense m³/6 + O(m²).
        assert!(chol.multiply_adds() <= (m as f64).powi(3) / 6.0 + (m * m) as f64, "m {m}");
    }
}

/// The half solve G = D^{-1/2}·L⁻¹·Π·R gives Gᵀ·G = Rᵀ·M⁻¹·R, against the dense solution on
/// odd sizes, supernodal and (a diagonal M) simplicial; before a factorization it is an error.
#[test]
fn the_half_solve_gives_the_gram_matrix_of_the_inverse() {
    let diagonal = {
        let t: Vec<(usize, usize, f64)> = (0..7).map(|j| (j, j, 1.0 + j as f64)).collect();
        SparseColMatrix::from_triplets(7, 7, &t).unwrap()
    };
    let cases = [(1, 2, 1, 5), (2, 5, 2, 6), (31, 95, 3, 7), (129, 390, 5, 9)];
    let mats: Vec<SparseColMatrix> =
        cases.iter().map(|&(m, n, k, seed)| sparse_a(m, n, k, seed)).chain([diagonal]).collect();
    for a in &mats {
        let (m, n) = (a.nrows, a.ncols);
        let d: Vec<f64> = (0..n).map(|j| 10f64.powi((j % 7) as i32 - 3)).collect();
        let (p, values, full) = normal(a, &d);
        let mut chol = SparseCholesky::analyze(&p, Par::Seq).unwrap();
        let mut g = Mat::from_fn(m, 3, |i, c| ((i * 7 + c * 3) % 5) as f64 - 2.0 + 0.5 * c as f64);
        assert_eq!(chol.half_solve_columns_in_place(g.as_mut()), Err(FactorError::NotFactored));
        chol.factor(&values, 1e-300, 1.0).unwrap();
        let r = g.clone();
        chol.half_solve_columns_in_place(g.as_mut()).unwrap();
        let gram = g.transpose() * &g;
        let solved = faer::prelude::Solve::solve(&full.llt(faer::Side::Lower).unwrap(), &r);
        let expect = r.transpose() * &solved;
        let scale = expect.norm_max();
        for i in 0..3 {
            for j in 0..3 {
                let e = (gram[(i, j)] - expect[(i, j)]).abs();
                assert!(e <= 1e-11 * scale, "m {m}: ({i}, {j}) {} against {}", gram[(i, j)], expect[(i, j)]);
            }
        }
    }
}

#[test]
fn dependent_rows_are_replaced_and_the_consistent_system_still_solved() {
    // Rows 3 and 11 repeat rows 0 and 5: the normal matrix has rank m − 2.
    let (m, n) = (40, 120);
    let base = sparse_a(m, n, 3, 11);
    let mut t = Vec::new();
    for j in 0..n {
        for p in base.col_ptr[j]..base.col_ptr[j + 1] {
            let i = base.row_idx[p];
            if i != 3 && i != 11 {
                t.push((i, j, base.values[p]));
            }
            if i == 0 {
                t.push((3, j, base.values[p]));
            }
            if i == 5 {
                t.push((11, j, base.values[p]));
            }
        }
    }
    let a = SparseColMatrix::from_triplets(m, n, &t).unwrap();
    let d = vec![1.0; n];
    let (p, mut values, full) = normal(&a, &d);
    // Unit diagonal, as the cpu backend factors it.
    let s: Vec<f64> = (0..m).map(|k| 1.0 / full[(k, k)].sqrt()).collect();
    for j in 0..m {
        for q in p.col_ptr[j]..p.col_ptr[j + 1] {
            values[q] *= s[p.row_idx[q]] * s[j];
        }
    }
    let mut chol = SparseCholesky::analyze(&p, Par::Seq).unwrap();
    let replaced = chol.factor(&values, TINY_PIVOT, 1.0).unwrap();
    assert_eq!(replaced, 2);
    // A right-hand side in the range (M·1): the factor is a preconditioner that is wrong in two
    // directions, so a few steps of iterative refinement recover the solution.
    let ones = vec![1.0; m];
    let mut r = vec![0.0; m];
    for i in 0..m {
        for k in 0..m {
            r[i] += full[(i, k)] * s[i] * s[k] * ones[k];
        }
    }
    let scaled = Mat::from_fn(m, m, |i, k| full[(i, k)] * s[i] * s[k]);
    let mut x = vec![0.0; m];
    for _ in 0..30 {
        let mut e: Vec<f64> = (0..m).map(|i| r[i] - (0..m).map(|k| scaled[(i, k)] * x[k]).sum::<f64>()).collect();
        chol.solve_in_place(&mut e).unwrap();
        x.iter_mut().zip(&e).for_each(|(xi, ei)| *xi += ei);
    }
    let res = residual(&scaled, &x, &r);
    assert!(res < 1e-10, "relative residual after refinement {res:e}");
}

#[test]
fn malformed_patterns_and_calls_are_typed_errors() {
    let ok = LowerPattern { n: 2, col_ptr: vec![0, 2, 3], row_idx: vec![0, 1, 1] };
    ok.validate().unwrap();
    let cases = [
        (LowerPattern { n: 2, col_ptr: vec![0, 2], row_idx: vec![0, 1] }, "pointers"),
        (LowerPattern { n: 2, col_ptr: vec![0, 2, 2], row_idx: vec![0, 1] }, "empty column"),
        (LowerPattern { n: 2, col_ptr: vec![0, 1, 2], row_idx: vec![0, 0] }, "upper entry"),
        (LowerPattern { n: 2, col_ptr: vec![0, 2, 3], row_idx: vec![0, 5, 1] }, "row out of range"),
        (LowerPattern { n: 3, col_ptr: vec![0, 3, 4, 5], row_idx: vec![0, 2, 1, 1, 2] }, "unsorted"),
        (LowerPattern { n: 2, col_ptr: vec![0, 2, 9], row_idx: vec![0, 1, 1] }, "past the end"),
    ];
    for (p, what) in cases {
        assert!(SparseCholesky::analyze(&p, Par::Seq).is_err(), "{what}");
    }
    let mut chol = SparseCholesky::analyze(&ok, Par::Seq).unwrap();
    let mut r = vec![1.0, 2.0];
    assert_eq!(chol.solve_in_place(&mut r), Err(FactorError::NotFactored));
    assert_eq!(
        chol.factor(&[1.0, 0.5], 1e-14, 1.0),
        Err(FactorError::Pattern(PatternError::Values { expected: 3, got: 2 }))
    );
    assert!(matches!(chol.factor(&[1.0, f64::NAN, 1.0], 1e-14, 1.0), Err(FactorError::Breakdown(_))));
    chol.factor(&[4.0, 2.0, 5.0], 1e-14, 1.0).unwrap();
    // [[4, 2], [2, 5]]·x = (8, 9) ⇒ x = (11/8, 5/4).
    let mut r = vec![8.0, 9.0];
    chol.solve_in_place(&mut r).unwrap();
    assert!((r[0] - 11.0 / 8.0).abs() < 1e-15 && (r[1] - 1.25).abs() < 1e-15, "{r:?}");
    let mut short = vec![1.0];
    assert!(chol.solve_in_place(&mut short).is_err());
}

#[test]
fn the_backend_solves_the_same_normal_equations_dense_and_sparse() {
    let (m, n) = (60, 170);
    let a = sparse_a(m, n, 3, 21);
    let vk = CpuVectors::for_matrix(&a, &[]);
    assert!(matches!(vk.storage(), glsolve::lp::backend::Storage::Sparse(_)), "the test needs sparse storage");
    let mut vk = vk;
    let mut dense = CpuNormal::new(m, n).with_factorization(NormalFactorization::Dense, &vk).unwrap();
    let mut sparse = CpuNormal::new(m, n).with_factorization(NormalFactorization::Sparse, &vk).unwrap();
    assert!(dense.sparse_factor().is_none());
    assert!(sparse.sparse_factor().is_some());
    let d2: Vec<f64> = (0..n).map(|j| 10f64.powi((j % 11) as i32 - 5)).collect();
    let r: Vec<f64> = (0..m).map(|i| (i as f64 - 20.0) / 7.0).collect();
    let mut xs = Vec::new();
    for ne in [&mut dense, &mut sparse] {
        ne.assemble(&mut vk, &d2).unwrap();
        ne.factor(&mut vk).unwrap();
        xs.push(ne.solve(&mut vk, &r).unwrap());
    }
    let (_, _, full) = normal(&a, &d2);
    for x in &xs {
        let res = residual(&full, x, &r);
        assert!(res < 1e-12, "relative residual {res:e}");
    }
}

/// An LP with a sparse A whose normal matrix is sparse: a chain of blocks, each a demand row
/// over its own six bounded columns, linked to the previous block by one row.
fn staircase(blocks: usize) -> LpModel {
    let width = 6;
    let mut r = Lcg(99);
    let (mut t, mut lower, mut upper) = (Vec::new(), Vec::new(), Vec::new());
    let mut row = 0;
    for k in 0..blocks {
        let first = k * width;
        for j in 0..width {
            t.push((row, first + j, 1.0 + 0.1 * r.next()));
        }
        lower.push(3.0 + r.next());
        upper.push(f64::INFINITY);
        row += 1;
        if k > 0 {
            for j in 0..3 {
                t.push((row, first + j, 1.0));
                t.push((row, first - width + 3 + j, -1.0));
            }
            lower.push(f64::NEG_INFINITY);
            upper.push(2.0);
            row += 1;
        }
    }
    let n = blocks * width;
    let a = SparseColMatrix::from_triplets(row, n, &t).unwrap();
    let c: Vec<f64> = (0..n).map(|_| 2.0 + r.next()).collect();
    LpModel::builder(a).minimize(c).row_bounds(lower, upper).col_bounds(vec![0.0; n], vec![10.0; n]).build().unwrap()
}

#[test]
fn an_lp_solved_through_the_sparse_factor_matches_the_dense_one() {
    let model = staircase(300);
    let solve = |f| {
        let st = Settings::builder(glsolve::BackendKind::Cpu)
            .cpu(glsolve::CpuOptions { factorization: f, ..Default::default() })
            .build()
            .expect("valid");
        glsolve::lp::solve(&model, &st, &mut Logger::quiet()).unwrap()
    };
    let (d, s) = (solve(NormalFactorization::Dense), solve(NormalFactorization::Sparse));
    assert_eq!(d.status, Status::Optimal);
    assert_eq!(s.status, Status::Optimal);
    let rel = (d.objective - s.objective).abs() / (1.0 + d.objective.abs());
    assert!(rel < 1e-8, "objectives {} and {}", d.objective, s.objective);
}
