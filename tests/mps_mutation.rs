//! Mutation run of the MPS reader and the standard-form conversion: a seeded generator mutates
//! valid MPS files (NETLIB afiro and the project's assets) a bounded number of times and checks
//! that reading and converting never panic: every input is either a model (then converted) or an
//! error naming a line within the file.

use glsolve::lp::mps;
use glsolve::lp::standard_form::standard_form;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Cases per run: enough to hit every mutation on every line class many times, a few seconds.
const CASES: usize = 200_000;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const TOKENS: &[&str] = &[
    "NaN",
    "inf",
    "-Infinity",
    "1e20",
    "-1e30",
    "1e15",
    "1.0D3",
    "abc",
    "1x5",
    "",
    "0",
    "-0",
    "1e-320",
    "MARKER",
    "'MARKER'",
    "'INTORG'",
    "'INTEND'",
    "BV",
    "SC",
    "LI",
    "UI",
    "FR",
    "MI",
    "PL",
    "FX",
    "UP",
    "LO",
    "XX",
    "N",
    "E",
    "L",
    "G",
    "RHS",
    "RANGES",
    "BOUNDS",
    "ENDATA",
    "QUADOBJ",
    "OBJSENSE",
    "MAX",
    "COST",
    "R09",
    "X01",
    "é",
    "\t",
    "999999999999999999999999",
    "1e308",
    "-1e-5",
];

fn mutate(lines: &mut Vec<String>, rng: &mut Rng) {
    if lines.is_empty() {
        lines.push(String::new());
    }
    let i = rng.below(lines.len());
    match rng.below(9) {
        0 => {
            lines.remove(i);
        }
        1 => {
            let l = lines[rng.below(lines.len())].clone();
            lines.insert(i, l);
        }
        2 => {
            let j = rng.below(lines.len());
            lines.swap(i, j);
        }
        3 | 4 => {
            // Replace one whitespace field by a hostile token.
            let mut f: Vec<String> = lines[i].split_whitespace().map(String::from).collect();
            let tok = TOKENS[rng.below(TOKENS.len())].to_string();
            if f.is_empty() {
                f.push(tok);
            } else {
                let k = rng.below(f.len());
                f[k] = tok;
            }
            let lead = if rng.below(4) == 0 { "" } else { " " };
            lines[i] = format!("{lead}{}", f.join(" "));
        }
        5 => {
            // Flip a byte to a random ASCII or a multi-byte character.
            let mut chars: Vec<char> = lines[i].chars().collect();
            if !chars.is_empty() {
                let k = rng.below(chars.len());
                chars[k] = ['\u{0}', ' ', 'x', '9', '-', '.', 'é', '\u{7f}'][rng.below(8)];
            }
            lines[i] = chars.into_iter().collect();
        }
        6 => {
            // Truncate the line or the file.
            if rng.below(2) == 0 {
                let cut = rng.below(lines[i].len() + 1);
                lines[i] = lines[i].chars().take(cut).collect();
            } else {
                lines.truncate(i);
            }
        }
        7 => {
            // Add a field.
            let tok = TOKENS[rng.below(TOKENS.len())];
            lines[i].push(' ');
            lines[i].push_str(tok);
        }
        _ => {
            // Duplicate a field within the line (extra pairs, repeated names).
            let f: Vec<&str> = lines[i].split_whitespace().collect();
            if let Some(t) = f.get(rng.below(f.len().max(1))) {
                let t = t.to_string();
                lines[i] = format!("{} {t} {t}", lines[i]);
            }
        }
    }
}

