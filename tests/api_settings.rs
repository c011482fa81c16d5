//! Settings that cannot be wrong: each backend holds exactly the options it reads, the builder
//! refuses an option for a backend that would ignore it (every pair tried), a storage format
//! is accepted only where there is a choice, and every named choice parses from and prints as
//! its one list of names.
use glsolve::cholesky::Variant;
use glsolve::gl::GlApi;
use glsolve::layout::Format;
use glsolve::lp::{HybridRules, NormalFactorization, StoppingRule, Substitution};
use glsolve::{
    Backend, BackendKind, CpuOptions, GpuOptions, Named, Settings, SettingsBuilder, SettingsError, Verbosity,
};

const KINDS: [BackendKind; 4] = [BackendKind::Cpu, BackendKind::Gpu, BackendKind::Hybrid, BackendKind::Auto];

#[test]
fn each_backend_holds_the_options_it_reads_and_no_other() {
    for kind in KINDS {
        let st = Settings::for_backend(kind);
        assert_eq!(st.backend(), kind);
        assert_eq!(st.backend_options().kind(), kind);
        let reads_cpu = matches!(kind, BackendKind::Cpu | BackendKind::Auto);
        let has_gpu = kind != BackendKind::Cpu;
        let has_rules = matches!(kind, BackendKind::Hybrid | BackendKind::Auto);
        assert_eq!(st.cpu().is_some(), reads_cpu, "{kind:?}");
        assert_eq!(st.gpu().is_some(), has_gpu, "{kind:?}");
        assert_eq!(st.hybrid_rules().is_some(), has_rules, "{kind:?}");
        assert_eq!(st.gpu_refinement(), (kind == BackendKind::Gpu).then_some(true), "{kind:?}");
        assert_eq!(st.backend_options(), &Backend::defaults(kind));
    }
}

/// Every option given to every backend: accepted exactly where the backend reads it.
#[test]
fn an_option_a_backend_would_ignore_is_refused() {
    type Give = fn(SettingsBuilder) -> SettingsBuilder;
    let options: [(&str, Give, &[BackendKind]); 5] = [
        (
            "cpu options",
            |b| b.cpu(CpuOptions { mixed_precision: false, ..CpuOptions::default() }),
            &[BackendKind::Cpu, BackendKind::Auto],
        ),
        ("cpu paths", |b| b.cpu_paths(Default::default()), &[BackendKind::Cpu, BackendKind::Hybrid, BackendKind::Auto]),
        (
            "gpu options",
            |b| b.gpu(GpuOptions { substitution: Substitution::Cpu, ..GpuOptions::default() }),
            &[BackendKind::Gpu, BackendKind::Hybrid, BackendKind::Auto],
        ),
        ("switching rules", |b| b.hybrid_rules(HybridRules::papers()), &[BackendKind::Hybrid, BackendKind::Auto]),
        ("refinement", |b| b.gpu_refinement(false), &[BackendKind::Gpu]),
    ];
    for (what, give, takers) in options {
        for kind in KINDS {
            let built = give(Settings::builder(kind)).build();
            if takers.contains(&kind) {
                let st = built.unwrap_or_else(|e| panic!("{what} on {kind:?}: {e}"));
                // And the value given is the one held.
                let held = st.cpu().is_some_and(|c| !c.mixed_precision)
                    || st.gpu().is_some_and(|g| g.substitution == Substitution::Cpu)
                    || st.hybrid_rules().is_some_and(|r| r.cost.is_none())
                    || st.gpu_refinement() == Some(false)
                    || what == "cpu paths";
                assert!(held, "{what} on {kind:?}: not held in {st:?}");
            } else {
                match built {
                    Err(SettingsError::NotApplicable { backend, .. }) => assert_eq!(backend, kind.name(), "{what}"),
                    other => panic!("{what} on {kind:?}: expected NotApplicable, got {other:?}"),
                }
            }
        }
    }
}

