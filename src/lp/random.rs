//! Random dense LPs of the papers' family (Tits et al.; 2008 paper, Figure 4.2).
//!
//! min cᵀx s.t. A·x = b, x ≥ 0 with n = 4m, the columns aⱼ of A independent Gaussian vectors
//! normalized to the unit sphere, c = 1 and b Gaussian. Every dual constraint aⱼᵀλ ≤ 1 is then
//! a half-space whose boundary is tangent to the unit sphere, so λ = 0 is strictly dual feasible
//! and the dual feasible set contains the unit ball. The primal is feasible when b lies in the
//! cone spanned by the columns, which for n = 4m symmetric random columns fails with probability
//! P(Binomial(n−1, ½) ≤ m−1) (Wendel's theorem): below 1e-4 for m ≥ 16 and astronomically small
//! for the benchmark sizes.

use crate::lp::model::{LpModel, Sense, SparseColMatrix};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A member of the family as dense data: `a` is row-major m×n.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomLp {
    /// Rows.
    pub m: usize,
    /// Columns (4m).
    pub n: usize,
    /// A, m × n, row-major.
    pub a_row_major: Vec<f64>,
    /// The right-hand side of A·x = b, length m.
    pub b: Vec<f64>,
    /// The cost, length n.
    pub c: Vec<f64>,
}

/// Standard normal deviate by the Box–Muller transform (rand_distr is not a dependency).
fn gaussian(rng: &mut StdRng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>(); // (0, 1]
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// The member (m, n = 4m, seed). Deterministic for a given seed.
pub fn random_lp(m: usize, seed: u64) -> RandomLp {
    let n = 4 * m;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut a = vec![0.0; m * n];
    for j in 0..n {
        let col: Vec<f64> = (0..m).map(|_| gaussian(&mut rng)).collect();
        let norm = col.iter().map(|v| v * v).sum::<f64>().sqrt().max(f64::MIN_POSITIVE);
        for (i, v) in col.iter().enumerate() {
            a[i * n + j] = v / norm;
        }
    }
    let b = (0..m).map(|_| gaussian(&mut rng)).collect();
    RandomLp { m, n, a_row_major: a, b, c: vec![1.0; n] }
}

impl RandomLp {
    /// As a model (equality rows R1..Rm, columns X1..Xn, x ≥ 0), e.g. to write it as MPS.
    pub fn to_model(&self, seed: u64) -> LpModel {
        let (m, n) = (self.m, self.n);
        let mut trip = Vec::with_capacity(m * n);
        for i in 0..m {
            for j in 0..n {
                let v = self.a_row_major[i * n + j];
                if v != 0.0 {
                    trip.push((i, j, v));
                }
            }
        }
        LpModel {
            name: format!("RANDOM_M{m}_S{seed}"),
            sense: Sense::Minimize,
            objective_name: "COST".into(),
            c: self.c.clone(),
            obj_constant: 0.0,
            row_names: (1..=m).map(|i| format!("R{i}")).collect(),
            col_names: (1..=n).map(|j| format!("X{j}")).collect(),
            a: SparseColMatrix::from_triplets(m, n, &trip).unwrap_or_else(|_| SparseColMatrix::new(m)),
            row_lower: self.b.clone(),
            row_upper: self.b.clone(),
            col_lower: vec![0.0; n],
            col_upper: vec![f64::INFINITY; n],
            integer: vec![false; n],
            warnings: Vec::new(),
        }
    }
}
