//! MPS reader: every bound type, ranges, objective constant and sense, free/fixed/gz input, and
//! malformed files giving typed errors with line numbers. Expected values are written out by
//! hand from the MPS rules documented in `glsolve::lp::mps`.

use glsolve::lp::mps::{self, MpsErrorKind};
use glsolve::lp::Sense;
use std::io::Write;

const INF: f64 = f64::INFINITY;

fn col(model: &glsolve::lp::LpModel, name: &str) -> usize {
    model.col_names.iter().position(|c| c == name).expect("column exists")
}
fn row(model: &glsolve::lp::LpModel, name: &str) -> usize {
    model.row_names.iter().position(|c| c == name).expect("row exists")
}

const BOUNDS: &str = "\
NAME          BOUNDS
ROWS
 N  COST
 L  LIM
COLUMNS
    XUP       COST      1.0        LIM       1.0
    XLO       LIM       1.0
    XFX       LIM       1.0
    XFR       LIM       1.0
    XMI       LIM       1.0
    XPL       LIM       1.0
    XBV       LIM       1.0
    XNEGUP    LIM       1.0
    XNEGUP2   LIM       1.0
    XBIG      LIM       1.0
RHS
    RHS       LIM       100.0
BOUNDS
 UP BND       XUP       4.0
 LO BND       XLO       -2.5
 FX BND       XFX       7.0
 FR BND       XFR
 MI BND       XMI
 UP BND       XPL       5.0
 PL BND       XPL
 BV BND       XBV
 UP BND       XNEGUP    -3.0
 LO BND       XNEGUP2   -10.0
 UP BND       XNEGUP2   -3.0
 UP BND       XBIG      1e30
 LO BND       XBIG      -1e20
ENDATA
";

#[test]
fn every_bound_type() {
    let m = mps::read_str(BOUNDS).expect("valid file");
    let b = |n: &str| (m.col_lower[col(&m, n)], m.col_upper[col(&m, n)]);
    assert_eq!(b("XUP"), (0.0, 4.0));
    assert_eq!(b("XLO"), (-2.5, INF));
    assert_eq!(b("XFX"), (7.0, 7.0));
    assert_eq!(b("XFR"), (-INF, INF));
    assert_eq!(b("XMI"), (-INF, INF));
    assert_eq!(b("XPL"), (0.0, INF));
    assert_eq!(b("XBV"), (0.0, 1.0));
    assert!(m.integer[col(&m, "XBV")], "BV marks the column integer");
    // Negative UP without LO: lower bound becomes −∞ (with a warning); with LO it stays.
    assert_eq!(b("XNEGUP"), (-INF, -3.0));
    assert!(m.warnings.iter().any(|w| w.contains("XNEGUP")));
    assert_eq!(b("XNEGUP2"), (-10.0, -3.0));
    // |value| ≥ 1e20 is infinite.
    assert_eq!(b("XBIG"), (-INF, INF));
}

const RANGES: &str = "\
NAME          RANGES
ROWS
 N  COST
 G  G1
 L  L1
 E  E1
 E  E2
 E  E3
 E  E4
 G  G2
 L  L2
COLUMNS
    X1        COST      1.0        G1        1.0
    X2        COST      -1.0       L1        1.0
    X3        COST      1.0        E1        1.0
    X4        COST      -1.0       E2        1.0
    X5        COST      1.0        E3        1.0
    X6        COST      -1.0       E4        1.0
    X7        COST      -1.0       G2        1.0
    X8        COST      1.0        L2        1.0
RHS
    RHS       G1        2.0        L1        6.0
    RHS       E1        1.0        E2        1.0
    RHS       E3        4.0        E4        4.0
    RHS       G2        2.0        L2        6.0
RANGES
    RNG       G1        3.0        L1        4.0
    RNG       E1        2.0        E2        2.0
    RNG       E3        -3.0       E4        -3.0
    RNG       G2        -3.0       L2        -4.0
ENDATA
";

#[test]
fn ranges_on_e_l_g_rows_with_both_signs() {
    let m = mps::read_str(RANGES).expect("valid file");
    let r = |n: &str| (m.row_lower[row(&m, n)], m.row_upper[row(&m, n)]);
    assert_eq!(r("G1"), (2.0, 5.0)); // G: [h, h + |R|]
    assert_eq!(r("G2"), (2.0, 5.0));
    assert_eq!(r("L1"), (2.0, 6.0)); // L: [h − |R|, h]
    assert_eq!(r("L2"), (2.0, 6.0));
    assert_eq!(r("E1"), (1.0, 3.0)); // E, R > 0: [h, h + R]
    assert_eq!(r("E3"), (1.0, 4.0)); // E, R < 0: [h + R, h]
}

