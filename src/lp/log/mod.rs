//! The iteration log: where a solve's lines and per-iteration records go. The library writes
//! nowhere on its own; the caller hands a [`Logger`] with its sinks (the command line's writes
//! to standard output).

use std::io::Write;

mod model;
pub use model::{coefficient_ranges, log_dependent_rows, log_make_up, log_ranges, log_tiny_entries};

/// No change: the standard form's objective as it is.
const IDENTITY: (f64, f64, f64) = (1.0, 0.0, 0.0);

/// One row of the iteration log (HiGHS-like columns).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct IterationInfo {
    /// The iteration number (0: the starting point).
    pub iteration: usize,
    /// cᵀx of the standard form (scaled model, minimization; the printed log shows it in the
    /// model's sense with its constants, see [`Progress::primal_objective`]).
    pub primal_objective: f64,
    /// bᵀλ of the standard form.
    pub dual_objective: f64,
    /// ‖r_b‖∞ / (1 + ‖b‖∞), test (6.1).
    pub primal_infeasibility: f64,
    /// ‖r_c‖∞ / (1 + ‖c‖∞), test (6.2).
    pub dual_infeasibility: f64,
    /// |cᵀx − bᵀλ| / (1 + |cᵀx|), test (6.3).
    pub relative_gap: f64,
    /// μ = xᵀs / n.
    pub mu: f64,
    /// Primal and dual step lengths taken to reach this iterate (0 at the start).
    pub alpha_primal: f64,
    /// The dual step length (beside `alpha_primal`).
    pub alpha_dual: f64,
}

/// What a progress callback ([`Logger::with_progress`]) receives once per iteration: the loop's
/// record and the numbers of the log's row, typed.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// The loop's record (objectives of the scaled standard form).
    pub info: &'a IterationInfo,
    /// cᵀx in the model's sense, with its constant (the log's "primal obj").
    pub primal_objective: f64,
    /// bᵀλ likewise (the log's "dual obj").
    pub dual_objective: f64,
    /// Who solved the normal equations of the step into this iterate (the log's last column:
    /// `cpu`, `cpu f32`, `gpu`, `hybrid/gpu`, …).
    pub backend: &'a str,
    /// The iterate's x in the model's own columns (units, signs and shifts undone), where the
    /// logger was made [`Logger::with_points`]; `None` otherwise.
    pub x: Option<&'a [f64]>,
}

/// How much a [`Logger`] writes to its line sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Verbosity {
    /// No lines (a progress callback is still called).
    Quiet,
    /// Header, one line per iteration and the final summary.
    #[default]
    Normal,
    /// Also the details of the standard form and of every factorization, and the timings.
    Verbose,
}

impl crate::names::Named for Verbosity {
    const WHAT: &'static str = "log level";
    fn all() -> &'static [Self] {
        &[Verbosity::Quiet, Verbosity::Normal, Verbosity::Verbose]
    }
    fn name(self) -> &'static str {
        match self {
            Verbosity::Quiet => "quiet",
            Verbosity::Normal => "normal",
            Verbosity::Verbose => "verbose",
        }
    }
    fn description(self) -> &'static str {
        match self {
            Verbosity::Quiet => "only errors and the final status line",
            Verbosity::Normal => "header with coefficient ranges, one line per iteration, summary",
            Verbosity::Verbose => "also the reader's warnings in full, the standard form's make-up and the timings",
        }
    }
}
crate::names::by_name!(Verbosity);

type LineSink = Box<dyn FnMut(&str) + Send>;
type ProgressSink = Box<dyn FnMut(&Progress<'_>) + Send>;
type PointMap = Box<dyn Fn(&[f64]) -> Vec<f64> + Send>;

/// Where a solve's log goes: a line sink, a progress callback, both or neither. The default
/// (and [`Logger::quiet`]) has neither: a solve then says nothing. [`Logger::stdout`] is the
/// command line's; [`Logger::lines`] takes a callback for each line, [`Logger::to_writer`] any
/// `Write`, and [`Logger::with_progress`] adds a typed record per iteration.
///
/// ```
/// use glsolve::{Logger, LpModel, LpSolver, Settings};
/// use nalgebra::dmatrix;
/// use std::sync::{Arc, Mutex};
/// let model = LpModel::builder(dmatrix![1.0, 1.0]).minimize([1.0, 2.0]).rows_at_least([1.0]).build()?;
/// let (lines, gaps) = (Arc::new(Mutex::new(Vec::new())), Arc::new(Mutex::new(Vec::new())));
/// let (l, g) = (lines.clone(), gaps.clone());
/// let log = Logger::lines(move |line| l.lock().unwrap().push(line.to_string()))
///     .with_progress(move |p| g.lock().unwrap().push(p.info.relative_gap));
/// let mut solver = LpSolver::new(Settings::default()).with_logger(log);
/// solver.solve(&model)?;
/// assert!(lines.lock().unwrap().iter().any(|l| l.starts_with("verification:")));
/// assert!(gaps.lock().unwrap().last().is_some_and(|&g| g < 1e-8));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Logger {
    lines: Option<LineSink>,
    progress: Option<ProgressSink>,
    verbosity: Verbosity,
    /// The iteration rows print `sign·(objective + shift) + constant` — the model's own sense
    /// and objective constant — instead of the standard form's minimization objective.
    objective_map: (f64, f64, f64),
    /// Whether the progress sink gets each iterate's x ([`Logger::with_points`]), and the map
    /// from the standard form's x to the model's columns (set by the solver before its loop).
    points: bool,
    point_map: Option<PointMap>,
}

impl Default for Logger {
    /// A quiet logger.
    fn default() -> Self {
        Logger::quiet()
    }
}

