//! Assembly of A·D²·Aᵀ and the packed format on the GL pipeline, against faer in f64.
//!
//! Tolerance for C, entry by entry (`common::bounds::assembly`): each entry is a sum of n
//! products aᵢₖ·dₖ·aⱼₖ with the product rounded twice (the column-scaling pass, then the
//! multiply–add) and the sum rounded n − 1 times, so |Ĉᵢⱼ − Cᵢⱼ| ≤ γ_{n+1}·(|A|D²|A|ᵀ)ᵢⱼ with
//! u = 2⁻²⁴ (Higham §3.1). Checked at every entry, not in a norm: a dropped column k moves every
//! entry (i, j) by aᵢₖ·dₖ·aⱼₖ, which exceeds γ_{n+1}·n/8 ≈ 0.13 at n = 4096 for most entries
//! unless dₖ is tiny. The passes are counted exactly at every size too: n column scalings of m
//! fragments and n additions of m(m+1)/2.
mod common;
use common::bounds;
use common::with_gpu;
use glsolve::fixtures::random;
use glsolve::gl::{Measure, PassLog};
use glsolve::gpu::assemble;
use glsolve::gpu::cholesky::{self, Variant};
use glsolve::gpu::GpuError;
use glsolve::layout::Format;

fn problem(m: usize, n: usize, seed: u64) -> (Vec<f32>, Vec<f32>) {
    let a: Vec<f32> = random::uniform(m, n, 0.0, 1.0, seed).iter().map(|&x| x as f32).collect();
    let d: Vec<f32> = random::uniform(n, 1, 0.0, 1.0, seed + 1).iter().map(|&x| x as f32).collect();
    (a, d)
}

type FactorResult = Result<Vec<f32>, (usize, u32)>;

/// What `both` returns: C in the full and packed formats (lower triangles, row-major), the
/// factors when asked for, and the fragment logs of the two assemblies.
struct Both {
    full: Vec<f32>,
    packed: Vec<f32>,
    factors: Option<(FactorResult, FactorResult)>,
    logs: [PassLog; 2],
}

/// Assembles in both formats, returns (full C, packed C unpacked, factors full and packed). A
/// factorization that breaks down (A·D²·Aᵀ with n = m can be too ill-conditioned for single
/// precision) gives its column and pivot bits, which both formats must also agree on.
fn both(m: usize, n: usize, seed: u64, factor: bool) -> Both {
    with_gpu(move |gpu| {
        let (a, d) = problem(m, n, seed);
        let mut out = Vec::new();
        let mut factors = Vec::new();
        let mut logs = Vec::new();
        for format in [Format::Full, Format::Packed] {
            let (c, log) = gpu.logged(Measure::FRAGMENTS, |gpu| assemble::assemble(gpu, &a, &d, m, n, format));
            let c = c.unwrap_or_else(|e| panic!("m={m} n={n} {format:?}: {e}"));
            logs.push(log);
            out.push(assemble::read_lower(gpu, c.source(), m, format).unwrap());
            if factor {
                // The composition the LP uses: C never leaves the GPU before the factorization.
                factors.push(match cholesky::factor_textures(gpu, c, m, Variant::PAPER, format) {
                    Ok(f) => Ok(cholesky::read_lower(gpu, &f).unwrap()),
                    Err(GpuError::NotPositiveDefinite { column, pivot }) => Err((column, pivot.to_bits())),
                    Err(e) => panic!("m={m} n={n} {format:?}: {e}"),
                });
            }
        }
        let factors = if factor { Some((factors.remove(0), factors.remove(0))) } else { None };
        let logs = [logs.remove(0), logs.remove(0)];
        Both { full: out.remove(0), packed: out.remove(0), factors, logs }
    })
}

