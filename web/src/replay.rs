//! Runs for the viewer: the algorithm once unobserved (its result and pass count, the reference),
//! once recorded pass by pass (the page replays the recording: step, play, speed), and the
//! check that the two results agree bit for bit — the viewer only reads.

use crate::spec::{Spec, WATCH_MPS_ROWS};
use glsolve::clock::Instant;
use glsolve::debug::{watch_lp, DebugError, Label, Outcome, Recorder, Recording, Sink, Viewer};
use glsolve::gl::PassObserver;
use glsolve::lp::LpModel;
use glsolve::Format;
use glsolve::Gpu;
use glsolve::Variant;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A recorded run the page steps through.
#[wasm_bindgen]
pub struct Replay {
    recording: Rc<RefCell<Recording>>,
    bit_identical: bool,
    seconds: f64,
}

#[wasm_bindgen]
impl Replay {
    /// Passes recorded.
    pub fn len(&self) -> usize {
        self.recording.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the watched run's result equals the unwatched run's, bit for bit.
    pub fn bit_identical(&self) -> bool {
        self.bit_identical
    }

    /// Seconds the unwatched run took.
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// The frame after pass `k` as RGBA bytes, `width × height`.
    pub fn frame(&self, k: usize, width: u32, height: u32) -> Result<Vec<u8>, JsValue> {
        let r = self.recording.borrow();
        let img = r.render(k, width.clamp(64, 4096), height.clamp(64, 4096)).ok_or_else(|| {
            crate::errors::ApiError::invalid(format!("pass {} does not exist: the run has {} passes", k + 1, r.len()))
        })?;
        Ok(img.into_raw())
    }

    /// Every pass as a JSON array of [`Replay::pass`]'s objects.
    pub fn passes(&self) -> String {
        let items: Vec<String> = (0..self.len()).map(|k| self.pass(k)).collect();
        format!("[{}]", items.join(","))
    }

    /// A frame size for pass `k`'s textures at about `texel_px` pixels per texel: `[w, h]`.
    pub fn natural_size(&self, k: usize, texel_px: f32) -> Vec<u32> {
        let (w, h) = self.recording.borrow().natural_size(k, texel_px).unwrap_or((640, 360));
        vec![w, h]
    }

    /// Pass `k` as JSON: name, kernel, step, primitive, fragments (and whether predicted), time.
    pub fn pass(&self, k: usize) -> String {
        let r = self.recording.borrow();
        let Some(p) = r.pass(k) else { return "null".into() };
        let i = &p.info;
        serde_json::json!({
            "index": i.index,
            "name": i.name,
            "kernel": i.kernel,
            "defines": i.defines,
            "step": i.step,
            "primitive": format!("{:?}", i.primitive.kind()),
            "fragments": i.fragments,
            "fragments_predicted": i.fragments_predicted,
            "time_ms": i.time.map(|t| t.as_secs_f64() * 1e3),
        })
        .to_string()
    }

    /// The index of the last pass of pass `k`'s step (the window's "rest of step k").
    pub fn end_of_step(&self, k: usize) -> usize {
        let r = self.recording.borrow();
        let Some(step) = r.pass(k).map(|p| p.info.step) else { return k };
        let mut last = k;
        while r.pass(last + 1).is_some_and(|p| p.info.step == step) {
            last += 1;
        }
        last
    }
}

/// Runs `spec` unobserved and then recorded.
pub fn record(gpu: &Gpu, spec: &Spec) -> Result<Replay, DebugError> {
    spec.watchable().map_err(DebugError::Invalid)?;
    let sc = spec.scenario;
    record_run(gpu, sc.label(), |observer| sc.run(gpu, observer))
}

/// The gpu backend's passes on an LP the page was given (an MPS file), recorded.
pub fn record_lp(gpu: &Gpu, model: &LpModel, variant: Variant) -> Result<Replay, DebugError> {
    let (m, n) = (model.num_rows(), model.num_cols());
    if m > WATCH_MPS_ROWS || n > 4 * WATCH_MPS_ROWS {
        return Err(DebugError::Invalid(format!(
            "the viewer records every pass: it watches LPs up to {WATCH_MPS_ROWS} rows and {} columns ({m} × {n} asked); solve larger ones without it",
            4 * WATCH_MPS_ROWS
        )));
    }
    let label = Label {
        algorithm: "lp".into(),
        variant: format!("{m} × {n} from the file"),
        format: variant.name().into(),
        m,
        total: None,
    };
    record_run(gpu, label, |observer| watch_lp(gpu, model, variant, Format::Full, observer))
}

/// `run` once unobserved (the reference: its result and pass count), once recorded.
fn record_run(
    gpu: &Gpu,
    mut label: Label,
    run: impl Fn(Option<Rc<RefCell<dyn PassObserver>>>) -> Result<Outcome, DebugError>,
) -> Result<Replay, DebugError> {
    let t = Instant::now();
    let reference = run(None)?;
    let seconds = t.elapsed().as_secs_f64();
    label.total = Some(reference.passes);
    let recording = Rc::new(RefCell::new(Recording::new(label.clone())));
    let sinks: Vec<Box<dyn Sink>> = vec![Box::new(Recorder(recording.clone()))];
    let viewer = Rc::new(RefCell::new(Viewer::new(label, sinks).timed(gpu.info().honest_time_mode())));
    let observer: Rc<RefCell<dyn PassObserver>> = viewer.clone();
    let watched = run(Some(observer))?;
    viewer.borrow_mut().finish(gpu)?;
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    let bit_identical = bits(&watched.result) == bits(&reference.result);
    Ok(Replay { recording, bit_identical, seconds })
}

/// A warm-up run, then `reps` timed runs of `spec`; the median in seconds.
pub fn time(gpu: &Gpu, spec: &Spec, reps: usize) -> Result<f64, DebugError> {
    let sc = spec.scenario;
    sc.run(gpu, None)?;
    let mut runs = Vec::with_capacity(reps);
    for _ in 0..reps {
        gpu.finish();
        let t = Instant::now();
        sc.run(gpu, None)?;
        gpu.finish();
        runs.push(t.elapsed().as_secs_f64());
    }
    runs.sort_by(f64::total_cmp);
    Ok(runs[runs.len() / 2])
}
