//! Blocked right-looking Cholesky (lower) with the tiny-pivot treatment of dense IPM codes.
//!
//! For each block column of width [`BLOCK`]: factor the diagonal block (the same algorithm with
//! blocks of [`INNER_BLOCK`], whose own diagonal blocks are factored column by column), solve
//! the panel below it against the block's triangle (L₂₁ = A₂₁·L₁₁⁻ᵀ, faer) and update the
//! trailing lower triangle (A₂₂ −= L₂₁·L₂₁ᵀ, [`crate::cpu::gram`]). Wide outer blocks keep the
//! trailing matrix from being streamed through memory once per narrow block; the inner level
//! keeps the diagonal blocks out of scalar code. A pivot d ≤ `tiny` (after unit-diagonal
//! scaling this means row k is numerically a combination of earlier rows) is replaced by
//! `huge`; the count is returned. [`cholesky_lower_in`] can run the outer blocks' trailing
//! updates in a reduced precision, for a factor that only preconditions (the mixed-precision
//! iterations of the cpu backend): they are most of the multiply-adds.

use super::gram::{gram_lower, Precision};
use super::paths::CpuPaths;
use faer::linalg::triangular_solve::solve_lower_triangular_in_place;
use faer::{Accum, MatMut, MatRef, Par};

/// Width of an outer block column.
pub const BLOCK: usize = 256;
/// Width of the block columns inside a diagonal block (its diagonal blocks are factored
/// column by column, in L1).
pub const INNER_BLOCK: usize = 32;

/// Size of a panel solve (rows × b², twice its multiply-adds) below which it runs on one thread.
const PARALLEL_SOLVE: f64 = 4e6;
/// Fewest rows a thread takes of a panel solve: smaller pieces cost more to hand out than they
/// save (a judgement; only two cores were measured).
const MIN_PANEL_ROWS: usize = 64;

/// A pivot that is not finite: the matrix had NaN/∞ entries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PivotBreakdown {
    /// The column whose pivot broke down.
    pub column: usize,
    /// The pivot found there.
    pub pivot: f64,
}

/// Factors the lower triangle of `a` in place (the upper triangle is neither read nor written).
/// A pivot ≤ `tiny` is replaced by `huge`. Returns the number of replaced pivots.
pub fn cholesky_lower(a: MatMut<'_, f64>, tiny: f64, huge: f64, par: Par) -> Result<usize, PivotBreakdown> {
    cholesky_lower_with(a, PivotRule { tiny, huge, deflate: false }, par)
}

/// What happens to a pivot d ≤ `tiny`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PivotRule {
    pub tiny: f64,
    /// The pivot's replacement.
    pub huge: f64,
    /// Also zero the column of L below the replaced pivot: the row is then decoupled from all
    /// later rows, so whatever rounding left in its Schur complement cannot grow in theirs.
    pub deflate: bool,
}

/// [`cholesky_lower`] with an explicit [`PivotRule`].
pub fn cholesky_lower_with(a: MatMut<'_, f64>, rule: PivotRule, par: Par) -> Result<usize, PivotBreakdown> {
    cholesky_lower_in(&CpuPaths::default(), a, rule, par, Precision::Double)
}

/// [`cholesky_lower_with`] on `paths`, with the trailing updates of the outer blocks (A₂₂ −=
/// L₂₁·L₂₁ᵀ, k = [`BLOCK`]) in `updates` (see [`Precision`]); the diagonal blocks and the panels
/// stay in double precision. With [`Precision::Double`] and the default paths this is
/// [`cholesky_lower_with`], bit for bit.
pub fn cholesky_lower_in(
    paths: &CpuPaths,
    a: MatMut<'_, f64>,
    rule: PivotRule,
    par: Par,
    updates: Precision,
) -> Result<usize, PivotBreakdown> {
    let threads = match par {
        Par::Seq => 1,
        Par::Rayon(n) => n.get(),
    };
    let mut replaced = Vec::new();
    blocked(a, 0, (BLOCK, updates), &rule, (paths, threads), &mut replaced)?;
    Ok(replaced.len())
}

