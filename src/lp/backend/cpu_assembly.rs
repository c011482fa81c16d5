//! Forming the lower triangle of A·D²·Aᵀ in double precision, into a dense column-major m×m
//! buffer, in one of two ways:
//!
//! * **dense A**: the symmetric rank-n update of the lower triangle only (m²n/2 multiply-adds,
//!   half a general product, at the machine's multiply-add rate: [`crate::cpu::syrk`]);
//! * **sparse A**: from the columns' nonzeros, Σⱼ d²ⱼ·aⱼ·aⱼᵀ, at a cost of Σⱼ nnz(aⱼ)(nnz(aⱼ)+1)/2
//!   multiply-adds instead of m²n/2. Column k of the result (rows i ≥ k) gathers, over the
//!   nonzeros a_kj of row k, a_kj·d²ⱼ times the entries of column j at rows ≥ k; so each column of
//!   the result is written by one thread only, and the columns are split between the threads in
//!   contiguous ranges of equal work (planned once, [`SparsePlan`]).

use crate::cpu::sparse_cholesky::LowerPattern;
use crate::cpu::syrk::{weighted_gram_lower_with, Isa, Precision};
use crate::lp::model::SparseColMatrix;
use faer::{Accum, MatMut, MatRef};
use std::borrow::Cow;

/// Row-wise access to a CSC matrix's nonzeros and the split of the assembly between threads.
pub struct SparsePlan {
    /// `row_ptr[k]..row_ptr[k+1]` indexes `entries` of row k.
    row_ptr: Vec<usize>,
    /// (column j, position of (k, j) in the CSC arrays), by row k, columns ascending.
    entries: Vec<(usize, usize)>,
    /// Column ranges of the result per thread: `bounds[t]..bounds[t+1]`.
    bounds: Vec<usize>,
    /// Σⱼ nnz(aⱼ)(nnz(aⱼ)+1)/2: the multiply-adds of one assembly.
    pub multiply_adds: f64,
}

impl SparsePlan {
    /// The plan for `a` over `threads` threads.
    pub fn new(a: &SparseColMatrix, threads: usize) -> Self {
        let m = a.nrows;
        let mut count = vec![0usize; m + 1];
        for &i in &a.row_idx {
            count[i + 1] += 1;
        }
        for k in 0..m {
            count[k + 1] += count[k];
        }
        let row_ptr = count.clone();
        let mut next = count;
        let mut entries = vec![(0usize, 0usize); a.row_idx.len()];
        let mut work = vec![0.0f64; m];
        for j in 0..a.ncols {
            let end = a.col_ptr[j + 1];
            for p in a.col_ptr[j]..end {
                let k = a.row_idx[p];
                entries[next[k]] = (j, p);
                next[k] += 1;
                work[k] += (end - p) as f64;
            }
        }
        let total: f64 = work.iter().sum();
        let threads = threads.max(1);
        let mut bounds = vec![0];
        let mut acc = 0.0;
        for (k, w) in work.iter().enumerate() {
            acc += w;
            let target = total * bounds.len() as f64 / threads as f64;
            if acc >= target && bounds.len() < threads && k + 1 < m {
                bounds.push(k + 1);
            }
        }
        bounds.push(m);
        Self { row_ptr, entries, bounds, multiply_adds: total }
    }

    /// Writes the lower triangle of A·diag(d2)·Aᵀ into `out` (column-major m×m; the strict
    /// upper triangle is left as it was).
    pub fn assemble(&self, a: &SparseColMatrix, d2: &[f64], out: &mut [f64]) {
        let m = a.nrows;
        let mut rest = &mut out[..m * m];
        let mut chunks = Vec::with_capacity(self.bounds.len());
        for w in self.bounds.windows(2) {
            let (head, tail) = rest.split_at_mut((w[1] - w[0]) * m);
            chunks.push((w[0], w[1], head));
            rest = tail;
        }
        let run = |(k0, k1, cols): (usize, usize, &mut [f64])| {
            for k in k0..k1 {
                let col = &mut cols[(k - k0) * m..(k - k0 + 1) * m];
                col[k..].fill(0.0);
                self.add_column(a, d2, k, col);
            }
        };
        self.run_chunks(chunks, run);
    }
}

impl SparsePlan {
    /// The nonzeros of row k: (column j, position of (k, j) in the CSC arrays), columns
    /// ascending.
    pub fn row(&self, k: usize) -> &[(usize, usize)] {
        &self.entries[self.row_ptr[k]..self.row_ptr[k + 1]]
    }

