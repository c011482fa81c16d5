//! The clock every phase timer reads: `std::time::Instant`, except in the browser
//! (wasm32-unknown-unknown), where `Instant::now` panics and `web_time::Instant` reads
//! `performance.now()` instead.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub use web_time::Instant;