/// Right-looking blocked factorization of `a` with blocks of `nb` (diagonal blocks with
/// [`INNER_BLOCK`] and double-precision updates, then column by column), trailing updates in
/// `updates`. `offset` is `a`'s first column in the whole matrix (for error reports).
fn blocked(
    mut a: MatMut<'_, f64>,
    offset: usize,
    (nb, updates): (usize, Precision),
    piv: &PivotRule,
    (paths, threads): (&CpuPaths, usize),
    replaced: &mut Vec<usize>,
) -> Result<(), PivotBreakdown> {
    let m = a.nrows();
    let minus_ones = vec![-1.0; nb];
    let mut k0 = 0;
    while k0 < m {
        let b = nb.min(m - k0);
        let sub = a.as_mut().submatrix_mut(k0, k0, m - k0, m - k0);
        let (mut l11, _, mut a21, a22) = sub.split_at_mut(b, b);
        let before = replaced.len();
        if nb > INNER_BLOCK {
            blocked(l11.as_mut(), offset + k0, (INNER_BLOCK, Precision::Double), piv, (paths, threads), replaced)?;
        } else {
            unblocked(l11.as_mut(), offset + k0, piv, replaced)?;
        }
        if m - k0 > b {
            // Small panels on one thread: waking the pool costs more than it saves.
            let rows = m - k0 - b;
            let parts =
                if (rows * b * b) as f64 > PARALLEL_SOLVE { threads.min(rows / MIN_PANEL_ROWS).max(1) } else { 1 };
            panel_solve(l11.as_ref(), a21.as_mut(), parts);
            if piv.deflate {
                // Columns of replaced pivots are zero in L₁₁ below the diagonal; so in L₂₁.
                for &j in &replaced[before..] {
                    a21.as_mut().col_mut(j - offset - k0).fill(0.0);
                }
            }
            // A₂₂ −= L₂₁·L₂₁ᵀ (lower triangle only); the shapes fit by construction.
            let fits = gram_lower(paths, updates, a21.as_ref(), &minus_ones[..b], a22, Accum::Add, threads);
            debug_assert!(fits.is_ok(), "the trailing update's shapes");
        }
        k0 += b;
    }
    Ok(())
}

/// L₂₁ = A₂₁·L₁₁⁻ᵀ (⇔ L₁₁·L₂₁ᵀ = A₂₁ᵀ) in place, the rows of A₂₁ cut into `parts` contiguous
/// ranges solved side by side: each row is a solve of its own, and the factor is the same bit
/// for bit on any number of threads (tests/cpu_kernels.rs). faer's parallel solve splits the
/// right-hand sides only under small triangles and otherwise shares its GEMM updates: at
/// m = 2048 its panel solves took 9.9 ms per factorization on two threads against 10.6 ms on
/// one; these row ranges take 7.1–7.9 ms on two (three runs of 11).
fn panel_solve(l11: MatRef<'_, f64>, a21: MatMut<'_, f64>, parts: usize) {
    if parts == 2 && a21.nrows() >= 2 {
        let cut = a21.nrows() / 2;
        let (top, bottom) = a21.split_at_row_mut(cut);
        rayon::join(|| solve_rows(l11, top, 1), || solve_rows(l11, bottom, 1));
        return;
    }
    solve_rows(l11, a21, parts);
}

/// [`panel_solve`]'s ranges on rayon's pool (one range: here).
fn solve_rows(l11: MatRef<'_, f64>, a21: MatMut<'_, f64>, parts: usize) {
    if parts <= 1 || a21.nrows() < 2 {
        solve_lower_triangular_in_place(l11, a21.transpose_mut(), Par::Seq);
        return;
    }
    let half = parts / 2;
    let cut = a21.nrows() * half / parts;
    let (top, bottom) = a21.split_at_row_mut(cut);
    rayon::join(|| solve_rows(l11, top, half), || solve_rows(l11, bottom, parts - half));
}

/// Left-looking factorization of a small diagonal block, column by column, with the pivot rule.
fn unblocked(
    mut a: MatMut<'_, f64>,
    offset: usize,
    piv: &PivotRule,
    replaced: &mut Vec<usize>,
) -> Result<(), PivotBreakdown> {
    let nb = a.nrows();
    for j in 0..nb {
        let mut d = a[(j, j)];
        for p in 0..j {
            d -= a[(j, p)] * a[(j, p)];
        }
        if !d.is_finite() {
            return Err(PivotBreakdown { column: offset + j, pivot: d });
        }
        if d <= piv.tiny {
            d = piv.huge;
            replaced.push(offset + j);
            if piv.deflate {
                a[(j, j)] = d.sqrt();
                for i in j + 1..nb {
                    a[(i, j)] = 0.0;
                }
                continue;
            }
        }
        let l = d.sqrt();
        a[(j, j)] = l;
        for i in j + 1..nb {
            let mut v = a[(i, j)];
            for p in 0..j {
                v -= a[(i, p)] * a[(j, p)];
            }
            a[(i, j)] = v / l;
        }
    }
    Ok(())
}
