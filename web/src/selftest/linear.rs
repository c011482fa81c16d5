//! Cholesky (every variant, full and packed), assembly (the papers' per-column in both formats,
//! the blocked one, the tiled 4×4 and 8×4), substitution (the papers', the tiled one), LU (the
//! unblocked GPU LU, and the mixed-precision solver with the right-looking blocked LU, on
//! systems at the unit scale and far from it) and weighted least squares, against f64
//! references.

use super::{bounds, ensure, Report, U};
use glsolve::cpu::rowmajor;
use glsolve::fixtures::random;
use glsolve::gl::{PingPong, TexelFormat};
use glsolve::gpu::blocked::assemble::{assemble_into, BlockedOperands};
use glsolve::gpu::cholesky;
use glsolve::gpu::tiled::{self, TilePlan};
use glsolve::gpu::{assemble, lu, substitute, Vector};
use glsolve::layout::{TileShape, Tiles};
use glsolve::lsq;
use glsolve::refine;
use glsolve::Block;
use glsolve::Format;
use glsolve::LinearMethod as Method;
use glsolve::LinearSettings as RefineSettings;
use glsolve::Variant;

type Gpu = glsolve::gl::Gpu;

fn f32s(v: &[f64]) -> Vec<f32> {
    v.iter().map(|&x| x as f32).collect()
}

pub fn cholesky(gpu: &Gpu, r: &mut Report) {
    for v in Variant::all() {
        let sizes: &[usize] = if v.is_paper() { &[1, 2, 17, 64] } else { &[1, 15, 17, 33, 64] };
        for &m in sizes {
            let c = random::spd_well_conditioned(m, 3 + m as u64);
            let result = cholesky::factor(gpu, &f32s(&c), m, v)
                .and_then(|f| Ok((cholesky::read_lower(gpu, &f)?, f.tiles.is_some())))
                .map_err(|e| e.to_string())
                .and_then(|(l, tiled)| {
                    // A tiled variant runs its tiles wherever the context has the draw buffers.
                    if let Variant::Tiled(b) = v {
                        let plan = TilePlan::default_for(gpu.info(), b);
                        ensure(tiled == plan.is_ok(), || format!("tiles ran: {tiled}, plan: {plan:?}"))?;
                    }
                    let l: Vec<f64> = l.into_iter().map(f64::from).collect();
                    bounds::cholesky_backward(&c, &l, m)?;
                    Ok(format!(
                        "‖L̂ − L‖/‖L‖ = {:.1e}{}",
                        rowmajor::relative_frobenius(&l, &rowmajor::cholesky_lower(&c, m).unwrap_or_default()),
                        if tiled { ", 4×4 tiles" } else { "" }
                    ))
                });
            r.case("cholesky", format!("{v} m = {m}"), result);
        }
    }
    for m in [2usize, 9, 16, 33] {
        let c = random::spd_well_conditioned(m, 5);
        let result = cholesky::factor_with(gpu, &f32s(&c), m, Variant::PAPER, Format::Packed)
            .and_then(|f| cholesky::read_lower(gpu, &f))
            .map_err(|e| e.to_string())
            .and_then(|l| {
                bounds::cholesky_backward(&c, &l.into_iter().map(f64::from).collect::<Vec<_>>(), m)
                    .map(|_| String::new())
            });
        r.case("cholesky", format!("packed triangle-pair m = {m}"), result);
    }
}

