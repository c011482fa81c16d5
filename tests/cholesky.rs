//! Full-format Cholesky on the GL pipeline against faer's double-precision factorization.
//!
//! Tolerances (u = 2⁻²⁴ ≈ 6e-8, single-precision unit roundoff; see `common::bounds`):
//! - backward error entry by entry, |C − L̂L̂ᵀ|ᵢⱼ ≤ u·|Cᵢⱼ| + γ_{m+5}·(|L̂||L̂ᵀ|)ᵢⱼ (Higham
//!   Thm 10.3 with GLSL's division and square-root accuracy), whatever the conditioning: one
//!   wrong entry of L̂, or L̂ = 0, fails it where a Frobenius norm over m² entries would not;
//! - forward error ‖L̂ − L‖_F/‖L‖₂ ≤ 2^(−1/2)·κ₂ε/(1 − κ₂ε) (Higham Thm 10.8) with ε the
//!   backward bound above in norm, asserted wherever κ₂ε < 1/2 (for κ = 1e5–1e6 single
//!   precision promises no digit of L and only the backward bound and the positive diagonal are
//!   asserted).
mod common;
use common::bounds;
use common::with_gpu;
use glsolve::fixtures::random;
use glsolve::gl::Measure;
use glsolve::gpu::cholesky::{self, Domain, IndexSource, Variant};
use glsolve::gpu::GpuError;

fn factor_f64(gpu: &glsolve::gl::Gpu, c: &[f64], m: usize, v: Variant) -> Vec<f64> {
    let c32: Vec<f32> = c.iter().map(|&x| x as f32).collect();
    let f = cholesky::factor(gpu, &c32, m, v).unwrap_or_else(|e| panic!("m={m} {v}: {e}"));
    cholesky::read_lower(gpu, &f).unwrap().into_iter().map(f64::from).collect()
}

/// Backward bound entry by entry, positive diagonal, and the forward bound where it means
/// something; `well` says the forward bound must exist (κ small enough).
fn check(c: &[f64], l: &[f64], m: usize, well: bool, what: &str) {
    let bound = bounds::cholesky_backward(c, l, m).unwrap_or_else(|e| panic!("{what}: {e}"));
    let (fwd, limit) = bounds::cholesky_forward(c, l, &bound, m).unwrap_or_else(|e| panic!("{what}: {e}"));
    match limit {
        Some(limit) => assert!(fwd <= limit, "{what}: forward error {fwd:e} > {limit:e}"),
        None => assert!(!well, "{what}: κ₂·ε ≥ 1/2 for a well-conditioned matrix"),
    }
}

#[test]
fn paper_variant_matches_f64_for_every_size() {
    for m in [1usize, 2, 3, 17, 64, 255, 256, 513, 1024] {
        for seed in [1u64, 2] {
            let c = random::spd_well_conditioned(m, seed);
            let l = with_gpu({
                let c = c.clone();
                move |gpu| factor_f64(gpu, &c, m, Variant::PAPER)
            });
            check(&c, &l, m, true, &format!("well-conditioned m={m} seed={seed}"));
        }
    }
}

#[test]
fn ill_conditioned_matrices_meet_the_backward_bound() {
    for (m, cond) in [(17usize, 1e4), (64, 1e5), (256, 1e5), (513, 1e6)] {
        let c = random::spd_with_condition(m, cond, 11);
        let l = with_gpu({
            let c = c.clone();
            move |gpu| factor_f64(gpu, &c, m, Variant::PAPER)
        });
        check(&c, &l, m, false, &format!("κ={cond:e} m={m}"));
    }
}

#[test]
fn every_variant_is_correct_and_outer_variants_agree_bit_for_bit() {
    for m in [1usize, 2, 3, 17, 64, 255, 256] {
        let c = random::spd_well_conditioned(m, 5);
        let results = with_gpu({
            let c = c.clone();
            move |gpu| Variant::PAPERS.iter().map(|&v| (v, factor_f64(gpu, &c, m, v))).collect::<Vec<_>>()
        });
        for (v, l) in &results {
            check(&c, l, m, true, &format!("{v} m={m}"));
        }
        let paper = &results[0].1;
        for (v, l) in &results {
            if matches!(v, Variant::Outer { .. }) {
                let same = l.iter().zip(paper).all(|(a, b)| a.to_bits() == b.to_bits());
                assert!(same, "{v} differs from {} at m={m}", Variant::PAPER);
            }
        }
    }
}

#[test]
fn larger_square_and_inner_variants() {
    let m = 513;
    let c = random::spd_well_conditioned(m, 9);
    for v in [
        Variant::Outer { domain: Domain::Square, index: IndexSource::Pair },
        Variant::Inner,
        Variant::Outer { domain: Domain::Triangle, index: IndexSource::Triad },
    ] {
        let l = with_gpu({
            let c = c.clone();
            move |gpu| factor_f64(gpu, &c, m, v)
        });
        check(&c, &l, m, true, &format!("{v} m={m}"));
    }
}

