//! Where a solve runs: never on the thread that holds the GIL.
//!
//! A job runs on another thread — a fresh one for CPU work, or the one long-lived GL thread
//! that owns the process's GL context (a context is current on the thread that made it, and
//! making one costs more than a small solve) — while the calling thread waits in short slices
//! with the GIL released. Between slices it takes the GIL back to hand the job's log lines to
//! Python (printing, the per-iteration callback) and to run `Python::check_signals`: Ctrl-C
//! raises the job's interrupt flag, the LP loop stops at its next iteration, and the caller
//! gets KeyboardInterrupt; an exception from a callback does the same.

use glsolve::{Gpu, Logger};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// How long the caller waits with the GIL released before it looks at signals again.
const SLICE: Duration = Duration::from_millis(20);

/// Which thread runs a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A fresh thread: nothing GL is touched.
    Cpu,
    /// The GL thread, with the process's context (or why there is none).
    Gl,
}

/// The context a GL job gets: the context, or the reason none could be made.
pub type GlContext<'a> = Result<&'a Gpu, &'a str>;

type GlJob = Box<dyn FnOnce(GlContext<'_>) + Send>;

/// The GL thread: made on first use, it makes the context once and then runs jobs in order.
fn gl_thread() -> &'static Mutex<Sender<GlJob>> {
    static SENDER: OnceLock<Mutex<Sender<GlJob>>> = OnceLock::new();
    SENDER.get_or_init(|| {
        let (tx, rx) = channel::<GlJob>();
        let spawned = std::thread::Builder::new().name("glsolve-gl".into()).spawn(move || {
            let gpu = Gpu::headless().map_err(|e| e.to_string());
            for job in rx {
                job(gpu.as_ref().map_err(String::as_str));
            }
        });
        if let Err(e) = spawned {
            // The sender's jobs then fail on send, which `run` reports.
            eprintln!("glsolve: could not start the GL thread: {e}");
        }
        Mutex::new(tx)
    })
}

/// One iteration's record, as the library's progress sink hands it over (owned, to cross
/// threads).
pub struct Iteration {
    pub nit: usize,
    pub primal_objective: f64,
    pub dual_objective: f64,
    pub primal_infeasibility: f64,
    pub dual_infeasibility: f64,
    pub gap: f64,
    pub mu: f64,
    pub alpha_primal: f64,
    pub alpha_dual: f64,
    pub backend: String,
    /// The iterate's x in the model's columns, where the job's logger asked for it.
    pub x: Option<Vec<f64>>,
}

/// What a job sends the waiting caller while it runs.
pub enum Event {
    Line(String),
    Iteration(Iteration),
}

/// What a job is handed: where its log and progress go, and the interrupt flag the caller raises.
pub struct JobContext {
    events: Sender<Event>,
    pub interrupt: Arc<AtomicBool>,
}

impl JobContext {
    /// The library's logger for this job: every line and every iteration's record (with the
    /// iterate's x where `points`) go to the caller (a caller that has gone, interrupted, no
    /// longer wants them).
    pub fn logger(&self, points: bool) -> Logger {
        let (lines, progress) = (self.events.clone(), self.events.clone());
        let log = Logger::lines(move |line| {
            let _ = lines.send(Event::Line(line.to_string()));
        })
        .with_progress(move |p| {
            let _ = progress.send(Event::Iteration(Iteration {
                nit: p.info.iteration,
                primal_objective: p.primal_objective,
                dual_objective: p.dual_objective,
                primal_infeasibility: p.info.primal_infeasibility,
                dual_infeasibility: p.info.dual_infeasibility,
                gap: p.info.relative_gap,
                mu: p.info.mu,
                alpha_primal: p.info.alpha_primal,
                alpha_dual: p.info.alpha_dual,
                backend: p.backend.to_string(),
                x: p.x.map(<[f64]>::to_vec),
            }));
        });
        if points {
            log.with_points()
        } else {
            log
        }
    }
}

/// Runs `job` at `place` and waits for it as described in the module's documentation;
/// `on_event` sees every log line and iteration record, in order, on the calling thread with
/// the GIL held. A `stoppable` job (one that watches its interrupt flag) is waited for after
/// Ctrl-C or an error from `on_event` — it stops at its next iteration — unless a second Ctrl-C comes; any
/// other job is left to finish on its own and the error is raised at once.
pub fn run<T, F>(
    py: Python<'_>,
    place: Place,
    stoppable: bool,
    job: F,
    mut on_event: impl FnMut(Event) -> PyResult<()>,
) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce(GlContext<'_>, JobContext) -> T + Send + 'static,
{
    let interrupt = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel::<std::thread::Result<T>>();
    let (event_tx, event_rx) = channel::<Event>();
    let ctx = JobContext { events: event_tx, interrupt: interrupt.clone() };
    let wrapped = move |gl: GlContext<'_>| {
        // A panic is the library's bug, never the user's: it becomes a RuntimeError, not an abort.
        let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(gl, ctx)));
        let _ = tx.send(out);
    };
    match place {
        Place::Cpu => {
            std::thread::Builder::new()
                .name("glsolve-solve".into())
                .spawn(move || wrapped(Err("not a GL job")))
                .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("could not start a thread: {e}")))?;
        }
        Place::Gl => {
            let sender = gl_thread().lock().map_err(|_| runtime("the GL thread's queue is poisoned"))?;
            sender.send(Box::new(wrapped)).map_err(|_| runtime("the GL thread has stopped"))?;
        }
    }
    wait(py, rx, &event_rx, &interrupt, stoppable, &mut on_event)
}

fn runtime(msg: &str) -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(msg.to_string())
}

fn wait<T: Send>(
    py: Python<'_>,
    mut rx: Receiver<std::thread::Result<T>>,
    events: &Receiver<Event>,
    interrupt: &AtomicBool,
    stoppable: bool,
    on_event: &mut impl FnMut(Event) -> PyResult<()>,
) -> PyResult<T> {
    // The error to raise once the job has stopped (Ctrl-C, or the callback's exception).
    let mut stopping: Option<PyErr> = None;
    loop {
        // The receiver travels into the GIL-free closure and back (it may be sent, not shared).
        let (got, back) = py.detach(move || (rx.recv_timeout(SLICE), rx));
        rx = back;
        // Events first: a finished job's last lines reach Python before its result.
        while let Ok(event) = events.try_recv() {
            match on_event(event) {
                Err(e) if stopping.is_none() => stopping = Some(stop(interrupt, e)),
                _ => {}
            }
        }
        if !stoppable {
            if let Some(e) = stopping {
                return Err(e);
            }
        }
        match got {
            Ok(_) if stopping.is_some() => return Err(stopping.take().unwrap_or_else(|| runtime("stopped"))),
            Ok(Ok(v)) => return Ok(v),
            Ok(Err(panic)) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                return Err(runtime(&format!("glsolve failed internally (a bug; please report it): {what}")));
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Err(runtime("the solve's thread ended without an answer")),
        }
        if let Err(e) = py.check_signals() {
            match stopping {
                // A second Ctrl-C while the solve winds down: stop waiting for it.
                Some(_) => return Err(e),
                None if stoppable => stopping = Some(stop(interrupt, e)),
                None => {
                    interrupt.store(true, Ordering::SeqCst);
                    return Err(e);
                }
            }
        }
    }
}

/// Raises the job's interrupt flag; the error is raised once the job has stopped.
fn stop(interrupt: &AtomicBool, e: PyErr) -> PyErr {
    interrupt.store(true, Ordering::SeqCst);
    e
}
