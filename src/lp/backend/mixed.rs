//! Mixed precision in the cpu backend's normal equations: while the iterates are far from the
//! optimum, A·D²·Aᵀ is formed with reduced-precision products ([`Precision::reduced`] of the
//! settings' CPU paths) and
//! factored in double precision except for the outer blocks' trailing updates, which use the
//! same reduced precision ([`crate::cpu::cholesky::cholesky_lower_in`]). The products are bf16
//! pairs on AMX tiles where this process may use them ([`Precision::Bf16Pair`], 16 significant
//! bits, about three times as fast as double), single precision elsewhere
//! ([`Precision::Single`], twice as fast as double). The factor is then of a matrix a few units
//! of 2⁻¹⁶ (or 2⁻²⁴) away from the exact one: a preconditioner, not a solver. Every direction
//! is refined by conjugate gradients on the exact operator (in double precision, see
//! `mpc::direction`) to the inexact-Newton target INEXACT_FORCING × the current relative
//! primal infeasibility (the primal error of the step is then a tenth of what the step
//! removes, which keeps the iteration count; Dembo–Eisenstat–Steihaug, and Bellavia for
//! interior-point methods). The bf16 pairs' factor needs refinement steps about one iteration
//! earlier than the single-precision one; on `--random 512/1024 --seed 1..5` the iteration
//! counts were the same with either.
//!
//! The switch to double-precision products is one way, like the 2008 paper's switch from the
//! GPU to the CPU: when a step needed more than [`MIXED_MAX_REFINEMENTS`] conjugate-gradient
//! steps (the preconditioner no longer saves more than it costs), when the inexact target falls
//! to the exact one (near the optimum every direction must be refined fully anyway), or when a
//! refined direction missed its target (the step is then redone in double precision).
//!
//! The exact phase keeps one use of the reduced products: once the weights have spread apart,
//! the columns whose share of every diagonal entry is below `column_split::share_bound` are
//! summed in reduced precision beside an f64 product of the rest. Their error is then at most
//! γₙ·√(Mᵢᵢ·Mₖₖ), the f64 sum's own error bound on the diagonal: relative to the unit diagonal
//! that is factored, a perturbation of the f64 rounding's order (the log names such a factor
//! `cpu split`).

use crate::cpu::products::Precision;

/// Rows below which mixed precision is not used: the products are too small for the cheaper
/// arithmetic to pay for the refinement steps.
pub const MIXED_MIN_ROWS: usize = 256;

/// Conjugate-gradient steps in one iteration beyond which the next matrices are exact.
pub const MIXED_MAX_REFINEMENTS: usize = 4;

/// The state of the switch.
#[derive(Clone, Debug, Default)]
pub struct MixedPrecision {
    /// Mixed precision asked for (and A is dense, and large enough).
    enabled: bool,
    /// Switched to double precision for good.
    exact: bool,
    /// The products of the current factor.
    current: Option<Precision>,
    /// Factorizations of reduced-precision products so far.
    single: usize,
}

impl MixedPrecision {
    /// The policy for an m-row A held dense (`dense`), mixed precision asked for or not.
    pub fn new(asked: bool, dense: bool, m: usize) -> Self {
        Self { enabled: asked && dense && m >= MIXED_MIN_ROWS, ..Self::default() }
    }

    /// The products of the next matrix: `reduced` (counted as such) while the early phase
    /// lasts, double precision after.
    pub fn next_precision(&mut self, reduced: Precision) -> Precision {
        let precision = if self.enabled && !self.exact { reduced } else { Precision::Double };
        self.current = Some(precision);
        if precision != Precision::Double {
            self.single += 1;
        }
        precision
    }

    /// Whether the exact phase's assemblies may sum their smallest-share columns in reduced
    /// precision (`column_split`): wherever mixed precision is on.
    pub fn splits_exact(&self) -> bool {
        self.enabled
    }

    /// Whether the current factor is of reduced-precision products.
    pub fn current_is_single(&self) -> bool {
        self.current.is_some_and(|p| p != Precision::Double)
    }

    /// The current factor's products (`None` before the first).
    pub fn current(&self) -> Option<Precision> {
        self.current
    }

    /// Exact products from the next matrix on; `true` when that changes anything.
    pub fn require_exact(&mut self) -> bool {
        let changed = self.enabled && !self.exact;
        self.exact = true;
        changed || self.current_is_single()
    }

    /// Factorizations of reduced-precision products so far (`None` when mixed precision is off).
    pub fn single_factorizations(&self) -> Option<usize> {
        self.enabled.then_some(self.single)
    }
}
