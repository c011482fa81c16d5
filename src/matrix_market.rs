//! A reader for dense real matrices and vectors in the Matrix Market exchange format
//! (<https://math.nist.gov/MatrixMarket/formats.html>): `array` (dense, column-major) or
//! `coordinate` (1-based `i j value` triplets), field `real` or `integer`, symmetry `general` or
//! `symmetric` (lower triangle given). Comments start with `%`. Errors name the line.

use std::path::Path;

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum MmError {
    #[error("{path}: cannot read: {detail}")]
    Io { path: String, detail: String },
    #[error("line {line}: {what}")]
    Syntax { line: usize, what: String },
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
        .map_err(|e| MmError::Io { path: path.display().to_string(), detail: e.to_string() })?;
    parse(&text)
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
