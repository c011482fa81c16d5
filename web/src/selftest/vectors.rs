//! BLAS-1 (element-wise kernels, reductions, the line search) and BLAS-2 (gemv, plain and
//! transposed) against f64, on lengths around the reductions' halvings, and NaN through every
//! reduction.

use super::{ensure, Report, U};
use glsolve::gpu::blas1::{self, ReduceOp, Reducer};
use glsolve::gpu::blas2::{gemv as gpu_gemv, MatrixRef};
use glsolve::gpu::Vector;

type Gpu = glsolve::gl::Gpu;

const LENGTHS: [usize; 9] = [1, 2, 3, 7, 8, 9, 63, 64, 1001];

fn values(n: usize, seed: u64) -> Vec<f32> {
    glsolve::fixtures::random::uniform(n, 1, -1.0, 1.0, seed).into_iter().map(|v| v as f32).collect()
}

fn e(e: impl std::fmt::Display) -> String {
    e.to_string()
}

pub fn elementwise(gpu: &Gpu, r: &mut Report) {
    for n in LENGTHS {
        let x = values(n, n as u64);
        let y: Vec<f32> = values(n, n as u64 + 99).into_iter().map(|v| if v.abs() < 0.01 { 0.5 } else { v }).collect();
        let result = (|| -> Result<String, String> {
            let (gx, gy, out) = (
                Vector::from_slice(gpu, &x, "x").map_err(e)?,
                Vector::from_slice(gpu, &y, "y").map_err(e)?,
                Vector::new(gpu, n, "out").map_err(e)?,
            );
            let check = |what: &str, want: &dyn Fn(usize) -> f64| -> Result<(), String> {
                let got = out.read(gpu).map_err(e)?;
                for (i, g) in got.iter().enumerate() {
                    let w = want(i);
                    ensure((*g as f64 - w).abs() <= 2.0 * U * (w.abs() + 1.0), || {
                        format!("{what} at {i}: {g} vs {w}")
                    })?;
                }
                Ok(())
            };
            blas1::axpby(gpu, &out, 0.75, &gx, -2.5, &gy).map_err(e)?;
            check("axpby", &|i| 0.75 * x[i] as f64 - 2.5 * y[i] as f64)?;
            blas1::mul(gpu, &out, &gx, &gy).map_err(e)?;
            check("mul", &|i| x[i] as f64 * y[i] as f64)?;
            blas1::div(gpu, &out, &gx, &gy).map_err(e)?;
            check("div", &|i| x[i] as f64 / y[i] as f64)?;
            blas1::affine(gpu, &out, -1.5, &gx, 0.25).map_err(e)?;
            check("affine", &|i| -1.5 * x[i] as f64 + 0.25)?;
            blas1::copy(gpu, &out, &gx).map_err(e)?;
            ensure(out.read(gpu).map_err(e)? == x, || "copy differs".into())?;
            Ok(String::new())
        })();
        r.case("blas-1", format!("axpby, mul, div, affine, copy n = {n}"), result);
    }
}

