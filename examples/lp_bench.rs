//! Times random dense LPs of the papers' family (n = 4m) on the cpu backend:
//! `cargo run --release --example lp_bench [m ...]` (default 128 256 512 1024).
use glsolve::lp::bench::random_lp_times;
use glsolve::lp::BackendKind;

fn main() {
    let sizes: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![128, 256, 512, 1024] } else { sizes };
    println!(
        "{:>6} {:>6} {:>8} {:>6} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "m", "n", "status", "iters", "median s", "min s", "max s", "assemble", "factor"
    );
    for r in random_lp_times(&sizes, 1, BackendKind::Cpu, 3) {
        println!(
            "{:>6} {:>6} {:>8} {:>6} {:>10.4} {:>10.4} {:>10.4} {:>10.4} {:>10.4}",
            r.m,
            r.n,
            format!("{:?}", r.status),
            r.iterations,
            r.median.as_secs_f64(),
            r.min.as_secs_f64(),
            r.max.as_secs_f64(),
            r.assemble.as_secs_f64(),
            r.factor.as_secs_f64()
        );
    }
}
