//! The runs `glsolve show` watches: a seeded problem, the algorithm, and the part of it the
//! viewer observes. The same run without an observer gives the reference the viewer's results
//! are compared with, bit for bit.

use super::error::{DebugError, DebugResult};
use super::observer::Label;
use crate::fixtures::random;
use crate::gl::{Gpu, PassObserver, PingPong, TexelFormat};
use crate::gpu::blocked::assemble::{self as blocked_assemble, BlockedOperands};
use crate::gpu::cholesky::{self, Variant};
use crate::gpu::tiled::{self, TilePlan};
use crate::gpu::{assemble, substitute, Vector};
use crate::layout::{Format, Tiles};
use std::cell::RefCell;
use std::rc::Rc;

/// What can be watched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Algorithm 5 (any variant, full or packed).
    Cholesky,
    /// Algorithm 3: C = A·D²·Aᵀ (full or packed).
    Assemble,
    /// Forward and/or back substitution with a Cholesky factor.
    Solve,
    Lu,
    /// Algorithm 1 of the 2008 structure paper: A·D²·Aᵀ assembled and factored on the GPU,
    /// refined in double precision on the CPU.
    LeastSquares,
    Lp,
}

impl Algorithm {
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::Cholesky => "cholesky",
            Algorithm::Assemble => "assemble",
            Algorithm::Solve => "solve",
            Algorithm::Lu => "lu",
            Algorithm::LeastSquares => "lsq",
            Algorithm::Lp => "lp",
        }
    }
}

/// Which triangular solves `show solve` watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// L·y = b.
    Forward,
    /// Lᵀ·x = b.
    Backward,
    /// Both: L·Lᵀ·x = b.
    Both,
}

/// A seeded run.
#[derive(Clone, Copy, Debug)]
pub struct Scenario {
    pub algorithm: Algorithm,
    /// Order of the matrix (rows of A for assembly).
    pub m: usize,
    /// Columns of A (assembly only).
    pub n: usize,
    pub variant: Variant,
    pub format: Format,
    pub direction: Direction,
    pub seed: u64,
}

/// What a run gives back.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The result texture read back whole (the factor, C, or the solution).
    pub result: Vec<f32>,
    /// Passes run while the observer was attached.
    pub passes: u64,
}

impl Scenario {
    /// The status line's description.
    pub fn label(&self) -> Label {
        let variant = match self.algorithm {
            Algorithm::Cholesky => self.variant.name().to_string(),
            Algorithm::Assemble => format!("N={}", self.n),
            Algorithm::Solve => format!("{:?}", self.direction),
            Algorithm::Lu => "partial pivoting".into(),
            Algorithm::LeastSquares => format!("N={} samples", self.n),
            Algorithm::Lp => format!("random LP, n = {}", 4 * self.m),
        };
        Label {
            algorithm: self.algorithm.name().into(),
            variant,
            format: self.format.name().into(),
            m: self.m,
            total: None,
        }
    }

