//! The blocked LU of the mixed-precision paper (§2, after Volkov and Demmel), split between CPU
//! and GPU: right-looking LU with partial pivoting, the CPU factoring each panel of nb columns
//! and the GPU updating the trailing matrix, with look-ahead so that the two overlap.
//!
//! Step k: the CPU factors panel k (read back from the GPU, except panel 0 which it already has),
//! forms L11⁻¹, the row map of the panel's interchanges and the L21 blocks, and uploads them; the
//! GPU forms U12 = L11⁻¹·(P·A)12, updates the next panel's columns (the look-ahead), and the CPU
//! reads that panel back; the GPU then updates the other columns while the CPU factors the next
//! panel. Row interchanges are never passes of their own: the update kernels read each row
//! through the row map. Uploads of step k go to textures the passes of step k − 1 do not read
//! (two alternating sets), so an upload never waits for the GPU.
//!
//! The paper factors [A | b] (its Fig. 6, Step 2), so that L⁻¹·P·b — the first forward
//! substitution — comes out of the factorization; `rhs` does that here too.

use super::panel::{self, PanelError};
use super::schedule::Blocking;
use super::timeline::{Lane, Recorder};
use crate::gl::{Gpu, PingPong, TexelFormat, Texture};
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::plan::execute;
use crate::layout::Blocks2x2;

/// The blocked LU's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BlockedSettings {
    /// Panel width nb: 4, 8, 16, 32 or 64.
    pub block: usize,
    /// Update the next panel first and overlap the rest of the update with its factorization.
    pub lookahead: bool,
}

impl Default for BlockedSettings {
    fn default() -> Self {
        Self { block: 32, lookahead: true }
    }
}

/// P·A = L·U in single precision, held on the host (the blocked algorithm's panels are there).
#[derive(Clone, Debug)]
pub struct RightLookingLu {
    pub n: usize,
    /// LAPACK-style row-major n×n: unit L below the diagonal, U on and above it.
    pub factor: Vec<f32>,
    /// `perm[i]` is the row of A that became row i.
    pub perm: Vec<usize>,
    /// L⁻¹·P·b for the right-hand side factored with A, if one was given.
    pub forward: Option<Vec<f32>>,
    pub block: usize,
}

/// The GPU's textures: the matrix ping-pong, U, and two alternating sets of the per-step inputs
/// (L21, row map, L11⁻¹).
struct Textures {
    pp: PingPong,
    upper: Texture,
    sets: [[Texture; 3]; 2],
}

fn textures(gpu: &Gpu, b: &Blocking, packed: &[f32]) -> GpuResult<Textures> {
    let (w, h) = b.texture_size();
    let nb2 = b.block / 2;
    let f = TexelFormat::Rgba32F;
    let set = |i: usize| -> GpuResult<[Texture; 3]> {
        let name = |what: &str| format!("{what} (set {i})");
        Ok([
            gpu.texture_of(f, nb2, h, &name("the L21 panel"))?,
            gpu.texture_of(f, h, 1, &name("the row map"))?,
            gpu.texture_of(f, nb2, nb2, &name("the inverse of L11"))?,
        ])
    };
    Ok(Textures {
        pp: PingPong::new(
            gpu.upload_of(f, w, h, packed, "the matrix [A | b] in 2×2 blocks (S)")?,
            gpu.texture_of(f, w, h, "the matrix's ping-pong copy (T)")?,
        ),
        upper: gpu.texture_of(f, w, h, "the strips of U")?,
        sets: [set(0)?, set(1)?],
    })
}

/// Validates A (n×n) and b, and lays out [A | b] padded to N × (N + extra), identity on the
/// padded diagonal, b right of the padded A.
fn augmented(a: &[f32], n: usize, rhs: Option<&[f32]>, b: &Blocking) -> GpuResult<Vec<f32>> {
    if a.len() != n * n {
        return Err(GpuError::Shape(format!("{} values given for a {n}×{n} matrix", a.len())));
    }
    if let Some(p) = a.iter().position(|v| !v.is_finite()) {
        return Err(GpuError::NonFinite {
            what: "the matrix to factor".into(),
            row: p / n,
            col: p % n,
            value: a[p] as f64,
        });
    }
    if let Some(r) = rhs {
        if r.len() != n {
            return Err(GpuError::Shape(format!("a right-hand side of {} values for n = {n}", r.len())));
        }
        if let Some(p) = r.iter().position(|v| !v.is_finite()) {
            return Err(GpuError::NonFinite { what: "the right-hand side".into(), row: p, col: 0, value: r[p] as f64 });
        }
    }
    let (big, cols) = (b.padded, b.columns());
    let mut m = vec![0.0f32; big * cols];
    for i in 0..n {
        m[i * cols..i * cols + n].copy_from_slice(&a[i * n..(i + 1) * n]);
        if let Some(r) = rhs {
            m[i * cols + big] = r[i];
        }
    }
    for d in n..big {
        m[d * cols + d] = 1.0;
    }
    Ok(m)
}

