//! Fixed-format MPS: the field columns and the test that a line follows them.

/// Fixed-format fields (1-based columns 2–3, 5–12, 15–22, 25–36, 40–47, 50–61).
pub(super) fn fixed_fields(line: &str) -> Vec<String> {
    const SPANS: [(usize, usize); 6] = [(1, 3), (4, 12), (14, 22), (24, 36), (39, 47), (49, 61)];
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    for (a, b) in SPANS {
        if a >= chars.len() {
            break;
        }
        let f: String = chars[a..b.min(chars.len())].iter().collect();
        out.push(f.trim().to_string());
    }
    // Keep positions for fields 2..: the type field may be empty in COLUMNS/RHS/RANGES.
    while out.last().is_some_and(|s| s.is_empty()) {
        out.pop();
    }
    out
}

/// Whether the blank separator columns of fixed MPS (1, 4, 13–14, 23–24, 37–39, 48–49) are blank.
pub(super) fn looks_fixed(line: &str) -> bool {
    const SEPARATORS: [usize; 11] = [0, 3, 12, 13, 22, 23, 36, 37, 38, 47, 48];
    let b = line.as_bytes();
    SEPARATORS.iter().all(|&i| b.get(i).is_none_or(|c| *c == b' '))
}
