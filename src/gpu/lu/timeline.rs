//! What the host and the GPU did when: the spans behind the mixed-precision paper's claim that
//! CPU and GPU work overlap, recorded as they happen.
//!
//! Host spans (CPU work and transfers) are timed by the host clock around the work. A GPU span
//! starts when its passes are issued and flushed (or when the GPU's previous span ended, if that
//! was later: the GPU runs its queue in order) and ends when its fence is first seen signaled:
//! either by a wait, or by a non-blocking poll that the host makes between pieces of its own work
//! (between the columns of a panel, between blocks of a substitution). A polled end is therefore
//! an upper bound, late by at most one piece of host work. Nothing here waits unless asked to, so
//! recording does not change the overlap it measures.

use crate::clock::Instant;
use crate::gl::{Fence, GlResult, Gpu};

/// Who is busy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Lane {
    /// Host computation (panel factorization, triangular solves, packing).
    Cpu,
    /// Host ↔ GPU copies (uploads, readbacks): the host thread is busy, the GPU need not be.
    Transfer,
    /// Passes in flight on the GPU.
    Gpu,
}

/// One interval of one lane, in seconds since the recorder started.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Span {
    /// The algorithm's phase: `factor`, `forward`, `backward`.
    pub phase: String,
    /// Refinement iteration the span belongs to (0: factorization and the first solve).
    pub iteration: u32,
    /// Block step within the phase.
    pub step: u32,
    pub lane: Lane,
    pub what: String,
    pub start: f64,
    pub end: f64,
}

/// Busy time per lane over one phase, and how much of it ran at the same time.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Shares {
    /// From the phase's first span start to its last span end.
    pub wall: f64,
    /// Host busy (CPU work and transfers).
    pub host: f64,
    pub gpu: f64,
    /// Time during which the host and the GPU were both busy.
    pub overlap: f64,
}

/// The recorded spans of one solve.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Timeline {
    pub spans: Vec<Span>,
}

impl Timeline {
    /// Spans of `phase` (all phases for `None`) and iteration (all for `None`).
    pub fn select(&self, phase: Option<&str>, iteration: Option<u32>) -> Vec<&Span> {
        self.spans
            .iter()
            .filter(|s| phase.is_none_or(|p| s.phase == p) && iteration.is_none_or(|i| s.iteration == i))
            .collect()
    }

    /// Busy times of the selected spans.
    pub fn shares(&self, phase: Option<&str>, iteration: Option<u32>) -> Shares {
        let spans = self.select(phase, iteration);
        if spans.is_empty() {
            return Shares::default();
        }
        let start = spans.iter().map(|s| s.start).fold(f64::INFINITY, f64::min);
        let end = spans.iter().map(|s| s.end).fold(f64::NEG_INFINITY, f64::max);
        let host: Vec<(f64, f64)> = spans.iter().filter(|s| s.lane != Lane::Gpu).map(|s| (s.start, s.end)).collect();
        let gpu: Vec<(f64, f64)> = spans.iter().filter(|s| s.lane == Lane::Gpu).map(|s| (s.start, s.end)).collect();
        let total = |v: &[(f64, f64)]| v.iter().map(|(a, b)| (b - a).max(0.0)).sum::<f64>();
        let mut overlap = 0.0;
        for (a0, a1) in &host {
            for (b0, b1) in &gpu {
                overlap += (a1.min(*b1) - a0.max(*b0)).max(0.0);
            }
        }
        Shares { wall: end - start, host: total(&host), gpu: total(&gpu), overlap }
    }
}

impl Timeline {
    /// [`Timeline::shares`] of `phase` per refinement iteration, added up (a phase that recurs
    /// in every iteration has its wall time counted per occurrence, not from first to last).
    pub fn shares_summed(&self, phase: &str) -> Shares {
        let mut iterations: Vec<u32> = self.select(Some(phase), None).iter().map(|s| s.iteration).collect();
        iterations.dedup();
        let mut total = Shares::default();
        for i in iterations {
            let s = self.shares(Some(phase), Some(i));
            total.wall += s.wall;
            total.host += s.host;
            total.gpu += s.gpu;
            total.overlap += s.overlap;
        }
        total
    }
}

