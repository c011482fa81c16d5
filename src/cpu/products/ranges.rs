//! The fused passes of `super::fused` on the hand-written column-pass kernels (x86-64): the
//! threads take contiguous ranges of columns, side by side on rayon's pool, and sum their
//! partial A·v at the end in range order.

use super::operands::{ColumnMap, Fused, Paired, VSource, PARALLEL_ENTRIES};
use crate::cpu::column_pass::{column_axpy, column_pass, column_pass_pair, PassOutput, SecondMap};
use crate::cpu::paths::Isa;
use crate::cpu::shapes::PassShapeError;
use faer::MatRef;
use rayon::prelude::*;

/// (Aᵀy, v, A·v) for dense A, on up to `threads` threads (shapes checked by the caller).
pub(super) fn dense(
    isa: Isa,
    a: MatRef<'_, f64>,
    y: &[f64],
    src: VSource<'_>,
    threads: usize,
) -> Result<Fused, PassShapeError> {
    let (m, n) = (a.nrows(), a.ncols());
    let mut u = vec![0.0; n];
    let mut v = vec![0.0; n];
    if m == 0 {
        // No rows: Aᵀy = 0 and A·v is empty, but v is still defined.
        for (j, vj) in v.iter_mut().enumerate() {
            *vj = src.value(j, 0.0);
        }
        return Ok((u, v, Vec::new()));
    }
    let cuts = column_cuts(m, n, threads);
    let threads = cuts.len() - 1;
    if threads == 2 {
        return dense_halves(isa, a, y, src, cuts[1]);
    }
    let mut partial = vec![0.0; threads * m];
    let mut parts = Vec::with_capacity(threads);
    let (mut u_rest, mut v_rest) = (u.as_mut_slice(), v.as_mut_slice());
    for (w, acc) in cuts.windows(2).zip(partial.chunks_mut(m.max(1))) {
        let (uh, ut) = u_rest.split_at_mut(w[1] - w[0]);
        let (vh, vt) = v_rest.split_at_mut(w[1] - w[0]);
        parts.push((w[0], PassOutput { u: uh, v: vh, acc }));
        (u_rest, v_rest) = (ut, vt);
    }
    let f = |j: usize, uj: f64| src.value(j, uj);
    let run = |(j0, out): (usize, PassOutput<'_>)| column_pass(isa, a, y, j0, out, &f);
    if threads == 1 {
        parts.into_iter().try_for_each(run)?;
    } else {
        parts.into_par_iter().try_for_each(run)?;
    }
    Ok((u, v, sum_partials(partial, m)))
}

/// [`dense`] in two column ranges, 0..cut here and cut..n beside it.
fn dense_halves(
    isa: Isa,
    a: MatRef<'_, f64>,
    y: &[f64],
    src: VSource<'_>,
    cut: usize,
) -> Result<Fused, PassShapeError> {
    let (m, n) = (a.nrows(), a.ncols());
    let (mut u, mut v, mut acc, mut acc1) = (vec![0.0; n], vec![0.0; n], vec![0.0; m], vec![0.0; m]);
    let (u0, u1) = u.split_at_mut(cut);
    let (v0, v1) = v.split_at_mut(cut);
    let f = |j: usize, uj: f64| src.value(j, uj);
    let (here, there) = rayon::join(
        || column_pass(isa, a, y, 0, PassOutput { u: u0, v: v0, acc: &mut acc }, &f),
        || column_pass(isa, a, y, cut, PassOutput { u: u1, v: v1, acc: &mut acc1 }, &f),
    );
    here?;
    there?;
    add_partial(&mut acc, &acc1);
    Ok((u, v, acc))
}

/// (Aᵀy, A·x, t, A·t) with tⱼ = g(j, (Aᵀy)ⱼ), for dense A in one pass on one or two threads
/// (the same column ranges and sums as [`dense`] and [`dense_a_mul`], so each result is bit for
/// bit theirs); `None` where the pass would split more than two ways.
pub(super) fn dense_pair(
    isa: Isa,
    a: MatRef<'_, f64>,
    y: &[f64],
    x: &[f64],
    g: &ColumnMap<'_>,
    threads: usize,
) -> Result<Option<Paired>, PassShapeError> {
    let (m, n) = (a.nrows(), a.ncols());
    let cuts = column_cuts(m, n, threads);
    if m == 0 || cuts.len() > 3 {
        return Ok(None);
    }
    let cut = cuts[cuts.len() - 2];
    let (mut u, mut v, mut t) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (mut ax, mut ax1, mut at, mut at1) = (vec![0.0; m], vec![0.0; m], vec![0.0; m], vec![0.0; m]);
    let (u0, u1) = u.split_at_mut(cut);
    let (v0, v1) = v.split_at_mut(cut);
    let (t0, t1) = t.split_at_mut(cut);
    let f = |j: usize, _: f64| x[j];
    let run = |j0: usize, u: &mut [f64], v: &mut [f64], acc: &mut [f64], tv: &mut [f64], tacc: &mut [f64]| {
        column_pass_pair(isa, a, y, j0, PassOutput { u, v, acc }, &f, SecondMap { f: g, v: tv, acc: tacc })
    };
    if cut == 0 {
        run(0, u1, v1, &mut ax, t1, &mut at)?;
        return Ok(Some((u, ax, t, at)));
    }
    let (here, there) =
        rayon::join(|| run(0, u0, v0, &mut ax, t0, &mut at), || run(cut, u1, v1, &mut ax1, t1, &mut at1));
    here?;
    there?;
    add_partial(&mut ax, &ax1);
    add_partial(&mut at, &at1);
    Ok(Some((u, ax, t, at)))
}

/// A·x for dense A, on up to `threads` threads (contiguous column ranges, partial sums added
/// at the end, as in [`dense`]).
pub(super) fn dense_a_mul(isa: Isa, a: MatRef<'_, f64>, x: &[f64], threads: usize) -> Result<Vec<f64>, PassShapeError> {
    let (m, n) = (a.nrows(), a.ncols());
    if m == 0 {
        return Ok(Vec::new());
    }
    let cuts = column_cuts(m, n, threads);
    if cuts.len() == 3 {
        return a_mul_halves(isa, a, x, cuts[1]);
    }
    let mut partial = vec![0.0; (cuts.len() - 1) * m];
    let run = |(w, acc): (&[usize], &mut [f64])| column_axpy(isa, a, &x[w[0]..w[1]], w[0], acc);
    if cuts.len() == 2 {
        cuts.windows(2).zip(partial.chunks_mut(m)).try_for_each(run)?;
    } else {
        cuts.par_windows(2).zip(partial.par_chunks_mut(m)).try_for_each(run)?;
    }
    Ok(sum_partials(partial, m))
}

/// [`dense_a_mul`] in two column ranges, 0..cut here and cut..n beside it.
fn a_mul_halves(isa: Isa, a: MatRef<'_, f64>, x: &[f64], cut: usize) -> Result<Vec<f64>, PassShapeError> {
    let (mut acc, mut acc1) = (vec![0.0; a.nrows()], vec![0.0; a.nrows()]);
    let (here, there) =
        rayon::join(|| column_axpy(isa, a, &x[..cut], 0, &mut acc), || column_axpy(isa, a, &x[cut..], cut, &mut acc1));
    here?;
    there?;
    add_partial(&mut acc, &acc1);
    Ok(acc)
}

/// Contiguous column ranges of an m×n pass, one per thread (a single range below
/// [`PARALLEL_ENTRIES`]): range t is cuts[t]..cuts[t + 1].
fn column_cuts(m: usize, n: usize, threads: usize) -> Vec<usize> {
    let threads = if m * n < PARALLEL_ENTRIES { 1 } else { threads.clamp(1, n.max(1)) };
    (0..=threads).map(|t| t * n / threads).collect()
}

/// The sum of the threads' partial A·v, stored one after another (m entries each).
fn sum_partials(mut partial: Vec<f64>, m: usize) -> Vec<f64> {
    let (first, rest) = partial.split_at_mut(m);
    for acc in rest.chunks(m) {
        add_partial(first, acc);
    }
    partial.truncate(m);
    partial
}

/// `acc += other`, entry by entry (the merge of two threads' partial sums).
fn add_partial(acc: &mut [f64], other: &[f64]) {
    for (o, &x) in acc.iter_mut().zip(other) {
        *o += x;
    }
}