/// The assertions every size shares: packed ≡ full bit for bit, C within the componentwise
/// bound of the f64 product, and the exact passes and fragments of Algorithm 3 in both formats.
fn check_assembly(r: &Both, m: usize, n: usize, seed: u64) {
    assert!(r.full.iter().zip(&r.packed).all(|(a, b)| a.to_bits() == b.to_bits()), "assembly m={m} n={n}");
    let (a, d) = problem(m, n, seed);
    bounds::assembly(&r.full, &a, &d, m, n).unwrap_or_else(|e| panic!("{e}"));
    let (m64, n64) = (m as u64, n as u64);
    for (log, format) in r.logs.iter().zip(["full", "packed"]) {
        assert_eq!(log.count_of("column_scale"), n64, "{format} m={m} n={n}");
        assert_eq!(log.count_of("outer_add"), n64, "{format} m={m} n={n}");
        assert_eq!(log.fragments_of("column_scale"), n64 * m64, "{format} m={m} n={n}");
        assert_eq!(log.fragments_of("outer_add"), n64 * m64 * (m64 + 1) / 2, "{format} m={m} n={n}");
    }
}

#[test]
fn packed_equals_full_bit_for_bit_and_both_match_f64_for_small_m() {
    for m in 1..=40usize {
        for n in [m, 2 * m, 4 * m] {
            let seed = m as u64 * 7 + n as u64;
            let r = both(m, n, seed, true);
            check_assembly(&r, m, n, seed);
            match r.factors.unwrap() {
                (Ok(lf), Ok(lp)) => {
                    assert!(lf.iter().zip(&lp).all(|(a, b)| a.to_bits() == b.to_bits()), "factor m={m} n={n}")
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a, b, "breakdown m={m} n={n}");
                    assert_eq!(n, m, "only the square case may be too ill-conditioned for f32");
                }
                (a, b) => panic!("m={m} n={n}: formats disagree: full {:?} packed {:?}", a.err(), b.err()),
            }
        }
    }
}

#[test]
fn large_sizes_match_f64_and_packed_equals_full() {
    for m in [255usize, 256, 511, 512] {
        for n in [m, 2 * m, 4 * m] {
            check_assembly(&both(m, n, 3, false), m, n, 3);
        }
    }
}

#[test]
fn m_1024_assembly_and_factor_packed_equals_full() {
    let (m, n) = (1024usize, 2048usize);
    let r = both(m, n, 5, true);
    check_assembly(&r, m, n, 5);
    let (lf, lp) = r.factors.unwrap();
    let (lf, lp) = (lf.expect("factors"), lp.expect("factors"));
    assert!(lf.iter().zip(&lp).all(|(a, b)| a.to_bits() == b.to_bits()));
    // The factor of the f32 C the GPU assembled (the factorization's input), entry by entry, and
    // the positive diagonal. A with entries in [0, 1) gives C one eigenvalue ≈ n·m/16 beside
    // small ones, so κ₂ε ≥ 1/2 and the forward bound says nothing here; it is asserted only if
    // it exists.
    let c: Vec<f64> = r.full.iter().map(|&x| x as f64).collect();
    let l: Vec<f64> = lf.iter().map(|&x| x as f64).collect();
    let bound = bounds::cholesky_backward(&c, &l, m).unwrap_or_else(|e| panic!("{e}"));
    let (fwd, limit) = bounds::cholesky_forward(&c, &l, &bound, m).unwrap_or_else(|e| panic!("{e}"));
    if let Some(limit) = limit {
        assert!(fwd <= limit, "forward error {fwd:e} > {limit:e}");
    }
}

#[test]
fn m_1024_assembly_with_n_m_and_4m_packed_equals_full_and_f64() {
    let m = 1024usize;
    for n in [m, 4 * m] {
        check_assembly(&both(m, n, 6, false), m, n, 6);
    }
}

