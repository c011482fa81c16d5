//! The products of `Precision::Bf16Pair` on AMX tiles (Intel Advanced Matrix
//! Extensions, AMX-BF16).
//!
//! Each entry of S = A·diag(√|w|) is rounded to f32 and split into two bfloat16 values, hi + lo
//! (8 significant bits each, 16 together; what is left is at most 2⁻¹⁶ of the entry). S·Sᵀ is
//! summed as hi·hiᵀ + hi·loᵀ + lo·hiᵀ (lo·loᵀ, at most 2⁻¹⁶ of each product, is left out) with
//! TDPBF16PS, which multiplies bf16 pairs exactly and sums in f32, over chunks of [`KA`] values
//! of k; each chunk's block is added to C in f64. On the cpu backend's random LPs this keeps the
//! iteration count and the single-precision phase's length of `Precision::Single`
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
//! hypervisor does not allow it. TDPBF16PS treats denormal inputs as zero and flushes denormal
//! results to zero: products below 2⁻¹²⁶ ≈ 1.2·10⁻³⁸ vanish (entries of S below about 10⁻¹⁹,
//! whose row of C would then have a zero diagonal). An infinite or NaN entry of S gives NaN in
//! its row and column of C (the f32 kernels and faer's f64 product give ±∞ or NaN), which the factorization
//! rejects as a non-finite pivot. At the other end, entries of S above about 1.8·10¹⁹ overflow
//! the f32 products (here as in `Precision::Single`): ±∞ or NaN in their row and
//! column.
#![allow(unsafe_code)]

mod pack;

use super::blocks::Source;
use crate::cpu::join;
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
    const ARCH_GET_XCOMP_PERM: libc::c_ulong = 0x1022;
    #[allow(unused_unsafe)]
    // SAFETY: CPUID is available on every x86_64 CPU (leaf 7 on one that lacks it returns the
    // highest leaf's values, and is ignored then).
    let (max_leaf, leaf7) = unsafe { (__cpuid(0).eax, __cpuid_count(7, 0)) };
    // AMX-TILE is CPUID.(7,0):EDX[24], AMX-BF16 EDX[22]; the packing uses AVX-512 BF16.
    let amx = max_leaf >= 7 && leaf7.edx & (1 << 24) != 0 && leaf7.edx & (1 << 22) != 0;
    if !amx || !is_x86_feature_detected!("avx512f") || !is_x86_feature_detected!("avx512bf16") {
        return false;
    }
    let mut granted: u64 = 0;
    // SAFETY: system calls with integer arguments and, for the query, a pointer to a local
    // u64 that the kernel fills; they change only this process's permission to use the tile
    // state (refused where the kernel or a hypervisor does not support it).
    unsafe {
        libc::syscall(libc::SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) == 0
            && libc::syscall(libc::SYS_arch_prctl, ARCH_GET_XCOMP_PERM, &mut granted as *mut u64) == 0
            && granted & (1 << XFEATURE_XTILEDATA) != 0
    }
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
/// column 0; on rayon's pool); added to C's entries with `add`, subtracted with `negate`.
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
    // Taken out of the thread-local (not borrowed) for the whole product: a rayon thread that
    // waits in `fork` may run another product meanwhile, which then starts from an empty one.
    let mut scratch = PAIRS.with(|cell| cell.take());
    {
        let (hi, lo) = aligned(&mut scratch, 2 * groups * GROUP).split_at_mut(groups * GROUP);
        let mut k0 = 0;
        while k0 < n {
            let kc = KA.min(n - k0);
            // Equal shares of the row groups for the packing.
            let share = groups.div_ceil(ranges.len());
            let parts: Vec<_> = hi.chunks_mut(share * GROUP).zip(lo.chunks_mut(share * GROUP)).enumerate().collect();
            join::each(parts, |(t, (hi, lo))| pack_pairs(src, k0, kc, t * share, hi, lo));
            let (hi, lo) = (&*hi, &*lo);
            let accumulate = add || k0 > 0;
            join::each(ranges.to_vec(), |range| {
                // SAFETY: as promised by the caller; each range writes only its own columns.
                unsafe { range_chunk(m, (hi, lo), kc.div_ceil(KT), c.0, ldc, range, accumulate, negate) }
            });
            k0 += kc;
        }
    }
    PAIRS.with(|cell| cell.replace(scratch));
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
    // SAFETY: the caller's contract (as for `gram`): AMX is available, C is m×m at column
    // stride ldc ≥ m and ours in columns j0..j1, `pairs` holds `steps` tiles of every row group;
    // the rows layout is sized here for groups g0..g1; the tiles are configured before `block`
    // and released after it.
    unsafe {
        let (g0, g1) = (j0 / 16, j1.div_ceil(NB) * 2);
        ROWS.with(|cell| {
            // Held only while this thread computes: nothing in here waits on other work.
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
            asm!(
                "ldtilecfg [{}]",
                in(reg) &cfg,
                out("tmm0") _, out("tmm1") _, out("tmm2") _, out("tmm3") _,
                out("tmm4") _, out("tmm5") _, out("tmm6") _, out("tmm7") _,
                options(nostack, readonly, preserves_flags),
            );
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
            asm!(
                "tilerelease",
                out("tmm0") _, out("tmm1") _, out("tmm2") _, out("tmm3") _,
                out("tmm4") _, out("tmm5") _, out("tmm6") _, out("tmm7") _,
                options(nostack, nomem, preserves_flags),
            );
        });
    }
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

