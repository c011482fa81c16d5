//! The fused level-2 products of the cpu backend ([`super::VectorKernels::a_and_at_mul`],
//! [`super::VectorKernels::normal_product`]): Aᵀ·y and a product A·v in one pass over A.
//!
//! Each column j contributes (Aᵀy)ⱼ = aⱼᵀy and vⱼ·aⱼ to A·v, and vⱼ is either given or depends
//! only on (Aᵀy)ⱼ. So each column is used twice while it is in L1 ([`column_pass`]). The
//! products of the interior-point iteration are bound by the speed of reading A (4m² entries
//! on the random family); reading it once instead of twice halves their cost. The threads take
//! contiguous ranges of columns and sum their partial A·v at the end. Split in two, the second
//! range goes to [`spin_join`]'s worker, which is still awake from the previous pass; in more
//! ranges, to rayon's pool. The ranges and the order of the sums are the same either way.

use crate::cpu::column_pass::{column_axpy, column_pass, column_pass_pair, PassOutput, PassShapeError, SecondMap};
use crate::cpu::spin_join;
use crate::lp::model::SparseColMatrix;
use faer::MatRef;
use rayon::prelude::*;

/// Entries of A below which one thread does the pass (waking a second costs more).
const PARALLEL_ENTRIES: usize = 1 << 17;

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
    fn value(&self, j: usize, uj: f64) -> f64 {
        match *self {
            VSource::Given(x) => x[j],
            VSource::Scaled { theta, t: Some(t) } => theta[j] * uj - t[j],
            VSource::Scaled { theta, t: None } => theta[j] * uj,
        }
    }
}

/// (Aᵀy, v, A·v): the three results of a fused pass.
pub type Fused = (Vec<f64>, Vec<f64>, Vec<f64>);

/// (Aᵀy, v, A·v) for dense A, on up to `threads` threads.
pub fn dense(a: MatRef<'_, f64>, y: &[f64], src: VSource<'_>, threads: usize) -> Result<Fused, PassShapeError> {
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
        return dense_halves(a, y, src, cuts[1]);
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
    let run = |(j0, out): (usize, PassOutput<'_>)| column_pass(a, y, j0, out, &f);
    if threads == 1 {
        parts.into_iter().try_for_each(run)?;
    } else {
        spin_join::rest();
        parts.into_par_iter().try_for_each(run)?;
    }
    Ok((u, v, sum_partials(partial, m)))
}

/// [`dense`] in two column ranges, 0..cut here and cut..n on [`spin_join`]'s worker (the
/// same ranges and sums as on rayon's pool).
fn dense_halves(a: MatRef<'_, f64>, y: &[f64], src: VSource<'_>, cut: usize) -> Result<Fused, PassShapeError> {
    let (m, n) = (a.nrows(), a.ncols());
    let (mut u, mut v, mut acc, mut acc1) = (vec![0.0; n], vec![0.0; n], vec![0.0; m], vec![0.0; m]);
    let (u0, u1) = u.split_at_mut(cut);
    let (v0, v1) = v.split_at_mut(cut);
    let f = |j: usize, uj: f64| src.value(j, uj);
    let (here, there) = spin_join::join_scoped(
        || column_pass(a, y, 0, PassOutput { u: u0, v: v0, acc: &mut acc }, &f),
        || column_pass(a, y, cut, PassOutput { u: u1, v: v1, acc: &mut acc1 }, &f),
    );
    here?;
    there?;
    add_partial(&mut acc, &acc1);
    Ok((u, v, acc))
}

/// (Aᵀy, A·x, t, A·t): the results of [`dense_pair`].
pub type Paired = (Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>);

/// (Aᵀy, A·x, t, A·t) with tⱼ = g(j, (Aᵀy)ⱼ), for dense A in one pass on one or two threads
/// (the same column ranges and sums as [`dense`] and [`dense_a_mul`], so each result is bit for
/// bit theirs); `None` where the pass would split more than two ways.
pub fn dense_pair(
    a: MatRef<'_, f64>,
    y: &[f64],
    x: &[f64],
    g: &(dyn Fn(usize, f64) -> f64 + Sync),
    threads: usize,
) -> Result<Option<Paired>, PassShapeError> {
    let (m, n) = (a.nrows(), a.ncols());
    if x.len() != n {
        return Err(PassShapeError::Length { what: "x", expected: n, got: x.len() });
    }
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
        column_pass_pair(a, y, j0, PassOutput { u, v, acc }, &f, SecondMap { f: g, v: tv, acc: tacc })
    };
    if cut == 0 {
        run(0, u1, v1, &mut ax, t1, &mut at)?;
        return Ok(Some((u, ax, t, at)));
    }
    let (here, there) =
        spin_join::join_scoped(|| run(0, u0, v0, &mut ax, t0, &mut at), || run(cut, u1, v1, &mut ax1, t1, &mut at1));
    here?;
    there?;
    add_partial(&mut ax, &ax1);
    add_partial(&mut at, &at1);
    Ok(Some((u, ax, t, at)))
}

/// A·x for dense A, on up to `threads` threads (contiguous column ranges, partial sums added
/// at the end, as in [`dense`]).
pub fn dense_a_mul(a: MatRef<'_, f64>, x: &[f64], threads: usize) -> Result<Vec<f64>, PassShapeError> {
    let (m, n) = (a.nrows(), a.ncols());
    if x.len() != n {
        return Err(PassShapeError::Length { what: "x", expected: n, got: x.len() });
    }
    if m == 0 {
        return Ok(Vec::new());
    }
    let cuts = column_cuts(m, n, threads);
    if cuts.len() == 3 {
        return a_mul_halves(a, x, cuts[1]);
    }
    let mut partial = vec![0.0; (cuts.len() - 1) * m];
    let run = |(w, acc): (&[usize], &mut [f64])| column_axpy(a, &x[w[0]..w[1]], w[0], acc);
    if cuts.len() == 2 {
        cuts.windows(2).zip(partial.chunks_mut(m)).try_for_each(run)?;
    } else {
        spin_join::rest();
        cuts.par_windows(2).zip(partial.par_chunks_mut(m)).try_for_each(run)?;
    }
    Ok(sum_partials(partial, m))
}

/// [`dense_a_mul`] in two column ranges, 0..cut here and cut..n on [`spin_join`]'s worker.
fn a_mul_halves(a: MatRef<'_, f64>, x: &[f64], cut: usize) -> Result<Vec<f64>, PassShapeError> {
    let (mut acc, mut acc1) = (vec![0.0; a.nrows()], vec![0.0; a.nrows()]);
    let (here, there) =
        spin_join::join_scoped(|| column_axpy(a, &x[..cut], 0, &mut acc), || column_axpy(a, &x[cut..], cut, &mut acc1));
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

/// (Aᵀy, v, A·v) for sparse A (one pass over the nonzeros).
pub fn sparse(a: &SparseColMatrix, y: &[f64], src: VSource<'_>) -> Fused {
    let n = a.ncols;
    let mut u = vec![0.0; n];
    let mut v = vec![0.0; n];
    let mut av = vec![0.0; a.nrows];
    for j in 0..n {
        let r = a.col_ptr[j]..a.col_ptr[j + 1];
        let (rows, vals) = (&a.row_idx[r.clone()], &a.values[r]);
        u[j] = rows.iter().zip(vals).map(|(&i, &x)| x * y[i]).sum();
        let vj = src.value(j, u[j]);
        v[j] = vj;
        if vj != 0.0 {
            for (&i, &x) in rows.iter().zip(vals) {
                av[i] += x * vj;
            }
        }
    }
    (u, v, av)
}
