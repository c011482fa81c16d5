//! One pass over the columns of a dense matrix that uses each column twice: uⱼ = aⱼᵀy, then
//! vⱼ = f(j, uⱼ), then A·v += vⱼ·aⱼ. Four columns are taken at a time, so the second use reads
//! them from L1 (16 KB at m = 512) and the accumulator A·v is loaded and stored once per four
//! columns: the pass costs one read of A, which is what bounds it (A lives in L3 or memory).
//!
//! The kernels are AVX-512 or AVX2 with FMA (x86-64 only: elsewhere the passes are faer's
//! products, see `cpu::products`); they sum in different orders, so their results differ by
//! rounding.
#![allow(unsafe_code)]

mod x86;

use super::paths::Isa;
use super::shapes::PassShapeError;
use faer::MatRef;

/// vⱼ from (j, uⱼ).
pub type ColumnMap<'a> = dyn Fn(usize, f64) -> f64 + Sync + 'a;

/// Where a pass writes: u and v (one entry per column) and the accumulator A·v (m entries).
pub struct PassOutput<'a> {
    pub u: &'a mut [f64],
    pub v: &'a mut [f64],
    pub acc: &'a mut [f64],
}

/// Columns of `a` from `j0` on, as many as `u` holds: `u[k] = a_{j0+k}ᵀ·y`, `v[k] = f(j0+k, u[k])`,
/// and `acc += Σₖ v[k]·a_{j0+k}`, with the kernels of `isa` (scalar loops where this CPU does
/// not run them: only `cpu::products` calls this, with an `isa` it runs).
///
/// # Errors
/// [`PassShapeError`] when `y` or `acc` is not `a.nrows()` long, `v` is not as long as `u`, or
/// the columns `j0..j0 + u.len()` are not in `a` (nothing is written then).
pub fn column_pass(
    isa: Isa,
    a: MatRef<'_, f64>,
    y: &[f64],
    j0: usize,
    out: PassOutput<'_>,
    f: &ColumnMap<'_>,
) -> Result<(), PassShapeError> {
    let PassOutput { u, v, acc } = out;
    let m = a.nrows();
    for (what, expected, got) in [("y", m, y.len()), ("acc", m, acc.len()), ("v", u.len(), v.len())] {
        if got != expected {
            return Err(PassShapeError::Length { what, expected, got });
        }
    }
    check_columns(a, j0, u.len())?;
    Pass { a, y, j0, f }.run(u, v, acc, None, kernels(isa));
    Ok(())
}

/// [`column_pass`] with a second map summed from the same read of each column (bit for bit
/// what a second pass with `second.f` would give).
///
/// # Errors
/// As [`column_pass`], and when `second.v` is not as long as `u` or `second.acc` not
/// `a.nrows()` long.
pub fn column_pass_pair(
    isa: Isa,
    a: MatRef<'_, f64>,
    y: &[f64],
    j0: usize,
    out: PassOutput<'_>,
    f: &ColumnMap<'_>,
    second: SecondMap<'_>,
) -> Result<(), PassShapeError> {
    let PassOutput { u, v, acc } = out;
    let m = a.nrows();
    for (what, expected, got) in [
        ("y", m, y.len()),
        ("acc", m, acc.len()),
        ("v", u.len(), v.len()),
        ("second v", u.len(), second.v.len()),
        ("second acc", m, second.acc.len()),
    ] {
        if got != expected {
            return Err(PassShapeError::Length { what, expected, got });
        }
    }
    check_columns(a, j0, u.len())?;
    Pass { a, y, j0, f }.run(u, v, acc, Some(second), kernels(isa));
    Ok(())
}

/// The columns j0..j0 + len are in `a`.
fn check_columns(a: MatRef<'_, f64>, j0: usize, len: usize) -> Result<(), PassShapeError> {
    let end = j0.saturating_add(len);
    if end > a.ncols() {
        return Err(PassShapeError::Columns { end, ncols: a.ncols() });
    }
    Ok(())
}

/// The kernels of `isa`; `None` where this CPU does not run them (the passes then take one
/// column at a time in scalar loops).
fn kernels(isa: Isa) -> Option<(Dot4, Axpy4)> {
    match isa {
        Isa::Avx512 if isa.runs_here() => Some((x86::dot4_avx512, x86::axpy4_avx512)),
        Isa::Avx2 if isa.runs_here() => Some((x86::dot4_avx2, x86::axpy4_avx2)),
        _ => None,
    }
}

/// Column j as a slice (columns of a faer matrix with unit row stride are contiguous).
#[inline(always)]
fn col_slice(a: MatRef<'_, f64>, j: usize) -> Option<&[f64]> {
    a.col(j).try_as_col_major().map(|c| c.as_slice())
}

