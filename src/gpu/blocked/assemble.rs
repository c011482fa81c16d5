//! Blocked assembly of C = A·D²·Aᵀ: one fragment per 2×2 block of the lower triangle of C,
//! looping over b columns of A per pass (b a multiple of 4; b ≥ n: a single pass, the
//! rectangular assembly the 2008 structure paper's Fig. 10 sets against the outer-product form).
//! A is uploaded once as runs of four columns per texel with its rows padded (with zeros) to the
//! factorization's size M; C comes out in 2×2 blocks, padded with the identity, ready for the
//! blocked Cholesky. Passes: one scaling B = A·D² (⌈n/4⌉·M fragments), then ⌈n/b⌉ sums, each
//! over M/2·(M/2 + 1)/2 fragments.

use crate::geometry::blocks::lower_triangle;
use crate::gl::{Gpu, PingPong, TexelFormat, TexelGrid, Texture};
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::plan::{execute, PassKind, PlannedPass, Role};
use crate::kernels;
use crate::layout::{Blocks2x2, Rows4};
use std::rc::Rc;

/// A (m×n, rows padded to `padded_rows`, runs of four columns) and d² (runs of four) on the GPU.
pub struct BlockedOperands {
    pub m: usize,
    pub n: usize,
    pub a_layout: Rows4,
    /// Rows of A's texture (M of the factorization: rows ≥ m are zero).
    pub padded_rows: usize,
    /// Shared with the matrix–vector kernels of the LP.
    pub a: Rc<Texture>,
    /// d², ⌈n/4⌉ texels.
    pub d: Texture,
    /// B = A·D² (A's layout), made by the first pass of each assembly.
    pub scaled: Texture,
    /// A diagonal the assembly adds (four entries per texel over the padded rows, 1 past row
    /// m): the columns of one entry split off A ([`Self::allocate_diagonal`]).
    pub diagonal: Option<Texture>,
}

impl BlockedOperands {
    /// Uploads A (row-major m×n) once, its rows padded to `padded_rows`. Non-finite entries are
    /// refused with their position.
    pub fn new(gpu: &Gpu, a: &[f32], m: usize, n: usize, padded_rows: usize) -> GpuResult<Self> {
        let layout = Rows4::new(m, n);
        let rows = padded_rows.max(m);
        let a = upload_rows4(gpu, a, m, n, rows)?;
        let (w, _) = layout.texture_size();
        let d = gpu.texture_of(TexelFormat::Rgba32F, w, 1, "d², four per texel")?;
        let scaled = gpu.texture_of(TexelFormat::Rgba32F, w, rows, "A·D² (runs of four columns)")?;
        scaled.set_grid(TexelGrid::Runs4);
        Ok(Self { m, n, a_layout: layout, padded_rows: rows, a, d, scaled, diagonal: None })
    }

    /// Writes new values of A (row-major m×n, the size it was made with) into its texture:
    /// for a system whose A changes from one factorization to the next. Non-finite entries
    /// are refused with their position.
    pub fn write_a(&self, gpu: &Gpu, a: &[f32]) -> GpuResult<()> {
        let (m, n) = (self.m, self.n);
        if a.len() != m * n {
            return Err(GpuError::Shape(format!("A has {} values, an {m}×{n} matrix needs {}", a.len(), m * n)));
        }
        if let Some(p) = a.iter().position(|v| !v.is_finite()) {
            return Err(GpuError::NonFinite { what: "A".into(), row: p / n, col: p % n, value: a[p] as f64 });
        }
        let (w, _) = self.a_layout.texture_size();
        let mut data = self.a_layout.pack(a);
        data.resize(w * 4 * self.padded_rows, 0.0);
        gpu.write(&self.a, &data)?;
        Ok(())
    }

    /// From now on every assembly adds a diagonal, zero until [`Self::set_diagonal`].
    pub fn allocate_diagonal(&mut self, gpu: &Gpu) -> GpuResult<()> {
        if self.diagonal.is_none() {
            let texels = self.padded_rows.div_ceil(4);
            self.diagonal =
                Some(gpu.texture_of(TexelFormat::Rgba32F, texels, 1, "the diagonal added, four per texel")?);
        }
        self.set_diagonal(gpu, &vec![0.0; self.m])
    }

