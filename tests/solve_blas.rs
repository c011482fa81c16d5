//! Substitution, Level-1 and Level-2 kernels on the GL pipeline against f64 references.
//!
//! Tolerances (u = 2⁻²⁴): a sum of n terms in single precision errs by at most ≈ n·u·Σ|termᵢ|
//! (pairwise reductions do better, the bound holds for both); element-wise operations are exact
//! to one rounding, |err| ≤ u·|result| (plus u for a multiply-add); a substitution with a factor
//! of C has backward error ‖C·x̂ − b‖ ≤ c·m·u·‖C‖‖x̂‖.
mod common;
use common::{with_gpu, Rng};
use glsolve::cpu::rowmajor;
use glsolve::fixtures::random;
use glsolve::gl::Measure;
use glsolve::gpu::blas1::{self, ReduceOp, Reducer};
use glsolve::gpu::blas2::{gemv, MatrixRef};
use glsolve::gpu::cholesky::{self, Variant};
use glsolve::gpu::substitute::{self, CpuPrecision};
use glsolve::gpu::{GpuError, Vector};
use glsolve::layout::Format;

const U: f64 = 5.960_464_5e-8;

fn lengths() -> Vec<usize> {
    (1..=70).chain([1000, 4096, 10000]).collect()
}

fn rand_vec(n: usize, seed: u64) -> Vec<f32> {
    let mut r = Rng::new(seed);
    (0..n).map(|_| r.f32()).collect()
}

#[test]
fn elementwise_kernels_match_f64() {
    with_gpu(|gpu| {
        for n in lengths() {
            let (x, mut y) = (rand_vec(n, n as u64), rand_vec(n, n as u64 + 99));
            for v in y.iter_mut() {
                if v.abs() < 0.01 {
                    *v = 0.5; // keep x / y tame
                }
            }
            let (gx, gy, out) = (
                Vector::from_slice(gpu, &x, "x").unwrap(),
                Vector::from_slice(gpu, &y, "y").unwrap(),
                Vector::new(gpu, n, "out").unwrap(),
            );
            let check = |got: Vec<f32>, want: &dyn Fn(usize) -> f64, what: &str| {
                for (i, g) in got.iter().enumerate() {
                    let w = want(i);
                    assert!((*g as f64 - w).abs() <= 2.0 * U * (w.abs() + 1.0), "{what} n={n} i={i}: {g} vs {w}");
                }
            };
            blas1::axpby(gpu, &out, 0.75, &gx, -2.5, &gy).unwrap();
            check(out.read(gpu).unwrap(), &|i| 0.75 * x[i] as f64 - 2.5 * y[i] as f64, "axpby");
            blas1::axpy(gpu, &out, &gx, 3.0, &gy).unwrap();
            check(out.read(gpu).unwrap(), &|i| x[i] as f64 + 3.0 * y[i] as f64, "axpy");
            blas1::mul(gpu, &out, &gx, &gy).unwrap();
            check(out.read(gpu).unwrap(), &|i| x[i] as f64 * y[i] as f64, "mul");
            blas1::div(gpu, &out, &gx, &gy).unwrap();
            check(out.read(gpu).unwrap(), &|i| x[i] as f64 / y[i] as f64, "div");
            blas1::affine(gpu, &out, -1.5, &gx, 0.25).unwrap();
            check(out.read(gpu).unwrap(), &|i| -1.5 * x[i] as f64 + 0.25, "affine");
            blas1::fill(gpu, &out, 7.0).unwrap();
            assert!(out.read(gpu).unwrap().iter().all(|&v| v == 7.0));
            blas1::copy(gpu, &out, &gx).unwrap();
            assert_eq!(out.read(gpu).unwrap(), x);
        }
    });
}