pub fn reductions(gpu: &Gpu, r: &mut Report) {
    let red = Reducer::new();
    for n in LENGTHS {
        let (x, y) = (values(n, 3 * n as u64), values(n, 5 * n as u64));
        let result = (|| -> Result<String, String> {
            let (gx, gy) = (Vector::from_slice(gpu, &x, "x").map_err(e)?, Vector::from_slice(gpu, &y, "y").map_err(e)?);
            let dot: f64 = x.iter().zip(&y).map(|(a, b)| *a as f64 * *b as f64).sum();
            let scale: f64 = x.iter().zip(&y).map(|(a, b)| (*a as f64 * *b as f64).abs()).sum();
            let got = red.dot(gpu, &gx, &gy).map_err(e)? as f64;
            ensure((got - dot).abs() <= 2.0 * n as f64 * U * scale, || format!("dot {got} vs {dot}"))?;
            let max = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let min = x.iter().copied().fold(f32::INFINITY, f32::min);
            ensure(red.reduce(gpu, &gx, ReduceOp::Max).map_err(e)? == max, || "max".into())?;
            ensure(red.reduce(gpu, &gx, ReduceOp::Min).map_err(e)? == min, || "min".into())?;
            let ninf = x.iter().map(|v| v.abs()).fold(0.0, f32::max);
            ensure(red.norm_inf(gpu, &gx).map_err(e)? == ninf, || "‖x‖∞".into())?;
            // The line search from a positive point.
            let pos: Vec<f32> = x.iter().map(|v| v.abs() + 0.1).collect();
            let gp = Vector::from_slice(gpu, &pos, "x>0").map_err(e)?;
            let want = pos
                .iter()
                .zip(&y)
                .filter(|(_, d)| **d < 0.0)
                .map(|(a, d)| -(*a as f64) / *d as f64)
                .fold(1.0, f64::min);
            let got = red.max_step(gpu, &gp, &gy).map_err(e)? as f64;
            ensure((got - want).abs() <= 2.0 * U * want, || format!("max step {got} vs {want}"))?;
            // NaN anywhere makes every reduction NaN.
            let mut bad = x.clone();
            bad[n / 2] = f32::NAN;
            let gb = Vector::from_slice(gpu, &bad, "x with NaN").map_err(e)?;
            ensure(red.norm_inf(gpu, &gb).map_err(e)?.is_nan(), || "NaN lost by ‖x‖∞".into())?;
            ensure(red.reduce(gpu, &gb, ReduceOp::Min).map_err(e)?.is_nan(), || "NaN lost by min".into())?;
            ensure(red.dot(gpu, &gb, &gy).map_err(e)?.is_nan(), || "NaN lost by dot".into())?;
            Ok(String::new())
        })();
        r.case("blas-1", format!("dot, max, min, ‖·‖∞, line search, NaN n = {n}"), result);
    }
}

pub fn gemv(gpu: &Gpu, r: &mut Report) {
    for (m, n) in [(1usize, 1usize), (3, 7), (17, 40), (64, 257)] {
        let a = values(m * n, (m * n) as u64);
        let (x, lam) = (values(n, 1), values(m, 2));
        let result = (|| -> Result<String, String> {
            let at = gpu.upload(n, m, &a, "A").map_err(e)?;
            let am = MatrixRef { texture: &at, m, n };
            let (gx, gl) =
                (Vector::from_slice(gpu, &x, "x").map_err(e)?, Vector::from_slice(gpu, &lam, "λ").map_err(e)?);
            let (ym, yn) = (Vector::new(gpu, m, "A·x").map_err(e)?, Vector::new(gpu, n, "Aᵀ·λ").map_err(e)?);
            gpu_gemv(gpu, &ym, &am, false, 1.0, &gx, None).map_err(e)?;
            let got = ym.read(gpu).map_err(e)?;
            for i in 0..m {
                let terms = (0..n).map(|k| a[i * n + k] as f64 * x[k] as f64);
                let (want, scale) = terms.fold((0.0, 0.0), |(s, t), v| (s + v, t + v.abs()));
                ensure((got[i] as f64 - want).abs() <= 2.0 * n as f64 * U * scale, || format!("A·x at {i}"))?;
            }
            gpu_gemv(gpu, &yn, &am, true, 1.0, &gl, None).map_err(e)?;
            let got = yn.read(gpu).map_err(e)?;
            for k in 0..n {
                let terms = (0..m).map(|i| a[i * n + k] as f64 * lam[i] as f64);
                let (want, scale) = terms.fold((0.0, 0.0), |(s, t), v| (s + v, t + v.abs()));
                ensure((got[k] as f64 - want).abs() <= 2.0 * m as f64 * U * scale, || format!("Aᵀ·λ at {k}"))?;
            }
            Ok(String::new())
        })();
        r.case("blas-2", format!("gemv and transposed gemv m = {m} n = {n}"), result);
    }
}
