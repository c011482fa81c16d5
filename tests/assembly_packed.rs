//! Assembly of A·D²·Aᵀ and the packed format on the GL pipeline, against faer in f64.
//!
//! Tolerance for C: each entry is a sum of n products accumulated in single precision, so
//! |Ĉ − C| ≤ n·u·(|A|·D²·|A|ᵀ) entrywise (u = 2⁻²⁴); with A uniform in [0, 1) and d uniform in
//! [0, 1) every term is non-negative, so ‖Ĉ − C‖_F/‖C‖_F ≤ n·u, asserted with a factor 2 margin.
mod common;
use common::with_gpu;
use glsolve::cpu::random;
use glsolve::gl::Measure;
use glsolve::gpu::assemble;
use glsolve::gpu::cholesky::{self, Variant};
use glsolve::gpu::GpuError;
use glsolve::layout::Format;

const U: f64 = 5.960_464_5e-8;

fn reference_c(a: &[f32], d2: &[f32], m: usize, n: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..=i {
            c[i * m + j] = (0..n).map(|k| a[i * n + k] as f64 * d2[k] as f64 * a[j * n + k] as f64).sum();
        }
    }
    c
}

fn rel(a: &[f64], b: &[f64]) -> f64 {
    glsolve::cpu::dense::relative_frobenius(a, b)
}

fn problem(m: usize, n: usize, seed: u64) -> (Vec<f32>, Vec<f32>) {
    let a: Vec<f32> = random::uniform(m, n, 0.0, 1.0, seed).iter().map(|&x| x as f32).collect();
    let d: Vec<f32> = random::uniform(n, 1, 0.0, 1.0, seed + 1).iter().map(|&x| x as f32).collect();
    (a, d)
}

type FactorResult = Result<Vec<f32>, (usize, u32)>;

/// Assembles in both formats, returns (full C, packed C unpacked, factors full and packed). A
/// factorization that breaks down (A·D²·Aᵀ with n = m can be too ill-conditioned for single
/// precision) gives its column and pivot bits, which both formats must also agree on.
fn both(m: usize, n: usize, seed: u64, factor: bool) -> (Vec<f32>, Vec<f32>, Option<(FactorResult, FactorResult)>) {
    with_gpu(move |gpu| {
        let (a, d) = problem(m, n, seed);
        let mut out = Vec::new();
        let mut factors = Vec::new();
        for format in [Format::Full, Format::Packed] {
            let c =
                assemble::assemble(gpu, &a, &d, m, n, format).unwrap_or_else(|e| panic!("m={m} n={n} {format:?}: {e}"));
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
        let f = if factor { Some((factors.remove(0), factors.remove(0))) } else { None };
        (out.remove(0), out.remove(0), f)
    })
}

#[test]
fn packed_equals_full_bit_for_bit_and_both_match_f64_for_small_m() {
    for m in 1..=40usize {
        for n in [m, 2 * m, 4 * m] {
            let (full, packed, factors) = both(m, n, m as u64 * 7 + n as u64, true);
            assert!(full.iter().zip(&packed).all(|(a, b)| a.to_bits() == b.to_bits()), "assembly m={m} n={n}");
            let (a, d) = problem(m, n, m as u64 * 7 + n as u64);
            let c = reference_c(&a, &d, m, n);
            let full64: Vec<f64> = full.iter().map(|&x| x as f64).collect();
            let e = rel(&full64, &c);
            assert!(e <= 2.0 * n as f64 * U, "m={m} n={n}: assembly error {e:e}");
            match factors.unwrap() {
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
            let (full, packed, _) = both(m, n, 3, false);
            assert!(full.iter().zip(&packed).all(|(a, b)| a.to_bits() == b.to_bits()), "m={m} n={n}");
            let (a, d) = problem(m, n, 3);
            let c = reference_c(&a, &d, m, n);
            let e = rel(&full.iter().map(|&x| x as f64).collect::<Vec<_>>(), &c);
            assert!(e <= 2.0 * n as f64 * U, "m={m} n={n}: {e:e}");
        }
    }
}

#[test]
fn m_1024_assembly_and_factor_packed_equals_full() {
    let (m, n) = (1024usize, 2048usize);
    let (full, packed, factors) = both(m, n, 5, true);
    assert!(full.iter().zip(&packed).all(|(a, b)| a.to_bits() == b.to_bits()));
    let (lf, lp) = factors.unwrap();
    let (lf, lp) = (lf.expect("factors"), lp.expect("factors"));
    assert!(lf.iter().zip(&lp).all(|(a, b)| a.to_bits() == b.to_bits()));
    // The factor against f64: C = A·D²·Aᵀ with n = 2m random columns is well conditioned enough.
    let (a, d) = problem(m, n, 5);
    let c = reference_c(&a, &d, m, n);
    let l64 = glsolve::cpu::dense::cholesky_lower(&c, m).expect("SPD");
    let lf64: Vec<f64> = lf.iter().map(|&x| x as f64).collect();
    let bwd = glsolve::cpu::dense::cholesky_backward_error(&c, &lf64, m);
    assert!(bwd <= 4.0 * (m + n) as f64 * U, "backward error {bwd:e}");
    let fwd = rel(&lf64, &l64);
    assert!(fwd < 1e-3, "forward error {fwd:e}");
}

#[test]
fn m_1024_assembly_with_n_m_and_4m_packed_equals_full_and_f64() {
    let m = 1024usize;
    for n in [m, 4 * m] {
        let (full, packed, _) = both(m, n, 6, false);
        assert!(full.iter().zip(&packed).all(|(a, b)| a.to_bits() == b.to_bits()), "n={n}");
        let (a, d) = problem(m, n, 6);
        let e = rel(&full.iter().map(|&x| x as f64).collect::<Vec<_>>(), &reference_c(&a, &d, m, n));
        assert!(e <= 2.0 * n as f64 * U, "n={n}: {e:e}");
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
        let bwd = glsolve::cpu::dense::cholesky_backward_error(&c, &l, m);
        assert!(bwd <= 4.0 * m as f64 * U, "m={m}: {bwd:e}");
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
