//! What the GPU backends cannot hold, found before anything is built or uploaded: every
//! texture side of the normal equations and of the iterate vectors against the driver's limit,
//! and the memory the LP would need against the memory there is. Refused late, a 16385-row LP
//! had cost 53 s of allocation before the texture of A failed.

use super::{BackendError, GpuFault};
use crate::gl::Gpu;
use crate::gpu::cholesky::Variant;
use crate::gpu::normal::blocked::texture_bytes;
use crate::gpu::VectorLayout;
use crate::layout::rgba::Rows4;
use crate::lp::settings::GpuOptions;

/// The largest textures an m×n A needs with `opts`: (width, height, what).
pub fn texture_sides(m: usize, n: usize, opts: &GpuOptions) -> Vec<(usize, usize, &'static str)> {
    match opts.variant {
        Variant::Tiled(block) => {
            let padded = crate::layout::Tiles::square(m, block.size(), crate::gpu::tiled::FACTOR_TILE).padded;
            let runs = Rows4::new(m, n).texture_size().0;
            vec![
                (padded / 4, padded / 4, "C = A·D²·Aᵀ in 4×4 tiles (one plane)"),
                (runs, padded.max(m), "A (runs of four columns)"),
                (VectorLayout::Quad.width(n.max(m)), 1, "an interior-point vector"),
            ]
        }
        Variant::Blocked(block) => {
            let layout = block.layout(m);
            let (w, h) = layout.texture_size();
            let runs = Rows4::new(m, n).texture_size().0;
            vec![
                (w, h, "C = A·D²·Aᵀ in 2×2 blocks"),
                (runs, layout.padded_rows.max(m), "A (runs of four columns)"),
                (VectorLayout::Quad.width(n.max(m)), 1, "an interior-point vector"),
            ]
        }
        _ => {
            let (w, h) = opts.format().texture_size(m);
            vec![(w, h, "C = A·D²·Aᵀ"), (n, m, "A (stored n×m)"), (n.max(m), 1, "an interior-point vector")]
        }
    }
}

/// Bytes the LP needs on the host for an m×n A: its dense f64 copy and the f32 copy uploaded
/// from, and, on a `software` renderer (its textures live in host memory), the textures (the
/// blocked design's by its formula; the papers' R32F C, its ping-pong copy and A).
pub fn host_bytes(software: bool, m: usize, n: usize, opts: &GpuOptions) -> u64 {
    let (m64, n64) = (m as u64, n as u64);
    let copies = 12 * m64 * n64;
    if !software {
        return copies;
    }
    let textures = match opts.variant {
        Variant::Blocked(block) => texture_bytes(m, n, block),
        // The 8×4 assembly's planes counted: the most a tiled plan takes.
        Variant::Tiled(block) => crate::gpu::normal::tiled::texture_bytes(
            m,
            n,
            &crate::gpu::tiled::TilePlan { assembly: crate::layout::TileShape::T8X4, block },
        ),
        _ => {
            let (w, h) = opts.format().texture_size(m);
            4 * (2 * (w as u64) * (h as u64) + m64 * n64)
        }
    };
    copies + textures
}

/// The memory available to this process, from Linux's MemAvailable (`None` elsewhere).
fn available_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Refuses an m×n standard form the GPU backends cannot hold, in microseconds: a texture side
/// past the driver's limit ([`GpuFault::TextureTooLarge`], the driver's own message) or more
/// memory than is available ([`GpuFault::Memory`]).
pub fn check_gpu_limits(gpu: &Gpu, m: usize, n: usize, opts: &GpuOptions) -> Result<(), BackendError> {
    for (w, h, what) in texture_sides(m, n, opts) {
        gpu.check_size(w, h, what)?;
    }
    let software = gpu.info().is_software();
    memory(host_bytes(software, m, n, opts), available_bytes(), m, n, software)
}

/// The memory verdict: `need` bytes against `have` (unknown: no verdict).
fn memory(need: u64, have: Option<u64>, m: usize, n: usize, software: bool) -> Result<(), BackendError> {
    let Some(have) = have.filter(|&have| need > have) else { return Ok(()) };
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    let detail = format!(
        "an LP of {m} rows and {n} columns needs {:.1} GiB (A in double and single precision{}), {:.1} GiB are available",
        gib(need),
        if software { ", and the textures, in host memory on this renderer" } else { "" },
        gib(have)
    );
    Err(BackendError::Gpu { kind: GpuFault::Memory, detail })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::blocked::Block;
    use crate::layout::Format;

    fn options(variant: Variant) -> GpuOptions {
        let normal_format = (variant == Variant::PAPER).then_some(Format::Full);
        GpuOptions { variant, normal_format, ..GpuOptions::default() }
    }

    #[test]
    fn the_largest_textures_are_those_of_the_layouts() {
        // Blocked, B = 16: C is ⌈m/16⌉·8 texels square, A has m rows of ⌈n/4⌉ texels.
        let sides = texture_sides(16385, 20, &options(Variant::Blocked(Block::B16)));
        assert_eq!(sides[0].0, 8200, "C: m padded to 16400, in 2×2 blocks");
        assert_eq!((sides[1].0, sides[1].1), (5, 16400), "A: 16400 rows");
        let sides = texture_sides(3, 70000, &options(Variant::PAPER));
        assert_eq!((sides[1].0, sides[1].1), (70000, 3), "A stored n×m");
        assert_eq!(sides[2].0, 70000, "a vector of n");
    }

    #[test]
    fn memory_is_refused_only_when_it_is_known_to_be_short() {
        let opts = options(Variant::Blocked(Block::B16));
        let need = host_bytes(true, 1000, 4000, &opts);
        assert_eq!(need, 12 * 1000 * 4000 + texture_bytes(1000, 4000, Block::B16));
        assert_eq!(host_bytes(false, 1000, 4000, &opts), 12 * 1000 * 4000, "textures in GPU memory");
        assert!(memory(need, Some(need), 1000, 4000, true).is_ok());
        assert!(memory(need, None, 1000, 4000, true).is_ok(), "unknown: no verdict");
        match memory(need, Some(need - 1), 1000, 4000, true) {
            Err(BackendError::Gpu { kind: GpuFault::Memory, detail }) => {
                assert!(detail.contains("1000 rows"), "{detail}")
            }
            other => panic!("expected a memory fault, got {other:?}"),
        }
    }
}
