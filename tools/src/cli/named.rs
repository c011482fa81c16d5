//! Command-line values of the library's named choices (backends, stopping rules, variants, GL
//! APIs, …): `--help` lists the library's names with their one-line descriptions, and parsing is
//! the enum's own `FromStr` — the same the browser page and the Python package use.
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use glsolve::Named;
use std::str::FromStr;

/// The value parser of a [`Named`] enum.
pub fn named<T>() -> impl TypedValueParser<Value = T>
where
    T: Named + FromStr + Clone + Send + Sync,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    PossibleValuesParser::new(T::all().iter().map(|v| PossibleValue::new(v.name()).help(v.description())))
        .try_map(|s: String| s.parse::<T>())
}

#[cfg(test)]
mod tests {
    use super::named;
    use clap::Parser;
    use glsolve::Variant;
    use glsolve::{BackendKind, Named};

    #[derive(Parser)]
    struct Args {
        #[arg(long, value_parser = named::<BackendKind>())]
        backend: BackendKind,
        #[arg(long, value_parser = named::<Variant>())]
        variant: Variant,
    }

    #[test]
    fn every_name_parses_to_its_value_and_nothing_else_does() {
        for &b in BackendKind::all() {
            for &v in <Variant as Named>::all() {
                let a = Args::try_parse_from(["t", "--backend", b.name(), "--variant", v.name()]).expect("known names");
                assert_eq!((a.backend, a.variant), (b, v));
            }
        }
        let e = Args::try_parse_from(["t", "--backend", "fast", "--variant", "inner"]).err().expect("refused");
        assert!(e.to_string().contains("fast") && e.to_string().contains("hybrid"), "{e}");
        assert!(Args::try_parse_from(["t", "--backend", "cpu", "--variant", "triangle-quad"]).is_err());
    }
}
