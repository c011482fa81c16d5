//! A reader for dense real matrices and vectors in the Matrix Market exchange format
//! (<https://math.nist.gov/MatrixMarket/formats.html>): `array` (dense, column-major) or
//! `coordinate` (1-based `i j value` triplets), field `real` or `integer`, symmetry `general` or
//! `symmetric` (lower triangle given). Comments start with `%`. Errors name the line.
//!
//! The writer ([`format_array`], [`write_file`]) writes `array real general` with each value in
//! the shortest decimal form that reads back as the same f64, so a file written and read again
//! holds the same bits (−0 and subnormals included).

use std::path::Path;

/// Why a Matrix Market file could not be read or written.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum MmError {
    /// The file could not be read or written, or the matrix to write is malformed.
    #[error("{path}: {detail}")]
    Io {
        /// The file's path.
        path: String,
        /// What failed (the system's message, or the matrix's fault).
        detail: String,
    },
    /// The text breaks the format.
    #[error("line {line}: {what}")]
    Syntax {
        /// 1-based line of the file.
        line: usize,
        /// What is wrong there.
        what: String,
    },
}

/// A dense row-major matrix read from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<f64>,
}

/// Reads a file.
pub fn read_file(path: &Path) -> Result<Dense, MmError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| MmError::Io { path: path.display().to_string(), detail: format!("cannot read: {e}") })?;
    parse(&text)
}

/// The text of a dense matrix (row-major `data`, rows × cols, finite values) as a Matrix Market
/// `array real general` file: column-major, one value per line, each the shortest decimal that
/// reads back as the same f64.
pub fn format_array(m: &Dense) -> String {
    let mut text = format!("%%MatrixMarket matrix array real general\n{} {}\n", m.rows, m.cols);
    for j in 0..m.cols {
        for i in 0..m.rows {
            // `{:e}` prints the shortest digits that round-trip (Rust's float formatting).
            text.push_str(&format!("{:e}\n", m.data[i * m.cols + j]));
        }
    }
    text
}

/// Writes `m` to `path` as [`format_array`] does. A shape that does not match the data, a
/// non-finite value (the reader refuses them) or a file that cannot be written is an error
/// naming the path.
pub fn write_file(path: &Path, m: &Dense) -> Result<(), MmError> {
    let io = |detail: String| MmError::Io { path: path.display().to_string(), detail };
    if m.rows.checked_mul(m.cols) != Some(m.data.len()) {
        return Err(io(format!("{} values for a {}×{} matrix", m.data.len(), m.rows, m.cols)));
    }
    if let Some(k) = m.data.iter().position(|v| !v.is_finite()) {
        let (i, j) = (k / m.cols.max(1), k % m.cols.max(1));
        return Err(io(format!("entry ({}, {}) = {} is not finite", i + 1, j + 1, m.data[k])));
    }
    std::fs::write(path, format_array(m)).map_err(|e| io(format!("cannot write: {e}")))
}

fn syntax(line: usize, what: impl Into<String>) -> MmError {
    MmError::Syntax { line, what: what.into() }
}

fn number(tok: &str, line: usize) -> Result<f64, MmError> {
    match tok.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(v) => Err(syntax(line, format!("value {v} is not finite"))),
        Err(_) => Err(syntax(line, format!("expected a number, found {tok:?}"))),
    }
}

fn index(tok: &str, line: usize, max: usize, what: &str) -> Result<usize, MmError> {
    match tok.parse::<usize>() {
        Ok(i) if (1..=max).contains(&i) => Ok(i - 1),
        _ => Err(syntax(line, format!("{what} index {tok:?} is not in 1..={max}"))),
    }
}

