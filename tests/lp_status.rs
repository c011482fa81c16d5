//! Small LPs with answers known by hand: bounds, ranges, free variables, maximization with an
//! objective constant, and infeasible / unbounded models getting the right status.

use glsolve::lp::log::Logger;
use glsolve::lp::{mps, solve, Settings, Solution, Status};

fn quiet() -> Settings {
    Settings::default()
}

fn solve_str(text: &str) -> Solution {
    let model = mps::read_str(text).expect("valid MPS");
    solve(&model, &quiet(), &mut Logger::quiet()).expect("valid settings")
}

fn solve_asset(name: &str) -> Solution {
    let path = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/lp")).join(name);
    let model = mps::read_file(&path).expect("asset readable");
    solve(&model, &quiet(), &mut Logger::quiet()).expect("valid settings")
}

/// Optimal values of these LPs are vertices; the solver stops at relative gap 1e-8, so values
/// agree to ~1e-7 absolute at these magnitudes (≤ 10).
const TOL: f64 = 1e-6;

fn assert_close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= TOL * (1.0 + w.abs()), "entry {k}: got {g}, want {w}");
    }
}

#[test]
fn every_bound_type_reaches_its_bound() {
    // Each column is pushed by its cost onto the bound under test; R1 is slack, E2 ties XFR.
    let text = "\
NAME BOUNDS
ROWS
 N COST
 L R1
 E E2
COLUMNS
 XUP COST -1 R1 1
 XUP E2 -1
 XFX COST 1 R1 1
 XLO COST 1 R1 1
 XMI COST -1 R1 1
 XBV COST -1 R1 1
 XFR R1 1 E2 1
 XPL COST 1 R1 1
 XNEG COST -1 R1 1
RHS
 R1 100 E2 1
BOUNDS
 UP BND XUP 3
 FX BND XFX 2
 LO BND XLO 1.5
 MI BND XMI
 UP BND XMI 4
 BV BND XBV
 FR BND XFR
 UP BND XNEG -3
ENDATA
";
    let s = solve_str(text);
    assert_eq!(s.status, Status::Optimal, "{}", s.detail);
    // XFR = 1 + XUP = 4 from E2.
    assert_close(&s.x, &[3.0, 2.0, 1.5, 4.0, 1.0, 4.0, 0.0, -3.0]);
    // −3 + 2 + 1.5 − 4 − 1 + 0 + 3 = −1.5
    assert!((s.objective - -1.5).abs() < TOL, "objective {}", s.objective);
}

#[test]
fn ranged_rows_reach_the_right_ends() {
    let text = "\
NAME RANGES
ROWS
 N COST
 G G1
 L L1
 E E1
 E E2
 E E3
 E E4
 G G2
 L L2
COLUMNS
 X1 COST 1 G1 1
 X2 COST -1 L1 1
 X3 COST 1 E1 1
 X4 COST -1 E2 1
 X5 COST 1 E3 1
 X6 COST -1 E4 1
 X7 COST -1 G2 1
 X8 COST 1 L2 1
RHS
 G1 2 L1 6
 E1 1 E2 1
 E3 4 E4 4
 G2 2 L2 6
RANGES
 G1 3 L1 4
 E1 2 E2 2
 E3 -3 E4 -3
 G2 -3 L2 -4
ENDATA
";
    let s = solve_str(text);
    assert_eq!(s.status, Status::Optimal, "{}", s.detail);
    // G1 ∈ [2,5], L1 ∈ [2,6], E1,E2 ∈ [1,3], E3,E4 ∈ [1,4], G2 ∈ [2,5], L2 ∈ [2,6].
    assert_close(&s.x, &[2.0, 6.0, 1.0, 3.0, 1.0, 4.0, 5.0, 2.0]);
    assert!((s.objective - -12.0).abs() < TOL);
}

#[test]
fn maximization_with_objective_constant_and_duals() {
    // max x1 + 2 x2 + 10 s.t. x1 + x2 ≤ 4, x1 − x2 ≥ −2: optimum x = (1, 3), value 17.
    // Duals (∂objective/∂rhs): y = (1.5, −0.5): raising R1's bound by δ adds 1.5δ.
    let text = "\
NAME MAXC
OBJSENSE
    MAX
ROWS
 N OBJ
 L R1
 G R2
COLUMNS
 X1 OBJ 1 R1 1
 X1 R2 1
 X2 OBJ 2 R1 1
 X2 R2 -1
RHS
 OBJ -10 R1 4
 R2 -2
ENDATA
";
    let s = solve_str(text);
    assert_eq!(s.status, Status::Optimal, "{}", s.detail);
    assert_close(&s.x, &[1.0, 3.0]);
    assert!((s.objective - 17.0).abs() < TOL, "objective {}", s.objective);
    assert_close(&s.row_duals, &[1.5, -0.5]);
    assert_close(&s.reduced_costs, &[0.0, 0.0]);
}

