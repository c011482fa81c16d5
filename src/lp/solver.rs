//! [`LpSolver`]: settings checked once, one GL context made on first need and kept for every
//! later solve, and the caller's [`Logger`] (none: the solver says nothing).

use crate::gl::Gpu;
use crate::lp::log::Logger;
use crate::lp::model::LpModel;
use crate::lp::settings::{BackendKind, Settings};
use crate::lp::solve::{solve_on, Solution, SolveError};

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
/// let mut solver = LpSolver::new(Settings::for_backend(BackendKind::Cpu))?;
/// let solution = solver.solve(&model)?;
/// assert_eq!(solution.status, Status::Optimal);
/// assert!((solution.objective - 2.8).abs() < 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// A solver that holds a context is not `Send`: the context is current on the thread that made
/// it (see [`Gpu`]). Make one solver per thread.
pub struct LpSolver {
    settings: Settings,
    context: Context,
    log: Logger,
}

impl LpSolver {
    /// A solver with these settings, checked here ([`Settings::validate`]). Nothing is made yet:
    /// the GL context comes with the first solve that needs one.
    pub fn new(settings: Settings) -> Result<Self, SolveError> {
        settings.validate()?;
        Ok(Self { settings, context: Context::NotMade, log: Logger::quiet() })
    }

    /// A solver that runs on a context the caller made (e.g. to share it with
    /// [`crate::Cholesky`] and [`crate::linsolve`] through [`LpSolver::gpu`]).
    pub fn with_gpu(settings: Settings, gpu: Gpu) -> Result<Self, SolveError> {
        settings.validate()?;
        Ok(Self { settings, context: Context::Ready(Box::new(gpu)), log: Logger::quiet() })
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

    /// The GL context, once made (or given).
    pub fn gpu(&self) -> Option<&Gpu> {
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
        model.validate()?;
        let auto_early = (self.settings.backend == BackendKind::Auto).then(|| crate::lp::auto::without_device(model));
        if self.settings.backend.uses_gl() || matches!(auto_early, Some(None)) {
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
            Some(Some(choice)) => return crate::lp::solve::solve_chosen(model, &self.settings, log, None, choice),
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
            match Gpu::headless_with(crate::gl::HeadlessOptions { api: self.settings.gl, ..Default::default() }) {
                Ok(g) => self.context = Context::Ready(Box::new(g)),
                Err(e) if self.settings.backend == BackendKind::Gpu => return Err(SolveError::Gl(e)),
                Err(e) => self.context = Context::Failed(e.to_string()),
            }
        }
        Ok(())
    }
}