pub fn assembly(gpu: &Gpu, r: &mut Report) {
    for (m, n) in [(1usize, 1usize), (3, 5), (17, 40), (33, 101)] {
        let a = f32s(&random::uniform(m, n, -1.0, 1.0, (m * n) as u64));
        let d = f32s(&random::uniform(n, 1, 0.25, 2.0, 9));
        for format in [Format::Full, Format::Packed] {
            let result = assemble::assemble(gpu, &a, &d, m, n, format)
                .and_then(|c| assemble::read_lower(gpu, c.source(), m, format))
                .map_err(|e| e.to_string())
                .and_then(|c| bounds::assembly(&c, &a, &d, m, n).map(|_| String::new()));
            r.case("assembly", format!("per-column {} m = {m} n = {n}", format.name()), result);
        }
        for b in [4usize, usize::MAX] {
            let result = (|| -> Result<String, String> {
                let layout = Block::B8.layout(m);
                let ops = BlockedOperands::new(gpu, &a, m, n, layout.padded_rows).map_err(|e| e.to_string())?;
                ops.set_d2(gpu, &d).map_err(|e| e.to_string())?;
                let (w, h) = layout.texture_size();
                let tex = || gpu.texture_of(TexelFormat::Rgba32F, w, h, "C (2×2 blocks)").map_err(|e| e.to_string());
                let mut c = PingPong::new(tex()?, tex()?);
                assemble_into(gpu, &ops, &mut c, &layout, b).map_err(|e| e.to_string())?;
                let mut full = layout.unpack(&gpu.read(c.source()).map_err(|e| e.to_string())?);
                for i in 0..m {
                    for j in i + 1..m {
                        full[i * m + j] = 0.0;
                    }
                }
                bounds::assembly(&full, &a, &d, m, n)?;
                Ok(String::new())
            })();
            let cols = if b == usize::MAX { "all".to_string() } else { b.to_string() };
            r.case("assembly", format!("blocked, {cols} columns per pass, m = {m} n = {n}"), result);
        }
        for (shape, b) in [(TileShape::T4X4, 4), (TileShape::T4X4, usize::MAX), (TileShape::T8X4, usize::MAX)] {
            let result = tiled_assembly(gpu, &a, &d, (m, n), shape, b);
            let cols = if b == usize::MAX { "all".to_string() } else { b.to_string() };
            r.case("assembly", format!("tiled {}, {cols} columns per pass, m = {m} n = {n}", shape.name()), result);
        }
    }
}

/// The tiled assembly with `shape` (8×4: where the context has eight draw buffers, else the case
/// says it was not run), checked against the componentwise bound.
fn tiled_assembly(
    gpu: &Gpu,
    a: &[f32],
    d: &[f32],
    (m, n): (usize, usize),
    shape: TileShape,
    b: usize,
) -> Result<String, String> {
    let e = |e: glsolve::gpu::GpuError| e.to_string();
    let wide = shape.planes() > 4;
    if wide && TilePlan::for_context(gpu.info(), Block::B8, true).map(|p| p.assembly) != Ok(TileShape::T8X4) {
        return Ok(format!("not run: {} draw buffers", gpu.info().max_targets()));
    }
    let layout = TilePlan { assembly: shape, block: Block::B8 }.layout(m);
    let ops = BlockedOperands::new(gpu, a, m, n, layout.padded).map_err(e)?;
    ops.set_d2(gpu, d).map_err(e)?;
    let planes = |k, size| tiled::cholesky::planes(gpu, k, size, "C (tiles)").map_err(e);
    let mut c: Vec<PingPong> = planes(4, layout.plane_size())?
        .into_iter()
        .zip(planes(4, layout.plane_size())?)
        .map(|(s, t)| PingPong::new(s, t))
        .collect();
    let wide = if wide { Some(planes(8, Tiles { shape, ..layout }.plane_size())?) } else { None };
    tiled::assemble::assemble_into(gpu, &ops, &mut c, wide.as_deref(), &layout, b).map_err(e)?;
    let data = c.iter().map(|p| gpu.read(p.source())).collect::<Result<Vec<_>, _>>().map_err(|e| e.to_string())?;
    let mut full = layout.unpack(&data);
    for i in 0..m {
        for j in i + 1..m {
            full[i * m + j] = 0.0;
        }
    }
    bounds::assembly(&full, a, d, m, n)?;
    Ok(String::new())
}

