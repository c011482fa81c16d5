//! The `auto` backend: `cpu` or `hybrid` per problem and per device.
//!
//! Both answer in double precision at the same ε, so the choice is about time only, and the
//! rule is to choose the GPU only where it is expected to win:
//!
//! 1. Without a context (no driver is touched): fewer than [`AUTO_MIN_ROWS`] rows, or an A
//!    sparse enough that the CPU's sparse assembly beats the dense product
//!    (`lp::backend::sparse_assembly_pays`) — every GPU pass is dense work — go to
//!    `cpu`.
//! 2. With the context: no context, a software rasterizer (its passes run on the same CPU
//!    cores, in single precision, slower than faer's double precision) or a problem past the
//!    textures' or memory's limits go to `cpu`.
//! 3. Otherwise a probe (`lp::backend::probe_device`, once per device and process)
//!    times the hybrid backend's GPU normal equations against the cpu backend's on a
//!    `lp::backend::PROBE_M`-row problem; `hybrid` only when the GPU is
//!    [`AUTO_MARGIN`] times faster there (a GPU's advantage grows with the size, so the probe
//!    errs towards the CPU). Once running, hybrid's cost rule ([`crate::lp::CostRule`]) still
//!    leaves the GPU if its iterations turn out slow. For A with columns of one entry the two
//!    sides do different work ([`Work`]): the cpu backend's shaped normal equations
//!    (`lp::backend::CpuPlan`: the block plus a diagonal, or the smaller k×k side)
//!    against the GPU's m×m matrix over the block (or over every column), so the probe's times
//!    are scaled by each side's predicted multiply-adds before they are compared.
//!
//! The solution says which backend ran and why, in one line of the log and in its notes.

use crate::gl::{Gpu, GpuInfo};
use crate::gpu::cholesky::Variant;
use crate::lp::backend::{check_gpu_limits, probe_device, sparse_assembly_pays, DeviceProbe};
use crate::lp::model::LpModel;
use crate::lp::settings::{BackendKind, Settings};
use crate::lp::standard_form::{standard_form, Presolved};

/// Problems with fewer rows go to the CPU without a probe: their GPU iterations are pass
/// overhead (tens of passes for microseconds of arithmetic each).
pub const AUTO_MIN_ROWS: usize = 512;

/// How much faster than the CPU the probe must find the GPU.
pub const AUTO_MARGIN: f64 = 1.25;

/// The backend `auto` chose and why (one line).
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The backend chosen (`cpu` or `hybrid`).
    pub backend: BackendKind,
    /// Why, in words for the log.
    pub reason: String,
}

impl Choice {
    fn cpu(reason: String) -> Self {
        Self { backend: BackendKind::Cpu, reason }
    }
}

/// What the model alone decides: `Some(cpu)` for small or sparse problems, `None` when the
/// device must be asked. `model` has passed [`LpModel::validate`].
pub(crate) fn without_device(model: &LpModel) -> Option<Choice> {
    by_shape(model.num_rows(), sparse_assembly_pays(&model.a))
}

/// The decision made without a device, on the facts it reads (the model's rows, and whether
/// the cpu backend would hold A sparse).
pub fn by_shape(rows: usize, sparse: bool) -> Option<Choice> {
    if rows < AUTO_MIN_ROWS {
        let noun = if rows == 1 { "row" } else { "rows" };
        return Some(Choice::cpu(format!(
            "{rows} {noun} < {AUTO_MIN_ROWS}: too small for GPU passes to pay for themselves"
        )));
    }
    if sparse {
        return Some(Choice::cpu(
            "A is sparse: the CPU's sparse A·D²·Aᵀ does less work than the GPU's dense passes".into(),
        ));
    }
    None
}

/// Predicted multiply-adds of one iteration on each side, for a problem whose sides differ
/// (the cost model of `lp::backend::shape`); the probe's times are scaled by them.
#[derive(Clone, Debug, PartialEq)]
pub struct Work {
    /// The hybrid backend's GPU side: the m×m matrix over the block's columns (or all).
    pub gpu: f64,
    /// The cpu backend on its chosen path.
    pub cpu: f64,
    /// The cpu backend's path, for the reason.
    pub path: &'static str,
}

/// The work of `model`'s iterations on each side (`None` where both form the full m×m matrix,
/// or the standard form is not reached).
fn shaped_work(model: &LpModel, settings: &Settings, variant: Variant) -> Option<Work> {
    use crate::lp::backend::shape::NormalShape;
    let Presolved::Form(sf) = standard_form(model, settings.scaling()) else { return None };
    let plan = crate::lp::backend::CpuPlan::new(&sf.a, &sf.free_pairs);
    if plan.shape == NormalShape::Full {
        return None;
    }
    // The GPU's passes over the block alone where the cpu backend splits off unit columns.
    let gpu_split = plan.split_shape() && matches!(variant, Variant::Blocked(_) | Variant::Tiled(_));
    let gpu = if gpu_split { plan.costs.diagonal } else { plan.costs.full };
    Some(Work { gpu, cpu: plan.cost(), path: plan.shape.name() })
}

