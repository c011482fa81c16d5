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
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declared_variant_is_read_by_its_kernel() {
        for k in ALL {
            for v in k.variants {
                assert!(k.source.contains(v), "{} declares variant {v} but never reads it", k.file);
            }
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
