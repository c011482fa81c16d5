//! Products with sparse A (compressed columns): the lower triangle of A·D²·Aᵀ in double
//! precision from the columns' nonzeros, Σⱼ d²ⱼ·aⱼ·aⱼᵀ, at a cost of Σⱼ nnz(aⱼ)(nnz(aⱼ)+1)/2
//! multiply-adds instead of the dense m²n/2, into a dense column-major m×m buffer or onto the
//! pattern of its lower triangle; and the fused pass (Aᵀy, v, A·v) over the nonzeros.
//!
//! Column k of the normal matrix (rows i ≥ k) gathers, over the nonzeros a_kj of row k,
//! a_kj·d²ⱼ times the entries of column j at rows ≥ k; so each column of the result is written
//! by one thread only, and the columns are split between the threads in contiguous ranges of
//! equal work (planned once, [`SparsePlan`]).

use super::operands::{Fused, VSource};
use crate::cpu::sparse_cholesky::LowerPattern;

/// Compressed columns, borrowed: `col_ptr[j]..col_ptr[j + 1]` indexes the row indices (ascending)
/// and values of column j.
#[derive(Clone, Copy, Debug)]
pub struct Csc<'a> {
    pub nrows: usize,
    pub ncols: usize,
    pub col_ptr: &'a [usize],
    pub row_idx: &'a [usize],
    pub values: &'a [f64],
}

impl<'a> Csc<'a> {
    /// Column j's (row, value) pairs (none for a column the pointers do not hold).
    pub fn col(&self, j: usize) -> impl Iterator<Item = (usize, f64)> + 'a {
        let start = self.col_ptr.get(j).copied().unwrap_or(0);
        let end = self.col_ptr.get(j + 1).copied().unwrap_or(start).max(start);
        let rows = self.row_idx.get(start..end).unwrap_or(&[]);
        let vals = self.values.get(start..end).unwrap_or(&[]);
        rows.iter().copied().zip(vals.iter().copied())
    }
}

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
    pub fn new(a: Csc<'_>, threads: usize) -> Self {
        let m = a.nrows;
        let mut count = vec![0usize; m + 1];
        for &i in a.row_idx {
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
    pub fn assemble(&self, a: Csc<'_>, d2: &[f64], out: &mut [f64]) {
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
    pub fn pattern(&self, a: Csc<'_>) -> LowerPattern {
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
    pub fn assemble_on_pattern(&self, a: Csc<'_>, d2: &[f64], pattern: &LowerPattern, values: &mut [f64]) {
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
    fn add_column(&self, a: Csc<'_>, d2: &[f64], k: usize, col: &mut [f64]) {
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

    /// Runs `run` on each chunk, the first on this thread and the others on rayon's pool (no
    /// thread of our own: the browser build has none to start).
    fn run_chunks<C: Send>(&self, chunks: Vec<C>, run: impl Fn(C) + Sync) {
        if chunks.len() == 1 {
            chunks.into_iter().for_each(run);
            return;
        }
        let run = &run;
        rayon::scope(|s| {
            let mut it = chunks.into_iter();
            let first = it.next();
            for c in it {
                s.spawn(move |_| run(c));
            }
            if let Some(c) = first {
                run(c);
            }
        });
    }
}

/// (Aᵀy, v, A·v) for sparse A (one pass over the nonzeros).
pub fn fused(a: Csc<'_>, y: &[f64], src: VSource<'_>) -> Fused {
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
