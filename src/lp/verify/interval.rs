//! A verified solve of a small square system M·t = d for every d in a box, in f64 with the
//! rounding accounted for: an approximate inverse R and solution t̃, then the enclosure
//! t* − t̃ = R·(d − M·t̃) + (I − R·M)·(t* − t̃), so that with α ≥ ‖|I − R·M|‖∞ < 1
//! ‖t* − t̃‖∞ ≤ ‖|R|·|d − M·t̃|‖∞ / (1 − α), and componentwise
//! |t* − t̃| ≤ |R|·|d − M·t̃| + |I − R·M|·𝟙·‖t* − t̃‖∞ (Rump's verification of linear systems,
//! with the products' errors bounded as in [`super::rounding`]). α < 1 also proves M
//! nonsingular, so t* exists and is unique for each d.

use super::rounding::{down, sum_error, up};
use faer::linalg::solvers::DenseSolveCore;
use faer::Mat;

/// The enclosure of t*: |t*ᵢ − centerᵢ| ≤ radiusᵢ for every d in the box.
#[derive(Clone, Debug, PartialEq)]
pub struct Enclosed {
    pub center: Vec<f64>,
    pub radius: Vec<f64>,
}

/// Encloses the solutions of M·t = d (M k×k, column-major `m`) for all d with
/// `d_lo ≤ d ≤ d_hi`; `None` when M is too close to singular for the verification (α ≥ 1) or
/// something is not finite.
pub fn verified_solve(m: &Mat<f64>, d_lo: &[f64], d_hi: &[f64]) -> Option<Enclosed> {
    let k = m.nrows();
    if m.ncols() != k || d_lo.len() != k || d_hi.len() != k {
        return None;
    }
    if k == 0 {
        return Some(Enclosed { center: Vec::new(), radius: Vec::new() });
    }
    let r = m.partial_piv_lu().inverse();
    if (0..k).any(|i| (0..k).any(|j| !r[(i, j)].is_finite())) {
        return None;
    }
    let mid: Vec<f64> = d_lo.iter().zip(d_hi).map(|(a, b)| a + (b - a) / 2.0).collect();
    // The midpoint's distance to either end, rounded up.
    let half: Vec<f64> = d_lo
        .iter()
        .zip(d_hi)
        .zip(&mid)
        .map(|((&a, &b), &c)| up((c - a).max(b - c)).max(0.0))
        .collect();
    let t: Vec<f64> = (0..k).map(|i| (0..k).map(|j| r[(i, j)] * mid[j]).sum()).collect();
    // |d − M·t̃| ≤ |mid − M·t̃| + half, each row a sum of k + 1 terms.
    let res: Vec<f64> = (0..k)
        .map(|i| {
            let (mut s, mut mag) = (mid[i], mid[i].abs());
            for j in 0..k {
                let p = m[(i, j)] * t[j];
                s -= p;
                mag += p.abs();
            }
            up(up(s.abs() + sum_error(k + 2, mag)) + half[i])
        })
        .collect();
    // |I − R·M| entrywise, from the computed product and its error bound.
    let rm = &r * m;
    let abs_r = Mat::from_fn(k, k, |i, j| r[(i, j)].abs());
    let abs_m = Mat::from_fn(k, k, |i, j| m[(i, j)].abs());
    let mag = &abs_r * &abs_m;
    let c_row: Vec<f64> = (0..k)
        .map(|i| {
            let row: f64 = (0..k)
                .map(|j| {
                    let id = if i == j { 1.0 } else { 0.0 };
                    // One more rounding for the subtraction, and |R|·|M| computed: ×(1 + 2γ).
                    up(up((id - rm[(i, j)]).abs()) + sum_error(k + 1, mag[(i, j)]) * 2.0)
                })
                .sum();
            up(row * (1.0 + 2.0 * sum_error(k + 1, 1.0)))
        })
        .collect();
    let alpha = c_row.iter().copied().fold(0.0, f64::max);
    if alpha.is_nan() || alpha >= 1.0 {
        return None;
    }
    // |R|·|res|, rounded up.
    let g: Vec<f64> = (0..k)
        .map(|i| {
            let s: f64 = (0..k).map(|j| abs_r[(i, j)] * res[j]).sum();
            up(s * (1.0 + 2.0 * sum_error(k + 1, 1.0)))
        })
        .collect();
    let worst = g.iter().copied().fold(0.0, f64::max);
    let beta = up(worst / down(1.0 - alpha));
    let radius: Vec<f64> = (0..k).map(|i| up(g[i] + up(c_row[i] * beta))).collect();
    if radius.iter().chain(&t).any(|v| !v.is_finite()) {
        return None;
    }
    Some(Enclosed { center: t, radius })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_enclosure_holds_the_exact_solution_of_a_rational_system() {
        // M = [[3, 1], [1, 2]], d = (1, 0): t* = (2/5, −1/5), not representable exactly.
        let m = Mat::from_fn(2, 2, |i, j| [[3.0, 1.0], [1.0, 2.0]][i][j]);
        let e = verified_solve(&m, &[1.0, 0.0], &[1.0, 0.0]).expect("verified");
        for (i, exact) in [0.4f64, -0.2].into_iter().enumerate() {
            assert!((e.center[i] - exact).abs() <= e.radius[i], "{i}: {:?}", e);
            assert!(e.radius[i] < 1e-14, "tight: {:?}", e);
        }
    }

    #[test]
    fn a_box_of_right_hand_sides_widens_the_enclosure_to_cover_it() {
        let m = Mat::from_fn(3, 3, |i, j| if i == j { 4.0 } else { 1.0 });
        let e = verified_solve(&m, &[1.0, -1.0, 0.5], &[1.0 + 1e-9, -1.0, 0.5]).expect("verified");
        // Solutions at both ends of the box lie inside.
        for d0 in [1.0, 1.0 + 1e-9] {
            let d = [d0, -1.0, 0.5];
            let t = m.partial_piv_lu().inverse();
            for i in 0..3 {
                let ti: f64 = (0..3).map(|j| t[(i, j)] * d[j]).sum();
                assert!((ti - e.center[i]).abs() <= e.radius[i] + 1e-15, "{i}");
            }
        }
        assert!(e.radius[0] >= 1e-10, "the box's width is in the radius: {:?}", e.radius);
    }

    #[test]
    fn a_singular_or_non_finite_system_is_not_verified() {
        let singular = Mat::from_fn(2, 2, |i, _| if i == 0 { 1.0 } else { 2.0 });
        assert!(verified_solve(&singular, &[1.0, 2.0], &[1.0, 2.0]).is_none());
        let near = Mat::from_fn(2, 2, |i, j| [[1.0, 1.0], [1.0, 1.0 + 1e-17]][i][j]);
        assert!(verified_solve(&near, &[1.0, 1.0], &[1.0, 1.0]).is_none());
        let m = Mat::from_fn(1, 1, |_, _| 2.0);
        assert!(verified_solve(&m, &[f64::NAN], &[1.0]).is_none());
        assert_eq!(verified_solve(&Mat::zeros(0, 0), &[], &[]), Some(Enclosed { center: vec![], radius: vec![] }));
    }
}
