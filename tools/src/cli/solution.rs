//! How `glsolve solve` shows a solution: the summary lines and the JSON file.
use glsolve::lp::{Certificate, LpModel, Solution, Status};

pub fn summary(model: &LpModel, s: &Solution) {
    let t = &s.timings;
    println!(
        "status      {}{}",
        s.status,
        if s.detail.is_empty() { String::new() } else { format!(" ({})", s.detail) }
    );
    // Only an optimal status has an optimal value; elsewhere the number is the returned point's.
    let of_what = match s.status {
        Status::Optimal | Status::OptimalReducedAccuracy => "",
        Status::Unbounded | Status::UnboundedReducedAccuracy => {
            "at the feasible point returned; the objective improves without limit along the ray; "
        }
        _ => "at the point returned, which is not optimal; ",
    };
    println!("objective   {:.12e}  ({of_what}includes the objective constant {})", s.objective, model.obj_constant);
    match (s.gpu_iterations, s.single_factorizations) {
        (Some(g), _) => println!("iterations  {} ({g} on the GPU)", s.iterations),
        (None, Some(k)) if k > 0 => println!(
            "iterations  {} ({k} of {} normal matrices from reduced-precision products, refined in double)",
            s.iterations,
            s.iterations + 1
        ),
        _ => println!("iterations  {}", s.iterations),
    }
    for n in &s.notes {
        println!("note        {n}");
    }
    if let Some(v) = &s.verification {
        let (lo, hi) = (v.enclosure.lower, v.enclosure.upper);
        match s.status {
            Status::Optimal | Status::OptimalReducedAccuracy => println!(
                "enclosure   [{lo:.12e}, {hi:.12e}]  (the optimum: its dual end proven for the model as written, its primal end from a point within the backward error below)"
            ),
            Status::IterationLimit | Status::TimeLimit | Status::Interrupted | Status::NumericalFailure => println!(
                "enclosure   [{lo:.12e}, {hi:.12e}]  (what the point returned proves, if the model is feasible: too wide, or too far from feasible, to call optimal)"
            ),
            // An infeasible or unbounded model has no optimum to enclose.
            _ => {}
        }
        println!("verified    {}", v.summary());
        if s.best_iterate {
            println!("            (the best iterate, not the last one)");
        }
    }
    if let Some(c) = &s.certificate {
        println!("certificate {}", c.check.summary());
    }
    if let Some(f) = &s.feasibility {
        println!("feasibility {}", f.summary());
    }
    println!(
        "time        {:.3} s  (standard form {:.3}, assemble {:.3}, factor {:.3}, solve {:.3}, other {:.3}); backend {}, standard form {} x {}",
        t.total.as_secs_f64(),
        t.standard_form.as_secs_f64(),
        t.mpc.assemble.as_secs_f64(),
        t.mpc.factor.as_secs_f64(),
        t.mpc.solve.as_secs_f64(),
        t.mpc.other.as_secs_f64(),
        s.backend.name(),
        s.standard_form_size.0,
        s.standard_form_size.1
    );
}

/// JSON with named primal values, row duals and reduced costs (non-finite numbers as null).
pub fn to_json(model: &LpModel, s: &Solution) -> String {
    let named = |name: &dyn Fn(usize) -> String, vals: &[f64]| -> serde_json::Map<String, serde_json::Value> {
        vals.iter().enumerate().map(|(k, &v)| (name(k), num(v))).collect()
    };
    let (row, col) = (|i: usize| model.row_name(i).into_owned(), |j: usize| model.col_name(j).into_owned());
    let v = serde_json::json!({
        "model": model.name,
        "status": s.status.name(),
        "objective": num(s.objective),
        "iterations": s.iterations,
        "gpu_iterations": s.gpu_iterations,
        "single_factorizations": s.single_factorizations,
        "notes": s.notes,
        "time_seconds": s.timings.total.as_secs_f64(),
        "proof_seconds": s.timings.proof.as_secs_f64(),
        "backend": s.backend.name(),
        "primal": named(&col, &s.x),
        "row_duals": named(&row, &s.row_duals),
        "reduced_costs": named(&col, &s.reduced_costs),
        "detail": s.detail,
        "best_iterate": s.best_iterate,
        "enclosure": s.verification.as_ref().map(|v| serde_json::json!({
            "lower": num(v.enclosure.lower),
            "upper": num(v.enclosure.upper),
        })),
        "verification": s.verification.as_ref().map(|v| serde_json::json!({
            "accuracy": format!("{:?}", v.accuracy),
            "tolerance": num(v.tolerance),
            "objective": num(v.objective),
            "lower": num(v.enclosure.lower),
            "upper": num(v.enclosure.upper),
            "width": num(v.width),
            "objective_size": num(v.objective_size),
            "primal_backward_error": num(v.primal_backward_error),
            "worst": v.worst,
            "dual_bound": v.dual_bound,
        })),
        "certificate": s.certificate.as_ref().map(certificate),
        "feasibility": s.feasibility.as_ref().map(|f| serde_json::json!({
            "outcome": f.outcome.name(),
            "accuracy": format!("{:?}", f.accuracy),
            "solve_status": f.solve_status.map(|st| st.name()),
            "iterations": f.iterations,
            "time_seconds": f.time.as_secs_f64(),
            "backward_error": num(f.backward_error),
            "tolerance": num(f.tolerance),
            "certificate": f.certificate.as_ref().map(certificate),
        })),
        "warnings": model.warnings,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// A finite number, or null.
fn num(v: f64) -> serde_json::Value {
    if v.is_finite() {
        serde_json::json!(v)
    } else {
        serde_json::Value::Null
    }
}

/// A certificate and its check.
fn certificate(c: &Certificate) -> serde_json::Value {
    serde_json::json!({
        "kind": format!("{:?}", c.kind),
        "accuracy": format!("{:?}", c.check.accuracy),
        "gain": num(c.check.gain),
        "backward_error": num(c.check.backward_error),
        "worst": c.check.worst,
        "tolerance": num(c.check.tolerance),
        "ray": c.ray.iter().map(|&v| num(v)).collect::<Vec<_>>(),
    })
}