    /// Sets the diagonal added (m entries, each finite and ≥ 0; the padded rows get 1, the
    /// identity the factorization expects there). Without [`Self::allocate_diagonal`] an error.
    pub fn set_diagonal(&self, gpu: &Gpu, delta: &[f32]) -> GpuResult<()> {
        let Some(t) = &self.diagonal else {
            return Err(GpuError::Shape("a diagonal for operands made without one".into()));
        };
        if delta.len() != self.m {
            return Err(GpuError::Shape(format!("the diagonal has {} values, A has {} rows", delta.len(), self.m)));
        }
        if let Some(k) = delta.iter().position(|v| !(v.is_finite() && *v >= 0.0)) {
            return Err(GpuError::NegativeDiagonal { index: k, value: delta[k] as f64 });
        }
        let mut data = delta.to_vec();
        data.resize(4 * self.padded_rows.div_ceil(4), 1.0);
        gpu.write(t, &data)?;
        Ok(())
    }

    /// Sets d² from host values (n, each finite and ≥ 0).
    pub fn set_d2(&self, gpu: &Gpu, d2: &[f32]) -> GpuResult<()> {
        if d2.len() != self.n {
            return Err(GpuError::Shape(format!("d has {} values, A has {} columns", d2.len(), self.n)));
        }
        if let Some(k) = d2.iter().position(|v| !(v.is_finite() && *v >= 0.0)) {
            return Err(GpuError::NegativeWeight { index: k, value: d2[k] as f64 });
        }
        gpu.write(&self.d, &Rows4::vector(self.n).pack(d2))?;
        Ok(())
    }
}

/// Uploads A (row-major m×n) as runs of four columns per RGBA32F texel ([`Rows4`]), its rows
/// padded with zeros to `rows` (at least m): the layout of the blocked assembly and of
/// `gemv_rows4` (which needs at least 4⌈m/4⌉ rows). Non-finite entries are refused with their
/// position.
pub fn upload_rows4(gpu: &Gpu, a: &[f32], m: usize, n: usize, rows: usize) -> GpuResult<Rc<Texture>> {
    if a.len() != m * n {
        return Err(GpuError::Shape(format!("A has {} values, an {m}×{n} matrix needs {}", a.len(), m * n)));
    }
    if m == 0 || n == 0 {
        return Err(GpuError::Shape(format!("A is {m}×{n}: both sizes must be at least 1")));
    }
    if let Some(p) = a.iter().position(|v| !v.is_finite()) {
        return Err(GpuError::NonFinite { what: "A".into(), row: p / n, col: p % n, value: a[p] as f64 });
    }
    let layout = Rows4::new(m, n);
    let (w, _) = layout.texture_size();
    let rows = rows.max(m);
    gpu.check_size(w, rows, "A (runs of four columns)")?;
    let mut data = layout.pack(a);
    data.resize(w * 4 * rows, 0.0);
    let t = Rc::new(gpu.upload_of(TexelFormat::Rgba32F, w, rows, &data, "A (runs of four columns)")?);
    t.set_grid(TexelGrid::Runs4);
    Ok(t)
}

/// The aux role of the diagonal added ([`BlockedOperands::diagonal`]).
pub const DIAGONAL: Role = Role::Aux(3);

/// The passes assembling C (the m×m result in `layout`) from n columns, `b` columns per pass
/// (rounded up to a multiple of 4): first B = A·D² into `Aux(2)`, then the accumulations. A is
/// `Aux(0)` (rows padded to `padded_rows`), d² `Aux(1)`; C ends in S.
pub fn plan(m: usize, n: usize, b: usize, layout: &Blocks2x2) -> Vec<PlannedPass> {
    plan_with(m, n, b, layout, false)
}