#[test]
fn reductions_and_line_search_match_f64_for_every_length() {
    with_gpu(|gpu| {
        let r = Reducer::new();
        for n in lengths() {
            let (x, y) = (rand_vec(n, 3 * n as u64), rand_vec(n, 5 * n as u64));
            let (gx, gy) = (Vector::from_slice(gpu, &x, "x").unwrap(), Vector::from_slice(gpu, &y, "y").unwrap());
            let dot: f64 = x.iter().zip(&y).map(|(a, b)| *a as f64 * *b as f64).sum();
            let scale: f64 = x.iter().zip(&y).map(|(a, b)| (*a as f64 * *b as f64).abs()).sum();
            let got = r.dot(gpu, &gx, &gy).unwrap() as f64;
            assert!((got - dot).abs() <= 2.0 * n as f64 * U * scale, "dot n={n}: {got} vs {dot}");
            let sum: f64 = x.iter().map(|&v| v as f64).sum();
            let got = r.reduce(gpu, &gx, ReduceOp::Sum).unwrap() as f64;
            assert!(
                (got - sum).abs() <= 2.0 * n as f64 * U * x.iter().map(|v| v.abs() as f64).sum::<f64>(),
                "sum n={n}"
            );
            // max, min and |max| select an entry: exact.
            let max = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let min = x.iter().copied().fold(f32::INFINITY, f32::min);
            let ninf = x.iter().map(|v| v.abs()).fold(0.0, f32::max);
            assert_eq!(r.reduce(gpu, &gx, ReduceOp::Max).unwrap(), max, "max n={n}");
            assert_eq!(r.reduce(gpu, &gx, ReduceOp::Min).unwrap(), min, "min n={n}");
            assert_eq!(r.norm_inf(gpu, &gx).unwrap(), ninf, "norm n={n}");
            // Line search from a positive point.
            let pos: Vec<f32> = x.iter().map(|v| v.abs() + 0.1).collect();
            let gp = Vector::from_slice(gpu, &pos, "x>0").unwrap();
            let want = pos
                .iter()
                .zip(&y)
                .filter(|(_, d)| **d < 0.0)
                .map(|(a, d)| -(*a as f64) / *d as f64)
                .fold(1.0, f64::min);
            let got = r.max_step(gpu, &gp, &gy).unwrap() as f64;
            assert!((got - want).abs() <= 2.0 * U * want, "max_step n={n}: {got} vs {want}");
            // The step is feasible up to rounding: x + α·dx ≥ −u·|x|.
            assert!(pos.iter().zip(&y).all(|(a, d)| (*a as f64 + got * *d as f64) >= -4.0 * U * *a as f64));
        }
    });
}

#[test]
fn special_values_behave_as_documented() {
    with_gpu(|gpu| {
        let r = Reducer::new();
        for n in [1usize, 2, 7, 64, 1001] {
            for pos in [0, n / 2, n - 1] {
                let mut x = rand_vec(n, 11);
                x[pos] = f32::NAN;
                let gx = Vector::from_slice(gpu, &x, "x").unwrap();
                let ones = Vector::from_slice(gpu, &vec![1.0; n], "1").unwrap();
                assert!(r.norm_inf(gpu, &gx).unwrap().is_nan(), "norm with NaN n={n} at {pos}");
                assert!(r.dot(gpu, &gx, &ones).unwrap().is_nan(), "dot with NaN");
                assert!(r.reduce(gpu, &gx, ReduceOp::Min).unwrap().is_nan(), "min with NaN");
                assert!(r.reduce(gpu, &gx, ReduceOp::Max).unwrap().is_nan(), "max with NaN");
                assert!(r.max_step(gpu, &ones, &gx).unwrap().is_nan(), "line search with NaN direction");
                x[pos] = f32::NEG_INFINITY;
                let gx = Vector::from_slice(gpu, &x, "x").unwrap();
                assert_eq!(r.norm_inf(gpu, &gx).unwrap(), f32::INFINITY);
                assert_eq!(r.reduce(gpu, &gx, ReduceOp::Min).unwrap(), f32::NEG_INFINITY);
            }
            // Huge values: the sum overflows to +inf (single precision), the norm does not.
            let big = vec![3.0e38f32; n.max(2)];
            let gb = Vector::from_slice(gpu, &big, "big").unwrap();
            assert_eq!(r.norm_inf(gpu, &gb).unwrap(), 3.0e38);
            assert_eq!(r.reduce(gpu, &gb, ReduceOp::Sum).unwrap(), f32::INFINITY);
        }
        // A direction with no negative entry allows the full step.
        let x = Vector::from_slice(gpu, &[1.0, 2.0, 0.0], "x").unwrap();
        let d = Vector::from_slice(gpu, &[0.0, 5.0, 1.0], "d").unwrap();
        assert_eq!(r.max_step(gpu, &x, &d).unwrap(), 1.0);
        // Shapes and the length limit.
        let y = Vector::new(gpu, 4, "y").unwrap();
        assert!(matches!(blas1::mul(gpu, &y, &x, &d), Err(GpuError::Shape(_))));
        let max = gpu.info().max_side() as usize;
        let e = Vector::new(gpu, max + 1, "the vector x").err().unwrap();
        assert!(e.to_string().contains("GL_MAX_TEXTURE_SIZE") && e.to_string().contains("the vector x"), "{e}");
    });
}