/// `acc += Σₖ x[k]·a_{j0+k}` over the columns `j0..j0 + x.len()` of `a`: the second half of a
/// pass by itself (A·x), with the kernels of `isa` (as [`column_pass`]). Groups of four columns
/// whose multipliers are all zero are skipped (a centrality corrector's right-hand side is
/// mostly zeros).
///
/// # Errors
/// [`PassShapeError`] when `acc` is not `a.nrows()` long or the columns are not in `a`
/// (nothing is written then).
pub fn column_axpy(isa: Isa, a: MatRef<'_, f64>, x: &[f64], j0: usize, acc: &mut [f64]) -> Result<(), PassShapeError> {
    let m = a.nrows();
    if acc.len() != m {
        return Err(PassShapeError::Length { what: "acc", expected: m, got: acc.len() });
    }
    check_columns(a, j0, x.len())?;
    let axpy4 = kernels(isa).map(|(_, axpy4)| axpy4);
    let slice = |j: usize| col_slice(a, j);
    let mut k = 0;
    while k < x.len() {
        let j = j0 + k;
        if k + 4 <= x.len() {
            let w = [x[k], x[k + 1], x[k + 2], x[k + 3]];
            if w == [0.0; 4] {
                k += 4;
                continue;
            }
            if let (Some(axpy4), Some(c0), Some(c1), Some(c2), Some(c3)) =
                (axpy4, slice(j), slice(j + 1), slice(j + 2), slice(j + 3))
            {
                // SAFETY: `kernels` gave a kernel this CPU runs; every slice is m long (a
                // column of `a`, cut to m).
                unsafe { axpy4(acc, w, [&c0[..m], &c1[..m], &c2[..m], &c3[..m]]) };
                k += 4;
                continue;
            }
        }
        let (col, w) = (a.col(j), x[k]);
        if w != 0.0 {
            for (i, o) in acc.iter_mut().enumerate() {
                *o += w * col[i];
            }
        }
        k += 1;
    }
    Ok(())
}

/// Four dot products with y (all slices of y's length).
type Dot4 = unsafe fn([&[f64]; 4], &[f64]) -> [f64; 4];
/// acc += Σ_q w[q]·c[q] (all slices of acc's length).
type Axpy4 = unsafe fn(&mut [f64], [f64; 4], [&[f64]; 4]);

struct Pass<'a> {
    a: MatRef<'a, f64>,
    y: &'a [f64],
    j0: usize,
    f: &'a ColumnMap<'a>,
}

/// A second map of a pass and where it writes: v₂ⱼ = f₂(j, uⱼ) and acc₂ += Σⱼ v₂ⱼ·aⱼ.
pub struct SecondMap<'a> {
    pub f: &'a ColumnMap<'a>,
    pub v: &'a mut [f64],
    pub acc: &'a mut [f64],
}

impl Pass<'_> {
    #[inline(always)]
    fn slice(&self, j: usize) -> Option<&[f64]> {
        col_slice(self.a, j)
    }

    /// The pass with `dot4` and `axpy4`, which must run on this CPU; `second` is summed after
    /// the first map, column group by column group, while the columns are in L1.
    fn run(
        &self,
        u: &mut [f64],
        v: &mut [f64],
        acc: &mut [f64],
        mut second: Option<SecondMap<'_>>,
        kernels: Option<(Dot4, Axpy4)>,
    ) {
        let m = self.y.len();
        let len = u.len();
        let mut k = 0;
        while k < len {
            let j = self.j0 + k;
            if k + 4 <= len {
                if let (Some((dot4, axpy4)), Some(c0), Some(c1), Some(c2), Some(c3)) =
                    (kernels, self.slice(j), self.slice(j + 1), self.slice(j + 2), self.slice(j + 3))
                {
                    let c = [&c0[..m], &c1[..m], &c2[..m], &c3[..m]];
                    // SAFETY: `kernels` gave kernels this CPU runs; every slice is m long, as
                    // is y (checked by the callers of `run`).
                    let d = unsafe { dot4(c, self.y) };
                    let mut w = [0.0; 4];
                    for q in 0..4 {
                        u[k + q] = d[q];
                        w[q] = (self.f)(j + q, d[q]);
                        v[k + q] = w[q];
                    }
                    // SAFETY: as above; acc is m long (checked by the callers of `run`).
                    unsafe { axpy4(acc, w, c) };
                    if let Some(sm) = second.as_mut() {
                        for q in 0..4 {
                            w[q] = (sm.f)(j + q, d[q]);
                            sm.v[k + q] = w[q];
                        }
                        // SAFETY: as above (acc₂ is m long too, checked by `column_pass_pair`).
                        unsafe { axpy4(sm.acc, w, c) };
                    }
                    k += 4;
                    continue;
                }
            }
            self.one(j, &mut u[k], &mut v[k], acc);
            if let Some(sm) = second.as_mut() {
                let w = (sm.f)(j, u[k]);
                sm.v[k] = w;
                let col = self.a.col(j);
                for (i, o) in sm.acc.iter_mut().enumerate() {
                    *o += w * col[i];
                }
            }
            k += 1;
        }
    }

    /// One column by itself (the last few, or a strided column).
    fn one(&self, j: usize, u: &mut f64, v: &mut f64, acc: &mut [f64]) {
        let col = self.a.col(j);
        let mut s = 0.0;
        for (i, &yi) in self.y.iter().enumerate() {
            s += col[i] * yi;
        }
        *u = s;
        *v = (self.f)(j, s);
        let w = *v;
        for (i, o) in acc.iter_mut().enumerate() {
            *o += w * col[i];
        }
    }
}
