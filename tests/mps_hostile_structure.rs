//! Hostile MPS input, class 1: the file's structure (sections, names, rows, duplicates).
//! Each case is an error of an exact kind at an exact line, or a documented recovery with a
//! warning; never a panic, never a silent misread.

use glsolve::lp::mps::{self, MpsErrorKind};

fn error_of(text: &str) -> (usize, MpsErrorKind) {
    let e = mps::read_str(text).expect_err("must be rejected");
    assert!(e.to_string().contains(&format!("line {}", e.line)), "message names the line: {e}");
    (e.line, e.kind)
}

fn warned(text: &str, needle: &str) -> glsolve::lp::LpModel {
    let m = mps::read_str(text).expect("a documented recovery, not an error");
    assert!(m.warnings.iter().any(|w| w.contains(needle)), "warning with `{needle}` expected: {:?}", m.warnings);
    m
}

const HEAD: &str = "NAME T\nROWS\n N COST\n L R1\n G R2\nCOLUMNS\n";

#[test]
fn empty_file_misses_rows() {
    assert_eq!(error_of(""), (1, MpsErrorKind::MissingSection("ROWS")));
    assert_eq!(error_of("\n\n* only a comment\n"), (4, MpsErrorKind::MissingSection("ROWS")));
}

#[test]
fn binary_garbage_is_an_error_with_a_line() {
    let bytes: Vec<u8> = (0..2000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    let e = mps::read_bytes(&bytes).expect_err("garbage");
    assert!(e.line >= 1, "{e}");
    // Invalid UTF-8 on the first line.
    let e = mps::read_bytes(b"\xff\xfe\x00garbage\n").expect_err("not text");
    assert_eq!(e.line, 1);
    assert!(matches!(e.kind, MpsErrorKind::Io(_)), "{e}");
    // Valid UTF-8 that is not MPS.
    assert_eq!(error_of("hello world\n"), (1, MpsErrorKind::UnknownSection("HELLO".into())));
}

#[test]
fn missing_endata() {
    let t = format!("{HEAD} X COST 1 R1 1\nRHS\n R1 4\n");
    assert_eq!(error_of(&t), (10, MpsErrorKind::MissingSection("ENDATA")));
}

#[test]
fn name_without_a_name_is_a_warning() {
    let m = warned("NAME\nROWS\n N COST\n L R1\nCOLUMNS\n X COST 1 R1 1\nENDATA\n", "NAME without a name");
    assert_eq!(m.name, "");
}

#[test]
fn unknown_row_type() {
    assert_eq!(error_of("NAME T\nROWS\n N COST\n X R1\nENDATA\n"), (4, MpsErrorKind::RowType("X".into())));
}

#[test]
fn no_n_row_gives_a_zero_objective_and_a_warning() {
    let m = warned("NAME T\nROWS\n L R1\nCOLUMNS\n X R1 1\n Y R1 2\nRHS\n R1 4\nENDATA\n", "no N");
    assert_eq!(m.c, vec![0.0, 0.0]);
    assert_eq!(m.row_upper, vec![4.0]);
}

#[test]
fn several_n_rows_first_is_the_objective_rest_ignored() {
    let t = "NAME T\nROWS\n N COST\n N OTHER\n L R1\nCOLUMNS\n X COST 1 OTHER 5\n X R1 1\nRHS\n OTHER 7 R1 4\nRANGES\n OTHER 2\nENDATA\n";
    let m = mps::read_str(t).expect("valid");
    assert_eq!(m.objective_name, "COST");
    assert_eq!(m.c, vec![1.0]);
    assert_eq!(m.num_rows(), 1, "the extra N row is not a constraint");
    assert_eq!(m.obj_constant, 0.0, "RHS on the extra N row is not the objective constant");
    for needle in ["extra N row `OTHER`", "RHS on extra N row", "range on N row"] {
        assert!(m.warnings.iter().any(|w| w.contains(needle)), "{needle}: {:?}", m.warnings);
    }
}

#[test]
fn unknown_rows_in_columns_rhs_and_ranges() {
    assert_eq!(error_of(&format!("{HEAD} X COST 1 R9 1\nENDATA\n")), (7, MpsErrorKind::UnknownRow("R9".into())));
    let t = format!("{HEAD} X COST 1 R1 1\nRHS\n RHS R9 1\nENDATA\n");
    assert_eq!(error_of(&t), (9, MpsErrorKind::UnknownRow("R9".into())));
    let t = format!("{HEAD} X COST 1 R1 1\nRHS\n RHS R1 1\nRANGES\n RNG R9 1\nENDATA\n");
    assert_eq!(error_of(&t), (11, MpsErrorKind::UnknownRow("R9".into())));
}

#[test]
fn duplicates_are_errors() {
    // (column, row) entry twice, on one line and on two lines.
    let t = format!("{HEAD} X R1 1 R1 2\nENDATA\n");
    assert_eq!(error_of(&t), (7, MpsErrorKind::DuplicateEntry { row: "R1".into(), col: "X".into() }));
    let t = format!("{HEAD} X R1 1\n X R1 2\nENDATA\n");
    assert_eq!(error_of(&t), (8, MpsErrorKind::DuplicateEntry { row: "R1".into(), col: "X".into() }));
    // Duplicate row name.
    assert_eq!(error_of("NAME T\nROWS\n N C\n L R1\n G R1\nENDATA\n"), (5, MpsErrorKind::DuplicateRow("R1".into())));
    // A column's entries split over non-adjacent lines (a duplicate column name).
    let t = format!("{HEAD} X R1 1\n Y R1 1\n X R2 1\nENDATA\n");
    assert_eq!(error_of(&t), (9, MpsErrorKind::DuplicateColumn("X".into())));
}

#[test]
fn three_pairs_on_a_line_is_an_error() {
    let t = format!("{HEAD} X COST 1 R1 1 R2 1\nENDATA\n");
    assert!(matches!(error_of(&t), (7, MpsErrorKind::FieldCount { found: 7, .. })));
    let t = format!("{HEAD} X R1 1\nRHS\n RHS R1 1 R2 2 COST 3\nENDATA\n");
    assert!(matches!(error_of(&t), (9, MpsErrorKind::FieldCount { found: 7, .. })));
}

#[test]
fn duplicate_rhs_and_range_for_a_row() {
    let t = format!("{HEAD} X R1 1\nRHS\n RHS R1 1\n RHS R1 2\nENDATA\n");
    assert_eq!(error_of(&t), (10, MpsErrorKind::DuplicateRowValue { what: "RHS", row: "R1".into() }));
    let t = format!("{HEAD} X R1 1\nRHS\n RHS COST 1 COST 2\nENDATA\n");
    assert_eq!(error_of(&t), (9, MpsErrorKind::DuplicateRowValue { what: "RHS", row: "COST".into() }));
    let t = format!("{HEAD} X R1 1\nRANGES\n RNG R1 1 R1 2\nENDATA\n");
    assert_eq!(error_of(&t), (9, MpsErrorKind::DuplicateRowValue { what: "RANGES", row: "R1".into() }));
}

#[test]
fn ranges_on_the_objective_row_are_ignored_with_a_warning() {
    let m = warned(&format!("{HEAD} X COST 1 R1 1\nRANGES\n RNG COST 5\nENDATA\n"), "range on N row `COST`");
    assert_eq!(m.row_lower[0], f64::NEG_INFINITY);
}

#[test]
fn ranges_before_rhs_is_a_section_order_error() {
    let t = format!("{HEAD} X R1 1\nRANGES\n RNG R1 2\nRHS\n RHS R1 4\nENDATA\n");
    assert!(matches!(error_of(&t), (10, MpsErrorKind::SectionOrder { .. })));
}

#[test]
fn objsense_max_and_maximize_in_both_forms() {
    use glsolve::lp::Sense;
    let body = "ROWS\n N COST\n L R1\nCOLUMNS\n X COST 1 R1 1\nRHS\n R1 4\nENDATA\n";
    for form in ["OBJSENSE\n    MAX\n", "OBJSENSE\n    MAXIMIZE\n", "OBJSENSE MAX\n", "OBJSENSE MAXIMIZE\n"] {
        let m = mps::read_str(&format!("NAME T\n{form}{body}")).unwrap_or_else(|e| panic!("{form:?}: {e}"));
        assert_eq!(m.sense, Sense::Maximize, "{form:?}");
    }
    assert_eq!(error_of(&format!("NAME T\nOBJSENSE\n    UP\n{body}")), (3, MpsErrorKind::BadSense("UP".into())));
}

#[test]
fn unsupported_sections_are_explicit_errors() {
    for (sec, line) in [("QUADOBJ", 9), ("QMATRIX", 9), ("QSECTION", 9), ("SOS", 9), ("INDICATORS", 9)] {
        let t = format!("{HEAD} X COST 1 R1 1\nRHS\n RHS R1 1\n{sec}\n X X 1\nENDATA\n");
        assert_eq!(error_of(&t), (line + 1, MpsErrorKind::UnsupportedSection(sec.into())), "{sec}");
    }
}

#[test]
fn warnings_from_every_section_are_kept() {
    let t = "NAME\nROWS\n N COST\n N FREE\n L R1\nCOLUMNS\n MARKER 'MARKER' 'INTORG'\n X COST 1 R1 1\n MARKER 'MARKER' 'INTEND'\n Y COST 1 R1 1\nRHS\n RHS R1 1 FREE 2\n OTHER R1 5\nRANGES\n RNG FREE 3\nBOUNDS\n UP BND Y -1\nENDATA\n";
    let m = mps::read_str(t).expect("valid");
    for needle in [
        "NAME without",
        "extra N row",
        "continuous",
        "RHS on extra N row",
        "RHS set `OTHER`",
        "range on N row",
        "negative UP",
    ] {
        assert!(m.warnings.iter().any(|w| w.contains(needle)), "{needle}: {:?}", m.warnings);
    }
}