#[test]
fn a_storage_format_is_accepted_only_for_the_variant_that_has_a_choice() {
    for &v in <Variant as Named>::all() {
        for f in [Format::Full, Format::Packed] {
            let gpu = GpuOptions { variant: v, normal_format: Some(f), ..GpuOptions::default() };
            let built = Settings::builder(BackendKind::Gpu).gpu(gpu).build();
            if v == Variant::PAPER {
                let st = built.unwrap_or_else(|e| panic!("{v}: {e}"));
                assert_eq!(st.gpu().map(|g| g.format()), Some(f));
            } else {
                assert_eq!(built.err(), Some(SettingsError::NormalFormat { variant: v.name() }), "{v} with {f}");
            }
        }
        // Left unset, each variant has its own storage: packed for the papers' 2008 variant.
        let st = Settings::builder(BackendKind::Hybrid).gpu(GpuOptions { variant: v, ..GpuOptions::default() }).build();
        let want = if v == Variant::PAPER { Format::Packed } else { Format::Full };
        assert_eq!(st.expect("valid").gpu().map(|g| g.format()), Some(want), "{v}");
    }
}

#[test]
fn a_builder_from_settings_gives_them_back_and_changes_only_what_it_is_told() {
    let st = Settings::builder(BackendKind::Hybrid)
        .tolerance(1e-9)
        .max_iterations(77)
        .stopping(StoppingRule::Combined315)
        .hybrid_rules(HybridRules::papers())
        .build()
        .expect("valid");
    let again = st.to_builder().build().expect("valid");
    assert_eq!(format!("{st:?}"), format!("{again:?}"));
    let changed = st.to_builder().max_iterations(5).build().expect("valid");
    assert_eq!((changed.max_iterations(), changed.tolerance()), (5, 1e-9));
    assert_eq!(changed.hybrid_rules(), Some(&HybridRules::papers()));
    assert_eq!(changed.stopping(), StoppingRule::Combined315);
}

/// Every name of `T` parses to its value and prints as itself, names are distinct, and a name
/// that is none of them is refused with the whole list.
fn names_round_trip<T>()
where
    T: Named + std::str::FromStr<Err = glsolve::UnknownName> + std::fmt::Display + std::fmt::Debug,
{
    let all = T::all();
    assert!(!all.is_empty());
    for (i, &v) in all.iter().enumerate() {
        assert_eq!(v.name().parse::<T>(), Ok(v));
        assert_eq!(v.to_string(), v.name());
        assert!(!v.description().is_empty());
        assert!(all[..i].iter().all(|w| w.name() != v.name()), "{} twice", v.name());
    }
    let e = "no-such-name".parse::<T>().expect_err("unknown");
    assert_eq!(e.given, "no-such-name");
    assert_eq!(e.expected, all.iter().map(|v| v.name()).collect::<Vec<_>>());
    assert!(e.to_string().contains(T::WHAT) && e.to_string().contains(all[0].name()), "{e}");
}

#[test]
fn every_named_choice_has_one_list_of_names() {
    names_round_trip::<BackendKind>();
    names_round_trip::<Substitution>();
    names_round_trip::<StoppingRule>();
    names_round_trip::<NormalFactorization>();
    names_round_trip::<Verbosity>();
    names_round_trip::<Variant>();
    names_round_trip::<GlApi>();
    names_round_trip::<Format>();
    // The names the command line, the page and Python have always used.
    assert_eq!("6.1-6.3".parse(), Ok(StoppingRule::Separate));
    assert_eq!("3.15".parse(), Ok(StoppingRule::Combined315));
    assert_eq!("blocked-16".parse(), Ok(Variant::BLOCKED[1]));
    assert_eq!("tiled-16".parse(), Ok(Variant::FASTEST));
    // The GPU backends' default is the fastest variant.
    let st = Settings::builder(BackendKind::Gpu).build().expect("defaults are valid");
    assert_eq!(st.gpu().map(|g| g.variant), Some(Variant::FASTEST));
    assert_eq!("triangle-pair".parse(), Ok(Variant::PAPER));
}
