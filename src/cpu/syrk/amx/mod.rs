//! The products of [`super::Precision::Bf16Pair`] on AMX tiles (Intel Advanced Matrix
//! Extensions, AMX-BF16).
//!
//! Each entry of S = A·diag(√|w|) is rounded to f32 and split into two bfloat16 values, hi + lo
//! (8 significant bits each, 16 together; what is left is at most 2⁻¹⁶ of the entry). S·Sᵀ is
//! summed as hi·hiᵀ + hi·loᵀ + lo·hiᵀ (lo·loᵀ, at most 2⁻¹⁶ of each product, is left out) with
//! TDPBF16PS, which multiplies bf16 pairs exactly and sums in f32, over chunks of [`KA`] values
//! of k; each chunk's block is added to C in f64. On the cpu backend's random LPs this keeps the
//! iteration count and the single-precision phase's length of [`super::Precision::Single`]
//! (whose directions are already refined in double precision), at a fraction of its time.
//!
//! A block of C is 32×32: 2×2 tiles of 16×16 f32 (tmm0–3), from operand tiles of 16×32 bf16
//! (tmm4–7). TDPBF16PS adds to D[i][j] Σₚ X[i][2p]·Y[p][2j] + X[i][2p+1]·Y[p][2j+1]: X holds 16
//! rows of 32 consecutive k ("rows" layout), Y 16 pairs of k for 16 rows of S ("pairs" layout).
//! X comes from the block's columns (rows c0.. of S) and Y from its rows, so D is the block's
//! transpose: each row of D is part of a column of C (column-major), added with contiguous
//! loads and stores.
//!
//! Linux lends a process the 8 KiB tile state only on request (`arch_prctl`,
//! `ARCH_REQ_XCOMP_PERM`); [`available`] asks once and says no where the CPU, the kernel or a
//! hypervisor does not allow it. Denormal bf16 inputs count as zero in the tiles (entries below
//! 2⁻¹²⁶ ≈ 1.2·10⁻³⁸ after scaling).
#![allow(unsafe_code)]

mod pack;

use super::blocks::Source;
pub use pack::KA;
use pack::{pack_pairs, transpose_pairs, GROUP, KT, TILE};
use std::arch::asm;
use std::arch::x86_64::*;
use std::cell::RefCell;
use std::sync::OnceLock;

/// Rows and columns of a block of C.
pub const NB: usize = 32;

/// Whether this process may use the AMX-BF16 kernel (asked once; see the module docs).
pub fn available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(enable)
}