#[test]
fn objective_constant_and_objsense_max() {
    let text = "\
NAME MAXCONST
OBJSENSE
    MAX
ROWS
 N  OBJ
 L  R1
COLUMNS
    X1  OBJ  1.0  R1  1.0
    X2  OBJ  2.0  R1  1.0
RHS
    RHS  OBJ  -10.0  R1  4.0
ENDATA
";
    let m = mps::read_str(text).expect("valid file");
    assert_eq!(m.sense, Sense::Maximize);
    // RHS v on the objective row is the constant −v.
    assert_eq!(m.obj_constant, 10.0);
    let one_line = text.replace("OBJSENSE\n    MAX", "OBJSENSE MAX");
    assert_eq!(mps::read_str(&one_line).expect("valid").sense, Sense::Maximize);
}

#[test]
fn free_format_long_names_and_no_set_names() {
    let text = "\
NAME free example
ROWS
 N obj
 G a_long_row_name
 E second.row
COLUMNS
 column_with_a_long_name obj 1.5 a_long_row_name 2
 y obj -1 second.row 1.0D0
RHS
 a_long_row_name 3 second.row 1.0d1
BOUNDS
 UP column_with_a_long_name 4
 FR y
ENDATA
";
    let m = mps::read_str(text).expect("valid free MPS");
    assert_eq!(m.col_names, vec!["column_with_a_long_name", "y"]);
    assert_eq!(m.c, vec![1.5, -1.0]);
    assert_eq!(m.row_lower, vec![3.0, 10.0]);
    assert_eq!(m.row_upper, vec![INF, 10.0]);
    assert_eq!((m.col_lower[0], m.col_upper[0]), (0.0, 4.0));
    assert_eq!((m.col_lower[1], m.col_upper[1]), (-INF, INF));
}

/// A fixed-format line: fields at columns 2–3, 5–12, 15–22, 25–36, 40–47, 50–61.
fn fixed(f: [&str; 6]) -> String {
    format!(" {:<2} {:<8}  {:<8}  {:<12}   {:<8}  {}", f[0], f[1], f[2], f[3], f[4], f[5]).trim_end().to_string() + "\n"
}

#[test]
fn fixed_format_names_with_spaces() {
    // The names "MY COL", "ROW 1" and "RHS SET" contain spaces: only the columns delimit them.
    let text = [
        "NAME          SPACES\nROWS\n".to_string(),
        fixed(["N", "COST", "", "", "", ""]),
        fixed(["L", "ROW 1", "", "", "", ""]),
        "COLUMNS\n".into(),
        fixed(["", "MY COL", "COST", "1.0", "ROW 1", "2.0"]),
        "RHS\n".into(),
        fixed(["", "RHS SET", "ROW 1", "8.0", "", ""]),
        "BOUNDS\n".into(),
        fixed(["UP", "BND SET", "MY COL", "3.0", "", ""]),
        "ENDATA\n".into(),
    ]
    .concat();
    let m = mps::read_str(&text).expect("fixed format with spaces");
    assert_eq!(m.col_names, vec!["MY COL"]);
    assert_eq!(m.row_names, vec!["ROW 1"]);
    assert_eq!(m.row_upper, vec![8.0]);
    assert_eq!(m.col_upper, vec![3.0]);
    assert_eq!(m.a.to_dense_row_major(), vec![2.0]);
}

#[test]
fn integer_markers_are_read_as_continuous_with_warning() {
    let text = "\
NAME INT
ROWS
 N COST
 L R
COLUMNS
 M1 'MARKER' 'INTORG'
 X COST 1 R 1
 M2 'MARKER' 'INTEND'
 Y COST 1 R 1
RHS
 R 1
ENDATA
";
    let m = mps::read_str(text).expect("valid");
    assert_eq!(m.integer, vec![true, false]);
    assert!(m.warnings.iter().any(|w| w.contains("continuous")));
    assert_eq!(m.col_upper, vec![INF, INF]);
}

#[test]
fn numbers_fortran_exponent_and_rejections() {
    assert_eq!(mps::parse_number("1.0D3"), Some(1000.0));
    assert_eq!(mps::parse_number("-2.5e-1"), Some(-0.25));
    for bad in ["abc", "1x5", "inf", "nan", "0x10", "", "1e999"] {
        assert_eq!(mps::parse_number(bad), None, "{bad:?} must be rejected");
    }
}

