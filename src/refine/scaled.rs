//! A general system in single precision's comfortable range: Â = R·A·C, b̂ = β·R·b with powers
//! of two ([`crate::cpu::equilibrate`]: rows first, then the columns of R·A, then b), solved for
//! ŷ, and x = C·ŷ/β. Exact both ways.

use crate::cpu::equilibrate::{factors, max_abs};
use std::borrow::Cow;

/// The scaled system and the factors that undo it.
pub(super) struct Scaled<'a> {
    pub a: Cow<'a, [f64]>,
    pub b: Cow<'a, [f64]>,
    /// C/β per column: x = to_x ∘ ŷ.
    pub to_x: Vec<f64>,
}

impl<'a> Scaled<'a> {
    /// The scaling of A (row-major n×n, finite) and b.
    pub fn new(a: &'a [f64], n: usize, b: &'a [f64]) -> Self {
        let rows: Vec<f64> = (0..n).map(|i| max_abs(&a[i * n..(i + 1) * n])).collect();
        let r = factors(&rows);
        let mut cols = vec![0.0f64; n];
        for (i, ri) in r.iter().enumerate() {
            for (c, v) in cols.iter_mut().zip(&a[i * n..(i + 1) * n]) {
                *c = c.max((ri * v).abs());
            }
        }
        let c = factors(&cols);
        let rb = b.iter().zip(&r).map(|(v, ri)| (v * ri).abs()).fold(0.0f64, f64::max);
        let beta = factors(&[rb])[0];
        let to_x = c.iter().map(|cj| cj / beta).collect();
        if r.iter().chain(&c).all(|&f| f == 1.0) && beta == 1.0 {
            return Self { a: Cow::Borrowed(a), b: Cow::Borrowed(b), to_x };
        }
        let mut scaled = a.to_vec();
        for (i, row) in scaled.chunks_exact_mut(n).enumerate() {
            for (v, cj) in row.iter_mut().zip(&c) {
                *v *= r[i] * cj;
            }
        }
        let b_hat = b.iter().zip(&r).map(|(v, ri)| v * ri * beta).collect::<Vec<f64>>();
        Self { a: Cow::Owned(scaled), b: Cow::Owned(b_hat), to_x }
    }

    /// x = C·ŷ/β.
    pub fn x(&self, y: &[f64]) -> Vec<f64> {
        y.iter().zip(&self.to_x).map(|(v, f)| v * f).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_system_of_tiny_numbers_is_brought_to_one_and_undone_exactly() {
        // [[2, 1], [1, 3]]·1e-39, b = A·(1, 1): one common power of two for both sides.
        let a = [2e-39, 1e-39, 1e-39, 3e-39];
        let b = [3e-39, 4e-39];
        let s = Scaled::new(&a, 2, &b);
        assert!(s.a.iter().all(|v| (0.25..=4.0).contains(&v.abs())), "{:?}", s.a);
        assert!(s.b.iter().all(|v| (0.25..=4.0).contains(&v.abs())), "{:?}", s.b);
        // ŷ = (1, 1)·β/C solves the scaled system; x comes back exactly (1, 1).
        let y: Vec<f64> = s.to_x.iter().map(|f| 1.0 / f).collect();
        assert_eq!(s.x(&y), vec![1.0, 1.0]);
    }

    #[test]
    fn a_system_in_range_is_not_copied() {
        let (a, b) = ([2.0, 1.0, 1.0, 3.0], [3.0, 4.0]);
        let s = Scaled::new(&a, 2, &b);
        assert!(matches!((&s.a, &s.b), (Cow::Borrowed(_), Cow::Borrowed(_))));
        assert_eq!(s.to_x, vec![1.0, 1.0]);
    }
}