pub fn substitution(gpu: &Gpu, r: &mut Report) {
    for m in [1usize, 2, 17, 64] {
        let c = random::spd_well_conditioned(m, 21);
        // Small integers: exact in f32, as the bound requires.
        let b: Vec<f64> = (0..m).map(|i| ((i * 7 % 11) as f64) - 5.0).collect();
        for format in [Format::Full, Format::Packed] {
            let result = (|| -> Result<String, String> {
                let f = cholesky::factor_with(gpu, &f32s(&c), m, Variant::PAPER, format).map_err(|e| e.to_string())?;
                let l: Vec<f64> =
                    cholesky::read_lower(gpu, &f).map_err(|e| e.to_string())?.into_iter().map(f64::from).collect();
                let gb = Vector::from_slice(gpu, &f32s(&b), "b").map_err(|e| e.to_string())?;
                let x = substitute::solve(gpu, &f, &gb).and_then(|x| x.read(gpu)).map_err(|e| e.to_string())?;
                let x: Vec<f64> = x.into_iter().map(f64::from).collect();
                bounds::cholesky_solve(&l, &b, &x, m)?;
                Ok(String::new())
            })();
            r.case("substitution", format!("forward + back, {} m = {m}", format.name()), result);
        }
        for block in [Block::B8, Block::B16] {
            let result = tiled_substitution(gpu, &c, &b, m, block);
            r.case("substitution", format!("forward + back, tiled-{} m = {m}", block.size()), result);
        }
    }
}

/// Forward and back substitution with a factor in 4×4 tiles, against the bound of its own L̂.
fn tiled_substitution(gpu: &Gpu, c: &[f64], b: &[f64], m: usize, block: Block) -> Result<String, String> {
    let e = |e: glsolve::gpu::GpuError| e.to_string();
    if let Err(why) = TilePlan::default_for(gpu.info(), block) {
        return Ok(format!("not run: {why}"));
    }
    let layout = Tiles::square(m, block.size(), tiled::FACTOR_TILE);
    let mut w = tiled::cholesky::TiledWork::new(gpu, layout, block).map_err(e)?;
    w.upload(gpu, &f32s(c)).map_err(e)?;
    w.factor(gpu, None).map_err(e)?;
    let l: Vec<f64> = tiled::cholesky::read_lower(gpu, &layout, &w.l).map_err(e)?.into_iter().map(f64::from).collect();
    let mut rhs = f32s(b);
    rhs.resize(layout.padded, 0.0);
    let vec = |d: &[f32]| gpu.upload_of(TexelFormat::Rgba32F, layout.padded / 4, 1, d, "v").map_err(|e| e.to_string());
    let mut pp = PingPong::new(vec(&rhs)?, vec(&vec![0.0; layout.padded])?);
    tiled::substitute::solve(gpu, &w.l, &layout, block, &mut pp).map_err(e)?;
    let x = gpu.read(pp.source()).map_err(|e| e.to_string())?;
    ensure(x[m..].iter().all(|&v| v == 0.0), || "the padding is not zero".into())?;
    let x: Vec<f64> = x[..m].iter().map(|&v| f64::from(v)).collect();
    bounds::cholesky_solve(&l, b, &x, m)?;
    Ok(String::new())
}

