//! Componentwise error bounds shared by the GL tests (Higham, *Accuracy and Stability of
//! Numerical Algorithms*, 2nd ed.): every bound is derived from single precision's unit roundoff
//! and the problem, entry by entry, so that one wrong entry, one dropped term or one skipped pass
//! fails even where a norm would average it away. References are computed in double precision
//! with faer, whose own error (≈ 1e-16 relative) is negligible beside these bounds.

use faer::linalg::solvers::DenseSolveCore;
use faer::{Mat, Side};

/// Single precision's unit roundoff u = 2⁻²⁴.
pub const U: f64 = f32::EPSILON as f64 / 2.0;

/// γ_k = k·u/(1 − k·u) (Higham §3.1).
pub fn gamma(k: usize) -> f64 {
    let ku = k as f64 * U;
    assert!(ku < 1.0, "γ_{k} is undefined in single precision");
    ku / (1.0 - ku)
}

fn lower_mat(l: &[f64], m: usize) -> Mat<f64> {
    Mat::from_fn(m, m, |i, j| if j <= i { l[i * m + j] } else { 0.0 })
}

fn symmetric(c: &[f64], m: usize) -> Mat<f64> {
    Mat::from_fn(m, m, |i, j| if j <= i { c[i * m + j] } else { c[j * m + i] })
}

/// The componentwise backward bound of a single-precision Cholesky factor L̂ of C (lower
/// triangles, row-major), entry (i, j ≤ i):
///
/// |C − L̂L̂ᵀ|ᵢⱼ ≤ u·|Cᵢⱼ| + γ_{m+5}·(|L̂||L̂ᵀ|)ᵢⱼ.
///
/// Higham's Theorem 10.3 gives γ_{m+1}·|L̂||L̂ᵀ| for any order of the operations (the papers'
/// outer-product steps perform the same operations as the textbook loop, reordered); each entry
/// takes at most m multiply–adds (correctly rounded in GLSL) and one division or square root,
/// which GLSL 4.50 (§4.7.1) allows to err by 2.5 ulp (division) and 2 ulp plus a rounding
/// (square root as 1/inversesqrt): at most 5u where the theorem counts u, hence m + 5. The term
/// u·|C| is the rounding of C to f32 before the factorization.
///
/// Returns the bound matrix (row-major, lower) or the first entry that exceeds it.
pub fn cholesky_backward(c: &[f64], l: &[f64], m: usize) -> Result<Vec<f64>, String> {
    let lm = lower_mat(l, m);
    let la = Mat::from_fn(m, m, |i, j| lm[(i, j)].abs());
    let llt = &lm * lm.transpose();
    let abs = &la * la.transpose();
    let g = gamma(m + 5);
    let mut bound = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..=i {
            let cij = c[i * m + j];
            let b = U * cij.abs() + g * abs[(i, j)];
            let err = (cij - llt[(i, j)]).abs();
            if err.is_nan() || b.is_nan() || err > b {
                return Err(format!("|C − L̂L̂ᵀ| at ({i}, {j}) = {err:e} > {b:e} (C = {cij:e})"));
            }
            bound[i * m + j] = b;
        }
    }
    Ok(bound)
}

/// The forward error of a Cholesky factor from its backward error (Higham Theorem 10.8, after
/// J.-G. Sun 1991): if C + ΔC = L̂L̂ᵀ with L̂ lower triangular with a positive diagonal (so that L̂
/// *is* the Cholesky factor of C + ΔC) and κ₂(C)·ε < 1 with ε = ‖ΔC‖_F/‖C‖₂, then
///
/// ‖L̂ − L‖_F/‖L‖₂ ≤ 2^(−1/2)·κ₂(C)·ε/(1 − κ₂(C)·ε).
///
/// `bound` is the componentwise bound on |ΔC| (lower triangle; the upper is its mirror), which
/// bounds ‖ΔC‖_F a priori. Checks the positive diagonal (a column of the wrong sign passes every
/// backward test and fails this one) and returns (forward error, its bound); the bound is
/// `None` where κ₂·ε ≥ 1/2 (the theorem then says nothing useful: single precision cannot
/// promise any digit of L for such a matrix).
pub fn cholesky_forward(c: &[f64], l: &[f64], bound: &[f64], m: usize) -> Result<(f64, Option<f64>), String> {
    if let Some(k) = (0..m).find(|&k| !(l[k * m + k] > 0.0 && l[k * m + k].is_finite())) {
        return Err(format!("L̂ has a diagonal entry {} ≤ 0 at {k}", l[k * m + k]));
    }
    let cm = symmetric(c, m);
    let eig = cm.self_adjoint_eigenvalues(Side::Lower).map_err(|e| format!("eigenvalues: {e:?}"))?;
    let (lo, hi) = eig.iter().fold((f64::INFINITY, 0.0f64), |(a, b), &v| (a.min(v), b.max(v)));
    assert!(lo > 0.0, "C is not positive definite in double precision");
    let kappa = hi / lo;
    let dc: f64 =
        (0..m).flat_map(|i| (0..m).map(move |j| (i, j))).map(|(i, j)| bound[i.max(j) * m + i.min(j)].powi(2)).sum();
    let eps = dc.sqrt() / hi;
    let reference = glsolve::cpu::rowmajor::cholesky_lower(c, m).expect("C is SPD in double precision");
    let num: f64 = l.iter().zip(&reference).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt();
    let fwd = num / hi.sqrt();
    let ke = kappa * eps;
    Ok((fwd, (ke < 0.5).then(|| std::f64::consts::FRAC_1_SQRT_2 * ke / (1.0 - ke))))
}

