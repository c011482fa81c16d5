//! The tables of `glsolve bench cpu` (see [`super::cpu`]), and its section of `docs/results.md`.

use super::cpu::{CpuBench, Piece, END_TO_END_RULE, KERNEL_RULE, RULE_MIN_ROWS};
use std::fmt::Write as _;

fn ms(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.3} s")
    } else {
        format!("{:.3} ms", s * 1e3)
    }
}

/// The kernel table, the end-to-end table and the verdicts, as Markdown.
pub fn markdown(b: &CpuBench) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Machine: {}.\n", b.machine);
    let _ = writeln!(s, "**Kernels** (median of the repetitions, interleaved; ratio = library / own):\n");
    let _ = writeln!(s, "| piece | case | own | library | ratio | reps |");
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|");
    for r in &b.kernels {
        let (own, lib) = r.piece.names();
        let _ = writeln!(
            s,
            "| {own} vs {lib} | {} | {} | {} | {:.2}× | {} |",
            r.case,
            ms(r.own_s),
            ms(r.library_s),
            r.library_s / r.own_s,
            r.reps
        );
    }
    let pieces: Vec<Piece> = b.verdicts.iter().map(|v| v.piece).collect();
    let _ = writeln!(
        s,
        "\n**End to end** on the cpu backend (default settings; median seconds of the whole solve, standard form and verification included; each column replaces one piece by its library alternative, the others their own; gain = library / own − 1):\n"
    );
    let mut head = String::from("| case | reps | all own |");
    let mut rule = String::from("|---|---:|---:|");
    for p in &pieces {
        let _ = write!(head, " {} → {} | gain |", p.names().0, p.names().1);
        rule.push_str("---:|---:|");
    }
    let _ = writeln!(s, "{head} same results | iterations |\n{rule}---|---:|");
    for r in &b.end_to_end {
        let _ = write!(s, "| {} | {} | {} |", r.case, r.reps, ms(r.own_s));
        for p in &pieces {
            match r.library_s.iter().find(|(q, _)| q == p) {
                Some((_, t)) => {
                    let _ = write!(s, " {} | {:+.1} % |", ms(*t), 100.0 * (t / r.own_s - 1.0));
                }
                None => s.push_str(" – | – |"),
            }
        }
        let _ = writeln!(s, " {} | {} |", if r.same_results { "yes" } else { "**no**" }, r.iterations);
    }
    let _ = writeln!(
        s,
        "\n**Verdicts** (keep only with a kernel ratio ≥ {KERNEL_RULE}× at every case with m ≥ {RULE_MIN_ROWS} and an end-to-end gain ≥ {:.0} % at every size of the dense family with m ≥ {RULE_MIN_ROWS}):\n",
        100.0 * END_TO_END_RULE
    );
    let _ = writeln!(s, "| piece | smallest kernel ratio | smallest end-to-end gain | verdict |");
    let _ = writeln!(s, "|---|---:|---:|---|");
    for v in &b.verdicts {
        let (own, lib) = v.piece.names();
        let verdict = if v.keep { "keep".to_string() } else { format!("replace by {lib}") };
        let _ = writeln!(s, "| {own} | {:.2}× | {:+.1} % | {verdict} |", v.kernel_ratio, 100.0 * v.end_to_end_gain);
    }
    s
}

/// The section of `docs/results.md`.
pub fn section(b: &CpuBench) -> String {
    let provenance = match &b.provenance {
        Some((command, date)) => format!(" Measured by `{command}` on {date}, apart from the rest of the report."),
        None => String::new(),
    };
    let after = b.after.as_deref().map(|a| format!("**After the verdicts.** {}\n\n", a.trim_end())).unwrap_or_default();
    format!(
        "## The CPU path: what is hand-written and why\n\nEach piece of the CPU path written by hand beside a library call, against that call in one run, per kernel and end to end. A piece stays only where it wins on both; what cpu/ holds after these verdicts is in `docs/design.md`.{provenance}\n\n{}\n{after}",
        markdown(b)
    )
}
