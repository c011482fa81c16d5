//! The package speaks camelCase; the library's records are snake_case. These convert the keys
//! of JSON at the boundary, so that the records' names stay written once, in the library.

use serde_json::{Map, Value};

/// `max_iterations` → `maxIterations`.
pub fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        match (c, upper) {
            ('_', _) => upper = true,
            (c, true) => {
                out.extend(c.to_uppercase());
                upper = false;
            }
            (c, false) => out.push(c),
        }
    }
    out
}

/// `maxIterations` → `max_iterations`.
pub fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Every key of `v`, at every depth, through `rename`. A key that is an enum's tag (it
/// starts with a capital, e.g. a dual bound's `Direct`) stays as it is.
pub fn rename_keys(v: Value, rename: &dyn Fn(&str) -> String) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, x)| {
                    let k = if k.starts_with(|c: char| c.is_ascii_uppercase()) { k } else { rename(&k) };
                    (k, rename_keys(x, rename))
                })
                .collect::<Map<String, Value>>(),
        ),
        Value::Array(a) => Value::Array(a.into_iter().map(|x| rename_keys(x, rename)).collect()),
        other => other,
    }
}
