//! The AVX-512 and AVX2 micro-kernels of [`super`]: one MR×NR tile of C from packed panels,
//! written only where it lies in the lower triangle (see [`Tile`]).
#![allow(unsafe_code)]

use super::Tile;
use std::arch::x86_64::*;

/// Bit `ii` set when row ii of column jj is stored: ii < rows and ii ≥ jj + offset.
#[inline(always)]
fn column_mask(t: Tile, jj: usize) -> u32 {
    let lo = (jj as isize + t.offset).max(0) as u32;
    let full = if t.rows >= 32 { u32::MAX } else { (1u32 << t.rows) - 1 };
    if lo >= 32 {
        0
    } else {
        full & !((1u32 << lo) - 1)
    }
}

/// C[0..24, 0..8] (+)= Σ_k P[k, 0..24] ⊗ Q[k, 0..8], lower part only (see [`Tile`]).
///
/// # Safety
/// AVX-512F must be available; `p` holds kc·24 and `q` kc·8 values; C's valid part (rows
/// `t.rows`, columns `t.cols`, column stride `ldc`) is writable.
const PF: usize = 24 * 8;
#[target_feature(enable = "avx512f")]
pub unsafe fn kernel_24x8(p: *const f64, q: *const f64, kc: usize, c: *mut f64, ldc: usize, t: Tile) {
    let mut acc = [[_mm512_setzero_pd(); 3]; 8];
    let (mut pp, mut qq) = (p, q);
    for _ in 0..kc {
        _mm_prefetch::<_MM_HINT_T0>(pp.add(PF) as *const i8);
        _mm_prefetch::<_MM_HINT_T0>(pp.add(PF + 8) as *const i8);
        _mm_prefetch::<_MM_HINT_T0>(pp.add(PF + 16) as *const i8);
        let a = [_mm512_loadu_pd(pp), _mm512_loadu_pd(pp.add(8)), _mm512_loadu_pd(pp.add(16))];
        for (jj, row) in acc.iter_mut().enumerate() {
            let b = _mm512_set1_pd(*qq.add(jj));
            for v in 0..3 {
                row[v] = _mm512_fmadd_pd(a[v], b, row[v]);
            }
        }
        pp = pp.add(24);
        qq = qq.add(8);
    }
    for (jj, row) in acc.iter().enumerate().take(t.cols) {
        let mask = column_mask(t, jj);
        let pc = c.add(jj * ldc);
        for (v, &x) in row.iter().enumerate() {
            let k = ((mask >> (8 * v)) & 0xff) as __mmask8;
            if k == 0 {
                continue;
            }
            let x = if t.accumulate { _mm512_add_pd(x, _mm512_maskz_loadu_pd(k, pc.add(8 * v))) } else { x };
            _mm512_mask_storeu_pd(pc.add(8 * v), k, x);
        }
    }
}

/// C[0..12, 0..4] (+)= Σ_k P[k, 0..12] ⊗ Q[k, 0..4], lower part only (see [`Tile`]).
///
/// # Safety
/// AVX2 and FMA must be available; `p` holds kc·12 and `q` kc·4 values; C's valid part is
/// writable.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn kernel_12x4(p: *const f64, q: *const f64, kc: usize, c: *mut f64, ldc: usize, t: Tile) {
    let mut acc = [[_mm256_setzero_pd(); 3]; 4];
    let (mut pp, mut qq) = (p, q);
    for _ in 0..kc {
        let a = [_mm256_loadu_pd(pp), _mm256_loadu_pd(pp.add(4)), _mm256_loadu_pd(pp.add(8))];
        for (jj, row) in acc.iter_mut().enumerate() {
            let b = _mm256_set1_pd(*qq.add(jj));
            for v in 0..3 {
                row[v] = _mm256_fmadd_pd(a[v], b, row[v]);
            }
        }
        pp = pp.add(12);
        qq = qq.add(4);
    }
    // No masked stores in AVX2: spill the tile and write the kept entries one by one.
    let mut tile = [0.0f64; 12];
    for (jj, row) in acc.iter().enumerate().take(t.cols) {
        let mask = column_mask(t, jj);
        let pc = c.add(jj * ldc);
        for (v, &x) in row.iter().enumerate() {
            _mm256_storeu_pd(tile.as_mut_ptr().add(4 * v), x);
        }
        for (ii, &x) in tile.iter().enumerate() {
            if mask & (1 << ii) != 0 {
                let e = pc.add(ii);
                *e = if t.accumulate { *e + x } else { x };
            }
        }
    }
}