#[test]
fn gemv_and_residuals_match_f64() {
    with_gpu(|gpu| {
        for (m, n) in [(1usize, 1usize), (3, 7), (17, 40), (64, 256), (200, 801)] {
            let a: Vec<f32> = rand_vec(m * n, (m * n) as u64);
            let (x, lam) = (rand_vec(n, 1), rand_vec(m, 2));
            let (b, z) = (rand_vec(m, 3), rand_vec(n, 4));
            let at = gpu.upload(n, m, &a, "A").unwrap();
            let am = MatrixRef { texture: &at, m, n };
            let (gx, gl, gb, gz) = (
                Vector::from_slice(gpu, &x, "x").unwrap(),
                Vector::from_slice(gpu, &lam, "λ").unwrap(),
                Vector::from_slice(gpu, &b, "b").unwrap(),
                Vector::from_slice(gpu, &z, "z").unwrap(),
            );
            let (ym, yn) = (Vector::new(gpu, m, "r_b").unwrap(), Vector::new(gpu, n, "r_c").unwrap());
            // r_b = A·x − b.
            gemv(gpu, &ym, &am, false, 1.0, &gx, Some((-1.0, &gb))).unwrap();
            let got = ym.read(gpu).unwrap();
            for i in 0..m {
                let want: f64 = (0..n).map(|k| a[i * n + k] as f64 * x[k] as f64).sum::<f64>() - b[i] as f64;
                let scale: f64 =
                    (0..n).map(|k| (a[i * n + k] as f64 * x[k] as f64).abs()).sum::<f64>() + b[i].abs() as f64;
                assert!((got[i] as f64 - want).abs() <= 2.0 * (n + 1) as f64 * U * scale, "A·x−b m={m} n={n} i={i}");
            }
            // Aᵀ·λ + z and plain products.
            gemv(gpu, &yn, &am, true, 1.0, &gl, Some((1.0, &gz))).unwrap();
            let got = yn.read(gpu).unwrap();
            for k in 0..n {
                let want: f64 = (0..m).map(|i| a[i * n + k] as f64 * lam[i] as f64).sum::<f64>() + z[k] as f64;
                let scale: f64 =
                    (0..m).map(|i| (a[i * n + k] as f64 * lam[i] as f64).abs()).sum::<f64>() + z[k].abs() as f64;
                assert!((got[k] as f64 - want).abs() <= 2.0 * (m + 1) as f64 * U * scale, "Aᵀλ+z m={m} n={n} k={k}");
            }
            gemv(gpu, &ym, &am, false, 2.0, &gx, None).unwrap();
            let got = ym.read(gpu).unwrap();
            for i in 0..m {
                let want: f64 = 2.0 * (0..n).map(|k| a[i * n + k] as f64 * x[k] as f64).sum::<f64>();
                let scale: f64 = 2.0 * (0..n).map(|k| (a[i * n + k] as f64 * x[k] as f64).abs()).sum::<f64>();
                assert!((got[i] as f64 - want).abs() <= 2.0 * n as f64 * U * scale, "2A·x m={m} n={n}");
            }
            if m != n {
                assert!(matches!(gemv(gpu, &yn, &am, false, 1.0, &gx, None), Err(GpuError::Shape(_))));
            }
        }
    });
}