/// Records spans as they happen; GPU spans stay pending until their fence is seen signaled.
pub struct Recorder {
    origin: Instant,
    timeline: Timeline,
    pending: Vec<(Fence, Span)>,
    /// End of the last closed GPU span (the GPU runs its queue in order).
    gpu_free: f64,
    phase: &'static str,
    iteration: u32,
}

impl Default for Recorder {
    fn default() -> Self {
        Self::new()
    }
}

impl Recorder {
    pub fn new() -> Self {
        Self {
            origin: Instant::now(),
            timeline: Timeline::default(),
            pending: Vec::new(),
            gpu_free: 0.0,
            phase: "",
            iteration: 0,
        }
    }

    /// Seconds since the recorder started.
    pub fn now(&self) -> f64 {
        self.origin.elapsed().as_secs_f64()
    }

    /// The phase and iteration of the spans recorded from now on.
    pub fn enter(&mut self, phase: &'static str, iteration: u32) {
        self.phase = phase;
        self.iteration = iteration;
    }

    fn span(&self, lane: Lane, what: &str, step: usize, start: f64, end: f64) -> Span {
        Span {
            phase: self.phase.to_string(),
            iteration: self.iteration,
            step: step as u32,
            lane,
            what: what.to_string(),
            start,
            end,
        }
    }

    /// Runs host work `f` as one span of `lane`.
    pub fn host<R>(&mut self, lane: Lane, what: &str, step: usize, f: impl FnOnce(&mut Self) -> R) -> R {
        let start = self.now();
        let r = f(self);
        let s = self.span(lane, what, step, start, self.now());
        self.timeline.spans.push(s);
        r
    }

    /// Issues passes (`issue`) as one GPU span: the span starts before the first pass is issued
    /// (a driver may start, or make the host wait for, earlier work while passes are issued),
    /// and the passes are flushed, so they start now, with a fence after them.
    pub fn gpu<R>(
        &mut self,
        gpu: &Gpu,
        what: &str,
        step: usize,
        issue: impl FnOnce() -> crate::gpu::GpuResult<R>,
    ) -> crate::gpu::GpuResult<R> {
        let start = self.now();
        let r = issue()?;
        let fence = gpu.fence()?;
        gpu.flush();
        let s = self.span(Lane::Gpu, what, step, start, start);
        self.pending.push((fence, s));
        Ok(r)
    }

    /// Closes the pending GPU spans whose fences are signaled (in order; never waits).
    pub fn poll(&mut self) -> GlResult<()> {
        while let Some((fence, _)) = self.pending.first() {
            if !fence.is_signaled()? {
                break;
            }
            self.close_first();
        }
        Ok(())
    }

    /// Waits for every pending GPU span and closes them; the wait is host time spent idle.
    pub fn wait_gpu(&mut self) -> GlResult<()> {
        while let Some((fence, _)) = self.pending.first() {
            fence.wait()?;
            self.close_first();
        }
        Ok(())
    }

    fn close_first(&mut self) {
        let (_, mut s) = self.pending.remove(0);
        s.start = s.start.max(self.gpu_free);
        s.end = self.now().max(s.start);
        self.gpu_free = s.end;
        self.timeline.spans.push(s);
    }

    /// Waits for pending GPU spans and returns the timeline.
    pub fn finish(mut self) -> GlResult<Timeline> {
        self.wait_gpu()?;
        self.timeline.spans.sort_by(|a, b| a.start.total_cmp(&b.start));
        Ok(self.timeline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(lane: Lane, start: f64, end: f64) -> Span {
        Span { phase: "factor".into(), iteration: 0, step: 0, lane, what: String::new(), start, end }
    }

    #[test]
    fn shares_add_busy_time_per_lane_and_intersect_host_with_gpu() {
        let t = Timeline {
            spans: vec![
                span(Lane::Cpu, 0.0, 1.0),
                span(Lane::Gpu, 0.5, 2.0),
                span(Lane::Transfer, 2.0, 2.5),
                span(Lane::Cpu, 2.5, 3.0),
                span(Lane::Gpu, 2.75, 4.0),
            ],
        };
        let s = t.shares(Some("factor"), None);
        assert_eq!(s.wall, 4.0);
        assert_eq!(s.host, 2.0);
        assert_eq!(s.gpu, 2.75);
        assert_eq!(s.overlap, 0.5 + 0.25);
        assert_eq!(t.shares(Some("forward"), None), Shares::default());
    }
}
