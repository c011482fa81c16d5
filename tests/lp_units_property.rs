//! Property: the same random LP with its cost, one row and one column each written in other
//! units (multiplied by 10^k, k drawn from −12..=12) has the same status and the same x (scaled
//! back) on the cpu and hybrid backends; on the gpu backend it is either the same answer within
//! single precision's tolerance or a status that says it is not optimal — never another
//! `optimal`.
//!
//! The models: 8 rows (equalities, ≤, ≥ and ranges in turn, so that slacks take part) by 20
//! columns, dense entries uniform in [−1, 1], a feasible point x₀ ∈ [0.2, 1]ⁿ built in, an upper
//! bound x₀ + 1 on every third column, costs in [0.1, 1] (in [−1, 1] on the bounded columns), so
//! that every model is feasible and bounded. `SEEDS` × `SCALINGS` cases, deterministic.
//!
//! Tolerances, in the base model's units: cpu and hybrid stop at ε = 1e-8 with the check at
//! 10ε, which bounds the objective's error: 1e-6·(1 + |objective|) is asserted (the worst seen
//! is 6e-8). x is bounded only through the conditioning of the optimal vertex: 1e-5·(1 + |x|)
//! (the worst seen is 1.6e-6, on hybrid). gpu stops at ε = 1e-4 with the check at 10ε = 1e-3:
//! the objective to 1e-3·(1 + |objective|), x to 1e-2·(1 + |x|) (single-precision interior
//! points stop about 10ε from the vertex in the components that should vanish; the worst seen
//! is 3.4e-3, and 3.4e-4 for the objective).

mod common;
use common::Rng;
use glsolve::lp::{BackendKind, LpModel, Settings, Solution, Status};
use nalgebra::DMatrix;

const SEEDS: u64 = 8;
const SCALINGS: u64 = 8;
const INF: f64 = f64::INFINITY;

fn uniform(rng: &mut Rng, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * (f64::from(rng.f32()) + 1.0) / 2.0
}

fn random_model(seed: u64) -> LpModel {
    let (m, n) = (8, 20);
    let mut rng = Rng::new(seed);
    let a = DMatrix::from_fn(m, n, |_, _| uniform(&mut rng, -1.0, 1.0));
    let x0: Vec<f64> = (0..n).map(|_| uniform(&mut rng, 0.2, 1.0)).collect();
    let ax = &a * nalgebra::DVector::from_column_slice(&x0);
    let (mut lower, mut upper) = (vec![0.0; m], vec![0.0; m]);
    for i in 0..m {
        let v = ax[i];
        (lower[i], upper[i]) = match i % 4 {
            0 => (v, v),
            1 => (-INF, v + 0.5),
            2 => (v - 0.5, INF),
            _ => (v - 0.5, v + 0.5),
        };
    }
    let col_upper: Vec<f64> = (0..n).map(|j| if j % 3 == 0 { x0[j] + 1.0 } else { INF }).collect();
    let c: Vec<f64> =
        (0..n).map(|j| if j % 3 == 0 { uniform(&mut rng, -1.0, 1.0) } else { uniform(&mut rng, 0.1, 1.0) }).collect();
    LpModel::builder(a)
        .minimize(c)
        .row_bounds(lower, upper)
        .col_bounds(vec![0.0; n], col_upper)
        .build()
        .expect("a valid model")
}

/// The cost times 10^kc, row r times 10^kr (entries and bounds), column j times 10^kj (entries
/// and cost; its bounds divided, so that xⱼ is divided).
#[derive(Clone, Copy, Debug)]
struct Scaling {
    kc: i32,
    row: usize,
    kr: i32,
    col: usize,
    kj: i32,
}

impl Scaling {
    fn draw(rng: &mut Rng, m: usize, n: usize) -> Self {
        let mut k = || (rng.next_u64() % 25) as i32 - 12;
        let (kc, kr, kj) = (k(), k(), k());
        Scaling { kc, row: (rng.next_u64() % m as u64) as usize, kr, col: (rng.next_u64() % n as u64) as usize, kj }
    }

