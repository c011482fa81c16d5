//! [`LpSolver`]: settings checked once, one GL context made on first need and kept for every
//! later solve, and the caller's [`Logger`] (none: the solver says nothing).

use crate::gl::{Gpu, GpuInfo};
use crate::lp::log::Logger;
use crate::lp::model::LpModel;
use crate::lp::settings::{BackendKind, Settings};
use crate::lp::pipeline::{solve_on, SolveError};
use crate::lp::solution::Solution;

/// Where the solver stands with its GL context.
enum Context {
    /// Not needed yet (the cpu backend never needs one).
    NotMade,
    /// Boxed: a context is large beside the other states.
    Ready(Box<Gpu>),
    /// No context could be made; the reason, kept for the hybrid backend's notice.
    Failed(String),
}

/// A linear-programming solver: settings, a GL context made once on the first solve that needs
/// it (the `gpu` and `hybrid` backends), and where its log goes: nowhere unless
/// [`LpSolver::with_logger`] gives it a [`Logger`].
///
/// ```
/// use glsolve::{BackendKind, LpModel, LpSolver, Settings, Status};
/// use nalgebra::dmatrix;
/// // max x + y  s.t.  x + 2y ≤ 4,  3x + y ≤ 6,  x, y ≥ 0   (optimum 2.8 at x = 1.6, y = 1.2)
/// let model = LpModel::builder(dmatrix![1.0, 2.0; 3.0, 1.0]).maximize([1.0, 1.0]).rows_at_most([4.0, 6.0]).build()?;
/// let mut solver = LpSolver::new(Settings::for_backend(BackendKind::Cpu));
/// let solution = solver.solve(&model)?;
/// assert_eq!(solution.status, Status::Optimal);
/// assert!((solution.objective - 2.8).abs() < 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// An `LpSolver` is `Send`: it can be made on one thread and used on another, e.g. one per
/// worker of a pool. Its GL context is its own (made by the solver, lent to nobody), every GL
/// object made on it lives within one `solve`, and each `solve` releases the context from its
/// thread before returning, so the next `solve` — on whichever thread — makes it current there.
/// A [`Gpu`] itself is not `Send` (see there); to share a context of your own with an LP,
/// use [`crate::lp::solve_on`] on its thread.
pub struct LpSolver {
    settings: Settings,
    context: Context,
    log: Logger,
}

impl LpSolver {
    /// A solver with these settings (valid by construction: see [`Settings::builder`]). Nothing
    /// is made yet: the GL context comes with the first solve that needs one.
    pub fn new(settings: Settings) -> Self {
        Self { settings, context: Context::NotMade, log: Logger::quiet() }
    }

    /// Sends the log and the progress records to `log` (e.g. [`Logger::stdout`]); without
    /// it every solve is silent.
    pub fn with_logger(mut self, log: Logger) -> Self {
        self.log = log;
        self
    }

    /// The settings every solve uses.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The GL context's capability record (renderer, limits), once a solve has made one.
    pub fn gpu_info(&self) -> Option<&GpuInfo> {
        self.gpu().map(Gpu::info)
    }

    /// What the solver's GL context has done since it was made (`None` before: the cpu
    /// backend never makes one).
    pub fn context_use(&self) -> Option<ContextUse> {
        self.gpu().map(|g| ContextUse {
            passes: g.pass_count(),
            textures_created: g.textures_created(),
            live_textures: g.live_textures(),
        })
    }

    fn gpu(&self) -> Option<&Gpu> {
        match &self.context {
            Context::Ready(g) => Some(g.as_ref()),
            _ => None,
        }
    }

    /// Solves `model`. The model is validated first ([`LpModel::validate`]): a malformed one is
    /// [`SolveError::Model`] on every backend. The `gpu` backend without a GL driver is
    /// [`SolveError::Gl`]; `hybrid` then solves on the CPU and says so in
    /// [`Solution::notes`]. `auto` makes the context only for a problem its shape does not
    /// decide ([`crate::lp::auto`]), and runs on the CPU where none can be made.
    pub fn solve(&mut self, model: &LpModel) -> Result<Solution, SolveError> {
        let answer = self.solve_here(model);
        if let Some(g) = self.gpu() {
            // So that the next solve may run on another thread. A failure would show there, as
            // a context that cannot be made current (a typed error, never another context's
            // objects).
            let _ = g.release_current();
        }
        answer
    }

    fn solve_here(&mut self, model: &LpModel) -> Result<Solution, SolveError> {
        model.validate()?;
        let auto_early = (self.settings.backend() == BackendKind::Auto).then(|| crate::lp::auto::without_device(model));
        if self.settings.backend().uses_gl() || matches!(auto_early, Some(None)) {
            self.make_context()?;
        }
        let log = &mut self.log;
        let (gpu, failure) = match &self.context {
            Context::Ready(g) => (Some(g.as_ref()), None),
            Context::Failed(why) => (None, Some(why.clone())),
            Context::NotMade => (None, None),
        };
        let mut solution = match auto_early {
            // Decided by the model's shape: no context was needed, so none is missed.
            Some(Some(choice)) => return crate::lp::pipeline::solve_chosen(model, &self.settings, log, None, choice),
            _ => solve_on(model, &self.settings, log, gpu)?,
        };
        if let Some(why) = failure {
            solution.notes.insert(0, format!("no GL context: {why}"));
        }
        Ok(solution)
    }

    /// Makes the context on first need. A failure is kept for `hybrid` (which then runs on the
    /// CPU without trying again) and returned for `gpu` (which tries again on its next solve).
    fn make_context(&mut self) -> Result<(), SolveError> {
        if matches!(self.context, Context::NotMade) {
            match Gpu::headless_with(crate::gl::HeadlessOptions { api: self.settings.gl(), ..Default::default() }) {
                Ok(g) => self.context = Context::Ready(Box::new(g)),
                Err(e) if self.settings.backend() == BackendKind::Gpu => return Err(SolveError::Gl(e)),
                Err(e) => self.context = Context::Failed(e.to_string()),
            }
        }
        Ok(())
    }
}

/// The work an [`LpSolver`]'s GL context has done since it was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContextUse {
    /// Passes drawn.
    pub passes: u64,
    /// Textures (each with its framebuffer) created.
    pub textures_created: u64,
    /// Textures alive now (0 between solves: nothing outlives a solve).
    pub live_textures: usize,
}

// SAFETY: the one part of an `LpSolver` that is not `Send` is its `Gpu` (non-atomic reference
// counts shared with the GL objects made on it, and a context current on one thread). The
// solver makes that `Gpu` itself and never hands out a reference through which GL objects could
// be made or kept (`gpu_info` and `context_use` read plain data), so every reference count of
// it is touched only inside `solve`, by the thread that holds `&mut self`; everything made on it
// there is dropped before `solve` returns, and `solve` releases the context from its thread, so
// the thread that calls next makes it current for itself (EGL contexts may change threads when
// not current anywhere).
#[allow(unsafe_code)]
unsafe impl Send for LpSolver {}
