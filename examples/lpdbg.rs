use glsolve::lp::log::Logger;
use glsolve::lp::standard_form::Presolved;
use glsolve::lp::{mps, solve, Settings};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let model = mps::read_file(std::path::Path::new(&path)).unwrap();
    let st = Settings::default();
    if let Presolved::Form(sf) = glsolve::lp::solve::presolve(&model, &st) {
        let nonfinite_a = sf.a.col_iter().flat_map(|c| c.iter().copied().collect::<Vec<_>>()).filter(|v| !v.is_finite()).count();
        println!("sf {}x{} nonfinite A {} b {} c {}", sf.a.nrows(), sf.a.ncols(), nonfinite_a, sf.b.iter().filter(|v| !v.is_finite()).count(), sf.c.iter().filter(|v| !v.is_finite()).count());
    }
    let sol = solve(&model, &st, &mut Logger::stdout()).unwrap();
    println!("{:?} {} {}", sol.status, sol.objective, sol.detail);
}
