//! What `glsolve bench` measures. Speed is measured here only, never in tests: warm up first,
//! `glFinish` before reading a clock, repeat, report the median and the spread.
pub mod all;
pub mod assemble;
pub mod beyond;
pub mod browser;
pub mod browser_simd;
pub mod browser_worker;
pub mod cholesky;
pub mod counts;
pub mod cpu;
pub mod cpu_kernels;
pub mod cpu_report;
pub mod cpu_run;
mod date;
pub mod dialects;
pub mod families;
pub mod families_gl;
pub mod family_case;
pub mod floor;
pub mod linsolve;
pub mod lp;
pub mod lsq_accuracy;
pub mod lu;
pub mod lu_report;
pub mod mixed;
pub mod netlib;
pub mod netlib_all;
pub mod peers;
pub mod plots;
pub mod python;
pub mod report;
mod run_files;
pub mod solve;
pub mod tiles;
pub mod tiles_lp;
pub mod tiles_report;
pub mod timeline_plot;

use std::time::{Duration, Instant};

/// How much to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Scope {
    /// A few minutes: small sizes, a subset of NETLIB.
    Quick,
    /// The papers' sizes (tens of minutes on a software rasterizer).
    Full,
}

/// Repeated timings of one thing.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Timing {
    pub runs: Vec<f64>,
}

impl Timing {
    /// Runs `f` once to warm up (shader compilation, JIT), then `reps` times.
    pub fn measure<E>(reps: usize, mut f: impl FnMut() -> Result<(), E>) -> Result<Timing, E> {
        f()?;
        let mut runs = Vec::with_capacity(reps);
        for _ in 0..reps.max(1) {
            let t = Instant::now();
            f()?;
            runs.push(t.elapsed().as_secs_f64());
        }
        Ok(Timing { runs })
    }
    /// Median in seconds.
    pub fn median(&self) -> f64 {
        let mut v = self.runs.clone();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        if n == 0 {
            return f64::NAN;
        }
        if n % 2 == 1 {
            v[n / 2]
        } else {
            0.5 * (v[n / 2 - 1] + v[n / 2])
        }
    }
    /// (max − min) / median.
    pub fn spread(&self) -> f64 {
        let min = self.runs.iter().copied().fold(f64::INFINITY, f64::min);
        let max = self.runs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (max - min) / self.median()
    }
}

/// Seconds as a short human string.
pub fn secs(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.0} µs", s * 1e6)
    }
}

pub fn as_duration(s: f64) -> Duration {
    Duration::from_secs_f64(s.max(0.0))
}

#[cfg(test)]
mod tests {
    use super::Timing;
    #[test]
    fn median_and_spread() {
        let t = Timing { runs: vec![3.0, 1.0, 2.0] };
        assert_eq!(t.median(), 2.0);
        assert_eq!(t.spread(), 1.0);
        let t = Timing { runs: vec![4.0, 1.0, 2.0, 3.0] };
        assert_eq!(t.median(), 2.5);
    }
}
