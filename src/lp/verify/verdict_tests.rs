//! The verdict's search for the best ray: it stops where nothing can beat what it holds, and
//! computes the near-null-space candidate (a dense O(m³) eigendecomposition) only where no
//! other candidate passes at the tolerance. The checks are planted: each candidate's grade is
//! chosen by the test, and the calls are counted.

use crate::lp::model::LpModel;
use super::verdict::best_ray;
use super::{Accuracy, CertificateCheck, CertificateKind};
use nalgebra::dmatrix;
use std::cell::Cell;

/// A 2 × 2 model: the rays are row multipliers of two rows.
fn model() -> LpModel {
    LpModel::new(dmatrix![1.0, 1.0; 1.0, -1.0], vec![0.0; 2], vec![1.0, 0.0], vec![1.0, 0.0]).expect("a valid model")
}

/// A check of `ray` graded by its first entry: 1 passes exactly for the model as written
/// (ρ = 0), 2 passes at the tolerance with ρ = 1e-12, 3 passes only at reduced accuracy, and
/// anything else fails.
fn planted(ray: &[f64]) -> (Vec<f64>, CertificateCheck) {
    let (accuracy, rho, gain) = match ray.first().copied() {
        Some(1.0) => (Accuracy::Tolerance, 0.0, 1.0),
        Some(2.0) => (Accuracy::Tolerance, 1e-12, 1.0),
        Some(3.0) => (Accuracy::Reduced, 1e-6, 1.0),
        _ => (Accuracy::Failed, f64::NAN, f64::NAN),
    };
    let check = CertificateCheck {
        kind: CertificateKind::Farkas,
        gain,
        backward_error: rho,
        worst: None,
        tolerance: 1e-8,
        accuracy,
    };
    (ray.to_vec(), check)
}

/// Runs the search over `candidates` and the fallback `null`: (the ray chosen, checks made,
/// whether the fallback was computed).
fn search(candidates: [Option<&Vec<f64>>; 2], null: Vec<f64>) -> (Vec<f64>, usize, bool) {
    let m = model();
    let (checks, asked) = (Cell::new(0), Cell::new(false));
    let (ray, _) = best_ray(
        CertificateKind::Farkas,
        &m,
        candidates,
        || {
            asked.set(true);
            Some(null)
        },
        |r| r.to_vec(),
        |r| {
            checks.set(checks.get() + 1);
            planted(r)
        },
    );
    (ray, checks.get(), asked.get())
}

#[test]
fn a_ray_proven_for_the_model_as_written_ends_the_search() {
    // The iterate's ray is exact: nothing can beat it, so neither its cleaned variants, nor the
    // residual ray, nor the near-null space are looked at.
    let (first, second) = (vec![1.0, 0.5], vec![2.0, 0.5]);
    let (ray, checks, asked) = search([Some(&first), Some(&second)], vec![1.0, 0.25]);
    assert_eq!((ray, checks, asked), (first, 1, false));
}

#[test]
fn a_smaller_rho_later_still_wins_and_the_null_space_is_not_computed() {
    // The first passes at the tolerance but with ρ > 0: the second (exact) replaces it; a pass
    // at the tolerance already exists, so the dense fallback is never asked for.
    let (first, second) = (vec![2.0, 0.5], vec![1.0, 0.5]);
    let (ray, checks, asked) = search([Some(&first), Some(&second)], vec![1.0, 0.25]);
    assert_eq!((ray, asked), (second, false));
    assert!(checks >= 2, "{checks}");
}

#[test]
fn the_null_space_is_computed_only_where_no_candidate_passes_at_the_tolerance() {
    // Reduced accuracy and a failure: the near-null-space candidate is computed, and wins.
    let (first, second) = (vec![3.0, 0.5], vec![7.0, 0.5]);
    let (ray, _, asked) = search([Some(&first), Some(&second)], vec![1.0, 0.25]);
    assert_eq!((ray, asked), (vec![1.0, 0.25], true));
    // It is asked for, but a worse one does not replace the reduced pass.
    let (ray, _, asked) = search([Some(&first), None], vec![9.0, 0.25]);
    assert_eq!((ray, asked), (first, true));
}