impl Logger {
    /// Says nothing.
    pub fn quiet() -> Self {
        Self {
            lines: None,
            progress: None,
            verbosity: Verbosity::Normal,
            objective_map: IDENTITY,
            points: false,
            point_map: None,
        }
    }
    /// Lines go to standard output (the command line's logger).
    pub fn stdout() -> Self {
        Self::to_writer(Box::new(std::io::stdout()))
    }
    /// Each line (without its newline) goes to `sink`.
    pub fn lines(sink: impl FnMut(&str) + Send + 'static) -> Self {
        Self { lines: Some(Box::new(sink)), ..Self::quiet() }
    }
    /// Lines go to `w`, one `\n`-terminated line per call. A failing writer (a closed pipe) is
    /// dropped: the solve goes on without its log.
    pub fn to_writer(w: Box<dyn Write + Send>) -> Self {
        let mut w = Some(w);
        Self::lines(move |text| {
            if w.as_mut().is_some_and(|out| writeln!(out, "{text}").is_err()) {
                w = None;
            }
        })
    }
    /// Also calls `sink` once per iteration with the iteration's record (whatever the verbosity).
    pub fn with_progress(mut self, sink: impl FnMut(&Progress<'_>) + Send + 'static) -> Self {
        self.progress = Some(Box::new(sink));
        self
    }
    /// Also hands each iterate's x, in the model's columns, to the progress sink
    /// ([`Progress::x`]). Asked for, not default: the loop then reads x back every iteration
    /// (from the GPU on the gpu backends) and maps it to the model.
    pub fn with_points(mut self) -> Self {
        self.points = true;
        self
    }
    /// Whether the loop should read each iterate's x back for the progress sink.
    pub(crate) fn wants_points(&self) -> bool {
        self.points && self.progress.is_some()
    }
    /// How the standard form's x maps to the model's columns (the solver sets it before its
    /// loop, beside [`Logger::set_objective_map`]).
    pub(crate) fn set_point_map(&mut self, map: impl Fn(&[f64]) -> Vec<f64> + Send + 'static) {
        self.point_map = Some(Box::new(map));
    }
    /// How much goes to the line sink ([`Verbosity::Normal`] unless set).
    pub fn with_verbosity(mut self, verbosity: Verbosity) -> Self {
        self.verbosity = verbosity;
        self
    }
    /// The verbosity of the line sink.
    pub fn verbosity(&self) -> Verbosity {
        self.verbosity
    }
    /// Makes the iteration rows show objectives as the user wrote the model: the standard
    /// form's minimization objective v is printed as `factor·v + offset + constant` (the
    /// solver passes factor = sense/γ, undoing the cost's unit γ; equilibration leaves cᵀx and
    /// bᵀλ unchanged, and offset = sense·(the shifts' objective)). The solver sets this before
    /// its loop; the [`IterationInfo`] rows themselves stay in the standard form.
    pub fn set_objective_map(&mut self, factor: f64, offset: f64, constant: f64) {
        self.objective_map = (factor, offset, constant);
    }
    /// An objective of the standard form in the model's own terms.
    pub fn model_objective(&self, v: f64) -> f64 {
        let (factor, offset, constant) = self.objective_map;
        factor * v + offset + constant
    }
    /// Whether lines are written at all (lets callers skip formatting).
    pub fn enabled(&self) -> bool {
        self.lines.is_some() && self.verbosity > Verbosity::Quiet
    }
    /// Whether the verbose details are written.
    pub fn verbose(&self) -> bool {
        self.enabled() && self.verbosity == Verbosity::Verbose
    }
    /// Writes one line (unless quiet).
    pub fn line(&mut self, text: &str) {
        if self.verbosity > Verbosity::Quiet {
            if let Some(sink) = self.lines.as_mut() {
                sink(text);
            }
        }
    }
    /// The column header matching [`Logger::iteration`].
    pub fn header(&mut self) {
        if !self.enabled() {
            return;
        }
        self.line(&format!(
            "{:>4}  {:>16}  {:>16}  {:>9}  {:>9}  {:>9}  {:>9}  {:>6}  {:>6}  backend",
            "iter", "primal obj", "dual obj", "pr inf", "du inf", "gap", "mu", "a_pri", "a_dual"
        ));
    }
    /// One iteration: its row, and its record to the progress callback.
    pub fn iteration(&mut self, it: &IterationInfo, backend: &str) {
        self.iteration_at(it, backend, None);
    }
    /// [`Logger::iteration`] with the standard form's x of the iterate, where
    /// [`Logger::wants_points`]: the progress record then carries it in the model's columns.
    pub(crate) fn iteration_at(&mut self, it: &IterationInfo, backend: &str, x_scaled: Option<&[f64]>) {
        let (primal, dual) = (self.model_objective(it.primal_objective), self.model_objective(it.dual_objective));
        let x = match (x_scaled, &self.point_map) {
            (Some(x), Some(map)) => Some(map(x)),
            _ => None,
        };
        if let Some(sink) = self.progress.as_mut() {
            sink(&Progress { info: it, primal_objective: primal, dual_objective: dual, backend, x: x.as_deref() });
        }
        if !self.enabled() {
            return;
        }
        self.line(&format!(
            "{:>4}  {:>16.9e}  {:>16.9e}  {:>9.2e}  {:>9.2e}  {:>9.2e}  {:>9.2e}  {:>6.4}  {:>6.4}  {}",
            it.iteration,
            primal,
            dual,
            it.primal_infeasibility,
            it.dual_infeasibility,
            it.relative_gap,
            it.mu,
            it.alpha_primal,
            it.alpha_dual,
            backend
        ));
    }
}
