//! The operands and results of the fused passes over A (`fused` chooses their path, `ranges`
//! runs the hand-written one): where v comes from, the result tuples, the pass's threshold for
//! threads.

use crate::cpu::shapes::PassShapeError;

/// Entries of A below which one thread does the pass (waking a second costs more).
pub const PARALLEL_ENTRIES: usize = 1 << 17;

/// Where v comes from.
#[derive(Clone, Copy)]
pub enum VSource<'a> {
    /// v is given (A·x with Aᵀ·y).
    Given(&'a [f64]),
    /// v = θ ⊙ (Aᵀy) − t (t absent: 0).
    Scaled { theta: &'a [f64], t: Option<&'a [f64]> },
}

impl VSource<'_> {
    /// vⱼ from uⱼ = (Aᵀy)ⱼ.
    #[inline]
    pub fn value(&self, j: usize, uj: f64) -> f64 {
        match *self {
            VSource::Given(x) => x[j],
            VSource::Scaled { theta, t: Some(t) } => theta[j] * uj - t[j],
            VSource::Scaled { theta, t: None } => theta[j] * uj,
        }
    }

    /// Checks that every vector has one entry per column.
    pub(super) fn check(&self, n: usize) -> Result<(), PassShapeError> {
        let lengths = match *self {
            VSource::Given(x) => [Some(("x", x.len())), None, None],
            VSource::Scaled { theta, t } => [Some(("theta", theta.len())), t.map(|t| ("t", t.len())), None],
        };
        lengths.into_iter().flatten().try_for_each(|(what, got)| length(what, n, got))
    }
}

/// (Aᵀy, v, A·v): the three results of a fused pass.
pub type Fused = (Vec<f64>, Vec<f64>, Vec<f64>);

/// (Aᵀy, A·x, t, A·t): the results of [`super::fused_pair`].
pub type Paired = (Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>);

/// tⱼ from (j, (Aᵀy)ⱼ).
pub type ColumnMap<'a> = dyn Fn(usize, f64) -> f64 + Sync + 'a;

pub(super) fn length(what: &'static str, expected: usize, got: usize) -> Result<(), PassShapeError> {
    if expected == got {
        Ok(())
    } else {
        Err(PassShapeError::Length { what, expected, got })
    }
}
