//! Algorithms planned as data: a pure function returns the passes (kernel, primitive, which
//! ping-pong texture is read and which is written), tests check the plan without GL, and
//! [`execute`] runs it.

use crate::geometry::coverage::{fragments, CoverageError};
use crate::geometry::Primitive;
use crate::gl::{GlResult, Gpu, Kernel, Pass, PingPong, Texture};
use std::collections::BTreeMap;

/// A texture a planned pass refers to by role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The ping-pong source S.
    S,
    /// The ping-pong target T.
    T,
    /// The n-th auxiliary texture given to [`execute`].
    Aux(usize),
    /// Plane q of a planed ping-pong S ([`execute_planes`]; plane 0 is S).
    SPlane(usize),
    /// Plane q of a planed ping-pong T (plane 0 is T).
    TPlane(usize),
}

/// What a planned pass does, in the papers' words. Algorithms that treat one kind of pass
/// specially (the tiny-pivot square root of the interior-point normal equations) match on this
/// type, never on a name string; the name is only for logs, counts and the viewer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PassKind {
    /// Square root of the pivot (Kernel 3).
    SquareRoot,
    CopyDiagonal,
    /// The column below the pivot divided by it (Kernel 4).
    Normalize,
    CopyColumn,
    /// Outer-product update of the trailing matrix (Kernel 5).
    OuterUpdate,
    /// Inner-product column update (Fig. 4a).
    InnerUpdate,
    /// Assembly: b = d(k)·A(:, k) (Fig. 2a).
    ColumnScale,
    /// Assembly: C += A(:, k)·bᵀ (Fig. 2b).
    OuterAdd,
    /// Substitution: f(k) / L(k, k).
    Divide,
    CopyEntry,
    /// Forward substitution's sub-column update.
    SubColumn,
    /// Back substitution's sub-row update.
    SubRow,
    /// LU: row exchange of the pivot search.
    SwapRows,
    CopyRow,
    /// LU: rank-1 elimination of the trailing square.
    Elimination,
    /// Blocked Cholesky: the diagonal block.
    BlockDiagonal,
    /// Blocked Cholesky: the panel below the diagonal block.
    BlockPanel,
    /// Blocked Cholesky: the rank-B update of the trailing matrix.
    BlockUpdate,
    /// Blocked assembly: B = A·D², four columns per texel.
    ScaleColumns,
    /// Blocked assembly: b columns of A·D²·Aᵀ per pass.
    AssembleBlocks,
    /// Blocked substitution: one block of B entries solved and the rest updated.
    SubstituteBlock,
    /// Register-tiled assembly: a tile of A·D²·Aᵀ per fragment over b columns of A.
    AssembleTiles,
    /// Register tiles: 8×4 tiles to 4×4 tiles.
    Retile,
    /// Tiled Cholesky: the diagonal block.
    TileDiagonal,
    /// Tiled Cholesky: the panel below the diagonal block.
    TilePanel,
    /// Tiled Cholesky: the rank-B update of the trailing matrix.
    TileUpdate,
    /// Tiled substitution: one block of B entries solved and the rest updated.
    SubstituteTiles,
    /// Blocked LU: U12 = L11⁻¹·(P·A)12, the panel's strip of U.
    UpperStrip,
    /// Blocked LU: the trailing update of the next panel's columns only (the look-ahead).
    LookAheadUpdate,
    /// Blocked LU: the trailing update of the other columns (all of them without look-ahead).
    TrailingUpdate,
    /// Blocked forward substitution: the next block of r, updated first (the look-ahead).
    ForwardLookAhead,
    /// Blocked forward substitution: the other rows of r.
    ForwardUpdate,
    /// Blocked backward substitution: r ← r − A(:, block)·x_block in double precision.
    ResidualUpdate,
}

impl PassKind {
    /// The name in logs, pass counts and the viewer.
    pub const fn name(self) -> &'static str {
        match self {
            PassKind::SquareRoot => "sqrt",
            PassKind::CopyDiagonal => "copy_diagonal",
            PassKind::Normalize => "normalize",
            PassKind::CopyColumn => "copy_column",
            PassKind::OuterUpdate => "outer_update",
            PassKind::InnerUpdate => "inner_update",
            PassKind::ColumnScale => "column_scale",
            PassKind::OuterAdd => "outer_add",
            PassKind::Divide => "divide",
            PassKind::CopyEntry => "copy_entry",
            PassKind::SubColumn => "sub_column",
            PassKind::SubRow => "sub_row",
            PassKind::SwapRows => "swap_rows",
            PassKind::CopyRow => "copy_row",
            PassKind::Elimination => "elimination",
            PassKind::BlockDiagonal => "block_diagonal",
            PassKind::BlockPanel => "block_panel",
            PassKind::BlockUpdate => "block_update",
            PassKind::ScaleColumns => "scale_columns",
            PassKind::AssembleBlocks => "assemble_blocks",
            PassKind::SubstituteBlock => "substitute_block",
            PassKind::AssembleTiles => "assemble_tiles",
            PassKind::Retile => "retile",
            PassKind::TileDiagonal => "tile_diagonal",
            PassKind::TilePanel => "tile_panel",
            PassKind::TileUpdate => "tile_update",
            PassKind::SubstituteTiles => "substitute_tiles",
            PassKind::UpperStrip => "lu_upper_strip",
            PassKind::LookAheadUpdate => "lu_lookahead_update",
            PassKind::TrailingUpdate => "lu_trailing_update",
            PassKind::ForwardLookAhead => "forward_lookahead",
            PassKind::ForwardUpdate => "forward_update",
            PassKind::ResidualUpdate => "residual_update",
        }
    }
}