    fn apply(&self, model: &LpModel) -> LpModel {
        let mut s = model.clone();
        let (fc, fr, fj) = (10f64.powi(self.kc), 10f64.powi(self.kr), 10f64.powi(self.kj));
        for j in 0..s.num_cols() {
            for p in s.a.col_ptr[j]..s.a.col_ptr[j + 1] {
                if s.a.row_idx[p] == self.row {
                    s.a.values[p] *= fr;
                }
                if j == self.col {
                    s.a.values[p] *= fj;
                }
            }
        }
        s.row_lower[self.row] *= fr;
        s.row_upper[self.row] *= fr;
        s.c[self.col] *= fj;
        s.col_lower[self.col] /= fj;
        s.col_upper[self.col] /= fj;
        s.c.iter_mut().for_each(|c| *c *= fc);
        s
    }
}

fn run(model: &LpModel, backend: BackendKind) -> Solution {
    common::solve_lp(model, Settings::for_backend(backend))
}

/// Every case on `backend`: (x tolerance, objective tolerance) relative to 1 + |value|.
fn property(backend: BackendKind, x_tol: f64, obj_tol: f64) {
    let (mut worst_x, mut worst_obj, mut honest) = (0.0f64, 0.0f64, 0);
    for seed in 1..=SEEDS {
        let base_model = random_model(seed);
        // The reference: the cpu backend on the model as drawn.
        let base = run(&base_model, BackendKind::Cpu);
        assert_eq!(base.status, Status::Optimal, "seed {seed}: {}", base.detail);
        let mut rng = Rng::new(1000 + seed);
        for case in 0..SCALINGS {
            let sc = Scaling::draw(&mut rng, base_model.num_rows(), base_model.num_cols());
            let s = run(&sc.apply(&base_model), backend);
            let what = format!("{backend:?} seed {seed} case {case} {sc:?}");
            if backend == BackendKind::Gpu && s.status != Status::Optimal {
                honest += 1;
                println!("{what}: {:?}, {}", s.status, s.detail);
                continue;
            }
            assert_eq!(s.status, Status::Optimal, "{what}: {}", s.detail);
            let objective = s.objective / 10f64.powi(sc.kc);
            let d_obj = (objective - base.objective).abs() / (1.0 + base.objective.abs());
            worst_obj = worst_obj.max(d_obj);
            assert!(d_obj <= obj_tol, "{what}: objective {objective} (scaled back), want {}", base.objective);
            // The proven dual end of the enclosure (scaled back) is below the optimum the cpu
            // found on the model as drawn (to that optimum's own accuracy).
            let e = s.enclosure().expect("an optimum has an enclosure");
            let lower = e.lower / 10f64.powi(sc.kc);
            assert!(
                lower <= base.objective + 1e-7 * (1.0 + base.objective.abs()),
                "{what}: the enclosure's lower end {lower} is above {}",
                base.objective
            );
            if backend == BackendKind::Gpu {
                // Single precision: a point within 10ε of the optimum in objective and backward
                // error, not necessarily within x_tol of the vertex in every coordinate.
                continue;
            }
            for (j, (&got, &want)) in s.x.iter().zip(&base.x).enumerate() {
                let got = if j == sc.col { got * 10f64.powi(sc.kj) } else { got };
                let d = (got - want).abs() / (1.0 + want.abs());
                worst_x = worst_x.max(d);
                assert!(d <= x_tol, "{what}: x[{j}] = {got} (scaled back), want {want}");
            }
        }
    }
    println!(
        "{backend:?}: {} cases, worst x {worst_x:.1e}, worst objective {worst_obj:.1e}, {honest} non-optimal",
        SEEDS * SCALINGS
    );
}

#[test]
fn units_do_not_change_the_cpu_answer() {
    property(BackendKind::Cpu, 1e-5, 1e-6);
}

#[test]
fn units_do_not_change_the_hybrid_answer() {
    property(BackendKind::Hybrid, 1e-5, 1e-6);
}

#[test]
fn units_never_give_the_gpu_another_optimum() {
    property(BackendKind::Gpu, f64::NAN, 1e-3);
}
