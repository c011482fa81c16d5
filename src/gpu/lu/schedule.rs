//! The passes of the blocked LU, planned as data (pure: tested without GL).
//!
//! The matrix [A | B] (n×n, plus 0 or 1 right-hand side) is padded to an even order N (the
//! padded diagonal entry is 1) and stored in 2×2 blocks: W = (N + extra)/2 texels wide, N/2
//! high. Panel k holds the columns k·nb .. k·nb + w_k, w_k = min(nb, N − k·nb). After the CPU has
//! factored panel k, step k issues:
//!
//! * the **upper strip** U12 = L11⁻¹·(P·A)12 over the panel's block rows and every block column
//!   right of the panel (into the U texture, `Aux(1)`), when there are such columns;
//! * with **look-ahead**: the trailing update of the next panel's columns only (rows below the
//!   panel), whose result the CPU reads back at once, then the trailing update of the remaining
//!   columns, which runs while the CPU factors the next panel;
//! * without look-ahead: one trailing update of all those columns before the readback.
//!
//! Both trailing updates read S and write T; the driver swaps after the step. Roles: `Aux(0)` the
//! L21 panel, `Aux(1)` U, `Aux(2)` the row map, `Aux(3)` L11⁻¹.

use crate::geometry::lu as fig;
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::plan::{PassKind, PlannedPass, Role};
use crate::kernels;

/// Panel widths the kernels are compiled for (`NB` is a compile-time loop bound).
pub const BLOCK_SIZES: [usize; 5] = [4, 8, 16, 32, 64];

/// The variant define of a panel width.
pub fn nb_define(nb: usize) -> Option<&'static [&'static str]> {
    Some(match nb {
        4 => &["NB 4"],
        8 => &["NB 8"],
        16 => &["NB 16"],
        32 => &["NB 32"],
        64 => &["NB 64"],
        _ => return None,
    })
}

/// The shape of one blocked factorization.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocking {
    /// The order of A.
    pub n: usize,
    /// N: n rounded up to even.
    pub padded: usize,
    /// The panel width nb.
    pub block: usize,
    /// Padded right-hand-side columns stored right of A (0, or 2 for one right-hand side).
    pub extra: usize,
    pub lookahead: bool,
}

/// The passes of one step, in the order they are issued; the readback of the next panel comes
/// between `first` and `rest`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepPlan {
    /// The upper strip, then the look-ahead update (or the whole update without look-ahead).
    pub first: Vec<PlannedPass>,
    /// The update of the remaining columns (look-ahead only).
    pub rest: Vec<PlannedPass>,
    /// The next panel's region to read back: (x, y, width, height) in texels of T.
    pub next_panel: Option<[u32; 4]>,
}

impl Blocking {
    /// Checks the block size (one of [`BLOCK_SIZES`]) and n ≥ 1.
    pub fn new(n: usize, block: usize, rhs: bool, lookahead: bool) -> GpuResult<Self> {
        if n == 0 {
            return Err(GpuError::Shape("a 0×0 matrix has no LU factorization".into()));
        }
        if nb_define(block).is_none() {
            return Err(GpuError::Unsupported(format!(
                "panel width {block}; the kernels are compiled for {BLOCK_SIZES:?}"
            )));
        }
        Ok(Self { n, padded: n.next_multiple_of(2), block, extra: if rhs { 2 } else { 0 }, lookahead })
    }

    /// Number of panels (steps).
    pub fn steps(&self) -> usize {
        self.padded.div_ceil(self.block)
    }

    /// First column and width of panel k.
    pub fn panel(&self, k: usize) -> (usize, usize) {
        let c = k * self.block;
        (c, self.block.min(self.padded - c))
    }

    /// Texture size (width, height) of the matrix, of U, and of the T texture.
    pub fn texture_size(&self) -> (usize, usize) {
        ((self.padded + self.extra) / 2, self.padded / 2)
    }

    /// Columns stored (A's padded order plus the right-hand side's).
    pub fn columns(&self) -> usize {
        self.padded + self.extra
    }