/// One pass of a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedPass {
    pub kind: PassKind,
    /// `kind.name()`, kept as a field for logs and tests.
    pub name: &'static str,
    pub kernel: &'static Kernel,
    pub defines: &'static [&'static str],
    pub target: Role,
    /// Targets written by the same fragments after `target` (multiple render targets).
    pub more_targets: Vec<Role>,
    pub sources: Vec<Role>,
    pub primitive: Primitive,
    pub uniforms: Vec<(&'static str, f32)>,
    pub step: u32,
    /// Swap S and T after this pass.
    pub swap_after: bool,
}

impl PlannedPass {
    /// A pass writing `target` from `sources` at step `k`.
    pub fn new(
        kind: PassKind,
        kernel: &'static Kernel,
        target: Role,
        sources: &[Role],
        primitive: Primitive,
        k: u32,
    ) -> Self {
        Self {
            kind,
            name: kind.name(),
            kernel,
            defines: &[],
            target,
            more_targets: Vec::new(),
            sources: sources.to_vec(),
            primitive,
            uniforms: Vec::new(),
            step: k,
            swap_after: false,
        }
    }
    pub fn defines(mut self, d: &'static [&'static str]) -> Self {
        self.defines = d;
        self
    }
    /// Adds targets after `target` (one per plane of a register tile).
    pub fn more_targets(mut self, t: &[Role]) -> Self {
        self.more_targets = t.to_vec();
        self
    }
    /// Every target, `target` first.
    pub fn targets(&self) -> impl Iterator<Item = Role> + '_ {
        std::iter::once(self.target).chain(self.more_targets.iter().copied())
    }
    pub fn uniform(mut self, name: &'static str, v: f32) -> Self {
        self.uniforms.push((name, v));
        self
    }
    pub fn then_swap(mut self) -> Self {
        self.swap_after = true;
        self
    }
}

fn resolve<'a>(pp: &'a [PingPong], aux: &[&'a Texture], r: Role) -> &'a Texture {
    match r {
        Role::S => pp[0].source(),
        Role::T => pp[0].target(),
        Role::SPlane(q) => pp[q].source(),
        Role::TPlane(q) => pp[q].target(),
        Role::Aux(n) => aux[n],
    }
}

/// Runs the plan's passes in order on `pp` (swapping where the plan says) and `aux`.
pub fn execute(gpu: &Gpu, pp: &mut PingPong, aux: &[&Texture], plan: &[PlannedPass]) -> GlResult<()> {
    execute_planes(gpu, std::slice::from_mut(pp), aux, plan)
}

/// Runs the plan on a planed ping-pong: plane q of S and T is `pp[q]`, and a swap swaps every
/// plane.
pub fn execute_planes(gpu: &Gpu, pp: &mut [PingPong], aux: &[&Texture], plan: &[PlannedPass]) -> GlResult<()> {
    // Kernels compile before the first pass so compilation never lands inside a measured pass.
    for p in plan {
        gpu.prepare(p.kernel, p.defines)?;
    }
    for p in plan {
        let sources: Vec<&Texture> = p.sources.iter().map(|&r| resolve(pp, aux, r)).collect();
        let more: Vec<&Texture> = p.more_targets.iter().map(|&r| resolve(pp, aux, r)).collect();
        let pass = Pass::new(p.name, p.kernel, resolve(pp, aux, p.target), &sources, p.primitive)
            .more_targets(&more)
            .defines(p.defines)
            .uniforms(&p.uniforms)
            .step(p.step);
        gpu.run(&pass)?;
        if p.swap_after {
            pp.iter_mut().for_each(PingPong::swap);
        }
    }
    Ok(())
}

/// Fragments each pass name of a plan shades on a `width × height` target, from the reference
/// rasterizer (no GL): what the occlusion queries must report.
pub fn predicted_fragments(
    plan: &[PlannedPass],
    width: u32,
    height: u32,
) -> Result<BTreeMap<&'static str, u64>, CoverageError> {
    let mut m = BTreeMap::new();
    for p in plan {
        let n = fragments(&p.primitive, width, height)?.len() as u64;
        *m.entry(p.name).or_insert(0) += n;
    }
    Ok(m)
}
