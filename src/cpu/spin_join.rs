//! A two-way fork-join whose second thread stays awake between calls: one persistent worker
//! thread that, after each job, spins for [`SPIN_WINDOW`] before it parks.
//!
//! The interior-point loop makes about a dozen passes over A per iteration with a few
//! sequential steps between them (triangular solves, vector updates: tens of µs at m = 512).
//! On rayon's pool, called from outside it, each pass injected a job, woke a sleeping worker
//! and put the caller to sleep until the pool was done: on this 2-core machine a fused pass at
//! m = 512 took 0.335 ms against 0.21 ms for the same read of A on two threads already awake.
//! The syrk's two column ranges fared worse: in four solves at m = 512, 3 of 24 double-precision
//! assemblies took 8.7–11.3 ms against 4.2–6.1 ms, both ranges apparently run one after the
//! other. Here the caller runs its own half and the worker, still spinning from the previous
//! call, starts the other at once.
//!
//! [`join`] takes a `'static` job (one that owns or shares everything it reads);
//! [`join_scoped`] one that borrows from the caller, for the passes' column ranges, the syrk's
//! and the Cholesky's: it erases the job's lifetime, which is sound because `join` returns or
//! unwinds only after the job has run to its end or been dropped unrun (`unsafe` is confined
//! to that one function). One caller at a time has the worker; another caller meanwhile runs
//! both halves itself. A caller that finishes its half before the worker has picked the job up
//! runs the job itself, so a worker that is parked or has no core when the job is posted costs
//! no more than running both halves here (one that takes the job and then loses its core is
//! waited for). A panic in the job is caught where it runs and resumed on the caller.

#![allow(unsafe_code)]

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

/// How long the worker keeps looking for the next job before it parks: longer than the gaps
/// between the passes of an iteration (two triangular solves, 2.8 ms at m = 2048). With the
/// passes alone on the worker (the assembly still on rayon's pool, the worker sent to sleep
/// before it), the "other" time of `solve --random 1024 --seed 7` was 128–132 ms on rayon and
/// 111–123 ms with 3 ms here (four runs each, this 2-core machine); in an earlier set of runs
/// without the sleep before the assembly, windows of 0, 0.05 and 0.25 ms, after which the
/// worker parked between passes, gave 136–183 ms, and 1 ms gave 110–126 ms.
pub const SPIN_WINDOW: Duration = Duration::from_millis(3);

/// Spins of the caller waiting for the worker's half before it starts yielding its core.
const CALLER_SPINS: u32 = 1 << 12;

type Job = Box<dyn FnOnce() + Send>;

struct Worker {
    /// A job is in `slot`.
    posted: AtomicBool,
    slot: Mutex<Option<Job>>,
    /// A caller holds the worker (from posting until it has the job's result).
    taken: AtomicBool,
    thread: Thread,
}

/// The worker, started on first use; `None` when the thread could not be spawned.
fn worker() -> Option<&'static Worker> {
    static WORKER: OnceLock<Option<&'static Worker>> = OnceLock::new();
    *WORKER.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel::<&'static Worker>();
        let spawned = thread::Builder::new().name("glsolve-spin-join".into()).spawn(move || {
            // The worker's own handle is in the struct: built here, then shared with callers.
            let w: &'static Worker = Box::leak(Box::new(Worker {
                posted: AtomicBool::new(false),
                slot: Mutex::new(None),
                taken: AtomicBool::new(false),
                thread: thread::current(),
            }));
            if tx.send(w).is_ok() {
                serve(w);
            }
        });
        spawned.ok().and_then(|_| rx.recv().ok())
    })
}

/// Bumped by [`rest`]: a worker spinning since an older value parks.
static RESTS: AtomicU64 = AtomicU64::new(0);

/// Sends the worker to sleep now if it is spinning: for a phase that needs every core on other
/// threads (rayon's pool, split more than two ways).
pub fn rest() {
    RESTS.fetch_add(1, Ordering::Relaxed);
}

