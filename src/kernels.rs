//! Every shader of glsolve, one file each under `glsl/`, compiled into the binary.
//! Kernel files carry no `#version`: the GL layer prepends it and the variant `#define`s.

use crate::gl::Kernel;

macro_rules! kernels {
    ($($(#[$doc:meta])* $name:ident = $file:literal $([$($variant:ident),*])?;)*) => {
        $($(#[$doc])* pub const $name: Kernel = Kernel {
            file: $file,
            source: include_str!(concat!("../glsl/", $file)),
            variants: &[$($(stringify!($variant)),*)?],
        };)*
    };
}

kernels! {
    /// Writes the source texel at the fragment's own position (the papers' copy kernel).
    COPY = "copy.frag";
    /// Writes the source texel at the interpolated T0 (gathers, transposes via swizzled vertices).
    FETCH_T0 = "fetch_t0.frag" [SWIZZLE_YX];
    /// Writes T0.x, T0.y, T1.x or T1.y (selected by the uniform `component`): coordinate probes.
    PROBE_COORDS = "probe_coords.frag";
    /// Writes the uniform `value` (fills, markers).
    FILL = "fill.frag";
}

kernels! {
    /// Square root of the pivot; a pivot that is not positive is kept as it is (breakdown marker);
    /// `TINY_PIVOT` replaces noise-level pivots by a huge one (interior-point normal equations).
    SQRT = "sqrt.frag" [TINY_PIVOT];
    /// Kernel 4: the column divided by the pivot at T0.
    NORMALIZE = "normalize.frag";
    /// Kernel 5: L(i,j) − L(i,k)·L(j,k); variants TRIAD (one triad) and COMPUTED_INDEX.
    OUTER_UPDATE = "outer_update.frag" [TRIAD, COMPUTED_INDEX];
    /// Fig. 4a: the column k+1 minus the inner products of rows with row k+1 (dynamic loop).
    INNER_UPDATE = "inner_update.frag";
}

kernels! {
    /// Kernel 1 (2008 structure paper): b(i) = A(i, k)·d(k) through one triad, `.yx` and `.yz`.
    COLUMN_SCALE = "column_scale.frag";
    /// Kernel 2: C(i, j) + A(i, k)·b(j), A at T0 and b at T1.
    OUTER_ADD = "outer_add.frag";
}

kernels! {
    /// Kernel 1 (2008 IPM paper): f(k) / L(k, k), the pivot at T0.
    DIVIDE = "divide.frag";
    /// Kernels 2 and 3: f(i) − f(k)·L, f(k) at T0, L at T1 (`SWIZZLE_YX`: read `.yx`, Kernel 2).
    SUBTRACT = "subtract.frag" [SWIZZLE_YX];
    /// Element-wise vector operations: `AXPBY` αx + βy, `MUL` x⊙y, `DIV` x/y, `AFFINE` αx + β.
    ELEMENTWISE = "elementwise.frag" [AXPBY, MUL, DIV, AFFINE];
    /// One halving pass of a reduction: `SUM`, `MAXABS`, `MIN` or `MAX` of entries 2j and 2j+1.
    REDUCE = "reduce.frag" [SUM, MAXABS, MIN, MAX];
    /// The line-search ratio −x/Δx where Δx < 0, else +∞ (NaN in, NaN out).
    STEP_RATIO = "step_ratio.frag";
    /// Matrix–vector product in one pass: y = α·A·x (+ β·z), or with `TRANSPOSE` y = α·Aᵀ·x (+ β·z).
    GEMV = "gemv.frag" [TRANSPOSE, ADD_VECTOR];
}

kernels! {
    /// Re-centring of split free variables (both parts lowered by the same excess).
    RECENTER = "recenter.frag";
}

kernels! {
    /// Pivot search, second stage: the entry's index where |v| equals the column's max-abs (read
    /// from a 1×1 texture), +∞ elsewhere or when the max is 0 (a min reduction then gives the
    /// first pivot row, or +∞ for a singular column).
    ARGMATCH = "argmatch.frag";
}

kernels! {
    /// Blocked Cholesky: the diagonal block factored in registers by every fragment.
    CHOL_BLOCK_DIAG = "chol_block_diag.frag" [BLOCK, TINY_PIVOT];
    /// Blocked Cholesky: the panel L21 = A21·L11⁻ᵀ by forward substitution, with L11 copied in.
    CHOL_BLOCK_PANEL = "chol_block_panel.frag" [BLOCK];
    /// Blocked Cholesky: the rank-B update of the trailing lower triangle of 2×2 blocks.
    CHOL_BLOCK_UPDATE = "chol_block_update.frag" [BLOCK];
    /// Blocked assembly: a 2×2 block of A·D²·Aᵀ accumulated over a range of columns of A.
    ASSEMBLE_BLOCKS = "assemble_blocks.frag" [ACCUMULATE];
    /// Register-tiled assembly: a ROWS × COLS tile of A·D²·Aᵀ per fragment, written to PLANES
    /// targets at once.
    ASSEMBLE_TILES = "assemble_tiles.frag" [ROWS, COLS, PLANES, ACCUMULATE];
    /// Register-tiled Cholesky: the diagonal block in registers, written as 4×4 tiles (four planes).
    TILE_DIAG = "tile_diag.frag" [BLOCK, TINY_PIVOT];
    /// Register-tiled Cholesky: the panel L21 = A21·L11⁻ᵀ, four rows per fragment.
    TILE_PANEL = "tile_panel.frag" [BLOCK];
    /// Register-tiled Cholesky: the rank-B update of the trailing lower triangle of 4×4 tiles.
    TILE_UPDATE = "tile_update.frag" [BLOCK];
    /// Register-tiled forward substitution with a factor in 4×4 tiles.
    TILE_FORWARD = "tile_forward.frag" [BLOCK];
    /// Register-tiled back substitution with a factor in 4×4 tiles, last block first.
    TILE_BACKWARD = "tile_backward.frag" [BLOCK];
    /// The diagonal of a matrix in 4×4 tiles as a vector of four entries per texel.
    TILE_GATHER_DIAGONAL = "tile_gather_diagonal.frag";
    /// 8×4 tiles (eight planes) to 4×4 tiles (four planes).
    RETILE = "retile.frag";
    /// B = A·D² for A in runs of four columns (the blocked assembly's first operand).
    SCALE_COLUMNS4 = "scale_columns4.frag";
    /// Blocked forward substitution: one block solved (redundantly per fragment), the rest updated.
    SUBST_FORWARD_BLOCK = "subst_forward_block.frag" [BLOCK];
    /// Blocked back substitution with Lᵀ, last block first.
    SUBST_BACKWARD_BLOCK = "subst_backward_block.frag" [BLOCK];
    /// Element-wise operations on vectors of four entries per texel (padding kept at zero).
    ELEMENTWISE4 = "elementwise4.frag" [AXPBY, MUL, DIV, AFFINE];
    /// One pass of a reduction over vec4 vectors, eight texels per fragment.
    REDUCE4 = "reduce4.frag" [SUM, MAXABS, MIN, MAX, FIRST];
    /// The line-search ratio on vec4 vectors.
    STEP_RATIO4 = "step_ratio4.frag";
    /// Re-centring of split free variables on vec4 vectors.
    RECENTER4 = "recenter4.frag";
    /// y = α·A·x (+ β·z) or, with `TRANSPOSE`, y = α·Aᵀ·x (+ β·z) for A in runs of four columns.
    GEMV_ROWS4 = "gemv_rows4.frag" [TRANSPOSE, ADD_VECTOR];
    /// The diagonal of a 2×2-block matrix as a vector of four entries per texel.
    GATHER_DIAGONAL4 = "gather_diagonal4.frag";
    /// Writes `value` into every channel of an RGBA texel.
    FILL4 = "fill4.frag" [MASKED];
    /// Copies RGBA texels at the fragment's own position.
    COPY4 = "copy4.frag";
    /// Blocked LU: A22 ← P·A22 − L21·U12 on 2×2 blocks (RGBA), rows through the row map; `NB` the
    /// panel width.
    LU_TRAILING_UPDATE = "lu_trailing_update.frag" [NB];
    /// Blocked LU: U12 = L11⁻¹·(P·A)12 from the explicit inverse the CPU forms (RGBA).
    LU_UPPER_STRIP = "lu_upper_strip.frag" [NB];
    /// Blocked forward substitution: r ← r − L(rows, c)·y_c, two entries per texel (RGBA).
    LU_FORWARD_UPDATE = "lu_forward_update.frag" [NB];
    /// Blocked backward substitution's GPU half: r ← r − A(:, block)·x_block in double precision,
    /// doubles stored as three floats (RGBA).
    LU_RESIDUAL = "lu_residual.frag";
}

/// Every kernel above (for tests and tools that check them all).
pub const ALL: &[&Kernel] = &[
    &COPY,
    &FETCH_T0,
    &PROBE_COORDS,
    &FILL,
    &SQRT,
    &NORMALIZE,
    &OUTER_UPDATE,
    &INNER_UPDATE,
    &COLUMN_SCALE,
    &OUTER_ADD,
    &DIVIDE,
    &SUBTRACT,
    &ELEMENTWISE,
    &REDUCE,
    &STEP_RATIO,
    &GEMV,
    &RECENTER,
    &ARGMATCH,
    &LU_TRAILING_UPDATE,
    &LU_UPPER_STRIP,
    &LU_FORWARD_UPDATE,
    &LU_RESIDUAL,
    &CHOL_BLOCK_DIAG,
    &CHOL_BLOCK_PANEL,
    &CHOL_BLOCK_UPDATE,
    &GATHER_DIAGONAL4,
    &FILL4,
    &COPY4,
    &ASSEMBLE_BLOCKS,
    &ASSEMBLE_TILES,
    &TILE_DIAG,
    &TILE_PANEL,
    &TILE_UPDATE,
    &TILE_FORWARD,
    &TILE_BACKWARD,
    &TILE_GATHER_DIAGONAL,
    &RETILE,
    &SCALE_COLUMNS4,
    &SUBST_FORWARD_BLOCK,
    &SUBST_BACKWARD_BLOCK,
    &ELEMENTWISE4,
    &REDUCE4,
    &STEP_RATIO4,
    &RECENTER4,
    &GEMV_ROWS4,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gl::dialect::{Dialect, Stage, ES_SAMPLER_TYPES};

    #[test]
    fn every_declared_variant_is_read_by_its_kernel() {
        for k in ALL {
            for v in k.variants {
                assert!(k.source.contains(v), "{} declares variant {v} but never reads it", k.file);
            }
        }
    }

    #[test]
    fn every_source_texture_is_a_sampler_rect_whose_es_type_is_high_precision() {
        // The ES prelude makes `samplerRECT` a `sampler2D` and sets the precision of the types
        // in `ES_SAMPLER_TYPES`; a kernel declaring any other sampler type would get lowp.
        let es = crate::gl::dialect::prelude(Dialect::Essl300, crate::gl::ES_FETCH, Stage::Fragment, &[], &[]);
        assert!(es.contains("#define samplerRECT sampler2D\n"));
        for t in ES_SAMPLER_TYPES {
            assert!(es.contains(&format!("precision highp {t};")));
        }
        for k in ALL {
            for line in k.source.lines().map(|l| l.split("//").next().unwrap_or("").trim()) {
                if let Some(rest) = line.strip_prefix("uniform ") {
                    let ty = rest.split_whitespace().next().unwrap_or("");
                    assert!(ty == "float" || ty == "samplerRECT", "{}: `{line}` (sources are samplerRECT)", k.file);
                }
                assert!(!line.contains("sampler2D"), "{}: `{line}` names a sampler type directly", k.file);
            }
        }
    }

    #[test]
    fn no_kernel_carries_a_version_line_or_writes_its_output_by_a_variable_index() {
        for k in ALL {
            assert!(!k.source.contains("#version"), "{}", k.file);
            // ANGLE (WebGL) accepts only constant indices into a fragment output.
            assert!(!k.source.contains("result["), "{} indexes its output", k.file);
        }
    }

    #[test]
    fn every_macro_a_kernel_tests_is_declared() {
        for k in ALL {
            for line in k.source.lines().map(str::trim).filter(|l| l.starts_with("#if") || l.starts_with("#elif")) {
                for word in line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                    let is_macro = word.len() > 1 && word.chars().all(|c| c.is_ascii_uppercase() || c == '_');
                    if is_macro && word != "defined" {
                        assert!(k.variants.contains(&word), "{} tests {word} but does not declare it", k.file);
                    }
                }
            }
        }
    }
}