/// The choice for a dense problem of at least [`AUTO_MIN_ROWS`] rows on `gpu` (`None`: no
/// context could be made), with `settings`' options for the hybrid backend's GPU side and the
/// cpu backend's products.
pub(crate) fn with_device(model: &LpModel, settings: &Settings, gpu: Option<&Gpu>) -> Choice {
    let Some(gpu) = gpu else {
        return Choice::cpu("no GL context".into());
    };
    let options = settings.gpu().copied().unwrap_or_default();
    let mixed_precision = settings.cpu().is_none_or(|c| c.mixed_precision);
    // At most the standard form's size: a slack per row and a second column per free column
    // beside the model's columns.
    let free = model.col_lower.iter().zip(&model.col_upper).filter(|(l, u)| l.is_infinite() && u.is_infinite()).count();
    let (m, n) = (model.num_rows(), model.num_cols() + free + model.num_rows());
    let fits = check_gpu_limits(gpu, m, n, &options).map_err(|e| e.to_string());
    let info = gpu.info();
    let probe = match (&fits, info.is_software()) {
        // The probe measures the device, never the caller's injected faults.
        (Ok(()), false) => {
            Some(without_faults(|| probe_device(gpu, &options, mixed_precision)).map_err(|e| e.to_string()))
        }
        _ => None,
    };
    let work = match (&fits, &probe) {
        (Ok(()), Some(Ok(_))) => shaped_work(model, settings, options.variant),
        _ => None,
    };
    by_device_for(info, fits, probe, work.as_ref())
}

internal_fn! {
    /// The decision made with a device, on the facts gathered: the context's record, whether the problem fits,
    /// and the probe (run only for a hardware renderer and a problem that fits).
    fn by_device(info: &GpuInfo, fits: Result<(), String>, probe: Option<Result<DeviceProbe, String>>) -> Choice {
        by_device_for(info, fits, probe, None)
    }
}

internal_fn! {
    /// [`by_device`] for a problem whose sides do different `work` per iteration: the GPU is chosen
    /// only when its probe time scaled by `work.gpu` is [`AUTO_MARGIN`] times below the CPU's
    /// scaled by `work.cpu` (with `None`, or equal work, the plain rule).
    fn by_device_for(
        info: &GpuInfo,
        fits: Result<(), String>,
        probe: Option<Result<DeviceProbe, String>>,
        work: Option<&Work>,
    ) -> Choice {
        if info.is_software() {
            return Choice::cpu(format!(
                "{} is a software rasterizer: its single-precision passes run on the CPU's own cores",
                info.renderer
            ));
        }
        if let Err(e) = fits {
            return Choice::cpu(format!("the problem does not fit the GPU: {e}"));
        }
        match probe {
            None => Choice::cpu("no probe of the GPU".into()),
            Some(Err(e)) => Choice::cpu(format!("the GPU probe failed: {e}")),
            Some(Ok(p)) => {
                let what = format!(
                    "probe at {}×{}: GPU {:.1} ms, CPU {:.1} ms per iteration on {}",
                    crate::lp::backend::PROBE_M,
                    crate::lp::backend::PROBE_N,
                    p.gpu_seconds * 1e3,
                    p.cpu_seconds * 1e3,
                    info.renderer
                );
                let (gpu_work, cpu_work) = work.map_or((1.0, 1.0), |w| (w.gpu, w.cpu));
                let what = match work {
                    Some(w) => format!(
                        "{what}; this problem's iteration is {:.2e} multiply-adds on the GPU against {:.2e} on the CPU's {} path",
                        w.gpu, w.cpu, w.path
                    ),
                    None => what,
                };
                if p.gpu_seconds * gpu_work * AUTO_MARGIN < p.cpu_seconds * cpu_work {
                    Choice { backend: BackendKind::Hybrid, reason: format!("{what}: the GPU is faster") }
                } else {
                    Choice::cpu(format!("{what}: the GPU is not {AUTO_MARGIN}× faster"))
                }
            }
        }
    }
}

/// `f` without the faults a test injected (feature `fault-injection`).
fn without_faults<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(feature = "fault-injection")]
    return crate::lp::faults::suppressed(f);
    #[cfg(not(feature = "fault-injection"))]
    f()
}