#[test]
fn gzip_input_is_read_transparently() {
    let plain = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/netlib/afiro.mps")).expect("asset");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&plain).expect("compress");
    let gz = enc.finish().expect("compress");
    let path = std::env::temp_dir().join(format!("glsolve-afiro-{}.mps.gz", std::process::id()));
    std::fs::write(&path, &gz).expect("write temp");
    let from_gz = mps::read_file(&path).expect("gz read");
    let _ = std::fs::remove_file(&path);
    let from_plain = mps::read_bytes(&plain).expect("plain read");
    assert_eq!(from_gz.a, from_plain.a);
    assert_eq!(from_gz.c, from_plain.c);
    assert_eq!(from_gz.row_lower, from_plain.row_lower);
    assert_eq!((from_gz.num_rows(), from_gz.num_cols()), (27, 32));
}

fn error_of(text: &str) -> (usize, MpsErrorKind) {
    let e = mps::read_str(text).expect_err("must be rejected");
    assert!(e.to_string().contains(&format!("line {}", e.line)), "message names the line: {e}");
    (e.line, e.kind)
}

const GOOD: &str = "NAME T\nROWS\n N COST\n L R1\nCOLUMNS\n X COST 1 R1 1\nRHS\n R1 4\nBOUNDS\n UP BND X 3\nENDATA\n";

#[test]
fn good_base_file_parses() {
    assert!(mps::read_str(GOOD).is_ok());
}

#[test]
fn malformed_missing_sections() {
    assert_eq!(error_of("NAME T\nCOLUMNS\n X COST 1\nENDATA\n"), (2, MpsErrorKind::MissingSection("ROWS")));
    assert_eq!(error_of("NAME T\nROWS\n N COST\nRHS\n R1 4\nENDATA\n"), (4, MpsErrorKind::MissingSection("COLUMNS")));
    let no_end = GOOD.replace("ENDATA\n", "");
    assert_eq!(error_of(&no_end), (11, MpsErrorKind::MissingSection("ENDATA")));
    let m = mps::read_str("NAME T\nROWS\n L R1\nCOLUMNS\n X R1 1\nENDATA\n").expect("no N row is a warning");
    assert_eq!(m.c, vec![0.0]);
    assert!(m.warnings.iter().any(|w| w.contains("no N")));
}

#[test]
fn malformed_unknown_row_in_columns() {
    let t = GOOD.replace(" X COST 1 R1 1", " X COST 1 R9 1");
    assert_eq!(error_of(&t), (6, MpsErrorKind::UnknownRow("R9".into())));
}

#[test]
fn malformed_non_numeric_values() {
    let t = GOOD.replace(" X COST 1 R1 1", " X COST abc R1 1");
    assert_eq!(error_of(&t), (6, MpsErrorKind::BadNumber("abc".into())));
    let t = GOOD.replace(" R1 4", " R1 1x5");
    assert_eq!(error_of(&t), (8, MpsErrorKind::BadNumber("1x5".into())));
}

#[test]
fn malformed_duplicate_names() {
    let t = GOOD.replace(" L R1\n", " L R1\n G R1\n");
    assert_eq!(error_of(&t), (5, MpsErrorKind::DuplicateRow("R1".into())));
    let t = GOOD.replace(" X COST 1 R1 1\n", " X COST 1\n Y R1 1\n X R1 1\n");
    assert_eq!(error_of(&t), (8, MpsErrorKind::DuplicateColumn("X".into())));
    let t = GOOD.replace(" X COST 1 R1 1\n", " X COST 1 R1 1\n X R1 2\n");
    assert_eq!(error_of(&t), (7, MpsErrorKind::DuplicateEntry { row: "R1".into(), col: "X".into() }));
}

#[test]
fn malformed_bound_on_unknown_column_and_bad_types() {
    let t = GOOD.replace(" UP BND X 3", " UP BND Z 3");
    assert_eq!(error_of(&t), (10, MpsErrorKind::UnknownColumn("Z".into())));
    let t = GOOD.replace(" UP BND X 3", " XX BND X 3");
    assert_eq!(error_of(&t), (10, MpsErrorKind::BoundType("XX".into())));
    let t = GOOD.replace(" L R1", " Q R1");
    assert_eq!(error_of(&t), (4, MpsErrorKind::RowType("Q".into())));
    let t = GOOD.replace("BOUNDS", "BOUNDZ");
    assert_eq!(error_of(&t), (9, MpsErrorKind::UnknownSection("BOUNDZ".into())));
    let t = GOOD.replace(" X COST 1 R1 1", " X COST 1 R1");
    assert!(matches!(error_of(&t), (6, MpsErrorKind::FieldCount { .. })));
}

#[test]
fn data_before_any_section_is_an_error() {
    assert_eq!(error_of(" X COST 1\n"), (1, MpsErrorKind::DataOutsideSection));
}