/// [`plan`], with `diagonal`: the first sum also reads the diagonal added ([`DIAGONAL`]) and
/// starts the diagonal blocks from it.
pub fn plan_with(m: usize, n: usize, b: usize, layout: &Blocks2x2, diagonal: bool) -> Vec<PlannedPass> {
    let texels = n.div_ceil(4).max(1);
    let per_pass = b.max(4).div_ceil(4);
    let mb = (layout.padded_rows / 2) as u32;
    let mut passes = vec![PlannedPass::new(
        PassKind::ScaleColumns,
        &kernels::SCALE_COLUMNS4,
        Role::Aux(2),
        &[Role::Aux(0), Role::Aux(1)],
        crate::geometry::blocks::rect(0, 0, texels as u32, layout.padded_rows as u32),
        0,
    )];
    let mut k0 = 0;
    while k0 < texels {
        let k1 = (k0 + per_pass).min(texels);
        let first = k0 == 0;
        let sources: &[Role] = match (first, diagonal) {
            (true, false) => &[Role::Aux(2), Role::Aux(0)],
            (true, true) => &[Role::Aux(2), Role::Aux(0), DIAGONAL],
            (false, _) => &[Role::Aux(2), Role::Aux(0), Role::S],
        };
        let pass = PlannedPass::new(
            PassKind::AssembleBlocks,
            &kernels::ASSEMBLE_BLOCKS,
            Role::T,
            sources,
            lower_triangle(0, mb),
            (k0 / per_pass) as u32,
        )
        .uniform("k0", k0 as f32)
        .uniform("k1", k1 as f32)
        .uniform("m", m as f32)
        .then_swap();
        passes.push(match (first, diagonal) {
            (true, false) => pass,
            (true, true) => pass.defines(&["DIAGONAL"]),
            (false, _) => pass.defines(&["ACCUMULATE"]),
        });
        k0 = k1;
    }
    passes
}

/// Assembles C into `c` (S holds it on return) in the 2×2-block `layout`, `b` columns per pass.
pub fn assemble_into(
    gpu: &Gpu,
    ops: &BlockedOperands,
    c: &mut PingPong,
    layout: &Blocks2x2,
    b: usize,
) -> GpuResult<()> {
    if layout.padded_rows > ops.padded_rows || layout.rows != ops.m {
        return Err(GpuError::Shape(format!(
            "C of order {} (padded {}) from A with {} rows (padded {})",
            layout.rows, layout.padded_rows, ops.m, ops.padded_rows
        )));
    }
    let (w, h) = layout.texture_size();
    if (c.source().width() as usize, c.source().height() as usize) != (w, h) {
        return Err(GpuError::Shape(format!("C textures are {:?}, the layout needs {w}×{h}", c.source())));
    }
    let mut aux = vec![&*ops.a, &ops.d, &ops.scaled];
    aux.extend(&ops.diagonal);
    execute(gpu, c, &aux, &plan_with(ops.m, ops.n, b, layout, ops.diagonal.is_some()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::plan::predicted_fragments;

    #[test]
    fn passes_are_ceil_n_over_b_each_over_the_lower_triangle_of_blocks() {
        for (m, n, b) in [(1, 1, 4), (5, 7, 4), (9, 33, 8), (17, 64, 64), (17, 64, 1000), (30, 10, 12)] {
            let layout = Blocks2x2::square(m, 8);
            let p = plan(m, n, b, &layout);
            let b4 = b.max(4).div_ceil(4) * 4;
            let sums = n.div_ceil(b4);
            assert_eq!(p.len(), 1 + sums, "m={m} n={n} b={b}");
            let mb = layout.padded_rows / 2;
            let f = predicted_fragments(&p, n.div_ceil(4).max(mb) as u32, layout.padded_rows as u32)
                .expect("no centre on an edge");
            assert_eq!(f["assemble_blocks"], (sums * mb * (mb + 1) / 2) as u64);
            assert_eq!(f["scale_columns"], (n.div_ceil(4) * layout.padded_rows) as u64);
            assert!(p[1].defines.is_empty() && p[2..].iter().all(|q| q.defines == ["ACCUMULATE"]));
        }
    }

    #[test]
    fn a_diagonal_is_read_by_the_first_sum_only_and_costs_no_pass() {
        for (m, n, b) in [(1, 1, 4), (5, 7, 4), (9, 33, 8), (17, 64, 1000)] {
            let layout = Blocks2x2::square(m, 8);
            let (plain, with) = (plan(m, n, b, &layout), plan_with(m, n, b, &layout, true));
            assert_eq!(plain.len(), with.len());
            let rows = layout.padded_rows as u32;
            let f = |p: &[PlannedPass]| predicted_fragments(p, n.div_ceil(4).max(rows as usize) as u32, rows);
            assert_eq!(f(&plain), f(&with), "m={m} n={n} b={b}");
            assert_eq!((with[1].defines, with[1].sources.last()), (&["DIAGONAL"][..], Some(&DIAGONAL)));
            assert!(with[2..].iter().all(|q| q.defines == ["ACCUMULATE"] && !q.sources.contains(&DIAGONAL)));
        }
    }
}
