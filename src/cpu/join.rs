//! The pieces of one product run side by side on rayon's pool.

/// Runs `f` on every item: one here, more on rayon's pool (the first of them here).
pub fn each<T: Send>(mut items: Vec<T>, f: impl Fn(T) + Sync) {
    match items.len() {
        0 => {}
        1 => items.into_iter().for_each(f),
        2 => {
            let (second, first) = (items.pop(), items.pop());
            let f = &f;
            rayon::join(|| first.map(f), || second.map(f));
        }
        _ => {
            let f = &f;
            rayon::scope(|s| {
                let mut items = items.into_iter();
                let here = items.next();
                for item in items {
                    s.spawn(move |_| f(item));
                }
                if let Some(item) = here {
                    f(item);
                }
            });
        }
    }
}
