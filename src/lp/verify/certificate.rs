//! What kind of ray a certificate is, and a ray's negligible parts (shared by the certificates'
//! checks and the dual side's candidates).

use crate::lp::model::LpModel;

/// Which kind of ray a certificate is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum CertificateKind {
    /// Row multipliers y proving that no x satisfies the rows and the bounds (Farkas).
    Farkas,
    /// A direction r along which every feasible point stays feasible and the objective improves.
    PrimalRay,
}

/// The ray without its negligible parts: each part's largest effect — a Farkas multiplier's
/// |yᵢ|·max(|aᵢⱼ|, |finite bounds of row i|), a primal ray's |rⱼ|·max(|aᵢⱼ|, |cⱼ|) — below
/// `fraction` of the largest part's is set to zero. The loop's rays carry such parts where a row
/// or column it could not settle kept growing (or shrinking) beside the ray; a part that small
/// changes nothing the ray proves but its exactness. A candidate only: the check decides.
pub fn without_negligible_parts(model: &LpModel, kind: CertificateKind, ray: &[f64], fraction: f64) -> Vec<f64> {
    let mut weight = match kind {
        CertificateKind::Farkas => {
            let finite = |v: f64| if v.is_finite() { v.abs() } else { 0.0 };
            (0..model.num_rows()).map(|i| finite(model.row_lower[i]).max(finite(model.row_upper[i]))).collect()
        }
        CertificateKind::PrimalRay => model.c.iter().map(|c| c.abs()).collect::<Vec<f64>>(),
    };
    if weight.len() != ray.len() {
        return ray.to_vec();
    }
    for j in 0..model.num_cols() {
        for (i, v) in model.a.col(j) {
            let k = if kind == CertificateKind::Farkas { i } else { j };
            weight[k] = weight[k].max(v.abs());
        }
    }
    let effect: Vec<f64> = ray.iter().zip(&weight).map(|(r, w)| (r * w).abs()).collect();
    let largest = effect.iter().copied().fold(0.0, f64::max);
    ray.iter().zip(&effect).map(|(&r, &e)| if e < fraction * largest { 0.0 } else { r }).collect()
}
