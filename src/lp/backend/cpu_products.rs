//! The fused level-2 products of the cpu backend ([`super::VectorKernels::a_and_at_mul`],
//! [`super::VectorKernels::normal_product`]): Aᵀ·y and a product A·v in one pass over A.
//!
//! Each column j contributes (Aᵀy)ⱼ = aⱼᵀy and vⱼ·aⱼ to A·v, and vⱼ is either given or depends
//! only on (Aᵀy)ⱼ. So A is read in blocks of columns that fit in L2: the block's dot products
//! first, then its part of A·v from cache. The products of the interior-point iteration are
//! bound by the speed of reading A (4m² entries on the random family); reading it once instead
//! of twice halves their cost. Dense blocks use faer's matrix–vector kernels on one thread each;
//! the threads take contiguous ranges of columns and sum their partial A·v at the end.

use crate::lp::model::SparseColMatrix;
use faer::{Accum, ColMut, ColRef, MatRef, Par};

/// Bytes of A per block: a block stays in L2 between its two uses.
const BLOCK_BYTES: usize = 128 * 1024;
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
    /// v on the columns j0.. of a block from u there.
    fn fill(&self, j0: usize, u: &[f64], v: &mut [f64]) {
        match *self {
            VSource::Given(x) => v.copy_from_slice(&x[j0..j0 + v.len()]),
            VSource::Scaled { theta, t } => {
                let th = &theta[j0..j0 + v.len()];
                match t {
                    Some(t) => {
                        for (((o, &uj), &tj), &sj) in v.iter_mut().zip(u).zip(th).zip(&t[j0..]) {
                            *o = tj * uj - sj;
                        }
                    }
                    None => {
                        for ((o, &uj), &tj) in v.iter_mut().zip(u).zip(th) {
                            *o = tj * uj;
                        }
                    }
                }
            }
        }
    }
}

/// (Aᵀy, v, A·v) for dense A, on up to `threads` threads.
pub fn dense(a: MatRef<'_, f64>, y: &[f64], src: VSource<'_>, threads: usize) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let (m, n) = (a.nrows(), a.ncols());
    let mut u = vec![0.0; n];
    let mut v = vec![0.0; n];
    let threads = if m * n < PARALLEL_ENTRIES { 1 } else { threads.clamp(1, n.max(1)) };
    let width = (BLOCK_BYTES / (8 * m.max(1))).clamp(8, 1024);
    // Contiguous column ranges, one per thread, each with its own partial A·v.
    let cuts: Vec<usize> = (0..=threads).map(|t| t * n / threads).collect();
    let mut partial = vec![0.0; threads * m];
    let mut parts = Vec::with_capacity(threads);
    let (mut u_rest, mut v_rest) = (u.as_mut_slice(), v.as_mut_slice());
    for (w, acc) in cuts.windows(2).zip(partial.chunks_mut(m.max(1))) {
        let (uh, ut) = u_rest.split_at_mut(w[1] - w[0]);
        let (vh, vt) = v_rest.split_at_mut(w[1] - w[0]);
        parts.push(Part { j0: w[0], u: uh, v: vh, acc });
        (u_rest, v_rest) = (ut, vt);
    }
    let run = |p: Part<'_>| {
        let len = p.u.len();
        let mut k = 0;
        while k < len {
            let w = width.min(len - k);
            let blk = a.subcols(p.j0 + k, w);
            let ub = &mut p.u[k..k + w];
            faer::linalg::matmul::matmul(
                ColMut::from_slice_mut(ub).as_mat_mut(),
                Accum::Replace,
                blk.transpose(),
                ColRef::from_slice(y).as_mat(),
                1.0,
                Par::Seq,
            );
            let vb = &mut p.v[k..k + w];
            src.fill(p.j0 + k, ub, vb);
            faer::linalg::matmul::matmul(
                ColMut::from_slice_mut(p.acc).as_mat_mut(),
                Accum::Add,
                blk,
                ColRef::from_slice(vb).as_mat(),
                1.0,
                Par::Seq,
            );
            k += w;
        }
    };
    if threads == 1 {
        parts.into_iter().for_each(run);
    } else {
        rayon::scope(|s| {
            for part in parts {
                let run = &run;
                s.spawn(move |_| run(part));
            }
        });
    }
    let mut av = vec![0.0; m];
    for acc in partial.chunks(m.max(1)) {
        for (o, &x) in av.iter_mut().zip(acc) {
            *o += x;
        }
    }
    (u, v, av)
}

/// One thread's share of a dense pass: columns j0.., their u and v, and its partial A·v.
struct Part<'a> {
    j0: usize,
    u: &'a mut [f64],
    v: &'a mut [f64],
    acc: &'a mut [f64],
}

/// (Aᵀy, v, A·v) for sparse A (one pass over the nonzeros).
pub fn sparse(a: &SparseColMatrix, y: &[f64], src: VSource<'_>) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let n = a.ncols;
    let mut u = vec![0.0; n];
    let mut v = vec![0.0; n];
    let mut av = vec![0.0; a.nrows];
    for j in 0..n {
        let r = a.col_ptr[j]..a.col_ptr[j + 1];
        let (rows, vals) = (&a.row_idx[r.clone()], &a.values[r]);
        u[j] = rows.iter().zip(vals).map(|(&i, &x)| x * y[i]).sum();
        src.fill(j, &u[j..j + 1], &mut v[j..j + 1]);
        let vj = v[j];
        if vj != 0.0 {
            for (&i, &x) in rows.iter().zip(vals) {
                av[i] += x * vj;
            }
        }
    }
    (u, v, av)
}
