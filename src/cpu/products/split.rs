//! Which columns of an exact (double-precision) assembly of A·diag(w)·Aᵀ may be summed in a
//! reduced precision with an error no larger than the f64 sum's own error bound on the diagonal.
//!
//! Near the optimum of an interior-point method the weights w = Θ spread over many orders of
//! magnitude: the columns of the variables heading to zero carry weights 10⁸–10¹⁶ times smaller
//! than the others, and on the papers' dense family (n = 4m) three quarters of the columns do.
//! Their products still cost three quarters of an f64 assembly. If the columns J summed in
//! reduced precision satisfy Σ_{j∈J} wⱼ·a²ᵢⱼ ≤ η·Mᵢᵢ in every row i (M = A·diag(w)·Aᵀ), then by
//! Cauchy–Schwarz Σ_{j∈J} |aᵢⱼ·wⱼ·aₖⱼ| ≤ η·√(Mᵢᵢ·Mₖₖ) for every entry, and a reduced sum with
//! relative error bound β adds at most β·η·√(Mᵢᵢ·Mₖₖ): with η = [`share_bound`] = γₙ/β, at most
//! γₙ·√(Mᵢᵢ·Mₖₖ) (γₙ = n·u/(1 − n·u), u = 2⁻⁵³). On the diagonal that is the f64 sum's own
//! bound γₙ·Mᵢᵢ; off it the f64 bound γₙ·Σⱼ|aᵢⱼ·wⱼ·aₖⱼ| can be smaller, and the split's
//! is then the larger. Relative to the unit diagonal the factor works on, either is a
//! perturbation of order γₙ. Products that underflow (the AMX tiles flush values below 2⁻¹²⁶
//! to zero) are not covered by β: the split is refused when the smallest diagonal is below
//! [`SMALLEST_DIAGONAL`], where their absolute error could matter.
//!
//! The test is made with bounds that cost at most one pass over A, a fraction of one when most
//! columns split off: wⱼ·a²ᵢⱼ ≤ vⱼ = wⱼ·maxᵢ a²ᵢⱼ (the column maxima are A's, computed once),
//! and Mᵢᵢ ≥ the same sum over the columns kept in f64 only. Columns enter the f64 set from the
//! largest vⱼ down, in batches, until the rest pass; when fewer than n/[`MIN_REDUCED_SHARE`]
//! columns with a nonzero product would pass, the assembly stays wholly in f64.

use super::threads;
use crate::cpu::gram::{gram_lower, GramShapeError, Precision, AMX_KC, KC};
use crate::cpu::paths::CpuPaths;
use faer::{Accum, MatMut, MatRef};

/// Fewest columns, as a fraction of n, worth a second product (its packing and C updates):
/// one in eight.
pub const MIN_REDUCED_SHARE: usize = 8;

/// Columns moved to the f64 set between two checks of the test.
const BATCH: usize = 32;

/// The weights of the two products: `exact[j]` = wⱼ or 0, `reduced[j]` = the other.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnSplit {
    /// Weights of the columns summed in f64 (0 elsewhere).
    pub exact: Vec<f64>,
    /// Weights of the columns summed in reduced precision (0 elsewhere).
    pub reduced: Vec<f64>,
    /// How many columns with a nonzero product (weight and column) are summed in reduced
    /// precision.
    pub reduced_columns: usize,
}

/// The smallest diagonal entry of M for which a split is made: 2⁻⁶⁰. Below it the products
/// flushed to zero by the AMX tiles (at most 3·2⁻¹²⁶ each, n of them) could exceed 2⁻¹⁰ of
/// γₙ·Mᵢᵢ.
pub const SMALLEST_DIAGONAL: f64 = 8.673617379884035e-19;

/// γₖ = k·u/(1 − k·u) for unit roundoff u.
fn gamma(k: usize, u: f64) -> f64 {
    k as f64 * u / (1.0 - k as f64 * u)
}

/// η for `precision`'s products over n columns: γₙ (u = 2⁻⁵³), the f64 sum's own error bound
/// relative to Σⱼ|aᵢⱼ·wⱼ·aₖⱼ|, divided by the reduced products' bound β relative to the same
/// sums (those of `tests/syrk_bf16.rs` and `tests/cpu_kernels.rs`). bf16 pairs: the split's
/// 3.1·2⁻¹⁶, the f32 sums of a chunk γ⁽³²⁾₍₃·AMX_KC₊₂₎ and the f64 sums of the chunks γₙ₊₁;
/// f32: γ⁽³²⁾₍KC₊₃₎ (the factors' roundings and a k block's sums) and γₙ₊₁. 0 for
/// [`Precision::Double`] (nothing is reduced).
pub fn share_bound(n: usize, precision: Precision) -> f64 {
    let (u32, u64) = (2f64.powi(-24), 2f64.powi(-53));
    let beta = match precision {
        Precision::Double => return 0.0,
        Precision::Bf16Pair => 3.1 * 2f64.powi(-16) + gamma(3 * AMX_KC + 2, u32) + gamma(n + 1, u64),
        Precision::Single => gamma(KC + 3, u32) + gamma(n + 1, u64),
    };
    gamma(n, u64) / beta
}

