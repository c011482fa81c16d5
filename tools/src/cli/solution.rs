//! How `glsolve solve` shows a solution: the summary lines and the JSON file.
use glsolve::binding::Entries;
use glsolve::lp::{LpModel, Solution, Status};

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

/// The library's solution record as JSON, with the model's name and reader warnings, and each
/// vector as a map from row or column name to value (non-finite numbers as null).
pub fn to_json(model: &LpModel, s: &Solution) -> String {
    let Ok(serde_json::Value::Object(record)) = serde_json::to_value(s.record()) else {
        return String::new();
    };
    let mut v = serde_json::Map::new();
    v.insert("model".into(), model.name.clone().into());
    v.extend(record);
    for (name, entries, values) in s.vectors() {
        let named: serde_json::Map<String, serde_json::Value> = values
            .iter()
            .enumerate()
            .map(|(k, &x)| {
                let key = match entries {
                    Entries::PerColumn => model.col_name(k),
                    Entries::PerRow => model.row_name(k),
                };
                (key.into_owned(), serde_json::json!(x))
            })
            .collect();
        v.insert(name.into(), named.into());
    }
    v.insert("warnings".into(), serde_json::json!(model.warnings));
    serde_json::to_string_pretty(&v).unwrap_or_default()
}