pub fn lu(gpu: &Gpu, r: &mut Report) {
    for m in [1usize, 2, 17, 64] {
        let a = random::uniform(m, m, -1.0, 1.0, 40 + m as u64);
        let result = lu::factor(gpu, &f32s(&a), m)
            .and_then(|f| Ok((lu::read(gpu, &f)?, f.perm.clone())))
            .map_err(|e| e.to_string())
            .and_then(|(f, perm)| {
                // Partial pivoting is backward stable: ‖P·A − L̂Û‖ small against ‖A‖.
                let e = rowmajor::lu_backward_error(&a, &f, &perm, m);
                ensure(e <= 8.0 * m as f64 * U, || format!("backward error {e:e} > 8·m·u"))?;
                Ok(format!("backward error {e:.1e}"))
            });
        r.case("lu", format!("unblocked, partial pivoting, m = {m}"), result);
    }
    // The mixed-precision solver: right-looking blocked LU, split substitutions, f64 refinement; the
    // answer backward stable and x against an f64 solve. κ = 1e9 is beyond
    // single-precision refinement: the answer must come from the double-precision fallback,
    // which says why.
    for (n, cond) in [(1usize, 1.0), (31, 10.0), (100, 1e3), (97, 1e3), (64, 1e9)] {
        let a = random::general_with_condition(n, cond, 50 + n as u64);
        let b = random::uniform(n, 1, -1.0, 1.0, 51);
        let mixed = cond < 1e6;
        let result =
            refine::linsolve(gpu, &a, n, &b, &RefineSettings::default()).map_err(|e| e.to_string()).and_then(|s| {
                match (&s.method, mixed) {
                    (Method::Mixed, true) => {}
                    (Method::DoubleFallback(why), false) => {
                        ensure(!why.is_empty(), || "a fallback without a reason".into())?
                    }
                    (m, _) => {
                        return Err(format!("method {m:?}, expected {}", if mixed { "mixed" } else { "the fallback" }))
                    }
                }
                // The answer returned (refined, or the fallback's) is backward stable: LINPACK's
                // ‖b − Ax‖∞/(‖A‖∞‖x‖∞·n·ε) ≤ 16.
                let t = s.criterion();
                ensure(t <= 16.0, || format!("backward error {t:.2} > 16 in LINPACK's units"))?;
                let x64 = rowmajor::solve_general(&a, n, &b).ok_or("the f64 reference is singular")?;
                let e = s.x.iter().zip(&x64).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max);
                // The test bounds ‖b − A·x̂‖∞ by 16·n·ε·‖A‖∞‖b‖∞, so ‖x̂ − x*‖∞ ≤ 16·n·ε·κ∞·‖b‖∞; the
                // f64 reference errs by at most that much again: twice their sum.
                let inf = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
                let tol = 2.0
                    * 16.0
                    * n as f64
                    * (f64::EPSILON / 2.0)
                    * rowmajor::condition_inf(&a, n)
                    * (inf(&b) + inf(&x64));
                ensure(e <= tol, || format!("‖x̂ − x₆₄‖∞ = {e:e} > {tol:e}"))?;
                Ok(format!(
                    "{:?}, {} refinement steps, backward error {t:.2}, ‖x̂ − x₆₄‖∞ {e:.1e}",
                    s.method, s.iterations
                ))
            });
        r.case("lu", format!("mixed-precision linsolve n = {n}, κ ≈ {cond:.0e}"), result);
    }
    far_from_one(gpu, r);
}