#[test]
fn primal_infeasible_models() {
    for name in ["infeasible.mps", "infeasible_equalities.mps"] {
        let s = solve_asset(name);
        assert_eq!(s.status, Status::PrimalInfeasible, "{name}: {}", s.detail);
    }
}

#[test]
fn unbounded_models() {
    for name in ["unbounded.mps", "unbounded_free.mps"] {
        let s = solve_asset(name);
        assert_eq!(s.status, Status::Unbounded, "{name}: {}", s.detail);
    }
}

#[test]
fn presolve_detects_contradictory_bounds_and_free_empty_columns() {
    let s = solve_str(
        "NAME B\nROWS\n N C\n L R\nCOLUMNS\n X C 1 R 1\nRHS\n R 1\nBOUNDS\n LO BND X 3\n UP BND X 2\nENDATA\n",
    );
    assert_eq!(s.status, Status::PrimalInfeasible);
    // Y appears only in the objective with cost −1 and no upper bound.
    let s = solve_str("NAME E\nROWS\n N C\n L R\nCOLUMNS\n X C 1 R 1\n Y C -1\nRHS\n R 1\nENDATA\n");
    assert_eq!(s.status, Status::Unbounded);
    // The same column with an upper bound is fine: Y = 5, X = 0.
    let s =
        solve_str("NAME E\nROWS\n N C\n L R\nCOLUMNS\n X C 1 R 1\n Y C -1\nRHS\n R 1\nBOUNDS\n UP BND Y 5\nENDATA\n");
    assert_eq!(s.status, Status::Optimal);
    assert_close(&s.x, &[0.0, 5.0]);
}

#[test]
fn iteration_limit_is_reported() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/netlib/afiro.mps");
    let model = mps::read_file(std::path::Path::new(path)).expect("asset");
    let st = quiet().to_builder().max_iterations(3).build().expect("valid");
    let s = solve(&model, &st, &mut Logger::quiet()).expect("valid settings");
    assert_eq!(s.status, Status::IterationLimit);
    assert_eq!(s.iterations, 3);
}

#[test]
fn invalid_settings_are_rejected() {
    use glsolve::lp::settings::SettingsError as E;
    use glsolve::lp::{BackendKind, GpuOptions, HybridRules};
    let cpu = || Settings::builder(BackendKind::Cpu);
    let hybrid = || Settings::builder(BackendKind::Hybrid);
    let gpu = |g: GpuOptions| Settings::builder(BackendKind::Gpu).gpu(g);
    let cases = [
        (cpu().tolerance(0.0), E::Tolerance(0.0)),
        (cpu().tolerance(1.0), E::Tolerance(1.0)),
        (cpu().step_factor(1.0), E::StepFactor(1.0)),
        (cpu().long_step_factor(Some(1.0)), E::LongStepFactor(1.0)),
        (cpu().long_step_factor(Some(0.0)), E::LongStepFactor(0.0)),
        (cpu().infeasibility_tolerance(-1e-9), E::InfeasibilityTolerance(-1e-9)),
        (cpu().max_iterations(0), E::MaxIterations),
        (gpu(GpuOptions { pivot_tolerance: 2.0, ..GpuOptions::default() }), E::PivotTolerance(2.0)),
        (gpu(GpuOptions { assembly_columns: 0, ..GpuOptions::default() }), E::AssemblyColumns),
        (
            hybrid().hybrid_rules(HybridRules { theta_a: f64::INFINITY, ..HybridRules::default() }),
            E::HybridRule("θ_a", f64::INFINITY),
        ),
        (hybrid().hybrid_rules(HybridRules { eps_d: 0.0, ..HybridRules::default() }), E::HybridRule("ε_d", 0.0)),
        (Settings::builder(BackendKind::Gpu).tolerance(1e-8), E::GpuTolerance(1e-8)),
    ];
    for (builder, expected) in cases {
        match builder.build() {
            Err(e) => assert_eq!(e, expected),
            Ok(st) => panic!("expected {expected:?}, got {st:?}"),
        }
    }
}
