//! The browser benchmark's measurements, timed as the native `glsolve bench` times them (the same
//! plan runner for a factorization, the solve's own clock for an LP), so that the page's numbers
//! and the native ones are of the same work.

use crate::errors::ApiError;
use crate::App;
use glsolve::fixtures::random;
use glsolve::gpu::cholesky::plan;
use glsolve::gpu::plan_runner::PlanRunner;
use glsolve::layout::Tiles;
use glsolve::lp::{mps_write, solve_on};
use glsolve::Variant;
use glsolve::{BackendKind, GpuOptions, Logger, Settings};
use wasm_bindgen::prelude::*;

/// The random dense LP (m rows, n = 4m) of the papers' family as an MPS file, for the page's
/// peer solver.
#[wasm_bindgen]
pub fn random_lp_mps(m: usize, seed: u32) -> Result<String, JsValue> {
    let model = crate::model::random_model(m, u64::from(seed))?;
    Ok(mps_write::to_mps_string(&model).map_err(|e| ApiError::new("internal", e.to_string()))?)
}

fn median(mut runs: Vec<f64>) -> f64 {
    runs.sort_by(f64::total_cmp);
    runs[runs.len() / 2]
}

#[wasm_bindgen]
impl App {
    /// The factorization of a well-conditioned SPD matrix of order `m` by `variant`: a warm-up,
    /// then the median of `reps` runs (seconds; `glFinish` before and after each).
    pub fn bench_cholesky(&self, variant: &str, m: usize, reps: usize) -> Result<f64, JsValue> {
        let gpu = self.gpu()?;
        let v: Variant = variant.parse().map_err(ApiError::from)?;
        if m == 0 || m > gpu.info().max_side() as usize {
            return Err(ApiError::new("too-large", format!("m = {m} is outside 1..={}", gpu.info().max_side())).into());
        }
        let c: Vec<f32> = random::spd_well_conditioned(m, 42).iter().map(|&x| x as f32).collect();
        let passes = plan(m as u32, v);
        let mut runner = match v {
            Variant::Blocked(block) => PlanRunner::blocked(gpu, &c, m, block, &passes),
            Variant::Tiled(block) => {
                let layout = Tiles::square(m, block.size(), glsolve::gpu::tiled::FACTOR_TILE);
                PlanRunner::tiled(gpu, &c, layout, block, &passes)
            }
            _ => PlanRunner::new(gpu, &c, (m, m), &passes),
        }
        .map_err(ApiError::from)?;
        runner.time_once().map_err(ApiError::from)?;
        let runs =
            (0..reps.max(1)).map(|_| runner.time_once()).collect::<Result<Vec<_>, _>>().map_err(ApiError::from)?;
        Ok(median(runs))
    }

    /// The random dense LP (m, seed) on the gpu backend with the Cholesky `variant` (empty: the
    /// default): a warm-up, then the median of `reps` solves by the solve's own clock. JSON:
    /// `{median_s, status, objective, iterations, variant}`.
    pub fn bench_lp(&self, m: usize, seed: u32, reps: usize, variant: &str) -> Result<String, JsValue> {
        let gpu = self.gpu()?;
        let model = crate::model::random_model(m, u64::from(seed))?;
        let mut options = GpuOptions::default();
        if !variant.is_empty() {
            options.variant = variant.parse().map_err(ApiError::from)?;
        }
        let settings = Settings::builder(BackendKind::Gpu).gpu(options).build().map_err(ApiError::from)?;
        let mut last = None;
        let mut runs = Vec::new();
        for rep in 0..=reps.max(1) {
            let sol = solve_on(&model, &settings, &mut Logger::quiet(), Some(gpu)).map_err(ApiError::from)?;
            if rep > 0 {
                runs.push(sol.timings.total.as_secs_f64());
            }
            last = Some(sol);
        }
        let sol = last.ok_or_else(|| ApiError::new("internal", "no solve ran"))?;
        Ok(serde_json::json!({
            "median_s": median(runs),
            "status": sol.status.name(),
            "objective": sol.objective,
            "iterations": sol.iterations,
            "variant": options.variant.to_string(),
        })
        .to_string())
    }
}