/// Factors the n×n matrix `a` (row-major, single precision) and, if given, carries `rhs` along.
/// NaN or ±∞ in the input, a wrong length, n = 0 or an unsupported block size is a typed error; a
/// column whose largest candidate pivot is at most n·u·max|A| (u = 2⁻²⁴) is
/// [`GpuError::Singular`], as in the unblocked baseline.
pub fn factor(
    gpu: &Gpu,
    a: &[f32],
    n: usize,
    rhs: Option<&[f32]>,
    st: &BlockedSettings,
    rec: &mut Recorder,
) -> GpuResult<RightLookingLu> {
    let b = Blocking::new(n, st.block, rhs.is_some(), st.lookahead)?;
    let m = rec.host(Lane::Cpu, "lay out [A | b]", 0, |_| augmented(a, n, rhs, &b))?;
    let tiny = n as f32 * f32::EPSILON / 2.0 * a.iter().fold(0.0f32, |acc, v| acc.max(v.abs()));
    let cols = b.columns();
    let layout = Blocks2x2::new(b.padded, cols);
    let mut tex = rec.host(Lane::Transfer, "upload [A | b]", 0, |_| textures(gpu, &b, &layout.pack(&m, 0.0)))?;
    for k in [&crate::kernels::LU_UPPER_STRIP, &crate::kernels::LU_TRAILING_UPDATE] {
        gpu.prepare(k, b.defines())?;
    }
    let big = b.padded;
    // The host factor (N × N); panel 0 comes from the host copy of A.
    let mut lu = vec![0.0f32; big * big];
    let mut perm: Vec<usize> = (0..big).collect();
    let (_, w0) = b.panel(0);
    let mut panel: Vec<f32> = (0..big).flat_map(|i| m[i * cols..i * cols + w0].to_vec()).collect();
    for k in 0..b.steps() {
        let (c, w) = b.panel(k);
        let rows = big - c;
        let piv = rec.host(Lane::Cpu, "factor panel", k, |rec| {
            panel::factor(&mut panel, rows, w, tiny, || {
                let _ = rec.poll();
            })
        });
        let piv = piv.map_err(|e| match e {
            PanelError::Singular(j) => GpuError::Singular { column: c + j },
            PanelError::NonFinite(j) => {
                GpuError::NonFinite { what: "the factorization".into(), row: c + j, col: c + j, value: f64::NAN }
            }
        })?;
        rec.poll()?;
        let src = panel::row_sources(&piv, rows);
        let (inputs, plan) = rec.host(Lane::Cpu, "prepare step", k, |_| {
            // The panel into the host factor, the interchanges applied to the columns left of it.
            for (j, &p) in piv.iter().enumerate() {
                perm.swap(c + j, c + p);
                if p != j {
                    for col in 0..c {
                        lu.swap((c + j) * big + col, (c + p) * big + col);
                    }
                }
            }
            for i in 0..rows {
                lu[(c + i) * big + c..(c + i) * big + c + w].copy_from_slice(&panel[i * w..(i + 1) * w]);
            }
            (step_inputs(&b, k, &panel, &src), b.step(k))
        });
        if plan.first.is_empty() {
            break;
        }
        let set = &tex.sets[k % 2];
        rec.host(Lane::Transfer, "upload L21, row map, L11⁻¹", k, |_| -> GpuResult<()> {
            let [l21, map, inv] = set;
            let h = (rows / 2) as u32;
            if let Some(l) = &inputs.l21 {
                gpu.write_rect(l21, 0, (c + w) as u32 / 2, (w / 2) as u32, h - (w / 2) as u32, l)?;
            }
            gpu.write_rect(map, (c / 2) as u32, 0, h, 1, &inputs.map)?;
            gpu.write_rect(inv, 0, 0, inv.width(), inv.height(), &inputs.inverse)?;
            Ok(())
        })?;
        let aux = [&set[0], &tex.upper, &set[1], &set[2]];
        let what = if plan.rest.is_empty() { "strip + update" } else { "strip + look-ahead" };
        rec.gpu(gpu, what, k, || Ok(execute(gpu, &mut tex.pp, &aux, &plan.first)?))?;
        if let Some([x, y, pw, ph]) = plan.next_panel {
            rec.wait_gpu()?;
            let t = rec.host(Lane::Transfer, "read next panel", k, |_| gpu.read_rect(tex.pp.target(), x, y, pw, ph))?;
            panel = Blocks2x2::new(2 * ph as usize, 2 * pw as usize).unpack(&t);
            if !plan.rest.is_empty() {
                rec.gpu(gpu, "trailing update", k, || Ok(execute(gpu, &mut tex.pp, &aux, &plan.rest)?))?;
            }
            tex.pp.swap();
        }
    }
    rec.wait_gpu()?;
    let forward = rec.host(Lane::Transfer, "read U", b.steps(), |_| -> GpuResult<Option<Vec<f32>>> {
        if b.steps() == 1 && rhs.is_none() {
            return Ok(None);
        }
        let u = layout.unpack(&gpu.read(&tex.upper)?);
        for k in 0..b.steps() {
            let (c, w) = b.panel(k);
            for i in c..c + w {
                lu[i * big + c + w..(i + 1) * big].copy_from_slice(&u[i * cols + c + w..i * cols + big]);
            }
        }
        Ok(rhs.map(|_| (0..n).map(|i| u[i * cols + big]).collect()))
    })?;
    let factor = (0..n).flat_map(|i| lu[i * big..i * big + n].to_vec()).collect();
    perm.truncate(n);
    Ok(RightLookingLu { n, factor, perm, forward, block: b.block })
}

/// The textures' contents for step k: L21 (below the panel), the row map from row c on, L11⁻¹.
struct StepInputs {
    l21: Option<Vec<f32>>,
    map: Vec<f32>,
    inverse: Vec<f32>,
}

fn step_inputs(b: &Blocking, k: usize, panel: &[f32], src: &[usize]) -> StepInputs {
    let (c, w) = b.panel(k);
    let rows = b.padded - c;
    let l21 = (k + 1 < b.steps()).then(|| Blocks2x2::new(rows - w, w).pack(&panel[w * w..], 0.0));
    let map = src.chunks_exact(2).flat_map(|p| [(c + p[0]) as f32, (c + p[1]) as f32, 0.0, 0.0]).collect();
    let size = b.block;
    let inverse = Blocks2x2::new(size, size).pack(&panel::unit_lower_inverse(panel, w, w, size), 0.0);
    StepInputs { l21, map, inverse }
}
