//! Pieces of one product run side by side: two by the [`Join`] of the paths (the spinning
//! worker of `cpu::spin_join`, or `rayon::join`), more on rayon's pool.

use super::paths::Join;

/// How many threads a product may use, and how it splits in two.
#[derive(Clone, Copy, Debug)]
pub struct Fork {
    pub threads: usize,
    pub how: Join,
}

impl Fork {
    /// Runs `f` on every item: one here, two side by side by `how`, more on rayon's pool.
    pub fn each<T: Send>(self, mut items: Vec<T>, f: impl Fn(T) + Sync) {
        match items.len() {
            0 => {}
            1 => items.into_iter().for_each(f),
            2 => {
                let second = items.pop();
                let first = items.pop();
                let f = &f;
                join(self.how, || first.map(f), || second.map(f));
            }
            _ => {
                let _pool = pool_phase();
                let f = &f;
                rayon::scope(|s| {
                    let mut items = items.into_iter();
                    let here = items.next();
                    for item in items {
                        s.spawn(move |_| f(item));
                    }
                    here.map(f);
                });
            }
        }
    }
}

/// Runs `local` here and `remote` beside it (by `how`) and returns both results.
pub fn join<A: Send, B: Send + 'static>(
    how: Join,
    local: impl FnOnce() -> A + Send,
    remote: impl FnOnce() -> B + Send,
) -> (A, B) {
    match how {
        #[cfg(not(target_arch = "wasm32"))]
        Join::Spin => super::spin_join::join_scoped(local, remote),
        _ => rayon::join(local, remote),
    }
}

/// Held while rayon's pool does work split more than two ways: the spinning worker, which would
/// take a core from it, parks first (`cpu::spin_join::rest`).
#[must_use = "the worker parks while this is held"]
pub struct PoolPhase(());

/// Starts a phase on rayon's pool (see [`PoolPhase`]).
pub fn pool_phase() -> PoolPhase {
    #[cfg(not(target_arch = "wasm32"))]
    super::spin_join::rest();
    PoolPhase(())
}
