//! Lists of Cholesky variants on the command line, where `all` stands for every one: the names
//! and descriptions come from `Variant::ALL` (a single variant is [`super::named::named`]'s).
use clap::builder::PossibleValue;
use clap::ValueEnum;
use glsolve::Variant;

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
    fn every_variant_and_all_are_values() {
        for v in Variant::all() {
            assert_eq!(VariantsArg::from_str(v.name(), false), Ok(VariantsArg::One(v)));
        }
        assert!(VariantsArg::from_str("triangle-quad", false).is_err());
        assert_eq!(expand(&[VariantsArg::from_str("all", false).unwrap()]), Variant::all().collect::<Vec<_>>());
    }
}