/// The worker's loop: run a posted job, else spin, else park.
fn serve(w: &Worker) {
    let mut rests = RESTS.load(Ordering::Relaxed);
    loop {
        let since = Instant::now();
        loop {
            // Read before it is taken: a write per spin would pull the line away from callers.
            if w.posted.load(Ordering::Relaxed) && w.posted.swap(false, Ordering::Acquire) {
                let job = w.slot.lock().unwrap_or_else(PoisonError::into_inner).take();
                if let Some(job) = job {
                    // Read before the job runs: a `rest` after the caller has its result (and
                    // before this thread spins again) is then not missed. Not read for a job the
                    // caller took back: its `rest` may already have come.
                    rests = RESTS.load(Ordering::Relaxed);
                    job();
                }
                break;
            }
            if since.elapsed() > SPIN_WINDOW || RESTS.load(Ordering::Relaxed) != rests {
                // A post between the check above and here leaves an unpark token: park returns.
                thread::park();
            } else {
                std::hint::spin_loop();
            }
        }
    }
}

/// Where the worker leaves the result of the caller's job.
struct Outcome<B> {
    done: AtomicBool,
    value: Mutex<Option<thread::Result<B>>>,
}

/// Runs `local` on this thread and `remote` on the worker, and returns both results. When the
/// worker is held by another caller, could not be started or has not begun `remote` by the
/// time `local` is done, `remote` runs here after `local`. A panic in either is resumed here
/// (after the worker's half has finished).
pub fn join<A, B>(local: impl FnOnce() -> A, remote: impl FnOnce() -> B + Send + 'static) -> (A, B)
where
    B: Send + 'static,
{
    let Some(w) = worker().filter(|w| !w.taken.swap(true, Ordering::Acquire)) else {
        let a = local();
        return (a, remote());
    };
    let outcome = Arc::new(Outcome { done: AtomicBool::new(false), value: Mutex::new(None) });
    let shared = Arc::clone(&outcome);
    let job: Job = Box::new(move || {
        let result = panic::catch_unwind(AssertUnwindSafe(remote));
        *shared.value.lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
        shared.done.store(true, Ordering::Release);
    });
    *w.slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(job);
    w.posted.store(true, Ordering::Release);
    w.thread.unpark();
    let a = panic::catch_unwind(AssertUnwindSafe(local));
    // A worker that has not started the job yet (parked, or not given a core) is not waited
    // for: the job runs here. Whoever takes it from the slot runs it, so it runs once.
    let unstarted = w.slot.lock().unwrap_or_else(PoisonError::into_inner).take();
    if let Some(job) = unstarted {
        job();
    }
    let mut spins = 0u32;
    let b = loop {
        // `done` is set only after the value is stored, so the value is there when it is seen.
        if outcome.done.load(Ordering::Acquire) {
            if let Some(b) = outcome.value.lock().unwrap_or_else(PoisonError::into_inner).take() {
                break b;
            }
        }
        if spins < CALLER_SPINS {
            spins += 1;
            std::hint::spin_loop();
        } else {
            thread::yield_now();
        }
    };
    // Released here, not by the worker: the next call from this thread finds it free.
    w.taken.store(false, Ordering::Release);
    match (a, b) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(p), _) | (_, Err(p)) => panic::resume_unwind(p),
    }
}

/// [`join`] for a `remote` that borrows from the caller (the column ranges of one matrix).
pub fn join_scoped<'a, A, B>(local: impl FnOnce() -> A, remote: impl FnOnce() -> B + Send + 'a) -> (A, B)
where
    B: Send + 'static,
{
    let remote: Box<dyn FnOnce() -> B + Send + 'a> = Box::new(remote);
    // SAFETY: only the lifetime changes. `join` does not return or unwind before the job is
    // done with `remote`: it runs `remote` itself (the worker held, missing, or not started:
    // the job is taken back from the slot), or waits until the worker has stored `remote`'s
    // result, which it does after `remote` has returned or unwound; a panic in `local` is
    // caught and resumed only after that wait. So nothing `remote` borrows is used after this
    // call returns.
    let remote: Box<dyn FnOnce() -> B + Send + 'static> = unsafe { std::mem::transmute(remote) };
    join(local, remote)
}