    /// Runs the scenario on `gpu`, with `observer` attached around the watched part.
    pub fn run(&self, gpu: &Gpu, observer: Option<Rc<RefCell<dyn PassObserver>>>) -> DebugResult<Outcome> {
        let m = self.m;
        let spd = || -> Vec<f32> { random::spd_well_conditioned(m, self.seed).iter().map(|&x| x as f32).collect() };
        let watch = |gpu: &Gpu| {
            if let Some(o) = &observer {
                gpu.observe(o.clone());
            }
            gpu.pass_count()
        };
        let result = match self.algorithm {
            Algorithm::Cholesky => {
                let c = spd();
                let start = watch(gpu);
                let f = cholesky::factor_with(gpu, &c, m, self.variant, self.format);
                gpu.stop_observing();
                let f = f?;
                (gpu.read(&f.texture)?, gpu.pass_count() - start)
            }
            Algorithm::Assemble => {
                let a: Vec<f32> = random::uniform(m, self.n, -1.0, 1.0, self.seed).iter().map(|&x| x as f32).collect();
                let d2: Vec<f32> =
                    random::uniform(self.n, 1, 0.25, 2.0, self.seed + 1).iter().map(|&x| x as f32).collect();
                if let Variant::Blocked(block) = self.variant {
                    // The blocked assembly: one pass for all n columns (after the scaling pass).
                    let layout = block.layout(m);
                    let ops = BlockedOperands::new(gpu, &a, m, self.n, layout.padded_rows)?;
                    ops.set_d2(gpu, &d2)?;
                    let (w, h) = layout.texture_size();
                    let tex = || gpu.texture_of(TexelFormat::Rgba32F, w, h, "C (2×2 blocks)");
                    let mut c = PingPong::new(tex()?, tex()?);
                    let start = watch(gpu);
                    let r = blocked_assemble::assemble_into(gpu, &ops, &mut c, &layout, usize::MAX);
                    gpu.stop_observing();
                    r?;
                    (gpu.read(c.source())?, gpu.pass_count() - start)
                } else if let Some(plan) = self
                    .variant
                    .block()
                    .filter(|_| !self.variant.is_paper())
                    .and_then(|b| TilePlan::default_for(gpu.info(), b).ok())
                {
                    // The tiled assembly (the plan's tile), its planes read back one after another.
                    let layout = plan.layout(m);
                    let ops = BlockedOperands::new(gpu, &a, m, self.n, layout.padded)?;
                    ops.set_d2(gpu, &d2)?;
                    let planes = |k, size| tiled::cholesky::planes(gpu, k, size, "C (4×4 tiles)");
                    let mut c: Vec<PingPong> = planes(4, layout.plane_size())?
                        .into_iter()
                        .zip(planes(4, layout.plane_size())?)
                        .map(|(s, t)| PingPong::new(s, t))
                        .collect();
                    let wide = match plan.assembly.planes() > 4 {
                        true => Some(planes(8, Tiles { shape: plan.assembly, ..layout }.plane_size())?),
                        false => None,
                    };
                    let start = watch(gpu);
                    let r = tiled::assemble::assemble_into(gpu, &ops, &mut c, wide.as_deref(), &layout, usize::MAX);
                    gpu.stop_observing();
                    r?;
                    let mut data = Vec::new();
                    for p in &c {
                        data.extend(gpu.read(p.source())?);
                    }
                    (data, gpu.pass_count() - start)
                } else {
                    let start = watch(gpu);
                    let c = assemble::assemble(gpu, &a, &d2, m, self.n, self.format);
                    gpu.stop_observing();
                    let c = c?;
                    (gpu.read(c.source())?, gpu.pass_count() - start)
                }
            }
            Algorithm::Solve => {
                let f = cholesky::factor_with(gpu, &spd(), m, Variant::PAPER, self.format)?;
                let b: Vec<f32> = random::uniform(m, 1, -1.0, 1.0, self.seed + 1).iter().map(|&x| x as f32).collect();
                let b = Vector::from_slice(gpu, &b, "the right-hand side b")?;
                let start = watch(gpu);
                let x = match self.direction {
                    Direction::Forward => substitute::forward(gpu, &f, &b),
                    Direction::Backward => substitute::backward(gpu, &f, &b),
                    Direction::Both => substitute::solve(gpu, &f, &b),
                };
                gpu.stop_observing();
                (x?.read(gpu)?, gpu.pass_count() - start)
            }
            Algorithm::Lu => {
                let a: Vec<f32> = random::uniform(m, m, -1.0, 1.0, self.seed).iter().map(|&x| x as f32).collect();
                let start = watch(gpu);
                let f = crate::gpu::lu::factor(gpu, &a, m);
                gpu.stop_observing();
                let f = f?;
                (gpu.read(&f.texture)?, gpu.pass_count() - start)
            }
            Algorithm::LeastSquares => {
                let (m, n) = (m, self.n);
                let a = random::uniform(m, n, -1.0, 1.0, self.seed);
                let d2 = random::uniform(n, 1, 0.25, 2.0, self.seed + 1);
                let b = random::uniform(n, 1, -1.0, 1.0, self.seed + 2);
                let st = crate::lsq::LsqSettings { format: self.format, ..Default::default() };
                let start = watch(gpu);
                let sol = crate::lsq::solve(gpu, &a, m, n, &d2, &b, &st);
                gpu.stop_observing();
                let sol = sol.map_err(|e| DebugError::Invalid(format!("least squares: {e}")))?;
                (sol.x.iter().map(|&v| v as f32).collect(), gpu.pass_count() - start)
            }
            Algorithm::Lp => {
                let model = crate::lp::random::random_lp(m, self.seed).to_model(self.seed);
                return watch_lp(gpu, &model, self.variant, self.format, observer);
            }
        };
        Ok(Outcome { result: result.0, passes: result.1 })
    }
}

/// The gpu backend of the LP solver on `model` — every kernel of the interior-point method as
/// passes — with `observer` attached around the solve. The result is x in single precision.
pub fn watch_lp(
    gpu: &Gpu,
    model: &crate::lp::LpModel,
    variant: Variant,
    format: Format,
    observer: Option<Rc<RefCell<dyn PassObserver>>>,
) -> DebugResult<Outcome> {
    use crate::lp::{BackendKind, GpuOptions, Settings};
    // The format is the papers' variant's choice; the other variants store A·D²·Aᵀ their own way.
    let normal_format = (variant == Variant::PAPER).then_some(format);
    let settings = Settings::builder(BackendKind::Gpu)
        .gpu(GpuOptions { variant, normal_format, ..GpuOptions::default() })
        .build()
        .map_err(|e| DebugError::Invalid(e.to_string()))?;
    if let Some(o) = &observer {
        gpu.observe(o.clone());
    }
    let start = gpu.pass_count();
    let sol = crate::lp::solve_on(model, &settings, &mut crate::lp::log::Logger::quiet(), Some(gpu));
    gpu.stop_observing();
    let sol = sol.map_err(|e| DebugError::Invalid(format!("the LP solve could not start: {e}")))?;
    Ok(Outcome { result: sol.x.iter().map(|&v| v as f32).collect(), passes: gpu.pass_count() - start })
}
