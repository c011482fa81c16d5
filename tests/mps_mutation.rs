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
    let seeds = [
        include_str!("../assets/netlib/afiro.mps"),
        include_str!("../assets/lp/infeasible_equalities.mps"),
        include_str!("../assets/lp/unbounded.mps"),
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut models, mut errors, mut panics) = (0usize, 0usize, Vec::new());
    let start = std::time::Instant::now();
    for case in 0..CASES {
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