#[test]
fn mutated_mps_files_never_panic_the_reader_or_standard_form() {
    let seeds = seed_files().map(|(_, text)| text);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut models, mut errors, mut panics) = (0usize, 0usize, Vec::new());
    let start = std::time::Instant::now();
    for case in 0..CASES {
        // A fresh generator seed every quarter of the run (four seeds in all).
        if case > 0 && case % (CASES / 4) == 0 {
            rng = Rng((case as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        }
        let mut lines: Vec<String> = seeds[case % seeds.len()].lines().map(String::from).collect();
        for _ in 0..1 + rng.below(4) {
            mutate(&mut lines, &mut rng);
        }
        let text = lines.join("\n");
        let n_lines = lines.len();
        let r = catch_unwind(AssertUnwindSafe(|| match mps::read_str(&text) {
            Ok(m) => {
                let _ = standard_form(&m, true);
                Ok(())
            }
            Err(e) => Err(e),
        }));
        match r {
            Ok(Ok(())) => models += 1,
            Ok(Err(e)) => {
                errors += 1;
                assert!(e.line <= n_lines + 1, "case {case}: line {} outside a {n_lines}-line file: {e}", e.line);
            }
            Err(_) => panics.push(text),
        }
    }
    println!(
        "{CASES} mutated inputs in {:.2} s: {models} models, {errors} errors, {} panics",
        start.elapsed().as_secs_f64(),
        panics.len()
    );
    assert!(panics.is_empty(), "{} panics; first input:\n{}", panics.len(), panics[0]);
    assert!(models > CASES / 20 && errors > CASES / 20, "the mutations exercise both outcomes");
}

/// The seed files of the targeted mutations: NETLIB afiro, the project's assets, and a file of
/// the repository's test data with OBJSENSE, integer MARKER lines, RANGES (on L, G and E rows)
/// and BOUNDS of six kinds.
fn seed_files() -> [(&'static str, &'static str); 4] {
    [
        ("afiro", include_str!("../assets/netlib/afiro.mps")),
        ("infeasible_equalities", include_str!("../assets/lp/infeasible_equalities.mps")),
        ("unbounded", include_str!("../assets/lp/unbounded.mps")),
        ("mutation_seed", include_str!("data/mps/mutation_seed.mps")),
    ]
}

/// Where a single-field mutation has a known culprit: (line index, field index, what the field
/// is) for every number and every row name or bound type on a data line.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Field {
    Number,
    RowName,
    BoundType,
}

fn fields(lines: &[String]) -> Vec<(usize, usize, Field)> {
    let mut out = Vec::new();
    let mut section = "";
    for (i, l) in lines.iter().enumerate() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.is_empty() || l.starts_with('*') {
            continue;
        }
        if !l.starts_with(char::is_whitespace) {
            section = f[0];
            continue;
        }
        match section {
            "COLUMNS" if !f.contains(&"'MARKER'") => {
                for k in [1, 3].into_iter().filter(|&k| k + 1 < f.len()) {
                    out.push((i, k, Field::RowName));
                    out.push((i, k + 1, Field::Number));
                }
            }
            "RHS" | "RANGES" => {
                for k in [1, 3].into_iter().filter(|&k| k + 1 < f.len()) {
                    out.push((i, k, Field::RowName));
                    out.push((i, k + 1, Field::Number));
                }
            }
            "BOUNDS" => {
                out.push((i, 0, Field::BoundType));
                if f.len() == 4 {
                    out.push((i, 3, Field::Number));
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn a_single_bad_field_is_reported_at_its_own_line() {
    // Tokens no reader may take for what the field needs: malformed numbers (Rust's f64 parser
    // and a Fortran D exponent refuse all of them), a row name that is not declared, a bound
    // type that does not exist. The error must name exactly the mutated line (1-based).
    let numbers = ["abc", "1x5", "1.2.3", "--1", "1e", "0x10", "1,5"];
    let (mut checked, mut by_kind) = (0usize, [0usize; 3]);
    for seed in [1u64, 7, 42, 0x9E37_79B9, 2024] {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        for (name, text) in seed_files() {
            let model = mps::read_str(text).unwrap_or_else(|e| panic!("{name} unmutated: {e}"));
            if name == "mutation_seed" {
                assert_eq!(model.sense, glsolve::lp::Sense::Maximize);
                assert_eq!(model.integer, vec![false, true, false, false]);
            }
            let lines: Vec<String> = text.lines().map(String::from).collect();
            let targets = fields(&lines);
            assert!(!targets.is_empty(), "{name}: no data lines found");
            for _ in 0..60 {
                let (i, k, what) = targets[rng.below(targets.len())];
                let token = match what {
                    Field::Number => numbers[rng.below(numbers.len())],
                    Field::RowName => "NOSUCHROW",
                    Field::BoundType => "XX",
                };
                let mut mutated = lines.clone();
                let mut f: Vec<&str> = mutated[i].split_whitespace().collect();
                f[k] = token;
                mutated[i] = format!(" {}", f.join(" "));
                let e = mps::read_str(&mutated.join("\n"))
                    .err()
                    .unwrap_or_else(|| panic!("{name} seed {seed}: `{}` (line {}) was accepted", mutated[i], i + 1));
                assert_eq!(e.line, i + 1, "{name} seed {seed}: `{}` reported as {e}", mutated[i]);
                checked += 1;
                by_kind[what as usize] += 1;
            }
        }
    }
    assert!(by_kind.iter().all(|&n| n > 0), "every kind of field was mutated: {by_kind:?} of {checked}");
}