#[test]
fn substitution_solves_full_and_packed_even_and_odd() {
    for m in [1usize, 2, 3, 16, 17, 64, 255, 256] {
        let c = random::spd_well_conditioned(m, 21);
        let b: Vec<f64> = rand_vec(m, 77).iter().map(|&v| v as f64).collect();
        let results = with_gpu({
            let (c, b) = (c.clone(), b.clone());
            move |gpu| {
                let c32: Vec<f32> = c.iter().map(|&x| x as f32).collect();
                let b32: Vec<f32> = b.iter().map(|&x| x as f32).collect();
                [Format::Full, Format::Packed].map(|format| {
                    let f = cholesky::factor_with(gpu, &c32, m, Variant::PAPER, format).unwrap();
                    let gb = Vector::from_slice(gpu, &b32, "b").unwrap();
                    let (x, log) = gpu.logged(Measure::FRAGMENTS, |gpu| substitute::solve(gpu, &f, &gb));
                    let x = x.unwrap().read(gpu).unwrap();
                    let cpu32 = substitute::solve_on_cpu(gpu, &f, &b, CpuPrecision::Single).unwrap();
                    let cpu64 = substitute::solve_on_cpu(gpu, &f, &b, CpuPrecision::Double).unwrap();
                    let counts: std::collections::BTreeMap<&str, u64> =
                        log.by_name().into_iter().map(|(k, v)| (k, v.passes)).collect();
                    (x, cpu32, cpu64, counts)
                })
            }
        });
        let exact = rowmajor::cholesky_solve(&rowmajor::cholesky_lower(&c, m).unwrap(), m, &b);
        let cnorm: f64 = c.iter().map(|v| v * v).sum::<f64>().sqrt();
        for (format, (x, cpu32, cpu64, passes)) in [Format::Full, Format::Packed].into_iter().zip(results) {
            let x64: Vec<f64> = x.iter().map(|&v| v as f64).collect();
            // Backward error of the GPU solution.
            let res: f64 =
                (0..m).map(|i| ((0..m).map(|j| c[i * m + j] * x64[j]).sum::<f64>() - b[i]).powi(2)).sum::<f64>().sqrt();
            let xn: f64 = x64.iter().map(|v| v * v).sum::<f64>().sqrt();
            assert!(res <= 8.0 * m as f64 * U * cnorm * xn, "{format:?} m={m}: residual {res:e}");
            // Forward error (κ(C) < 10 for this family).
            let fwd = rowmajor::relative_frobenius(&x64, &exact);
            assert!(fwd <= 8.0 * m as f64 * U * 10.0, "{format:?} m={m}: forward {fwd:e}");
            // The CPU single-precision substitution does the same operations in the same order.
            assert_eq!(
                x,
                cpu32.iter().map(|&v| v as f32).collect::<Vec<_>>(),
                "{format:?} m={m}: GPU and CPU f32 substitution"
            );
            assert!(rowmajor::relative_frobenius(&cpu64, &exact) <= fwd.max(8.0 * m as f64 * U * 10.0));
            // Exact pass counts: the two input copies; per step a division (m forward, m
            // backward), an entry copy and one subtraction (m − 1 each way); forward 3m − 2 in
            // all. Backward, a row of the packed factor that straddles its fold (Fig. 4) takes
            // two lines: ⌊m/2⌋ − 1 of the rows.
            let m64 = m as u64;
            let straddling = if format == Format::Packed { (m64 / 2).max(1) - 1 } else { 0 };
            let expected: std::collections::BTreeMap<&str, u64> = [
                ("copy", 2),
                ("copy_entry", 2 * (m64 - 1)),
                ("divide", 2 * m64),
                ("sub_column", m64 - 1),
                ("sub_row", m64 - 1 + straddling),
            ]
            .into_iter()
            .filter(|&(_, n)| n > 0)
            .collect();
            assert_eq!(passes, expected, "{format:?} m={m}");
        }
    }
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}
