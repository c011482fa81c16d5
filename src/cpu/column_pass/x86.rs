//! The AVX-512 and AVX2 kernels of [`super`]: four dot products with one vector, and four
//! scaled columns added to one vector. Two sets of accumulators per dot product hide the
//! latency of the fused multiply-add.
#![allow(unsafe_code)]

use std::arch::x86_64::*;

/// Four dot products with `y`.
///
/// # Safety
/// AVX-512F and FMA must be available; every slice of `c` must be `y.len()` long.
#[target_feature(enable = "avx512f,fma")]
pub unsafe fn dot4_avx512(c: [&[f64]; 4], y: &[f64]) -> [f64; 4] {
    // SAFETY: the caller guarantees AVX-512F and FMA and that every column is m = y.len()
    // long (# Safety); every load reads at i + 16 ≤ m, i + 8 ≤ m or k < m.
    unsafe {
        let m = y.len();
        let (yp, cp) = (y.as_ptr(), c.map(|c| c.as_ptr()));
        let mut s = [[_mm512_setzero_pd(); 2]; 4];
        let mut i = 0;
        while i + 16 <= m {
            let yv = [_mm512_loadu_pd(yp.add(i)), _mm512_loadu_pd(yp.add(i + 8))];
            for (sq, &c) in s.iter_mut().zip(&cp) {
                for (h, acc) in sq.iter_mut().enumerate() {
                    *acc = _mm512_fmadd_pd(_mm512_loadu_pd(c.add(i + 8 * h)), yv[h], *acc);
                }
            }
            i += 16;
        }
        if i + 8 <= m {
            let yv = _mm512_loadu_pd(yp.add(i));
            for q in 0..4 {
                s[q][0] = _mm512_fmadd_pd(_mm512_loadu_pd(cp[q].add(i)), yv, s[q][0]);
            }
            i += 8;
        }
        let mut out = [0.0; 4];
        for q in 0..4 {
            out[q] = _mm512_reduce_add_pd(_mm512_add_pd(s[q][0], s[q][1]));
            for k in i..m {
                out[q] = (*cp[q].add(k)).mul_add(*yp.add(k), out[q]);
            }
        }
        out
    }
}

/// acc += Σ_q w[q]·c[q].
///
/// # Safety
/// AVX-512F and FMA must be available; every slice of `c` must be `acc.len()` long.
#[target_feature(enable = "avx512f,fma")]
pub unsafe fn axpy4_avx512(acc: &mut [f64], w: [f64; 4], c: [&[f64]; 4]) {
    // SAFETY: the caller guarantees AVX-512F and FMA and that every column is m = acc.len()
    // long (# Safety); every load and store is at i + 8 ≤ m or k < m.
    unsafe {
        let m = acc.len();
        let (op, cp) = (acc.as_mut_ptr(), c.map(|c| c.as_ptr()));
        let wv = w.map(|x| _mm512_set1_pd(x));
        let mut i = 0;
        while i + 8 <= m {
            let mut o = _mm512_loadu_pd(op.add(i));
            for q in 0..4 {
                o = _mm512_fmadd_pd(wv[q], _mm512_loadu_pd(cp[q].add(i)), o);
            }
            _mm512_storeu_pd(op.add(i), o);
            i += 8;
        }
        for k in i..m {
            let mut o = *op.add(k);
            for q in 0..4 {
                o = w[q].mul_add(*cp[q].add(k), o);
            }
            *op.add(k) = o;
        }
    }
}

/// [`dot4_avx512`] with 256-bit registers.
///
/// # Safety
/// AVX2 and FMA must be available; every slice of `c` must be `y.len()` long.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn dot4_avx2(c: [&[f64]; 4], y: &[f64]) -> [f64; 4] {
    // SAFETY: the caller guarantees AVX2 and FMA and that every column is m = y.len() long
    // (# Safety); every load reads at i + 8 ≤ m or k < m; `lanes` holds four values.
    unsafe {
        let m = y.len();
        let (yp, cp) = (y.as_ptr(), c.map(|c| c.as_ptr()));
        let mut s = [[_mm256_setzero_pd(); 2]; 4];
        let mut i = 0;
        while i + 8 <= m {
            let yv = [_mm256_loadu_pd(yp.add(i)), _mm256_loadu_pd(yp.add(i + 4))];
            for (sq, &c) in s.iter_mut().zip(&cp) {
                for (h, acc) in sq.iter_mut().enumerate() {
                    *acc = _mm256_fmadd_pd(_mm256_loadu_pd(c.add(i + 4 * h)), yv[h], *acc);
                }
            }
            i += 8;
        }
        let mut out = [0.0; 4];
        for q in 0..4 {
            let mut lanes = [0.0; 4];
            _mm256_storeu_pd(lanes.as_mut_ptr(), _mm256_add_pd(s[q][0], s[q][1]));
            out[q] = (lanes[0] + lanes[2]) + (lanes[1] + lanes[3]);
            for k in i..m {
                out[q] = (*cp[q].add(k)).mul_add(*yp.add(k), out[q]);
            }
        }
        out
    }
}

/// [`axpy4_avx512`] with 256-bit registers.
///
/// # Safety
/// AVX2 and FMA must be available; every slice of `c` must be `acc.len()` long.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn axpy4_avx2(acc: &mut [f64], w: [f64; 4], c: [&[f64]; 4]) {
    // SAFETY: the caller guarantees AVX2 and FMA and that every column is m = acc.len()
    // long (# Safety); every load and store is at i + 4 ≤ m or k < m.
    unsafe {
        let m = acc.len();
        let (op, cp) = (acc.as_mut_ptr(), c.map(|c| c.as_ptr()));
        let wv = w.map(|x| _mm256_set1_pd(x));
        let mut i = 0;
        while i + 4 <= m {
            let mut o = _mm256_loadu_pd(op.add(i));
            for q in 0..4 {
                o = _mm256_fmadd_pd(wv[q], _mm256_loadu_pd(cp[q].add(i)), o);
            }
            _mm256_storeu_pd(op.add(i), o);
            i += 4;
        }
        for k in i..m {
            let mut o = *op.add(k);
            for q in 0..4 {
                o = w[q].mul_add(*cp[q].add(k), o);
            }
            *op.add(k) = o;
        }
    }
}