/// The componentwise bound of the assembly C = A·D²·Aᵀ from f32 inputs (A row-major m×n, d the
/// diagonal of D²): each entry is a sum of n products aᵢₖ·dₖ·aⱼₖ, the product rounded twice
/// (the column-scaling pass, then the multiply–add) and the sum n − 1 times, so (Higham §3.1,
/// inputs exact because the reference uses the same f32 values)
///
/// |Ĉᵢⱼ − Cᵢⱼ| ≤ γ_{n+1}·(|A|·D²·|A|ᵀ)ᵢⱼ.
///
/// `c_hat` is the GPU's lower triangle (row-major m×m). Returns the first entry that exceeds it.
pub fn assembly(c_hat: &[f32], a: &[f32], d: &[f32], m: usize, n: usize) -> Result<(), String> {
    let am = Mat::from_fn(m, n, |i, k| a[i * n + k] as f64);
    let ad = Mat::from_fn(m, n, |i, k| a[i * n + k] as f64 * d[k] as f64);
    let aa = Mat::from_fn(m, n, |i, k| (a[i * n + k] as f64).abs());
    let ada = Mat::from_fn(m, n, |i, k| (a[i * n + k] as f64 * d[k] as f64).abs());
    let c = &ad * am.transpose();
    let abs = &ada * aa.transpose();
    let g = gamma(n + 1);
    for i in 0..m {
        for j in 0..=i {
            let err = (c_hat[i * m + j] as f64 - c[(i, j)]).abs();
            let b = g * abs[(i, j)];
            if err.is_nan() || b.is_nan() || err > b {
                return Err(format!("m={m} n={n}: |Ĉ − C| at ({i}, {j}) = {err:e} > γ_{{n+1}}·(|A|D²|A|ᵀ) = {b:e}"));
            }
        }
    }
    Ok(())
}

/// The componentwise forward bound of the two single-precision triangular solves L̂·y = r,
/// L̂ᵀ·x = y with a given factor L̂ (lower, row-major), against the exact x = L̂⁻ᵀL̂⁻¹r.
///
/// Each substitution is componentwise backward stable in any summation order: (L̂ + ΔL)·ŷ = r
/// with |ΔL| ≤ γ_{m+2}·|L̂| (Higham Thm 8.5, m − 1 multiply–adds and one division, which GLSL
/// allows 2.5 ulp), so ŷ − y = −L̂⁻¹ΔL·ŷ, and likewise x̂ − L̂⁻ᵀŷ = −L̂⁻ᵀΔL'·x̂. With
/// |ŷ| ≤ (1 + γ)·|L̂ᵀ||x̂| (the second solve's residual) this gives, exactly (not to first order),
///
/// |x̂ − x| ≤ γ·|L̂⁻ᵀ|·(|L̂ᵀ||x̂| + (1 + γ)·|L̂⁻¹||L̂||L̂ᵀ||x̂|),  γ = γ_{m+2}.
///
/// `r` must be exactly representable in f32 (the test's right-hand sides are small integers).
pub fn cholesky_solve(l: &[f64], r: &[f64], x_hat: &[f64], m: usize) -> Result<(), String> {
    let lm = lower_mat(l, m);
    let la = Mat::from_fn(m, m, |i, j| lm[(i, j)].abs());
    let linv = lm.partial_piv_lu().inverse();
    let linv_abs = Mat::from_fn(m, m, |i, j| linv[(i, j)].abs());
    let rhs = Mat::from_fn(m, 1, |i, _| r[i]);
    let x = linv.transpose() * (&linv * &rhs);
    let xa = Mat::from_fn(m, 1, |i, _| x_hat[i].abs());
    let g = gamma(m + 2);
    let lt_x = la.transpose() * &xa;
    let inner = &linv_abs * (&la * &lt_x);
    let sum = Mat::from_fn(m, 1, |i, _| lt_x[(i, 0)] + (1.0 + g) * inner[(i, 0)]);
    let bound = linv_abs.transpose() * &sum;
    for i in 0..m {
        let err = (x_hat[i] - x[(i, 0)]).abs();
        let b = g * bound[(i, 0)];
        if err.is_nan() || b.is_nan() || err > b {
            return Err(format!("|x̂ − x| at {i} = {err:e} > {b:e} (x = {:e})", x[(i, 0)]));
        }
    }
    Ok(())
}