#[test]
fn occlusion_counts_equal_the_papers_formulas() {
    for m in [1u64, 2, 3, 17, 64] {
        let counts = with_gpu(move |gpu| {
            let c32: Vec<f32> = random::spd_well_conditioned(m as usize, 3).iter().map(|&x| x as f32).collect();
            Variant::PAPERS
                .iter()
                .map(|&v| {
                    let (r, log) =
                        gpu.logged(Measure::FRAGMENTS, |gpu| cholesky::factor(gpu, &c32, m as usize, v).map(|_| ()));
                    r.unwrap();
                    (v, log)
                })
                .collect::<Vec<_>>()
        });
        for (v, log) in counts {
            let k = m.saturating_sub(1);
            assert_eq!(log.fragments_of("sqrt"), m, "{v} m={m} sqrt");
            assert_eq!(log.count_of("sqrt"), m, "{v} m={m} sqrt passes");
            assert_eq!(log.fragments_of("copy_diagonal"), k, "{v} m={m}");
            assert_eq!(log.fragments_of("normalize"), k * m / 2, "{v} m={m}");
            match v {
                Variant::Outer { domain, .. } => {
                    assert_eq!(log.fragments_of("copy_column"), k * m / 2, "{v} m={m}");
                    let update = match domain {
                        Domain::Triangle | Domain::Columns => k * m * (m + 1) / 6,
                        Domain::Square => k * m * (2 * m - 1) / 6,
                    };
                    assert_eq!(log.fragments_of("outer_update"), update, "{v} m={m}");
                    // One update pass per step; the column-wise multipass one per trailing column.
                    let passes = if domain == Domain::Columns { k * m / 2 } else { k };
                    assert_eq!(log.count_of("outer_update"), passes, "{v} m={m}");
                }
                Variant::Inner => {
                    assert_eq!(log.fragments_of("inner_update"), k * m / 2, "{v} m={m}");
                    assert_eq!(log.count_of("copy_column"), 0);
                }
                Variant::Blocked(_) | Variant::Tiled(_) => unreachable!("only the papers' variants are listed"),
            }
        }
    }
}

#[test]
fn breakdown_names_the_column() {
    with_gpu(|gpu| {
        let m = 8;
        for v in Variant::PAPERS {
            // Identity with a negative pivot in column 3.
            let mut c = vec![0f32; m * m];
            for i in 0..m {
                c[i * m + i] = 1.0;
            }
            c[3 * m + 3] = -2.0;
            match cholesky::factor(gpu, &c, m, v) {
                Err(GpuError::NotPositiveDefinite { column: 3, pivot }) => {
                    assert_eq!(pivot, -2.0, "{v}")
                }
                Err(e) => panic!("{v}: wrong error {e}"),
                Ok(_) => panic!("{v}: indefinite matrix factored"),
            }
            // A zero pivot in column 0.
            c[3 * m + 3] = 1.0;
            c[0] = 0.0;
            assert!(
                matches!(cholesky::factor(gpu, &c, m, v), Err(GpuError::NotPositiveDefinite { column: 0, .. })),
                "{v}"
            );
            // Indefinite only after elimination: [[1, 2], [2, 1]] has pivot 1 − 4 = −3 in column 1.
            let e = cholesky::factor(gpu, &[1.0, 2.0, 2.0, 1.0], 2, v).err().expect("indefinite");
            assert!(matches!(e, GpuError::NotPositiveDefinite { column: 1, pivot } if pivot == -3.0), "{v}: {e}");
            assert!(e.to_string().contains("column 1"));
        }
    });
}

#[test]
fn non_finite_input_is_refused_and_nan_on_the_gpu_is_caught() {
    with_gpu(|gpu| {
        let m = 9;
        let mut c: Vec<f32> = random::spd_well_conditioned(m, 4).iter().map(|&x| x as f32).collect();
        c[5 * m + 2] = f32::NAN;
        let e = cholesky::factor(gpu, &c, m, Variant::PAPER).err().expect("NaN refused");
        assert!(matches!(e, GpuError::NonFinite { row: 5, col: 2, .. }), "{e}");
        c[5 * m + 2] = f32::INFINITY;
        assert!(matches!(
            cholesky::factor(gpu, &c, m, Variant::PAPER),
            Err(GpuError::NonFinite { row: 5, col: 2, .. })
        ));
        // A NaN already in the texture (as a faulty assembly would leave) reaches row 5's pivot first.
        let s = gpu.upload(m, m, &c, "S").unwrap();
        c[5 * m + 2] = f32::NAN;
        gpu.write(&s, &c).unwrap();
        let t = gpu.texture(m, m, "T").unwrap();
        for v in Variant::PAPERS {
            let s2 = gpu.upload(m, m, &c, "S").unwrap();
            let t2 = gpu.texture(m, m, "T").unwrap();
            let e =
                cholesky::factor_textures(gpu, glsolve::gl::PingPong::new(s2, t2), m, v, glsolve::layout::Format::Full)
                    .err()
                    .expect("NaN caught");
            assert!(matches!(e, GpuError::NotPositiveDefinite { column: 5, .. }), "{v}: {e}");
        }
        drop((s, t));
        // Shapes.
        assert!(matches!(cholesky::factor(gpu, &[1.0; 5], 2, Variant::PAPER), Err(GpuError::Shape(_))));
    });
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