    pub fn defines(&self) -> &'static [&'static str] {
        nb_define(self.block).unwrap_or(&[])
    }

    /// The passes of step k (after the CPU has factored panel k).
    pub fn step(&self, k: usize) -> StepPlan {
        use Role::{Aux, S, T};
        let (c, w) = self.panel(k);
        let (width, height) = self.texture_size();
        let (k0, right) = ((c / 2) as u32, ((c + w) / 2) as u32);
        let (width, height) = (width as u32, height as u32);
        let mut plan = StepPlan::default();
        let d = self.defines();
        let k0f = k0 as f32;
        if right < width {
            let prim = fig::block_rect(right, k0, width, k0 + (w / 2) as u32);
            plan.first.push(
                PlannedPass::new(
                    PassKind::UpperStrip,
                    &kernels::LU_UPPER_STRIP,
                    Aux(1),
                    &[S, Aux(3), Aux(2)],
                    prim,
                    k as u32,
                )
                .defines(d)
                .uniform("k0", k0f),
            );
        }
        if k + 1 < self.steps() {
            let (_, next_w) = self.panel(k + 1);
            let split = right + (next_w / 2) as u32;
            let update = |kind, j0, j1| {
                PlannedPass::new(
                    kind,
                    &kernels::LU_TRAILING_UPDATE,
                    T,
                    &[S, Aux(0), Aux(1), Aux(2)],
                    fig::block_rect(j0, right, j1, height),
                    k as u32,
                )
                .defines(d)
                .uniform("k0", k0f)
            };
            if self.lookahead {
                plan.first.push(update(PassKind::LookAheadUpdate, right, split));
                if split < width {
                    plan.rest.push(update(PassKind::TrailingUpdate, split, width));
                }
            } else {
                plan.first.push(update(PassKind::TrailingUpdate, right, width));
            }
            plan.next_panel = Some([right, right, (next_w / 2) as u32, height - right]);
        }
        plan
    }

    /// Forward substitution (the paper's Figs. 4–5), block i: once the CPU has y_i, the next
    /// block of r is updated first (read back at once), then the rows below it; without
    /// look-ahead one pass updates all rows below block i. The vector is 1 × N/2 texels (two
    /// entries each). Roles: S/T the vector, `Aux(0)` L in 2×2 blocks, `Aux(1)` y_i.
    pub fn forward_step(&self, i: usize) -> StepPlan {
        use Role::{Aux, S, T};
        let mut plan = StepPlan::default();
        if i + 1 >= self.steps() {
            return plan;
        }
        let (c, w) = self.panel(i);
        let (_, next_w) = self.panel(i + 1);
        let (below, split, end) = (((c + w) / 2) as u32, ((c + w + next_w) / 2) as u32, (self.padded / 2) as u32);
        let pass = |kind, i0, i1| {
            PlannedPass::new(
                kind,
                &kernels::LU_FORWARD_UPDATE,
                T,
                &[S, Aux(0), Aux(1)],
                fig::block_rect(0, i0, 1, i1),
                i as u32,
            )
            .defines(self.defines())
            .uniform("c0", (c / 2) as f32)
        };
        if self.lookahead {
            plan.first.push(pass(PassKind::ForwardLookAhead, below, split));
            if split < end {
                plan.rest.push(pass(PassKind::ForwardUpdate, split, end));
            }
        } else {
            plan.first.push(pass(PassKind::ForwardUpdate, below, end));
        }
        plan.next_panel = Some([0, below, 1, split - below]);
        plan
    }

    /// Backward substitution (the paper's Figs. 2–3), block i: once x_i is final, the GPU
    /// subtracts A(:, block i)·x_i from the residual in double precision (r is 1 × N texels, one
    /// double each; A is N × N). Roles: S/T the residual (`Aux(2)`, b, is the source of the
    /// sweep's first pass), `Aux(0)` A, `Aux(1)` x_i.
    pub fn backward_step(&self, i: usize) -> PlannedPass {
        use Role::{Aux, S, T};
        let (c, w) = self.panel(i);
        let source = if i + 1 == self.steps() { Aux(2) } else { S };
        PlannedPass::new(
            PassKind::ResidualUpdate,
            &kernels::LU_RESIDUAL,
            T,
            &[source, Aux(0), Aux(1)],
            fig::block_rect(0, 0, 1, self.padded as u32),
            i as u32,
        )
        .uniform("c0", c as f32)
        .uniform("count", w as f32)
    }

    /// Fragments of one forward and one backward sweep, by formula: Σ over blocks i < s − 1 of
    /// the N/2 − (c_i + w_i)/2 rows below block i, and s·N.
    pub fn sweep_fragments_by_formula(&self) -> (u64, u64) {
        let forward = (0..self.steps().saturating_sub(1))
            .map(|i| self.padded / 2 - (self.panel(i).0 + self.block) / 2)
            .sum::<usize>();
        (forward as u64, (self.steps() * self.padded) as u64)
    }

    /// Fragments of every pass name over the whole factorization, by formula: the strip of step
    /// k covers (w_k/2)·(W − r_k) texels and the updates (N/2 − r_k)·(W − r_k), r_k = (c_k+w_k)/2.
    pub fn fragments_by_formula(&self) -> (u64, u64) {
        let (width, height) = self.texture_size();
        let (mut strip, mut update) = (0u64, 0u64);
        for k in 0..self.steps() {
            let (c, w) = self.panel(k);
            let r = (c + w) / 2;
            strip += ((w / 2) * (width - r)) as u64;
            if k + 1 < self.steps() {
                update += ((height - r) * (width - r)) as u64;
            }
        }
        (strip, update)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::plan::predicted_fragments;

    #[test]
    fn plans_cover_the_formula_fragments_for_odd_and_round_sizes() {
        for n in [1usize, 2, 3, 7, 15, 16, 17, 31, 33, 40] {
            for nb in [4usize, 8, 16] {
                for rhs in [false, true] {
                    for lookahead in [false, true] {
                        let b = Blocking::new(n, nb, rhs, lookahead).unwrap();
                        let (w, h) = b.texture_size();
                        let (mut strip, mut update) = (0, 0);
                        for k in 0..b.steps() {
                            let p = b.step(k);
                            let all: Vec<_> = p.first.iter().chain(&p.rest).cloned().collect();
                            let f = predicted_fragments(&all, w as u32, h as u32).unwrap();
                            strip += f.get("lu_upper_strip").copied().unwrap_or(0);
                            update += f.iter().filter(|(n, _)| n.contains("update")).map(|(_, v)| v).sum::<u64>();
                            assert_eq!(p.next_panel.is_some(), k + 1 < b.steps());
                            assert!(p.rest.is_empty() || lookahead);
                        }
                        assert_eq!((strip, update), b.fragments_by_formula(), "n={n} nb={nb} rhs={rhs}");
                    }
                }
            }
        }
    }

    #[test]
    fn lookahead_splits_the_update_at_the_next_panel() {
        let b = Blocking::new(40, 8, false, true).unwrap();
        let p = b.step(1);
        let names: Vec<_> = p.first.iter().chain(&p.rest).map(|p| p.name).collect();
        assert_eq!(names, ["lu_upper_strip", "lu_lookahead_update", "lu_trailing_update"]);
        // Panel 2 is columns 16..24: texels 8..12 of rows 8..20.
        assert_eq!(p.next_panel, Some([8, 8, 4, 12]));
        let last = b.step(b.steps() - 1);
        assert!(last.first.is_empty() && last.rest.is_empty() && last.next_panel.is_none());
        let no = Blocking::new(40, 8, false, false).unwrap().step(1);
        assert_eq!(no.first.iter().map(|p| p.name).collect::<Vec<_>>(), ["lu_upper_strip", "lu_trailing_update"]);
    }

    #[test]
    fn sweeps_cover_the_formula_fragments() {
        for n in [1usize, 2, 5, 8, 9, 23, 32, 33] {
            for lookahead in [false, true] {
                let b = Blocking::new(n, 4, false, lookahead).unwrap();
                let mut forward = 0;
                for i in 0..b.steps() {
                    let p = b.forward_step(i);
                    let all: Vec<_> = p.first.iter().chain(&p.rest).cloned().collect();
                    forward += predicted_fragments(&all, 1, (b.padded / 2) as u32).unwrap().values().sum::<u64>();
                    if let Some([_, y, _, h]) = p.next_panel {
                        assert_eq!((y as usize * 2, h as usize * 2), (b.panel(i + 1).0, b.panel(i + 1).1));
                    }
                }
                let backward: u64 = (0..b.steps())
                    .map(|i| predicted_fragments(&[b.backward_step(i)], 1, b.padded as u32).unwrap()["residual_update"])
                    .sum();
                assert_eq!((forward, backward), b.sweep_fragments_by_formula(), "n={n}");
            }
        }
    }

    #[test]
    fn bad_shapes_are_refused() {
        assert!(matches!(Blocking::new(0, 8, false, true), Err(GpuError::Shape(_))));
        assert!(matches!(Blocking::new(10, 6, false, true), Err(GpuError::Unsupported(_))));
    }
}