    /// The lower triangle's pattern of A·Aᵀ (every diagonal entry included, even of an empty
    /// row): column k holds the rows i ≥ k of every column j with a nonzero in row k.
    pub fn pattern(&self, a: &SparseColMatrix) -> LowerPattern {
        let m = a.nrows;
        let mut col_ptr = Vec::with_capacity(m + 1);
        col_ptr.push(0);
        let mut row_idx = Vec::new();
        let mut mark = vec![usize::MAX; m];
        for k in 0..m {
            let start = row_idx.len();
            mark[k] = k;
            row_idx.push(k);
            for &(j, pos) in self.row(k) {
                for &i in &a.row_idx[pos..a.col_ptr[j + 1]] {
                    if mark[i] != k {
                        mark[i] = k;
                        row_idx.push(i);
                    }
                }
            }
            row_idx[start..].sort_unstable();
            col_ptr.push(row_idx.len());
        }
        LowerPattern { n: m, col_ptr, row_idx }
    }

    /// Writes the lower triangle of A·diag(d2)·Aᵀ on `pattern` (made by [`Self::pattern`] for
    /// the same A) into `values`, each thread gathering its columns through a dense work column.
    pub fn assemble_on_pattern(&self, a: &SparseColMatrix, d2: &[f64], pattern: &LowerPattern, values: &mut [f64]) {
        let m = a.nrows;
        let mut rest = &mut values[..pattern.nnz()];
        let mut chunks = Vec::with_capacity(self.bounds.len());
        for w in self.bounds.windows(2) {
            let len = pattern.col_ptr[w[1]] - pattern.col_ptr[w[0]];
            let (head, tail) = rest.split_at_mut(len);
            chunks.push((w[0], w[1], head));
            rest = tail;
        }
        let run = |(k0, k1, vals): (usize, usize, &mut [f64])| {
            let mut work = vec![0.0f64; m];
            let base = pattern.col_ptr[k0];
            for k in k0..k1 {
                let (s, e) = (pattern.col_ptr[k], pattern.col_ptr[k + 1]);
                self.add_column(a, d2, k, &mut work);
                for (out, &i) in vals[s - base..e - base].iter_mut().zip(&pattern.row_idx[s..e]) {
                    *out = work[i];
                    work[i] = 0.0;
                }
            }
        };
        self.run_chunks(chunks, run);
    }

    /// Adds column k of the lower triangle of A·diag(d2)·Aᵀ (rows ≥ k) into `col` (length m):
    /// over the nonzeros a_kj of row k, a_kj·d2ⱼ times column j's entries at rows ≥ k.
    fn add_column(&self, a: &SparseColMatrix, d2: &[f64], k: usize, col: &mut [f64]) {
        for &(j, pos) in self.row(k) {
            let f = a.values[pos] * d2[j];
            if f == 0.0 {
                continue;
            }
            let end = a.col_ptr[j + 1];
            for (&i, &v) in a.row_idx[pos..end].iter().zip(&a.values[pos..end]) {
                col[i] += f * v;
            }
        }
    }

    /// Runs `run` on each chunk, the first on this thread and the others on scoped threads.
    fn run_chunks<C: Send>(&self, chunks: Vec<C>, run: impl Fn(C) + Sync) {
        if chunks.len() == 1 {
            chunks.into_iter().for_each(run);
            return;
        }
        let run = &run;
        std::thread::scope(|s| {
            let mut it = chunks.into_iter();
            let first = it.next();
            let handles: Vec<_> = it.map(|c| s.spawn(move || run(c))).collect();
            if let Some(c) = first {
                run(c);
            }
            for h in handles {
                // A panic in a worker is a bug in the loops above; surface it here.
                if let Err(e) = h.join() {
                    std::panic::resume_unwind(e);
                }
            }
        });
    }
}

/// Threads for the assemblies and the passes over A: those of the rayon pool the solve runs in
/// (the machine's parallelism unless `RAYON_NUM_THREADS` says otherwise). Asking the operating
/// system instead (`available_parallelism` reads the cgroup's files) cost 11 µs a call, about
/// 1.7 ms of an m = 512 solve's 155 calls.
pub fn threads() -> usize {
    rayon::current_num_threads().max(1)
}

/// d² with negative entries (which rounding can produce) counted as 0.
pub fn nonnegative(d2: &[f64]) -> Cow<'_, [f64]> {
    if d2.iter().all(|&v| v >= 0.0) {
        Cow::Borrowed(d2)
    } else {
        Cow::Owned(d2.iter().map(|&v| v.max(0.0)).collect())
    }
}

/// Writes the lower triangle of A·diag(w)·Aᵀ for dense A into `out` (m×m view) with
/// [`crate::cpu::syrk`] in `precision`.
pub fn assemble_dense(a: MatRef<'_, f64>, w: &[f64], out: MatMut<'_, f64>, precision: Precision) {
    weighted_gram_lower_with(Isa::detect(), precision, a, w, out, Accum::Replace, threads());
}