/// The 32×32 block of hi·hiᵀ + hi·loᵀ + lo·hiᵀ over `steps` (≥ 1) operand tiles: `ops` are
/// [rows hi, rows lo] of the block's columns and [pairs hi, pairs lo] of its rows, each at its
/// first 16-row group (the second follows after [`GROUP`] values).
///
/// One `asm!` holds the whole block, so the accumulators (tmm0–3) never live across Rust code;
/// all eight tile registers are declared clobbered. Per k step: hi·hiᵀ, then lo·hiᵀ on the
/// same pairs tiles, then hi·loᵀ: the rows tiles (one column block, reused down the rows) are
/// loaded twice, the pairs tiles (streamed) once each.
///
/// # Safety
/// The tiles are configured 16×64 bytes on this thread ([`TileConfig`]); every operand holds
/// `steps` tiles in each of its two groups.
unsafe fn block(ops: [*const u16; 4], steps: usize, out: &mut Block) {
    // SAFETY: the tiles are configured 16×64 bytes on this thread and every operand holds
    // `steps` tiles in each of its two groups (# Safety); `out` holds the four 16×16 f32 tiles
    // stored at its offsets (NB·NB values).
    unsafe {
        debug_assert!(steps > 0);
        let [xh, xl, yh, yl] = ops;
        asm!(
            "tilezero tmm0",
            "tilezero tmm1",
            "tilezero tmm2",
            "tilezero tmm3",
            "2:",
            "tileloadd tmm4, [{xh} + {s}]",
            "tileloadd tmm5, [{xh} + {s} + {next}]",
            "tileloadd tmm6, [{yh} + {s}]",
            "tileloadd tmm7, [{yh} + {s} + {next}]",
            "tdpbf16ps tmm0, tmm4, tmm6",
            "tdpbf16ps tmm1, tmm4, tmm7",
            "tdpbf16ps tmm2, tmm5, tmm6",
            "tdpbf16ps tmm3, tmm5, tmm7",
            "tileloadd tmm4, [{xl} + {s}]",
            "tileloadd tmm5, [{xl} + {s} + {next}]",
            "tdpbf16ps tmm0, tmm4, tmm6",
            "tdpbf16ps tmm1, tmm4, tmm7",
            "tdpbf16ps tmm2, tmm5, tmm6",
            "tdpbf16ps tmm3, tmm5, tmm7",
            "tileloadd tmm4, [{xh} + {s}]",
            "tileloadd tmm5, [{xh} + {s} + {next}]",
            "tileloadd tmm6, [{yl} + {s}]",
            "tileloadd tmm7, [{yl} + {s} + {next}]",
            "tdpbf16ps tmm0, tmm4, tmm6",
            "tdpbf16ps tmm1, tmm4, tmm7",
            "tdpbf16ps tmm2, tmm5, tmm6",
            "tdpbf16ps tmm3, tmm5, tmm7",
            "add {xh}, {tile}",
            "add {xl}, {tile}",
            "add {yh}, {tile}",
            "add {yl}, {tile}",
            "dec {steps}",
            "jnz 2b",
            "tilestored [{o} + {os}], tmm0",
            "tilestored [{o} + {os} + 64], tmm1",
            "tilestored [{o} + {os} + {half}], tmm2",
            "tilestored [{o} + {os} + {half} + 64], tmm3",
            xh = inout(reg) xh => _,
            xl = inout(reg) xl => _,
            yh = inout(reg) yh => _,
            yl = inout(reg) yl => _,
            steps = inout(reg) steps => _,
            s = in(reg) 64usize,
            o = in(reg) out.0.as_mut_ptr(),
            os = in(reg) NB * 4,
            next = const GROUP * 2,
            tile = const TILE * 2,
            half = const 16 * NB * 4,
            out("tmm0") _, out("tmm1") _, out("tmm2") _, out("tmm3") _,
            out("tmm4") _, out("tmm5") _, out("tmm6") _, out("tmm7") _,
            options(nostack),
        );
    }
}

/// Adds (or writes) the block's entries that lie in C's lower triangle, below row m and left
/// of the range's end, negated with `negate`.
#[target_feature(enable = "avx512f")]
unsafe fn add_block(out: &Block, c: *mut f64, ldc: usize, at: Place) {
    // SAFETY: the caller guarantees AVX-512F (AMX implies it) and C m×m at column stride
    // ldc ≥ m, ours in columns col..col_end; only rows < m of the lower triangle are in the masks,
    // and `po` stays inside the block's NB·NB values.
    unsafe {
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
}
