//! Cholesky variants on the command line: every name and its description come from
//! `Variant::ALL`, so `--help` lists what works and parsing accepts exactly that.
use clap::builder::PossibleValue;
use clap::ValueEnum;
use glsolve::gpu::cholesky::Variant;

/// A variant as a command-line value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantArg(pub Variant);

const ARGS: [VariantArg; Variant::ALL.len()] = {
    let mut args = [VariantArg(Variant::PAPER); Variant::ALL.len()];
    let mut i = 0;
    while i < args.len() {
        args[i] = VariantArg(Variant::ALL[i]);
        i += 1;
    }
    args
};

impl ValueEnum for VariantArg {
    fn value_variants<'a>() -> &'a [Self] {
        &ARGS
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(self.0.description()))
    }
}

/// A list of variants, where `all` stands for every one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantsArg {
    All,
    One(Variant),
}

const LIST_ARGS: [VariantsArg; Variant::ALL.len() + 1] = {
    let mut args = [VariantsArg::All; Variant::ALL.len() + 1];
    let mut i = 0;
    while i < Variant::ALL.len() {
        args[i + 1] = VariantsArg::One(Variant::ALL[i]);
        i += 1;
    }
    args
};

impl ValueEnum for VariantsArg {
    fn value_variants<'a>() -> &'a [Self] {
        &LIST_ARGS
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            VariantsArg::All => PossibleValue::new("all").help("every variant below"),
            VariantsArg::One(v) => PossibleValue::new(v.name()).help(v.description()),
        })
    }
}

/// The variants a list names, `all` expanded, each once, in the list's order.
pub fn expand(list: &[VariantsArg]) -> Vec<Variant> {
    let mut out: Vec<Variant> = Vec::new();
    for a in list {
        let add: Vec<Variant> = match a {
            VariantsArg::All => Variant::all().collect(),
            VariantsArg::One(v) => vec![*v],
        };
        for v in add {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_is_a_value_and_parses_to_itself() {
        assert_eq!(ARGS.len(), Variant::all().count());
        for v in Variant::all() {
            assert_eq!(VariantArg::from_str(v.name(), false), Ok(VariantArg(v)));
        }
        assert!(VariantArg::from_str("triangle-quad", false).is_err());
        assert_eq!(expand(&[VariantsArg::from_str("all", false).unwrap()]), Variant::all().collect::<Vec<_>>());
    }
}
