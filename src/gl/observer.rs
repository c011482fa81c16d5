//! The one hook on passes. Accounting (fragments from occlusion queries, time), the tests' pass
//! plans and the debug viewer are all observers; with none attached a pass measures nothing.

use super::pass::Pass;
use super::Gpu;
use crate::geometry::PrimitiveKind;
use std::collections::BTreeMap;
use std::time::Duration;

/// How a pass is timed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeMode {
    #[default]
    Off,
    /// `glFinish` before and after the draw and a host clock: right on drivers that rasterize at
    /// flush (Mesa llvmpipe), at the price of a pipeline drain per pass.
    HostFinish,
    /// A `GL_TIME_ELAPSED` query: right only where the driver honours it (e.g. NVIDIA).
    GpuTimer,
}

/// What an observer asks the runner to measure around each pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Measure {
    /// Count shaded fragments with a `GL_SAMPLES_PASSED` query (exact).
    pub fragments: bool,
    pub time: TimeMode,
}

impl Measure {
    pub const NOTHING: Measure = Measure { fragments: false, time: TimeMode::Off };
    pub const FRAGMENTS: Measure = Measure { fragments: true, time: TimeMode::Off };
}

/// What happened in one pass.
#[derive(Clone, Debug, PartialEq)]
pub struct PassRecord {
    /// Position of the pass since the `Gpu` was made.
    pub index: u64,
    pub name: &'static str,
    pub kernel: &'static str,
    /// The kernel's variant defines.
    pub defines: &'static [&'static str],
    pub primitive: PrimitiveKind,
    /// Step of the algorithm (the papers' k), when it has one.
    pub step: Option<u32>,
    /// Target texture size (width, height).
    pub target: (u32, u32),
    pub fragments: Option<u64>,
    pub time: Option<Duration>,
}

/// Receives every pass. `before_pass` runs with the pass about to be drawn (sources hold their
/// inputs); `after_pass` with its record (the target holds its output). Passes an observer issues
/// itself are not observed.
pub trait PassObserver {
    fn measure(&self) -> Measure;
    fn before_pass(&mut self, _gpu: &Gpu, _pass: &Pass) {}
    fn after_pass(&mut self, gpu: &Gpu, pass: &Pass, record: &PassRecord);
}

/// Totals of one pass name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PassTotals {
    pub passes: u64,
    pub fragments: u64,
    pub time: Duration,
}

/// The accounting observer: keeps every record.
#[derive(Clone, Debug, Default)]
pub struct PassLog {
    pub measure: Measure,
    pub records: Vec<PassRecord>,
}

impl PassLog {
    pub fn new(measure: Measure) -> Self {
        Self { measure, records: Vec::new() }
    }
    /// Totals per pass name, sorted by name.
    pub fn by_name(&self) -> BTreeMap<&'static str, PassTotals> {
        let mut m: BTreeMap<&'static str, PassTotals> = BTreeMap::new();
        for r in &self.records {
            let t = m.entry(r.name).or_default();
            t.passes += 1;
            t.fragments += r.fragments.unwrap_or(0);
            t.time += r.time.unwrap_or_default();
        }
        m
    }
    pub fn passes(&self) -> u64 {
        self.records.len() as u64
    }
    pub fn fragments(&self) -> u64 {
        self.records.iter().filter_map(|r| r.fragments).sum()
    }
    pub fn time(&self) -> Duration {
        self.records.iter().filter_map(|r| r.time).sum()
    }
    /// Fragments of the passes named `name`.
    pub fn fragments_of(&self, name: &str) -> u64 {
        self.records.iter().filter(|r| r.name == name).filter_map(|r| r.fragments).sum()
    }
    /// Number of passes named `name`.
    pub fn count_of(&self, name: &str) -> u64 {
        self.records.iter().filter(|r| r.name == name).count() as u64
    }
}

impl PassObserver for PassLog {
    fn measure(&self) -> Measure {
        self.measure
    }
    fn after_pass(&mut self, _gpu: &Gpu, _pass: &Pass, record: &PassRecord) {
        self.records.push(record.clone());
    }
}
