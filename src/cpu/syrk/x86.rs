//! The AVX-512 and AVX2 micro-kernels of [`super`]: one MR×NR tile of C from packed f32 panels,
//! converted to f64 when it is added to C, written only where it lies in the lower triangle (see
//! [`Tile`]).
#![allow(unsafe_code)]

use super::Tile;
use std::arch::x86_64::*;

/// Bit `ii` set when row ii of column jj is stored: ii < rows and ii ≥ jj + offset.
#[inline(always)]
fn column_mask(t: Tile, jj: usize) -> u64 {
    let lo = (jj as isize + t.offset).max(0) as u64;
    let full = if t.rows >= 64 { u64::MAX } else { (1u64 << t.rows) - 1 };
    if lo >= 64 {
        0
    } else {
        full & !((1u64 << lo) - 1)
    }
}

/// Adds (or stores) eight f64 values at `pc` where `mask`'s bits are set.
#[inline(always)]
unsafe fn put8(pc: *mut f64, mask: u64, x: __m512d, accumulate: bool) {
    // SAFETY: the caller passes a `pc` whose lanes set in `mask` lie in C; the masked load
    // and store touch only those lanes (a lane masked out is never accessed, even past C).
    unsafe {
        let k = (mask & 0xff) as __mmask8;
        if k == 0 {
            return;
        }
        let x = if accumulate { _mm512_add_pd(x, _mm512_maskz_loadu_pd(k, pc)) } else { x };
        _mm512_mask_storeu_pd(pc, k, x);
    }
}

/// How far ahead (in f32 values) the f32 kernel prefetches its packed panel.
const PF_SINGLE: usize = 48 * 8;

/// C[0..48, 0..8] (+)= Σ_k P[k, 0..48] ⊗ Q[k, 0..8] with f32 products and sums, the tile
/// added to C in f64, lower part only (see [`Tile`]).
///
/// # Safety
/// AVX-512F must be available; `p` holds kc·48 values and `q` kc rows of 8 at stride
/// `t.q_stride`; C's valid part is writable.
#[target_feature(enable = "avx512f")]
pub unsafe fn kernel_48x8_single(p: *const f32, q: *const f32, kc: usize, c: *mut f64, ldc: usize, t: Tile) {
    // SAFETY: the caller guarantees AVX-512F, kc·48 values at `p`, kc rows of 8 at `q`
    // (stride t.q_stride) and C's valid part writable (# Safety); the prefetches are hints
    // (wrapping addresses, never faulting); C's entries are reached only through `put8`'s masks,
    // which keep rows < t.rows of columns < t.cols.
    unsafe {
        let mut acc = [[_mm512_setzero_ps(); 3]; 8];
        let (mut pp, mut qq) = (p, q);
        for _ in 0..kc {
            _mm_prefetch::<_MM_HINT_T0>(pp.wrapping_add(PF_SINGLE) as *const i8);
            _mm_prefetch::<_MM_HINT_T0>(pp.wrapping_add(PF_SINGLE + 16) as *const i8);
            _mm_prefetch::<_MM_HINT_T0>(pp.wrapping_add(PF_SINGLE + 32) as *const i8);
            let a = [_mm512_loadu_ps(pp), _mm512_loadu_ps(pp.add(16)), _mm512_loadu_ps(pp.add(32))];
            for (jj, row) in acc.iter_mut().enumerate() {
                let b = _mm512_set1_ps(*qq.add(jj));
                for v in 0..3 {
                    row[v] = _mm512_fmadd_ps(a[v], b, row[v]);
                }
            }
            pp = pp.add(48);
            qq = qq.add(t.q_stride);
        }
        for (jj, row) in acc.iter().enumerate().take(t.cols) {
            let mask = column_mask(t, jj);
            let pc = c.add(jj * ldc);
            for (v, &x) in row.iter().enumerate() {
                let x = if t.negate { _mm512_sub_ps(_mm512_setzero_ps(), x) } else { x };
                let lo = _mm512_cvtps_pd(_mm512_castps512_ps256(x));
                let hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd::<1>(_mm512_castps_pd(x))));
                // Rows past the tile's valid ones are masked out: the address is formed without
                // a claim that it lies in C (wrapping), and only masked-in lanes are touched.
                put8(pc.wrapping_add(16 * v), mask >> (16 * v), lo, t.accumulate);
                put8(pc.wrapping_add(16 * v + 8), mask >> (16 * v + 8), hi, t.accumulate);
            }
        }
    }
}

/// C[0..24, 0..4] (+)= Σ_k P[k, 0..24] ⊗ Q[k, 0..4] with f32 products and sums, the tile
/// added to C in f64, lower part only (see [`Tile`]).
///
/// # Safety
/// AVX2 and FMA must be available; `p` holds kc·24 values and `q` kc rows of 4 at stride
/// `t.q_stride`; C's valid part is writable.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn kernel_24x4_single(p: *const f32, q: *const f32, kc: usize, c: *mut f64, ldc: usize, t: Tile) {
    // SAFETY: the caller guarantees AVX2 and FMA, kc·24 values at `p`, kc rows of 4 at `q`
    // (stride t.q_stride) and C's valid part writable (# Safety); `tile` holds 24 values; C is
    // written only at rows set in the column's mask (rows < t.rows) of columns < t.cols.
    unsafe {
        let mut acc = [[_mm256_setzero_ps(); 3]; 4];
        let (mut pp, mut qq) = (p, q);
        for _ in 0..kc {
            let a = [_mm256_loadu_ps(pp), _mm256_loadu_ps(pp.add(8)), _mm256_loadu_ps(pp.add(16))];
            for (jj, row) in acc.iter_mut().enumerate() {
                let b = _mm256_set1_ps(*qq.add(jj));
                for v in 0..3 {
                    row[v] = _mm256_fmadd_ps(a[v], b, row[v]);
                }
            }
            pp = pp.add(24);
            qq = qq.add(t.q_stride);
        }
        let mut tile = [0.0f32; 24];
        for (jj, row) in acc.iter().enumerate().take(t.cols) {
            let mask = column_mask(t, jj);
            let pc = c.add(jj * ldc);
            for (v, &x) in row.iter().enumerate() {
                _mm256_storeu_ps(tile.as_mut_ptr().add(8 * v), x);
            }
            for (ii, &x) in tile.iter().enumerate() {
                if mask & (1 << ii) != 0 {
                    let e = pc.add(ii);
                    let x = if t.negate { -f64::from(x) } else { f64::from(x) };
                    *e = if t.accumulate { *e + x } else { x };
                }
            }
        }
    }
}
