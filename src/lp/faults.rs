//! Faults a test injects into the GPU backends on purpose, so that each failure path runs on a
//! healthy driver: set for the calls inside [`inject`] on the calling thread (where a solve on
//! a given context does its GL work), never by a setting. Compiled only with the
//! `fault-injection` feature, which the tests turn on and a release build leaves out.

use crate::gl::{GlError, Gpu, Kernel};
use crate::lp::mpc::MpcProblem;
use std::cell::Cell;

/// A fault to inject.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultInjection {
    /// A NaN is written into the first entry of a texture the GPU computes with: the gpu
    /// backend's right-hand side b, the hybrid backend's D².
    NanInTexture,
    /// A kernel that does not compile is requested when the backend is set up.
    BrokenKernel,
    /// The context reports itself lost after the first factorization.
    ContextLost,
    /// The dense columns' K comes back from the GPU with its factor doubled (a wrong answer
    /// that reads as a healthy one: every pivot positive and finite).
    WrongDenseColumnFactor,
}

thread_local! {
    static ACTIVE: Cell<Option<FaultInjection>> = const { Cell::new(None) };
}

/// Runs `f` with `fault` injected into every GPU backend it sets up or runs on this thread.
pub fn inject<R>(fault: FaultInjection, f: impl FnOnce() -> R) -> R {
    let before = ACTIVE.replace(Some(fault));
    let r = f();
    ACTIVE.set(before);
    r
}

/// Runs `f` without any fault (the auto backend's probe measures the device, not the test's
/// faults).
pub(crate) fn suppressed<R>(f: impl FnOnce() -> R) -> R {
    let before = ACTIVE.replace(None);
    let r = f();
    ACTIVE.set(before);
    r
}

fn active(fault: FaultInjection) -> bool {
    ACTIVE.get() == Some(fault)
}

/// [`FaultInjection::NanInTexture`] on the gpu backend (`gpu`): b, uploaded into a texture,
/// holds a NaN.
pub(crate) fn poison_b(mut problem: MpcProblem, gpu: bool) -> MpcProblem {
    if gpu && active(FaultInjection::NanInTexture) {
        if let Some(b0) = problem.b.first_mut() {
            *b0 = f64::NAN;
        }
    }
    problem
}

/// [`FaultInjection::NanInTexture`] on the hybrid backend: D², uploaded, holds a NaN.
pub(crate) fn poison_d2(mut d2: Vec<f32>) -> Vec<f32> {
    if active(FaultInjection::NanInTexture) {
        if let Some(v) = d2.first_mut() {
            *v = f32::NAN;
        }
    }
    d2
}

/// A kernel that cannot compile.
const BROKEN_KERNEL: Kernel =
    Kernel { file: "fault_injection.frag", source: "void main() { this_is_not_glsl = ; }\n", variants: &[] };

/// [`FaultInjection::BrokenKernel`]: compiles [`BROKEN_KERNEL`] on `gpu`, through the real path.
pub(crate) fn at_setup(gpu: &Gpu) -> Result<(), GlError> {
    if active(FaultInjection::BrokenKernel) {
        gpu.prepare(&BROKEN_KERNEL, &[])?;
    }
    Ok(())
}

/// [`FaultInjection::ContextLost`], after a factorization.
pub(crate) fn after_factor() -> Result<(), GlError> {
    if active(FaultInjection::ContextLost) {
        return Err(GlError::ContextLost { detail: "injected after a factorization".into() });
    }
    Ok(())
}

/// [`FaultInjection::WrongDenseColumnFactor`] on the factor of K read back.
pub(crate) fn poison_dense_column_factor(lower: &mut [f64]) {
    if active(FaultInjection::WrongDenseColumnFactor) {
        lower.iter_mut().for_each(|v| *v *= 2.0);
    }
}