#[cfg(test)]
mod tests {
    use super::{join, join_scoped};

    #[test]
    fn both_halves_run_once_and_return_their_results() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;
        // A local half that returns at once races the worker for the job: either may run it,
        // never both.
        let runs = Arc::new(AtomicUsize::new(0));
        for k in 0..2000u64 {
            let counter = Arc::clone(&runs);
            let (a, b) = join(
                || k * 2,
                move || {
                    counter.fetch_add(1, Ordering::Relaxed);
                    k * 3
                },
            );
            assert_eq!((a, b), (2 * k, 3 * k));
        }
        assert_eq!(runs.load(Ordering::Relaxed), 2000);
    }

    #[test]
    fn callers_on_several_threads_each_get_their_own_results() {
        std::thread::scope(|s| {
            for t in 0..4u64 {
                s.spawn(move || {
                    for k in 0..300u64 {
                        let v: Vec<u64> = (0..64).map(|i| i + k + t).collect();
                        let (a, b) = join(|| k + t, move || v.iter().sum::<u64>());
                        assert_eq!(a, k + t);
                        assert_eq!(b, (0..64).map(|i| i + k + t).sum::<u64>());
                    }
                });
            }
        });
    }

    #[test]
    fn scoped_halves_write_disjoint_parts_of_one_buffer() {
        for len in [1usize, 2, 7, 1000] {
            let mut v = vec![0u64; len];
            let (left, right) = v.split_at_mut(len / 2);
            join_scoped(
                || left.iter_mut().enumerate().for_each(|(i, x)| *x = i as u64),
                || right.iter_mut().enumerate().for_each(|(i, x)| *x = 1000 + i as u64),
            );
            let half = len / 2;
            let want: Vec<u64> = (0..len).map(|i| if i < half { i as u64 } else { 1000 + (i - half) as u64 }).collect();
            assert_eq!(v, want);
        }
    }

    #[test]
    fn nested_joins_run_every_quarter() {
        let mut v = vec![0u32; 40];
        let (left, right) = v.split_at_mut(20);
        let (a, b) = left.split_at_mut(10);
        let (c, d) = right.split_at_mut(10);
        let fill = |s: &mut [u32], x: u32| s.iter_mut().for_each(|e| *e = x);
        join_scoped(|| join_scoped(|| fill(a, 1), || fill(b, 2)), || join_scoped(|| fill(c, 3), || fill(d, 4)));
        let want: Vec<u32> = (0..40).map(|i| 1 + i / 10).collect();
        assert_eq!(v, want);
    }

    #[test]
    fn a_panic_in_the_local_half_is_resumed_only_when_the_remote_half_is_not_running() {
        use std::sync::atomic::{AtomicBool, Ordering};
        for _ in 0..50 {
            let (started, finished) = (AtomicBool::new(false), AtomicBool::new(false));
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                join_scoped(
                    || -> () { panic!("local half failed") },
                    || {
                        started.store(true, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_micros(200));
                        finished.store(true, Ordering::SeqCst);
                    },
                )
            }));
            assert!(caught.is_err());
            // Run to its end on the worker or here, or dropped unrun (the worker held by another
            // test's caller): never still running.
            let (s, f) = (started.load(Ordering::SeqCst), finished.load(Ordering::SeqCst));
            assert!(!s || f, "join unwound while the borrowed half was running");
        }
        // The worker is still there for the next caller (a join that gave it up would leave
        // every later call to run both halves on the caller, and the loop above would pass).
        let here = std::thread::current().id();
        let used = (0..200).any(|_| {
            let (_, there) =
                join(|| std::thread::sleep(std::time::Duration::from_millis(1)), || std::thread::current().id());
            there != here
        });
        assert!(used, "no half ran on the worker after the panics");
    }

    #[test]
    fn a_panic_in_the_remote_half_reaches_the_caller_and_the_worker_goes_on() {
        let caught = std::panic::catch_unwind(|| join(|| 1, || -> u32 { panic!("remote half failed") }));
        assert!(caught.is_err());
        assert_eq!(join(|| 4, || 5), (4, 5));
    }
}
