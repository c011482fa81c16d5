//! The one hook on passes. Accounting (fragments from occlusion queries, time), the tests' pass
//! plans and the debug viewer are all observers; with none attached a pass measures nothing.

use super::gpu::{Gpu, PassObserver};
use super::pass::Pass;
use super::record::{Measure, PassRecord};
use std::collections::BTreeMap;
use std::time::Duration;

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