#[cfg(target_os = "linux")]
fn enable() -> bool {
    const ARCH_REQ_XCOMP_PERM: libc::c_ulong = 0x1023;
    const XFEATURE_XTILEDATA: libc::c_ulong = 18;
    #[allow(unused_unsafe)]
    // SAFETY: CPUID is available on every x86_64 CPU; leaf 7 is read only when leaf 0 lists it.
    let (max_leaf, leaf7) = unsafe { (__cpuid(0).eax, __cpuid_count(7, 0)) };
    // AMX-TILE is CPUID.(7,0):EDX[24], AMX-BF16 EDX[22]; the packing uses AVX-512 BF16.
    let amx = max_leaf >= 7 && leaf7.edx & (1 << 24) != 0 && leaf7.edx & (1 << 22) != 0;
    if !amx || !is_x86_feature_detected!("avx512f") || !is_x86_feature_detected!("avx512bf16") {
        return false;
    }
    // SAFETY: a plain system call with integer arguments; it changes only this process's
    // permission to use the tile state (refused where the kernel or a hypervisor does not
    // support it).
    unsafe { libc::syscall(libc::SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn enable() -> bool {
    false
}

/// The tile configuration (palette 1): tmm0–7 all 16 rows of 64 bytes.
#[repr(C, align(64))]
struct TileConfig {
    palette: u8,
    start_row: u8,
    reserved: [u8; 14],
    bytes_per_row: [u16; 16],
    rows: [u8; 16],
}

impl TileConfig {
    fn sixteen_by_64() -> Self {
        let mut cfg = Self { palette: 1, start_row: 0, reserved: [0; 14], bytes_per_row: [0; 16], rows: [0; 16] };
        cfg.bytes_per_row[..8].fill(64);
        cfg.rows[..8].fill(16);
        cfg
    }
}

thread_local! {
    /// The pairs layout of a chunk (shared by the threads of one product, held by its caller)
    /// and each thread's rows layout, kept across calls.
    static PAIRS: RefCell<Vec<u16>> = const { RefCell::new(Vec::new()) };
    static ROWS: RefCell<Vec<u16>> = const { RefCell::new(Vec::new()) };
}

/// The lower triangle of ±S·Sᵀ into C (unit row stride, column stride `ldc`), S the columns of
/// `src` scaled by `src.scale`, one thread per column range of `ranges` (the first starting at
/// column 0; [`super::spin_join`] for two, rayon's pool for more); added to C's entries with
/// `add`, subtracted with `negate`.
///
/// Per chunk of [`KA`] columns of S, all rows are packed once in the pairs layout, the threads
/// taking equal shares of them; then each thread copies its range's rows into the rows layout
/// (each tile is a 16×16 transpose of 32-bit pairs of the other) and sums every 32×32 block of
/// its range's lower part in the tiles, adding it to C.
///
/// # Safety
/// [`available`] returned true; `c` points to an m×m matrix with unit row stride and column
/// stride `ldc` ≥ m, not accessed by anyone else meanwhile; the ranges are disjoint, ascending,
/// cover 0..m and start on multiples of [`NB`].
pub unsafe fn gram(src: Source<'_>, c: *mut f64, ldc: usize, ranges: &[(usize, usize)], add: bool, negate: bool) {
    let (m, n) = (src.a.nrows(), src.cols.len());
    let groups = m.div_ceil(NB) * 2;
    let c = super::SendPtr(c);
    let c = &c;
    PAIRS.with(|cell| {
        let mut scratch = cell.borrow_mut();
        let (hi, lo) = aligned(&mut scratch, 2 * groups * GROUP).split_at_mut(groups * GROUP);
        let mut k0 = 0;
        while k0 < n {
            let kc = KA.min(n - k0);
            // Equal shares of the row groups for the packing.
            let share = groups.div_ceil(ranges.len());
            let parts: Vec<_> = hi.chunks_mut(share * GROUP).zip(lo.chunks_mut(share * GROUP)).enumerate().collect();
            fork(parts, |(t, (hi, lo))| pack_pairs(src, k0, kc, t * share, hi, lo));
            let (hi, lo) = (&*hi, &*lo);
            let accumulate = add || k0 > 0;
            fork(ranges.to_vec(), |range| {
                // SAFETY: as promised by the caller; each range writes only its own columns.
                unsafe { range_chunk(m, (hi, lo), kc.div_ceil(KT), c.0, ldc, range, accumulate, negate) }
            });
            k0 += kc;
        }
    });
}

/// Runs `f` on every item, on as many threads.
fn fork<T: Send>(mut items: Vec<T>, f: impl Fn(T) + Sync) {
    match items.len() {
        0 => {}
        1 => f(items.pop().expect("one item")),
        2 => {
            let second = items.pop().expect("two items");
            let first = items.pop().expect("two items");
            super::spin_join::join_scoped(|| f(first), || f(second));
        }
        _ => {
            super::spin_join::rest();
            let f = &f;
            rayon::scope(|s| {
                for item in items {
                    s.spawn(move |_| f(item));
                }
            });
        }
    }
}

/// One chunk's blocks of columns j0..j1 (see [`gram`]).
///
/// # Safety
/// As for [`gram`]; `pairs` holds the chunk's `steps` k steps of every row group.
#[allow(clippy::too_many_arguments)]
unsafe fn range_chunk(
    m: usize,
    (pairs_hi, pairs_lo): (&[u16], &[u16]),
    steps: usize,
    c: *mut f64,
    ldc: usize,
    (j0, j1): (usize, usize),
    accumulate: bool,
    negate: bool,
) {
    let (g0, g1) = (j0 / 16, j1.div_ceil(NB) * 2);
    ROWS.with(|cell| {
        let mut scratch = cell.borrow_mut();
        let (rows_hi, rows_lo) = aligned(&mut scratch, 2 * (g1 - g0) * GROUP).split_at_mut((g1 - g0) * GROUP);
        for (pairs, rows) in [(pairs_hi, &mut *rows_hi), (pairs_lo, &mut *rows_lo)] {
            for g in g0..g1 {
                for s in 0..steps {
                    let (from, to) = (g * GROUP + s * TILE, (g - g0) * GROUP + s * TILE);
                    transpose_pairs(&pairs[from..from + TILE], &mut rows[to..to + TILE]);
                }
            }
        }
        let cfg = TileConfig::sixteen_by_64();
        asm!("ldtilecfg [{}]", in(reg) &cfg, options(nostack, readonly, preserves_flags));
        let mut out = Block([0.0; NB * NB]);
        for col in (j0..j1).step_by(NB) {
            let x = (col - j0) / 16 * GROUP;
            for row in (col..m).step_by(NB) {
                let y = row / 16 * GROUP;
                let operands =
                    [rows_hi[x..].as_ptr(), rows_lo[x..].as_ptr(), pairs_hi[y..].as_ptr(), pairs_lo[y..].as_ptr()];
                block(operands, steps, &mut out);
                add_block(&out, c, ldc, Place { m, row, col, col_end: j1, accumulate, negate });
            }
        }
        asm!("tilerelease", options(nostack, nomem, preserves_flags));
    });
}

/// `len` values of `s` (grown as needed) from a 64-byte aligned start (the start of `s` where
/// the platform cannot say: slower, still correct).
fn aligned(s: &mut Vec<u16>, len: usize) -> &mut [u16] {
    const SLACK: usize = 32;
    if s.len() < len + SLACK {
        s.resize(len + SLACK, 0);
    }
    let skip = match s.as_ptr().align_offset(64) {
        k if k <= SLACK => k,
        _ => 0,
    };
    &mut s[skip..skip + len]
}

/// One 32×32 block of f32 sums, row-major: row jj is column c0 + jj of C, rows r0.. of it.
#[repr(C, align(64))]
struct Block([f32; NB * NB]);

/// Where a block goes in C.
#[derive(Clone, Copy)]
struct Place {
    m: usize,
    /// C's row of the block's column 0 and column of its row 0.
    row: usize,
    col: usize,
    /// End of this range's columns.
    col_end: usize,
    accumulate: bool,
    negate: bool,
}

/// The 32×32 block of hi·hiᵀ + hi·loᵀ + lo·hiᵀ over `steps` operand tiles: `ops` are
/// [rows hi, rows lo] of the block's columns and [pairs hi, pairs lo] of its rows, each at its
/// first 16-row group (the second follows after [`GROUP`] values).
#[inline(never)]
unsafe fn block(ops: [*const u16; 4], steps: usize, out: &mut Block) {
    let next = GROUP;
    let stride = 64usize;
    macro_rules! load {
        ($tmm:literal, $ptr:expr) => {
            asm!(concat!("tileloadd ", $tmm, ", [{b} + {s}]"), b = in(reg) $ptr, s = in(reg) stride,
                 options(nostack, readonly, preserves_flags))
        };
    }
    macro_rules! dot {
        ($d:literal, $x:literal, $y:literal) => {
            asm!(concat!("tdpbf16ps ", $d, ", ", $x, ", ", $y), options(nostack, nomem, preserves_flags))
        };
    }
    asm!("tilezero tmm0", "tilezero tmm1", "tilezero tmm2", "tilezero tmm3", options(nostack, nomem, preserves_flags));
    for s in 0..steps {
        let [xh, xl, yh, yl] = ops.map(|p| p.add(s * TILE));
        // hi·hiᵀ, then lo·hiᵀ on the same pairs tiles, then hi·loᵀ: the rows tiles (one column
        // block, reused down the rows) are loaded twice, the pairs tiles (streamed) once each.
        load!("tmm4", xh);
        load!("tmm5", xh.add(next));
        load!("tmm6", yh);
        load!("tmm7", yh.add(next));
        dot!("tmm0", "tmm4", "tmm6");
        dot!("tmm1", "tmm4", "tmm7");
        dot!("tmm2", "tmm5", "tmm6");
        dot!("tmm3", "tmm5", "tmm7");
        load!("tmm4", xl);
        load!("tmm5", xl.add(next));
        dot!("tmm0", "tmm4", "tmm6");
        dot!("tmm1", "tmm4", "tmm7");
        dot!("tmm2", "tmm5", "tmm6");
        dot!("tmm3", "tmm5", "tmm7");
        load!("tmm4", xh);
        load!("tmm5", xh.add(next));
        load!("tmm6", yl);
        load!("tmm7", yl.add(next));
        dot!("tmm0", "tmm4", "tmm6");
        dot!("tmm1", "tmm4", "tmm7");
        dot!("tmm2", "tmm5", "tmm6");
        dot!("tmm3", "tmm5", "tmm7");
    }
    let o = out.0.as_mut_ptr();
    let stride = NB * 4;
    asm!(
        "tilestored [{o} + {s}], tmm0",
        "tilestored [{o1} + {s}], tmm1",
        "tilestored [{o2} + {s}], tmm2",
        "tilestored [{o3} + {s}], tmm3",
        o = in(reg) o,
        o1 = in(reg) o.add(16),
        o2 = in(reg) o.add(16 * NB),
        o3 = in(reg) o.add(16 * NB + 16),
        s = in(reg) stride,
        options(nostack, preserves_flags)
    );
}

/// Adds (or writes) the block's entries that lie in C's lower triangle, below row m and left
/// of the range's end, negated with `negate`.
#[target_feature(enable = "avx512f")]
unsafe fn add_block(out: &Block, c: *mut f64, ldc: usize, at: Place) {
    let sign = _mm512_set1_pd(if at.negate { -1.0 } else { 1.0 });
    let rows = (at.m - at.row).min(NB);
    let cols = (at.col_end - at.col).min(NB);
    let valid = if rows >= 32 { u32::MAX } else { (1u32 << rows) - 1 };
    for jj in 0..cols {
        let col = at.col + jj;
        // Entry ii is in the lower triangle when row + ii ≥ col.
        let lower = col.saturating_sub(at.row);
        let mask = if lower >= 32 { 0 } else { valid & !((1u32 << lower) - 1) };
        if mask == 0 {
            continue;
        }
        let pc = c.add(at.row + col * ldc);
        let po = out.0.as_ptr().add(jj * NB);
        for q in 0..4 {
            let k = ((mask >> (8 * q)) & 0xff) as __mmask8;
            if k == 0 {
                continue;
            }
            let v = _mm512_mul_pd(_mm512_cvtps_pd(_mm256_loadu_ps(po.add(8 * q))), sign);
            let p = pc.add(8 * q);
            let v = if at.accumulate { _mm512_add_pd(v, _mm512_maskz_loadu_pd(k, p)) } else { v };
            _mm512_mask_storeu_pd(p, k, v);
        }
    }
}
