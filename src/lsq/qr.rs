//! The double-precision fallback's factorization: Householder QR of D·Âᵀ on the CPU (faer).

/// x̂ by Householder QR of D·Âᵀ (faer) and R (row-major m×m, upper), or None
/// when a diagonal entry of R is at most max(m, n)·ε of the largest (the columns of D·Âᵀ, of
/// comparable norms after the scaling, are then dependent to working precision).
pub(super) fn qr_scaled(a: &[f64], m: usize, n: usize, d2: &[f64], b: &[f64]) -> Option<(Vec<f64>, Vec<f64>)> {
    use faer::linalg::solvers::SolveLstsq;
    let d: Vec<f64> = d2.iter().map(|v| v.sqrt()).collect();
    let bm = faer::Mat::from_fn(n, m, |k, i| d[k] * a[i * n + k]);
    let db = faer::Mat::from_fn(n, 1, |k, _| d[k] * b[k]);
    let qr = bm.qr();
    let r = qr.thin_R();
    let largest = (0..m).map(|i| r[(i, i)].abs()).fold(0.0, f64::max);
    let floor = largest * m.max(n) as f64 * f64::EPSILON;
    if largest == 0.0 || (0..m).any(|i| r[(i, i)].abs() <= floor) {
        return None;
    }
    let x = qr.solve_lstsq(&db);
    let r_rows = (0..m * m).map(|p| if p % m >= p / m { r[(p / m, p % m)] } else { 0.0 }).collect();
    Some(((0..m).map(|i| x[(i, 0)]).collect(), r_rows))
}
