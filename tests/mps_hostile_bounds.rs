//! Hostile MPS input, class 3: the BOUNDS section (missing values, unknown and integer types,
//! conflicts, unknown columns).

use glsolve::lp::log::Logger;
use glsolve::lp::mps::{self, MpsErrorKind};
use glsolve::lp::{Settings, Status};

const INF: f64 = f64::INFINITY;

fn error_of(text: &str) -> (usize, MpsErrorKind) {
    let e = mps::read_str(text).expect_err("must be rejected");
    assert!(e.to_string().contains(&format!("line {}", e.line)), "message names the line: {e}");
    (e.line, e.kind)
}

/// Bound lines start at line 10.
fn with_bounds(bounds: &str) -> String {
    format!("NAME T\nROWS\n N COST\n L R1\nCOLUMNS\n X COST 1 R1 1\n Y COST 1 R1 1\nRHS\n RHS R1 4\nBOUNDS\n{bounds}ENDATA\n")
}

#[test]
fn bound_types_that_need_a_value_without_one() {
    for ty in ["UP", "LO", "FX", "LI", "UI"] {
        let t = with_bounds(&format!(" {ty} BND X\n"));
        assert_eq!(error_of(&t), (11, MpsErrorKind::MissingValue { bound: ty.into(), col: "X".into() }), "{ty}");
        let t = with_bounds(&format!(" {ty} X\n"));
        assert_eq!(error_of(&t), (11, MpsErrorKind::MissingValue { bound: ty.into(), col: "X".into() }), "{ty}");
    }
}

#[test]
fn unknown_bound_types() {
    assert_eq!(error_of(&with_bounds(" XX BND X 1\n")), (11, MpsErrorKind::BoundType("XX".into())));
    assert_eq!(error_of(&with_bounds(" UP BND X 1\n ZZ BND Y\n")), (12, MpsErrorKind::BoundType("ZZ".into())));
}

#[test]
fn a_bound_on_a_column_not_in_columns() {
    assert_eq!(error_of(&with_bounds(" UP BND Z 1\n")), (11, MpsErrorKind::UnknownColumn("Z".into())));
}

#[test]
fn conflicting_bounds_are_warned_and_solved_as_infeasible() {
    let m = mps::read_str(&with_bounds(" LO BND X 5\n UP BND X 3\n")).expect("kept as written");
    assert_eq!((m.col_lower[0], m.col_upper[0]), (5.0, 3.0));
    assert!(m.warnings.iter().any(|w| w.contains("conflicting bounds")), "{:?}", m.warnings);
    let st = Settings::default();
    let s = glsolve::lp::solve(&m, &st, &mut Logger::quiet()).expect("valid settings");
    assert_eq!(s.status, Status::PrimalInfeasible);
    // A later bound of another type overrides: FX then UP moves only the upper bound.
    let m = mps::read_str(&with_bounds(" FX BND X 2\n UP BND X 1\n")).expect("valid");
    assert_eq!((m.col_lower[0], m.col_upper[0]), (2.0, 1.0));
    assert!(m.warnings.iter().any(|w| w.contains("conflicting bounds")));
}

#[test]
fn integer_bounds_and_markers_are_relaxed_with_warnings() {
    let m = mps::read_str(&with_bounds(" BV BND X\n LI BND Y 2\n")).expect("relaxed");
    assert_eq!((m.col_lower[0], m.col_upper[0]), (0.0, 1.0));
    assert_eq!(m.col_lower[1], 2.0);
    assert_eq!(m.integer, vec![true, true]);
    assert_eq!(m.warnings.iter().filter(|w| w.contains("read as continuous")).count(), 2, "{:?}", m.warnings);
    let m = mps::read_str(&with_bounds(" UI BND Y 7\n")).expect("relaxed");
    assert_eq!(m.col_upper[1], 7.0);
}

#[test]
fn semi_continuous_bounds_are_relaxed_to_zero_and_the_upper_bound() {
    let m = mps::read_str(&with_bounds(" LO BND X 2\n SC BND X 9\n")).expect("relaxed");
    assert_eq!((m.col_lower[0], m.col_upper[0]), (0.0, 9.0));
    assert!(m.warnings.iter().any(|w| w.contains("semi-continuous")), "{:?}", m.warnings);
    let m = mps::read_str(&with_bounds(" SC BND Y\n")).expect("SC without a value: no upper bound");
    assert_eq!((m.col_lower[1], m.col_upper[1]), (0.0, INF));
}

#[test]
fn infinite_bounds_on_the_wrong_side_are_infeasible_not_nan() {
    let m = mps::read_str(&with_bounds(" LO BND X 1e30\n")).expect("valid");
    assert_eq!(m.col_lower[0], INF);
    let st = Settings::default();
    let s = glsolve::lp::solve(&m, &st, &mut Logger::quiet()).expect("valid settings");
    assert_eq!(s.status, Status::PrimalInfeasible);
}