#[test]
fn packed_fragment_counts_equal_full_counts() {
    for (m, n) in [(1usize, 1usize), (2, 4), (7, 14), (8, 16), (33, 66), (64, 64)] {
        let logs = with_gpu(move |gpu| {
            let (a, d) = problem(m, n, 1);
            [Format::Full, Format::Packed].map(|format| {
                let (r, log) = gpu.logged(Measure::FRAGMENTS, |gpu| {
                    let c = assemble::assemble(gpu, &a, &d, m, n, format)?;
                    cholesky::factor_textures(gpu, c, m, Variant::PAPER, format).map(|_| ())
                });
                r.unwrap();
                log
            })
        });
        let [full, packed] = logs;
        for name in [
            "column_scale",
            "outer_add",
            "sqrt",
            "copy_diagonal",
            "normalize",
            "copy_column",
            "outer_update",
            "gather_diagonal",
        ] {
            assert_eq!(full.fragments_of(name), packed.fragments_of(name), "{name} m={m} n={n}");
        }
        let (m64, n64) = (m as u64, n as u64);
        assert_eq!(full.fragments_of("outer_add"), n64 * m64 * (m64 + 1) / 2);
        assert_eq!(full.fragments_of("column_scale"), n64 * m64);
        assert_eq!(packed.fragments_of("outer_update"), (m64 - 1) * m64 * (m64 + 1) / 6);
        assert_eq!(full.count_of("outer_add"), n64);
    }
}

#[test]
fn packed_cholesky_matches_f64_for_odd_and_even_m() {
    for m in [1usize, 2, 3, 4, 5, 16, 17, 255, 256] {
        let c = random::spd_well_conditioned(m, 8);
        let l = with_gpu({
            let c = c.clone();
            move |gpu| {
                let c32: Vec<f32> = c.iter().map(|&x| x as f32).collect();
                let f = cholesky::factor_with(gpu, &c32, m, Variant::PAPER, Format::Packed).unwrap();
                cholesky::read_lower(gpu, &f).unwrap()
            }
        });
        let l: Vec<f64> = l.iter().map(|&x| x as f64).collect();
        let bound = bounds::cholesky_backward(&c, &l, m).unwrap_or_else(|e| panic!("m={m}: {e}"));
        let (fwd, limit) = bounds::cholesky_forward(&c, &l, &bound, m).unwrap_or_else(|e| panic!("m={m}: {e}"));
        let limit = limit.unwrap_or_else(|| panic!("m={m}: a well-conditioned matrix has a forward bound"));
        assert!(fwd <= limit, "m={m}: forward error {fwd:e} > {limit:e}");
    }
}

#[test]
fn bad_inputs_are_typed_errors() {
    with_gpu(|gpu| {
        let (m, n) = (4, 6);
        let (mut a, mut d) = problem(m, n, 2);
        assert!(matches!(assemble::assemble(gpu, &a[..5], &d, m, n, Format::Full), Err(GpuError::Shape(_))));
        assert!(matches!(assemble::assemble(gpu, &a, &d[..5], m, n, Format::Packed), Err(GpuError::Shape(_))));
        a[2 * n + 3] = f32::NAN;
        assert!(matches!(
            assemble::assemble(gpu, &a, &d, m, n, Format::Full),
            Err(GpuError::NonFinite { row: 2, col: 3, .. })
        ));
        a[2 * n + 3] = 0.5;
        d[4] = -1.0;
        let e = assemble::assemble(gpu, &a, &d, m, n, Format::Full).err().unwrap();
        assert!(matches!(e, GpuError::NegativeWeight { index: 4, .. }), "{e}");
        d[4] = f32::INFINITY;
        assert!(matches!(
            assemble::assemble(gpu, &a, &d, m, n, Format::Full),
            Err(GpuError::NegativeWeight { index: 4, .. })
        ));
        // Over the texture limit: a full C needs m ≤ max, a packed one h = m + 1 ≤ max (m even).
        let max = gpu.info().max_side() as usize;
        let e = assemble::c_textures(gpu, max + 1, Format::Full).err().unwrap();
        assert!(matches!(e, GpuError::Gl(glsolve::gl::GlError::TextureTooLarge { .. })), "{e}");
        assert!(e.to_string().contains("GL_MAX_TEXTURE_SIZE"));
        let e = assemble::c_textures(gpu, max, Format::Packed).err().unwrap();
        assert!(
            matches!(e, GpuError::Gl(glsolve::gl::GlError::TextureTooLarge { height, .. }) if height == max + 1),
            "{e}"
        );
        assert!(matches!(
            cholesky::factor_with(gpu, &[1.0; 4], 2, Variant::Inner, Format::Packed),
            Err(GpuError::Unsupported(_))
        ));
    });
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