/// The mixed-precision solver on systems far from the unit scale: A = R·A₀·C (rows 1e15 …
/// 1e−15, columns 1e20 … 1e−20) and x = s·C⁻¹·y (s = 1e±30), so that x is off by a factor of 2
/// to 1e50 unless its scale-back is right. The reference y solves A₀·y = R⁻¹·b/s by nalgebra's
/// f64 LU (not the code under test); x is compared in y's units. A₀ of entries ½ … 1 with n on
/// the diagonal must be answered by the mixed path, κ₂(A₀) = 1e9 by the fallback.
fn far_from_one(gpu: &Gpu, r: &mut Report) {
    for (n, well, s) in [(7usize, true, 1e30), (33, true, 1e-30), (9, false, 1e30), (9, false, 1e-30)] {
        let a0 = if well {
            let u = random::uniform(n, n, -1.0, 1.0, 70 + n as u64);
            (0..n * n)
                .map(|k| if k / n == k % n { n as f64 } else { (0.5 + 0.5 * u[k].abs()).copysign(u[k]) })
                .collect()
        } else {
            random::general_with_condition(n, 1e9, 71)
        };
        let spread = |lo: f64, hi: f64| -> Vec<f64> {
            (0..n).map(|i| 10f64.powf(hi + (lo - hi) * i as f64 / (n as f64 - 1.0))).collect()
        };
        let (rs, cs) = (spread(-15.0, 15.0), spread(-20.0, 20.0));
        let y0 = random::uniform(n, 1, 0.5, 1.0, 72);
        let a: Vec<f64> = (0..n * n).map(|k| rs[k / n] * a0[k] * cs[k % n]).collect();
        let b: Vec<f64> = rowmajor::matvec(&a0, n, n, &y0).iter().zip(&rs).map(|(v, ri)| ri * v * s).collect();
        let result = (|| -> Result<String, String> {
            let m0 = nalgebra::DMatrix::from_row_slice(n, n, &a0);
            let back = nalgebra::DVector::from_fn(n, |i, _| b[i] / rs[i] / s);
            let y = m0.clone().lu().solve(&back).ok_or("the f64 reference is singular")?;
            let inv = m0.clone().try_inverse().ok_or("A₀ is singular")?;
            let norm = |m: &nalgebra::DMatrix<f64>| {
                m.row_iter().map(|row| row.iter().map(|v| v.abs()).sum::<f64>()).fold(0.0, f64::max)
            };
            let kappa = norm(&m0) * norm(&inv);
            let sol = refine::linsolve(gpu, &a, n, &b, &RefineSettings::default()).map_err(|e| e.to_string())?;
            match (&sol.method, well) {
                (Method::Mixed, true) | (Method::DoubleFallback(_), false) => {}
                (m, _) => {
                    return Err(format!("method {m:?}, expected {}", if well { "mixed" } else { "the fallback" }))
                }
            }
            let e = (0..n).map(|j| (sol.x[j] * cs[j] / s - y[j]).abs()).fold(0.0, f64::max) / y.amax();
            // The paper's test bounds the scaled residual by 8·n·ε·‖Â‖∞·‖b̂‖∞ (‖Â‖∞ ≤ 2n), the
            // scaled system's κ∞ is within 4(n + 1) of κ∞(A₀) (rows of A₀ within 2(n + 1) of
            // one another), and the reference errs by 4ε·κ∞(A₀); the fallback stays within it.
            let nf = n as f64;
            let tol = kappa * (4.0 * (nf + 1.0) * 2.0 * nf * 8.0 * nf * f64::EPSILON + 4.0 * f64::EPSILON);
            ensure(e <= tol, || format!("in y's units ‖C·x/s − y‖∞/‖y‖∞ = {e:e} > {tol:e} ({:?})", sol.method))?;
            Ok(format!("{:?}, {} refinement steps, error {e:.1e} in y's units", sol.method, sol.iterations))
        })();
        let what = if well { "entries ½ … 1".to_string() } else { "κ₂ = 1e9".to_string() };
        r.case("lu", format!("mixed-precision linsolve far from one: n = {n}, {what}, x ≈ {s:.0e}·C⁻¹"), result);
    }
}

pub fn least_squares(gpu: &Gpu, r: &mut Report) {
    for (m, n) in [(1usize, 3usize), (4, 33), (17, 100)] {
        let a = random::uniform(m, n, -1.0, 1.0, 60 + m as u64);
        let d2 = random::uniform(n, 1, 0.25, 2.0, 61);
        let b = random::uniform(n, 1, -1.0, 1.0, 62);
        let result = (|| -> Result<String, String> {
            let reference = lsq::solve_cpu(&a, m, n, &d2, &b).map_err(|e| e.to_string())?;
            let s = lsq::solve(gpu, &a, m, n, &d2, &b, &Default::default()).map_err(|e| e.to_string())?;
            let xn = reference.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let e = s.x.iter().zip(&reference).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max) / xn;
            // Refined to ‖r‖/‖x‖ ≤ 1e-8 (Algorithm 1's ε) on well-conditioned A·D²·Aᵀ.
            ensure(e <= 1e-7, || {
                format!("‖x − x_CPU‖∞/‖x_CPU‖∞ = {e:e} after {} steps ({:?})", s.iterations, s.method)
            })?;
            Ok(format!("{} refinement steps, {e:.1e} from f64", s.iterations))
        })();
        r.case("least squares", format!("Algorithm 1, m = {m} unknowns, n = {n} samples"), result);
    }
}
