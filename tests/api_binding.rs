//! The glue every binding shares (`glsolve::binding`): the options record and the settings'
//! checks behind it, the solution record, the statuses' names and the error classes.
use glsolve::binding::{lp_backends, Classify, Device, Entries, ErrorKind, Input, Math, SolveOptions};
use glsolve::lp::{solve, Logger};
use glsolve::{
    BackendError, BackendKind, DenseError, GlError, GpuError, GpuFault, LpModel, Named, Settings, SettingsError,
    SolveError, SparseColMatrix, Status,
};
use std::time::Duration;

fn options(json: &str) -> Result<SolveOptions, String> {
    serde_json::from_str(json).map_err(|e| e.to_string())
}

#[test]
fn a_time_limit_must_be_positive_and_finite() {
    let refused =
        [(0.0, "0"), (-1.0, "-1"), (f64::NAN, "NaN"), (f64::INFINITY, "inf"), (1e300, "1e300"), (1e-12, "1e-12")];
    for (bad, shown) in refused {
        let o = SolveOptions { time_limit: Some(bad), ..SolveOptions::default() };
        let e = o.settings().expect_err("refused");
        assert!(matches!(e, SettingsError::TimeLimit(v) if v.to_bits() == bad.to_bits()), "{bad}: {e:?}");
        assert!(e.to_string().starts_with(&format!("time_limit = {shown}: ")), "{e}");
    }
    // The builder refuses a zero Duration too, on every backend.
    for kind in [BackendKind::Cpu, BackendKind::Gpu, BackendKind::Hybrid, BackendKind::Auto] {
        let e = Settings::builder(kind).time_limit(Duration::ZERO).build().unwrap_err();
        assert_eq!(e, SettingsError::TimeLimit(0.0));
    }
    let st = options(r#"{"time_limit": 0.25}"#).unwrap().settings().unwrap();
    assert_eq!(st.time_limit(), Some(Duration::from_millis(250)));
}

#[test]
fn the_options_record_names_what_it_refuses() {
    let e = options(r#"{"backend": "cpu", "timeLimit": 3}"#).unwrap_err();
    assert!(e.contains("unknown field `timeLimit`"), "{e}");
    let e = options(r#"{"backend": "fast"}"#).unwrap_err();
    assert!(e.contains("backend \"fast\" is not one of auto, cpu, hybrid, gpu"), "{e}");
    let e = options(r#"{"max_iterations": -3}"#).unwrap_err();
    assert!(e.contains("-3"), "{e}");
    let e = options(r#"{"tolerance": 2}"#).unwrap().settings().unwrap_err();
    assert_eq!(e, SettingsError::Tolerance(2.0));
    let e = options(r#"{"max_iterations": 0}"#).unwrap().settings().unwrap_err();
    assert_eq!(e, SettingsError::MaxIterations);
    let e = options(r#"{"backend": "gpu", "tolerance": 1e-9}"#).unwrap().settings().unwrap_err();
    assert_eq!(e, SettingsError::GpuTolerance(1e-9));
    // Left out: auto with its defaults.
    let st = options("{}").unwrap().settings().unwrap();
    assert_eq!((st.backend(), st.time_limit()), (BackendKind::Auto, None));
}

#[test]
fn the_options_record_round_trips() {
    let o = SolveOptions {
        backend: Some(BackendKind::Hybrid),
        tolerance: Some(1e-9),
        max_iterations: Some(7),
        time_limit: Some(1.5),
    };
    let text = serde_json::to_string(&o).unwrap();
    assert_eq!(text, r#"{"backend":"hybrid","tolerance":1e-9,"max_iterations":7,"time_limit":1.5}"#);
    assert_eq!(options(&text).unwrap(), o);
    let none = SolveOptions::default();
    assert_eq!(options(&serde_json::to_string(&none).unwrap()).unwrap(), none);
    let named: Vec<&str> = BackendKind::all().iter().map(|b| b.name()).collect();
    assert_eq!(lp_backends(), named);
}

#[test]
fn every_status_has_its_own_name_and_reads_back() {
    let names: std::collections::BTreeSet<&str> = Status::all().iter().map(|s| s.name()).collect();
    assert_eq!(names.len(), Status::all().len());
    for &s in Status::all() {
        assert_eq!(s.name().parse::<Status>(), Ok(s));
        assert_eq!(s.to_string(), s.name());
    }
}

#[test]
fn the_solution_record_holds_the_solution() {
    let a = SparseColMatrix::from_triplets(2, 2, &[(0, 0, 1.0), (0, 1, 1.0), (1, 0, 1.0), (1, 1, 3.0)]).unwrap();
    let model = LpModel::builder(a).maximize([3.0, 2.0]).rows_at_most([4.0, 6.0]).build().unwrap();
    let s = solve(&model, &Settings::default(), &mut Logger::quiet()).unwrap();
    let v = serde_json::to_value(s.record()).unwrap();
    assert_eq!(v["status"].as_str().and_then(|n| n.parse::<Status>().ok()), Some(s.status));
    assert_eq!(v["optimal"], true);
    assert_eq!(v["objective"].as_f64().map(f64::to_bits), Some(s.objective.to_bits()));
    assert_eq!(v["iterations"], s.iterations);
    assert_eq!(v["backend"], "cpu");
    let e = s.enclosure().unwrap();
    assert_eq!(v["enclosure"]["lower"].as_f64(), Some(e.lower));
    assert_eq!(v["enclosure"]["upper"].as_f64(), Some(e.upper));
    assert_eq!(v["verification"]["enclosure"], v["enclosure"]);
    assert_eq!(v["verdict"].as_str(), s.verification.as_ref().map(|x| x.summary()).as_deref());
    assert_eq!(v["timings"]["total"].as_f64(), Some(s.timings.total.as_secs_f64()));
    assert!(v["certificate"].is_null() && v["feasibility"].is_null());
    // Every key snake_case, at every depth.
    fn keys(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| {
                out.push(k.clone());
                keys(x, out)
            }),
            serde_json::Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    keys(&v, &mut all);
    let bad: Vec<&String> = all.iter().filter(|k| k.chars().any(|c| c.is_ascii_uppercase())).collect();
    // The dual bound's variant is a serde enum tag (e.g. `Direct`), not a field.
    assert!(bad.iter().all(|k| ["Direct", "Repaired", "Unproven"].contains(&k.as_str())), "{bad:?}");
    let [(x, xs, xv), (y, ys, yv), (d, ds, dv)] = s.vectors();
    assert_eq!((x, y, d), ("x", "row_duals", "reduced_costs"));
    assert_eq!((xs, ys, ds), (Entries::PerColumn, Entries::PerRow, Entries::PerColumn));
    assert_eq!((xv, yv, dv), (&s.x[..], &s.row_duals[..], &s.reduced_costs[..]));
}

#[test]
fn every_error_has_its_class() {
    let invalid = ErrorKind::InvalidInput(Input::Argument);
    let bad_settings = Settings::builder(BackendKind::Cpu).tolerance(-1.0).build().unwrap_err();
    assert_eq!(bad_settings.error_kind(), invalid);
    assert_eq!(SolveError::Settings(bad_settings).error_kind(), invalid);
    assert_eq!("fast".parse::<BackendKind>().unwrap_err().error_kind(), invalid);
    let model = SparseColMatrix::from_triplets(1, 1, &[(0, 3, 1.0)]).unwrap_err();
    assert_eq!(model.error_kind(), ErrorKind::InvalidInput(Input::Model));
    assert_eq!(SolveError::Model(model).error_kind(), ErrorKind::InvalidInput(Input::Model));
    let mps = glsolve::lp::mps::read_str("NAME x\nROWS\n N obj\nCOLUMNS\n x obj one\nENDATA\n").unwrap_err();
    assert_eq!(mps.error_kind(), ErrorKind::InvalidInput(Input::Parse { line: 5 }));
    let weight = DenseError::Weight { index: 0, value: -1.0 };
    assert_eq!(weight.error_kind(), invalid);

    assert_eq!(DenseError::RankDeficient.error_kind(), ErrorKind::Math(Math::RankDeficient));
    assert_eq!(DenseError::Singular { column: None }.error_kind(), ErrorKind::Math(Math::Singular));
    let npd = DenseError::NotPositiveDefinite { column: 0, pivot: -1.0 };
    assert_eq!(npd.error_kind(), ErrorKind::Math(Math::NotPositiveDefinite));

    let too_large = || GlError::TextureTooLarge { width: 9, height: 1, max: 8, what: "A".into() };
    assert_eq!(SolveError::Gl(too_large()).error_kind(), ErrorKind::Device(Device::TooLarge));
    let lost = GlError::ContextLost { detail: String::new() };
    assert_eq!(DenseError::Gpu(GpuError::Gl(lost)).error_kind(), ErrorKind::Device(Device::ContextLost));
    let fault = |kind| SolveError::Backend(BackendError::Gpu { kind, detail: String::new() }).error_kind();
    assert_eq!(fault(GpuFault::Memory), ErrorKind::Device(Device::TooLarge));
    assert_eq!(fault(GpuFault::FloatTargets), ErrorKind::Device(Device::FloatTargets));
    assert_eq!(fault(GpuFault::ShaderFailure), ErrorKind::Device(Device::Other));
    let old = GlError::VersionTooOld { found: "3.0".into(), major: 3, minor: 3, es: false };
    assert_eq!(old.error_kind(), ErrorKind::Device(Device::Unavailable));
}
