//! The judge's side of the loop: grading iterates by the independent check on the original
//! model ([`Judge`]), keeping the best graded one, and deciding when the loop stops on it.

use super::stopping::JUDGE_PATIENCE;
use super::{Judge, Run, State, Stop, JUDGE_WINDOW, R};
use crate::lp::backend::{NormalEquations, VectorKernels};
use crate::lp::status::Status;

impl<V: VectorKernels, N: NormalEquations<V>> Run<'_, V, N> {
    /// Grades `state` with `judge`, every iteration; `Some` when the loop stops.
    /// `done`: the loop's own test passes; `since_best`: iterations without a better judged
    /// point since the best one came within [`JUDGE_WINDOW`] of passing.
    pub(super) fn consult(
        &mut self,
        judge: Judge<'_>,
        state: &State<V::Vector>,
        done: bool,
        since_best: &mut usize,
    ) -> R<Option<Stop<V::Vector>>> {
        let ratio = judge(&self.download(state)?);
        // Passes at ε itself, or the loop's tests pass and the check at its own tolerance (10ε)
        // does: the papers' stopping rule, confirmed.
        let passes = ratio <= 1.0 / JUDGE_WINDOW || (done && ratio <= 1.0);
        if passes {
            return Ok(Some((Status::Optimal, Some(self.copy(state)?), String::new())));
        }
        if self.judged.as_ref().is_none_or(|(r, _)| ratio < *r) {
            self.judged = Some((ratio, self.copy(state)?));
            *since_best = 0;
        } else if self.judged.as_ref().is_some_and(|(r, _)| *r <= JUDGE_WINDOW) {
            *since_best += 1;
        }
        if *since_best < JUDGE_PATIENCE {
            return Ok(None);
        }
        let Some((best, kept)) = self.judged.take() else { return Ok(None) };
        if best <= 1.0 {
            let why = format!("the best checked point (ratio {best:.2}) is returned");
            return Ok(Some((Status::Optimal, Some(kept), why)));
        }
        let why = format!("the check on the original model stays at {best:.1}× its tolerance");
        self.judged = Some((best, kept));
        Ok(Some((Status::NumericalFailure, Some(self.copy(state)?), why)))
    }
}
