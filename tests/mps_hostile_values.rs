//! Hostile MPS input, class 2: the numbers (formats, infinities, NaN, absurd magnitudes).

use glsolve::lp::mps::{self, MpsErrorKind};

const INF: f64 = f64::INFINITY;

fn error_of(text: &str) -> (usize, MpsErrorKind) {
    let e = mps::read_str(text).expect_err("must be rejected");
    assert!(e.to_string().contains(&format!("line {}", e.line)), "message names the line: {e}");
    (e.line, e.kind)
}

/// Line 7 holds `value` as X's coefficient in R1, line 9 as R1's right-hand side, line 11 as X's
/// upper bound.
fn file(coef: &str, rhs: &str, bound: &str) -> String {
    format!("NAME T\nROWS\n N COST\n L R1\nCOLUMNS\n X COST 1\n X R1 {coef}\nRHS\n RHS R1 {rhs}\nBOUNDS\n UP BND X {bound}\nENDATA\n")
}

#[test]
fn fortran_exponents_are_read() {
    let m = mps::read_str(&file("1.0D3", "2.5d-1", "1D1")).expect("valid");
    assert_eq!(m.a.values, vec![1000.0]);
    assert_eq!(m.row_upper, vec![0.25]);
    assert_eq!(m.col_upper, vec![10.0]);
}

#[test]
fn infinity_words_in_rhs_and_bounds() {
    let m = mps::read_str(&file("1", "Infinity", "inf")).expect("valid");
    assert_eq!(m.row_upper, vec![INF]);
    assert_eq!(m.col_upper, vec![INF]);
    let m = mps::read_str(&file("1", "-INF", "+Infinity")).expect("valid");
    assert_eq!(m.row_upper, vec![-INF]);
    assert_eq!(m.col_upper, vec![INF]);
}

#[test]
fn magnitudes_of_1e20_or_more_in_rhs_and_bounds_are_infinite() {
    let m = mps::read_str(&file("1", "1e20", "-1e30")).expect("valid");
    assert_eq!(m.row_upper, vec![INF]);
    assert_eq!(m.col_upper, vec![-INF]);
    let m = mps::read_str(&file("1", "9.99e19", "1")).expect("valid");
    assert_eq!(m.row_upper, vec![9.99e19], "just below the threshold is finite");
}

#[test]
fn non_numeric_values_are_errors() {
    assert_eq!(error_of(&file("abc", "1", "1")), (7, MpsErrorKind::BadNumber("abc".into())));
    assert_eq!(error_of(&file("1", "1x5", "1")), (9, MpsErrorKind::BadNumber("1x5".into())));
    assert_eq!(error_of(&file("1", "1", "0x10")), (11, MpsErrorKind::BadNumber("0x10".into())));
    assert_eq!(error_of(&file("1.2.3", "1", "1")), (7, MpsErrorKind::BadNumber("1.2.3".into())));
}

#[test]
fn nan_anywhere_is_an_error() {
    assert_eq!(error_of(&file("NaN", "1", "1")), (7, MpsErrorKind::NaN));
    assert_eq!(error_of(&file("1", "nan", "1")), (9, MpsErrorKind::NaN));
    assert_eq!(error_of(&file("1", "1", "-NAN")), (11, MpsErrorKind::NaN));
    let t = "NAME T\nROWS\n N COST\n L R1\nCOLUMNS\n X COST 1 R1 1\nRHS\n RHS R1 1\nRANGES\n RNG R1 nan\nENDATA\n";
    assert_eq!(error_of(t), (10, MpsErrorKind::NaN));
}

#[test]
fn absurd_and_infinite_matrix_entries_are_refused() {
    let absurd = |v: f64| MpsErrorKind::AbsurdCoefficient { row: "R1".into(), col: "X".into(), value: v };
    assert_eq!(error_of(&file("1e15", "1", "1")), (7, absurd(1e15)));
    assert_eq!(error_of(&file("-3e16", "1", "1")), (7, absurd(-3e16)));
    assert_eq!(error_of(&file("inf", "1", "1")), (7, absurd(INF)));
    assert_eq!(error_of(&file("1e20", "1", "1")), (7, absurd(1e20)));
    // Cost entries too.
    let t = "NAME T\nROWS\n N COST\n L R1\nCOLUMNS\n X COST 2e15 R1 1\nENDATA\n";
    assert_eq!(error_of(t), (6, MpsErrorKind::AbsurdCoefficient { row: "COST".into(), col: "X".into(), value: 2e15 }));
    assert!(mps::read_str(&file("9.9e14", "1", "1")).is_ok(), "below 1e15 is accepted");
}
