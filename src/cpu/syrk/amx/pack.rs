//! Packing for [`super`]: S's entries split into bf16 hi + lo, in the pairs layout (the
//! tiles' second operand), and the rows layout (the first) made from it by 16×16 transposes of
//! 32-bit pairs.
#![allow(unsafe_code)]

use crate::cpu::syrk::blocks::Source;
use std::arch::x86_64::*;

/// Values of k summed in f32 inside the tiles before a block is added to C in f64: the chunk
/// of S packed at a time.
pub const KA: usize = crate::cpu::precision::AMX_KC;
/// k values in one operand tile.
pub(super) const KT: usize = 32;
/// k steps (operand tiles) per chunk.
const STEPS: usize = KA / KT;
/// bf16 values in one operand tile (16 rows of 64 bytes).
pub(super) const TILE: usize = 16 * KT;
/// bf16 values of one 16-row group in a chunk.
pub(super) const GROUP: usize = STEPS * TILE;

/// Columns k0..k0 + kc of S, split into hi and lo, into the pairs layout, for the row groups
/// `first`.. that `hi` and `lo` hold: for group g and k step s a tile at (g − first)·GROUP +
/// s·TILE whose row p holds, for its 16 rows r, the pair (k = 32s + 2p, 32s + 2p + 1) at 2r.
/// Rows past m and k past kc are zeros.
pub(super) fn pack_pairs(src: Source<'_>, k0: usize, kc: usize, first: usize, hi: &mut [u16], lo: &mut [u16]) {
    let m = src.a.nrows();
    let groups = hi.len() / GROUP;
    let mut copies = [[0.0f64; 16]; 2];
    for s in 0..kc.div_ceil(KT) {
        for p in 0..KT / 2 {
            let k = s * KT + 2 * p;
            let cols = [column(src, k0, k, kc), column(src, k0, k + 1, kc)];
            for g in 0..groups {
                let r0 = (first + g) * 16;
                let rows = m.saturating_sub(r0).min(16);
                let r0 = r0.min(m);
                for (e, col) in cols.iter().enumerate() {
                    if let Column::Strided(v, _) = col {
                        for (ii, x) in copies[e].iter_mut().take(rows).enumerate() {
                            *x = v[r0 + ii];
                        }
                    }
                }
                let run = |e: usize| match &cols[e] {
                    Column::Zero => (&[][..], 0.0),
                    Column::Slice(v, w) => (&v[r0..r0 + rows], *w),
                    Column::Strided(_, w) => (&copies[e][..rows], *w),
                };
                let runs = [run(0), run(1)];
                let at = g * GROUP + s * TILE + p * KT;
                // SAFETY: `available` checked AVX-512F and AVX-512 BF16 before any call here.
                unsafe { split_pair(runs, &mut hi[at..at + KT], &mut lo[at..at + KT]) };
            }
        }
    }
}

/// Column k of a chunk of S: its entries in A and its scale.
enum Column<'a> {
    /// Past the chunk's end.
    Zero,
    Slice(&'a [f64], f64),
    Strided(faer::ColRef<'a, f64>, f64),
}

fn column<'a>(src: Source<'a>, k0: usize, k: usize, kc: usize) -> Column<'a> {
    if k >= kc {
        return Column::Zero;
    }
    let j = src.cols[k0 + k];
    let col = src.a.col(j);
    match col.try_as_col_major() {
        Some(v) => Column::Slice(v.as_slice(), src.scale[j]),
        None => Column::Strided(col, src.scale[j]),
    }
}

/// Up to sixteen rows of two consecutive k (each a run of A's entries and its scale; missing
/// rows are zeros) as bf16 pairs: hi = bf16(x) (round to nearest even), lo = bf16(x − hi),
/// with x the f32 value of the scaled entry (lo is NaN where x is infinite or NaN).
#[target_feature(enable = "avx512f,avx512bf16")]
unsafe fn split_pair(runs: [(&[f64], f64); 2], hi: &mut [u16], lo: &mut [u16]) {
    // SAFETY: the caller guarantees AVX-512F and AVX-512 BF16; the masked loads read only
    // the first n ≤ 16 values of each run (the second half's address wraps, never dereferenced
    // unmasked); each store writes 32 values, and the caller passes `hi` and `lo` KT = 32 long.
    unsafe {
        let f32s = |(v, w): (&[f64], f64)| {
            let n = v.len().min(16);
            let (k0, k1) = ((1u32 << n.min(8)) - 1, (1u32 << n.saturating_sub(8)) - 1);
            let w = _mm512_set1_pd(w);
            let low = _mm512_mul_pd(_mm512_maskz_loadu_pd(k0 as u8, v.as_ptr()), w);
            let high = _mm512_mul_pd(_mm512_maskz_loadu_pd(k1 as u8, v.as_ptr().wrapping_add(8)), w);
            let (low, high) = (_mm512_cvtpd_ps(low), _mm512_cvtpd_ps(high));
            _mm512_castpd_ps(_mm512_insertf64x4::<1>(
                _mm512_castps_pd(_mm512_castps256_ps512(low)),
                _mm256_castps_pd(high),
            ))
        };
        let widen = |h: __m256bh| _mm512_cvtepu16_epi32(std::mem::transmute::<__m256bh, __m256i>(h));
        let split = |x: __m512| {
            let h = _mm512_cvtneps_pbh(x);
            let hf = _mm512_castsi512_ps(_mm512_slli_epi32::<16>(widen(h)));
            let l = _mm512_cvtneps_pbh(_mm512_sub_ps(x, hf));
            (widen(h), widen(l))
        };
        let (ha, la) = split(f32s(runs[0]));
        let (hb, lb) = split(f32s(runs[1]));
        let pair = |x: __m512i, y: __m512i| _mm512_or_si512(x, _mm512_slli_epi32::<16>(y));
        _mm512_storeu_si512(hi.as_mut_ptr().cast(), pair(ha, hb));
        _mm512_storeu_si512(lo.as_mut_ptr().cast(), pair(la, lb));
    }
}

/// The rows layout of a tile from its pairs layout: as 16×16 matrices of 32-bit pairs, one is
/// the other's transpose.
pub(super) fn transpose_pairs(pairs: &[u16], rows: &mut [u16]) {
    for (r, row) in rows.chunks_exact_mut(KT).enumerate() {
        for (p, pair) in row.chunks_exact_mut(2).enumerate() {
            pair.copy_from_slice(&pairs[p * KT + 2 * r..p * KT + 2 * r + 2]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transposing_pairs_twice_gives_the_tile_back() {
        let tile: Vec<u16> = (0..TILE as u16).collect();
        let (mut once, mut twice) = (vec![0; TILE], vec![0; TILE]);
        transpose_pairs(&tile, &mut once);
        transpose_pairs(&once, &mut twice);
        assert_eq!(twice, tile);
        // Row r of the rows layout holds k = 0..32 of row r: pair p of row r came from row p of
        // the pairs layout, position 2r.
        assert_eq!(once[3 * KT + 2 * 5], tile[5 * KT + 2 * 3]);
        assert_eq!(once[3 * KT + 2 * 5 + 1], tile[5 * KT + 2 * 3 + 1]);
    }
}