/// maxᵢ a²ᵢⱼ for every column j.
pub fn column_max_squares(a: MatRef<'_, f64>) -> Vec<f64> {
    (0..a.ncols()).map(|j| a.col(j).iter().fold(0.0f64, |m, &x| m.max(x * x))).collect()
}

/// The split of the columns of `a` under weights `w` (non-negative) for products whose
/// entrywise relative error is covered by `eta` (see the module documentation), given
/// `col_max_sq` = [`column_max_squares`]`(a)`; `None` when fewer than n/[`MIN_REDUCED_SHARE`]
/// columns with a nonzero product pass, when the smallest diagonal is below
/// [`SMALLEST_DIAGONAL`], when a weight is negative or not finite, or when the shapes disagree.
pub fn split_columns(a: MatRef<'_, f64>, w: &[f64], col_max_sq: &[f64], eta: f64) -> Option<ColumnSplit> {
    let (m, n) = (a.nrows(), a.ncols());
    let fewest = n.div_ceil(MIN_REDUCED_SHARE).max(1);
    if m == 0 || n < 2 || w.len() != n || col_max_sq.len() != n || eta.is_nan() || eta <= 0.0 {
        return None;
    }
    let v: Vec<f64> = w.iter().zip(col_max_sq).map(|(&w, &c)| w * c).collect();
    if !v.iter().all(|x| x.is_finite() && *x >= 0.0) || w.iter().any(|&x| x.is_nan() || x < 0.0) {
        return None;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_unstable_by(|&i, &j| v[i].total_cmp(&v[j]));
    // prefix[k]: the sum of the k smallest vⱼ.
    let mut prefix = Vec::with_capacity(n + 1);
    prefix.push(0.0f64);
    for &j in &order {
        prefix.push(prefix[prefix.len() - 1] + v[j]);
    }
    // min Mᵢᵢ ≤ M₀₀: when even the fewest candidates fail against row 0, no set passes (this
    // keeps the early iterations, whose weights are not yet apart, at one row's cost).
    let m00: f64 = (0..n).map(|j| w[j] * a[(0, j)] * a[(0, j)]).sum();
    if prefix[fewest] > eta * m00 {
        return None;
    }
    let mut diag = vec![0.0f64; m];
    let mut k = n;
    while k > fewest {
        let next = k.saturating_sub(BATCH).max(fewest);
        for &j in &order[next..k] {
            let wj = w[j];
            match a.col(j).try_as_col_major() {
                Some(col) => {
                    for (d, &x) in diag.iter_mut().zip(col.as_slice()) {
                        *d += wj * x * x;
                    }
                }
                None => {
                    for (d, &x) in diag.iter_mut().zip(a.col(j).iter()) {
                        *d += wj * x * x;
                    }
                }
            }
        }
        k = next;
        let floor = diag.iter().fold(f64::INFINITY, |f, &d| f.min(d));
        if prefix[k] <= eta * floor && floor >= SMALLEST_DIAGONAL {
            // Columns with a zero product (weight 0, or a zero column) cost nothing either way.
            let nonzero = order[..k].iter().filter(|&&j| v[j] > 0.0).count();
            if nonzero < fewest {
                return None;
            }
            let mut exact = w.to_vec();
            let mut reduced = vec![0.0; n];
            for &j in &order[..k] {
                reduced[j] = w[j];
                exact[j] = 0.0;
            }
            return Some(ColumnSplit { exact, reduced, reduced_columns: nonzero });
        }
    }
    None
}

/// [`column_max_squares`] of the last matrix asked for, kept while the same matrix (same
/// address and shape: an interior-point solve's A) comes back.
#[derive(Clone, Debug, Default)]
pub struct ColumnMaxima {
    key: (usize, usize, usize, isize),
    values: Vec<f64>,
}

impl ColumnMaxima {
    /// The column maxima of `a`, computed when `a` is not the matrix they were computed for.
    pub fn of(&mut self, a: MatRef<'_, f64>) -> &[f64] {
        let key = (a.as_ptr() as usize, a.nrows(), a.ncols(), a.col_stride());
        if key != self.key || self.values.len() != a.ncols() {
            self.values = column_max_squares(a);
            self.key = key;
        }
        &self.values
    }
}

/// Writes the lower triangle of A·diag(w)·Aᵀ into `out` (m×m) as an f64 product of the columns
/// that [`split_columns`] keeps exact plus a [`Precision::reduced`] product of the others (both
/// on `paths`), and returns how many columns the second summed; `Ok(None)` (nothing written)
/// when the columns do not split. `maxima` keeps A's column maxima between calls.
///
/// # Errors
/// [`GramShapeError`] when `w` or `out` does not fit A.
pub fn assemble_split(
    paths: &CpuPaths,
    a: MatRef<'_, f64>,
    w: &[f64],
    mut out: MatMut<'_, f64>,
    maxima: &mut ColumnMaxima,
) -> Result<Option<usize>, GramShapeError> {
    let reduced = Precision::reduced(paths);
    let Some(split) = split_columns(a, w, maxima.of(a), share_bound(a.ncols(), reduced)) else {
        return Ok(None);
    };
    let threads = threads();
    gram_lower(paths, Precision::Double, a, &split.exact, out.as_mut(), Accum::Replace, threads)?;
    gram_lower(paths, reduced, a, &split.reduced, out, Accum::Add, threads)?;
    Ok(Some(split.reduced_columns))
}