/// Parses the text of a Matrix Market file.
pub fn parse(text: &str) -> Result<Dense, MmError> {
    let mut lines = text.lines().enumerate().map(|(n, l)| (n + 1, l));
    let (hline, header) = lines.next().ok_or_else(|| syntax(1, "empty file"))?;
    let h: Vec<String> = header.split_whitespace().map(|s| s.to_ascii_lowercase()).collect();
    if h.len() != 5 || h[0] != "%%matrixmarket" || h[1] != "matrix" {
        return Err(syntax(
            hline,
            "expected the header `%%MatrixMarket matrix <array|coordinate> <real|integer> <general|symmetric>`",
        ));
    }
    let coordinate = match h[2].as_str() {
        "array" => false,
        "coordinate" => true,
        other => return Err(syntax(hline, format!("unknown format {other:?}"))),
    };
    if h[3] != "real" && h[3] != "integer" {
        return Err(syntax(hline, format!("field {:?} is not supported (real or integer)", h[3])));
    }
    let symmetric = match h[4].as_str() {
        "general" => false,
        "symmetric" => true,
        other => return Err(syntax(hline, format!("symmetry {other:?} is not supported (general or symmetric)"))),
    };
    let mut data_lines = lines.filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('%'));
    let (sline, size) = data_lines.next().ok_or_else(|| syntax(hline + 1, "missing the size line"))?;
    let dims: Vec<&str> = size.split_whitespace().collect();
    let want = if coordinate { 3 } else { 2 };
    if dims.len() != want {
        return Err(syntax(sline, format!("the size line needs {want} integers")));
    }
    let parse_dim = |t: &str| t.parse::<usize>().map_err(|_| syntax(sline, format!("expected a size, found {t:?}")));
    let (rows, cols) = (parse_dim(dims[0])?, parse_dim(dims[1])?);
    if symmetric && rows != cols {
        return Err(syntax(sline, "a symmetric matrix must be square"));
    }
    let mut data = vec![0.0; rows * cols];
    let mut set = |i: usize, j: usize, v: f64| {
        data[i * cols + j] = v;
        if symmetric {
            data[j * cols + i] = v;
        }
    };
    if coordinate {
        let nnz = parse_dim(dims[2])?;
        let mut count = 0;
        for (line, l) in data_lines {
            let t: Vec<&str> = l.split_whitespace().collect();
            if t.len() != 3 {
                return Err(syntax(line, "expected `row column value`"));
            }
            let (i, j) = (index(t[0], line, rows, "row")?, index(t[1], line, cols, "column")?);
            if symmetric && j > i {
                return Err(syntax(line, "a symmetric file lists the lower triangle only"));
            }
            set(i, j, number(t[2], line)?);
            count += 1;
        }
        if count != nnz {
            return Err(syntax(sline, format!("the size line announces {nnz} entries, the file has {count}")));
        }
    } else {
        // Column-major; a symmetric array lists the lower triangle column by column.
        let positions: Vec<(usize, usize)> =
            (0..cols).flat_map(|j| (0..rows).filter(move |&i| !symmetric || i >= j).map(move |i| (i, j))).collect();
        let mut values = Vec::with_capacity(positions.len());
        for (line, l) in data_lines {
            for tok in l.split_whitespace() {
                values.push((number(tok, line)?, line));
            }
        }
        if values.len() != positions.len() {
            return Err(syntax(sline, format!("expected {} values, found {}", positions.len(), values.len())));
        }
        for ((i, j), (v, _)) in positions.into_iter().zip(values) {
            set(i, j, v);
        }
    }
    Ok(Dense { rows, cols, data })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_coordinate_and_symmetric_files() {
        let a = parse("%%MatrixMarket matrix array real general\n% c\n2 3\n1\n4\n2\n5\n3\n6\n").unwrap();
        assert_eq!(a, Dense { rows: 2, cols: 3, data: vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0] });
        let c = parse("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 3.5\n2 1 -1e2\n").unwrap();
        assert_eq!(c.data, vec![0.0, 3.5, -100.0, 0.0]);
        let s = parse("%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 4\n2 1 1\n").unwrap();
        assert_eq!(s.data, vec![4.0, 1.0, 1.0, 0.0]);
        let sa = parse("%%MatrixMarket matrix array real symmetric\n2 2\n4\n1\n3\n").unwrap();
        assert_eq!(sa.data, vec![4.0, 1.0, 1.0, 3.0]);
    }

    #[test]
    fn written_files_read_back_bit_for_bit() {
        let values = [
            1e30,
            -2e-30,
            0.1,
            1.0 / 3.0,
            -0.0,
            f64::MIN_POSITIVE,
            5e-324,
            f64::MAX,
            -f64::MAX,
            std::f64::consts::PI * 1e-300,
            123456789.0,
            2f64.powi(-1074) * 3.0,
        ];
        let m = Dense { rows: 4, cols: 3, data: values.to_vec() };
        let back = parse(&format_array(&m)).unwrap();
        assert_eq!((back.rows, back.cols), (4, 3));
        let bits = |d: &[f64]| d.iter().map(|v| v.to_bits()).collect::<Vec<u64>>();
        assert_eq!(bits(&back.data), bits(&m.data));
        // Pseudo-random bit patterns across the whole finite range.
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let data: Vec<f64> = (0..2000)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                f64::from_bits(s)
            })
            .filter(|v| v.is_finite())
            .collect();
        let m = Dense { rows: data.len(), cols: 1, data };
        assert_eq!(bits(&parse(&format_array(&m)).unwrap().data), bits(&m.data));
        let empty = Dense { rows: 0, cols: 0, data: Vec::new() };
        assert_eq!(parse(&format_array(&empty)).unwrap(), empty);
    }

    #[test]
    fn writing_names_what_cannot_be_written() {
        let dir = std::env::temp_dir().join(format!("glsolve-mm-{}", std::process::id()));
        let missing = dir.join("no/such/folder/x.mtx");
        let m = Dense { rows: 1, cols: 1, data: vec![1.0] };
        match write_file(&missing, &m) {
            Err(MmError::Io { path, detail }) => {
                assert_eq!(path, missing.display().to_string());
                assert!(detail.starts_with("cannot write"), "{detail}");
            }
            other => panic!("{other:?}"),
        }
        let bad = Dense { rows: 2, cols: 1, data: vec![1.0, f64::NAN] };
        let e = write_file(&missing, &bad).unwrap_err();
        assert!(e.to_string().contains("entry (2, 1) = NaN is not finite"), "{e}");
        let short = Dense { rows: 2, cols: 2, data: vec![1.0] };
        assert!(write_file(&missing, &short).unwrap_err().to_string().contains("1 values for a 2×2 matrix"));
    }

    #[test]
    fn malformed_files_name_the_line() {
        let e = |t: &str| parse(t).unwrap_err();
        assert_eq!(
            e("hello\n"),
            syntax(
                1,
                "expected the header `%%MatrixMarket matrix <array|coordinate> <real|integer> <general|symmetric>`"
            )
        );
        assert!(matches!(e("%%MatrixMarket matrix array complex general\n1 1\n1\n"), MmError::Syntax { line: 1, .. }));
        assert!(matches!(
            e("%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n"),
            MmError::Syntax { line: 3, .. }
        ));
        assert!(matches!(
            e("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 abc\n"),
            MmError::Syntax { line: 3, .. }
        ));
        assert!(matches!(
            e("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n"),
            MmError::Syntax { line: 2, .. }
        ));
        assert!(matches!(
            e("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n"),
            MmError::Syntax { line: 2, .. }
        ));
        assert!(matches!(e("%%MatrixMarket matrix array real general\n1 1\nnan\n"), MmError::Syntax { line: 3, .. }));
    }
}
