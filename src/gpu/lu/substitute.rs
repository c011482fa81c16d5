//! The mixed-precision paper's blocked substitutions, split between CPU and GPU (§2.1–2.2).
//!
//! * **Forward** (Figs. 4–5): the CPU permutes r, then for each block i computes
//!   y_i = L_ii⁻¹·r_i with the explicit inverse formed once (the paper's `strmv`); the GPU updates
//!   the next block of r first and the CPU reads it back at once (look-ahead), then the GPU
//!   updates the rows below it while the CPU computes y_{i+1}. Single precision.
//! * **Backward** (Figs. 2–3): from the last block up, the CPU solves U_ii·z_i = y_i (`strsv`),
//!   updates x_i += z_i in double precision and uploads it; the GPU subtracts A(:, i)·x_i from the
//!   residual in double precision (A and b live on the GPU in double, as the paper requires); the
//!   CPU updates the blocks above with the column panel of U (single precision). When the sweep
//!   ends the GPU holds r = b − A·x for the new x: formula (1) of the next refinement step.
//!   Where shaders have no double precision (OpenGL ES, WebGL2: `GpuInfo::fp64`), the residual
//!   is left to the caller, which forms it on the CPU in double precision: the same r, so the
//!   refinement converges to the same accuracy.
//!
//! Uploads go to rings of small textures so that an upload never touches a texture an issued
//! pass still reads (which would make the driver wait).

use super::double;
use super::panel;
use super::schedule::{Blocking, StepPlan};
use super::timeline::{Lane, Recorder};
use crate::gl::{Gpu, PingPong, TexelFormat, Texture};
use crate::gpu::error::{GpuError, GpuResult};
use crate::gpu::plan::execute;
use crate::layout::Blocks2x2;

/// Textures per upload ring (more than the passes that can be in flight behind one wait).
const RING: usize = 8;

/// The factor's substitutions and the double-precision residual, set up once per system.
pub struct SplitSolver<'g> {
    gpu: &'g Gpu,
    b: Blocking,
    n: usize,
    /// The padded factor (N × N, identity on the padded diagonal).
    lu: Vec<f32>,
    perm: Vec<usize>,
    /// L_ii⁻¹ of every diagonal block (nb × nb, zero beyond the block's width).
    inverses: Vec<Vec<f32>>,
    lower: Texture,
    vector: PingPong,
    y_ring: Vec<Texture>,
    /// The double-precision residual on the GPU, where shaders have double precision.
    residual: Option<GpuResidual>,
}

/// A and b in double precision (three floats per value), the residual, and a ring for blocks of x.
struct GpuResidual {
    a: Texture,
    rhs: Texture,
    residual: PingPong,
    x_ring: Vec<Texture>,
}

impl<'g> SplitSolver<'g> {
    /// `factor` is LAPACK-style n×n (unit L below the diagonal, U on and above) with `perm`;
    /// `a` and `rhs` are the system in double precision (uploaded as three floats per value).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        gpu: &'g Gpu,
        factor: &[f32],
        perm: &[usize],
        a: &[f64],
        rhs: &[f64],
        n: usize,
        block: usize,
        lookahead: bool,
        rec: &mut Recorder,
    ) -> GpuResult<Self> {
        let b = Blocking::new(n, block, false, lookahead)?;
        if factor.len() != n * n || perm.len() != n || a.len() != n * n || rhs.len() != n {
            return Err(GpuError::Shape(format!(
                "substitution for n = {n}: factor {}, perm {}, A {}, b {} values",
                factor.len(),
                perm.len(),
                a.len(),
                rhs.len()
            )));
        }
        let big = b.padded;
        let (lu, inverses) = rec.host(Lane::Cpu, "pad factor, invert diagonal blocks", 0, |_| {
            let mut lu = vec![0.0f32; big * big];
            for i in 0..n {
                lu[i * big..i * big + n].copy_from_slice(&factor[i * n..(i + 1) * n]);
            }
            for d in n..big {
                lu[d * big + d] = 1.0;
            }
            let inverses = (0..b.steps())
                .map(|i| {
                    let (c, w) = b.panel(i);
                    panel::unit_lower_inverse(&lu[c * big + c..], big, w, block)
                })
                .collect();
            (lu, inverses)
        });
        let f = TexelFormat::Rgba32F;
        let (h, nb2) = (big / 2, block / 2);
        let ring = b.steps().min(RING);
        let tex = rec.host(Lane::Transfer, "upload L", 0, |_| -> GpuResult<_> {
            let lower = gpu.upload_of(f, h, h, &Blocks2x2::new(big, big).pack(&lu, 0.0), "L in 2×2 blocks")?;
            let vector = PingPong::new(
                gpu.texture_of(f, 1, h, "the forward sweep's vector (S)")?,
                gpu.texture_of(f, 1, h, "the forward sweep's vector (T)")?,
            );
            let y_ring = (0..ring).map(|_| gpu.texture_of(f, nb2, 1, "a block of y")).collect::<Result<_, _>>()?;
            Ok((lower, vector, y_ring))
        })?;
        let (lower, vector, y_ring) = tex;
        let residual = if gpu.info().fp64 {
            Some(rec.host(Lane::Transfer, "upload A and b (double)", 0, |_| -> GpuResult<_> {
                let mut a3 = vec![0.0f32; big * big * 4];
                for i in 0..n {
                    a3[i * big * 4..(i * big + n) * 4].copy_from_slice(&double::split_all(&a[i * n..(i + 1) * n]));
                }
                let a = gpu.upload_of(f, big, big, &a3, "A in double (three floats per entry)")?;
                let mut b3 = double::split_all(rhs);
                b3.resize(big * 4, 0.0);
                let rhs = gpu.upload_of(f, 1, big, &b3, "b in double")?;
                let residual = PingPong::new(
                    gpu.texture_of(f, 1, big, "the residual (S)")?,
                    gpu.texture_of(f, 1, big, "the residual (T)")?,
                );
                let x_ring = (0..ring)
                    .map(|_| gpu.texture_of(f, block, 1, "a block of x (double)"))
                    .collect::<Result<_, _>>()?;
                gpu.prepare(&crate::kernels::LU_RESIDUAL, &[])?;
                Ok(GpuResidual { a, rhs, residual, x_ring })
            })?)
        } else {
            None
        };
        gpu.prepare(&crate::kernels::LU_FORWARD_UPDATE, b.defines())?;
        Ok(Self { gpu, b, n, lu, perm: perm.to_vec(), inverses, lower, vector, y_ring, residual })
    }

    /// Whether [`SplitSolver::backward`] forms the residual on the GPU (double precision in
    /// shaders) rather than leaving it to the caller.
    pub fn forms_residual(&self) -> bool {
        self.residual.is_some()
    }

    pub fn blocking(&self) -> &Blocking {
        &self.b
    }

    /// y = L⁻¹·P·r in single precision (length N; entries past n are zero).
    pub fn forward(&mut self, r: &[f64], rec: &mut Recorder) -> GpuResult<Vec<f32>> {
        let (gpu, b) = (self.gpu, self.b);
        if r.len() != self.n {
            return Err(GpuError::Shape(format!("forward sweep: r has {} values, n = {}", r.len(), self.n)));
        }
        if let Some(p) = r.iter().position(|v| !v.is_finite()) {
            return Err(GpuError::NonFinite { what: "the vector to substitute".into(), row: p, col: 0, value: r[p] });
        }
        let mut y = vec![0.0f32; b.padded];
        for (i, &p) in self.perm.iter().enumerate() {
            y[i] = r[p] as f32;
        }
        rec.host(Lane::Transfer, "upload P·r", 0, |_| {
            let pairs: Vec<f32> = y.chunks_exact(2).flat_map(|p| [p[0], p[1], 0.0, 0.0]).collect();
            gpu.write(self.vector.source(), &pairs)
        })?;
        for i in 0..b.steps() {
            let (c, w) = b.panel(i);
            rec.host(Lane::Cpu, "y_i = L_ii⁻¹·r_i", i, |_| {
                panel::apply(&self.inverses[i], b.block, w, &mut y[c..])
            });
            let StepPlan { first, rest, next_panel } = b.forward_step(i);
            let Some([_, y0, _, rows]) = next_panel else { break };
            let slot = &self.y_ring[i % self.y_ring.len()];
            rec.host(Lane::Transfer, "upload y_i", i, |_| {
                let pairs: Vec<f32> = y[c..c + w].chunks_exact(2).flat_map(|p| [p[0], p[1], 0.0, 0.0]).collect();
                gpu.write(slot, &pairs)
            })?;
            let aux = [&self.lower, slot];
            let what = if rest.is_empty() { "update below" } else { "look-ahead block" };
            rec.gpu(gpu, what, i, || Ok(execute(gpu, &mut self.vector, &aux, &first)?))?;
            rec.wait_gpu()?;
            let t = rec
                .host(Lane::Transfer, "read next block", i, |_| gpu.read_rect(self.vector.target(), 0, y0, 1, rows))?;
            for (k, p) in t.chunks_exact(4).enumerate() {
                y[2 * (y0 as usize + k)] = p[0];
                y[2 * (y0 as usize + k) + 1] = p[1];
            }
            if !rest.is_empty() {
                rec.gpu(gpu, "update the rest", i, || Ok(execute(gpu, &mut self.vector, &aux, &rest)?))?;
            }
            self.vector.swap();
        }
        Ok(y)
    }

    /// Solves U·z = y block by block from the bottom, adds z to `x` (double precision) and
    /// returns r = b − A·x for the new x, formed on the GPU in double precision; `None` where
    /// shaders have no double precision ([`SplitSolver::forms_residual`]): the caller forms it.
    pub fn backward(&mut self, mut y: Vec<f32>, x: &mut [f64], rec: &mut Recorder) -> GpuResult<Option<Vec<f64>>> {
        let (gpu, b, big) = (self.gpu, self.b, self.b.padded);
        if y.len() != big || x.len() != self.n {
            return Err(GpuError::Shape(format!("backward sweep: y {} (N = {big}), x {}", y.len(), x.len())));
        }
        for i in (0..b.steps()).rev() {
            let (c, w) = b.panel(i);
            let xi = rec.host(Lane::Cpu, "solve U_ii·z_i = y_i, x_i += z_i", i, |_| {
                panel::upper_solve(&self.lu, big, c, w, &mut y[c..c + w]);
                let mut xi = vec![0.0f64; b.block];
                for t in 0..w {
                    if c + t < self.n {
                        x[c + t] += y[c + t] as f64;
                        xi[t] = x[c + t];
                    }
                }
                xi
            });
            if let Some(g) = self.residual.as_mut() {
                let slot = &g.x_ring[i % g.x_ring.len()];
                rec.host(Lane::Transfer, "upload x_i (double)", i, |_| gpu.write(slot, &double::split_all(&xi)))?;
                let pass = [b.backward_step(i).then_swap()];
                let aux = [&g.a, slot, &g.rhs];
                rec.gpu(gpu, "r −= A(:, i)·x_i (double)", i, || Ok(execute(gpu, &mut g.residual, &aux, &pass)?))?;
            }
            rec.host(Lane::Cpu, "y_above −= U(above, i)·z_i", i, |rec| {
                for row in 0..c {
                    let u = &self.lu[row * big + c..row * big + c + w];
                    y[row] -= u.iter().zip(&y[c..c + w]).map(|(p, q)| p * q).sum::<f32>();
                    if row % 64 == 63 {
                        let _ = rec.poll();
                    }
                }
            });
            rec.poll()?;
        }
        let Some(g) = self.residual.as_ref() else { return Ok(None) };
        rec.wait_gpu()?;
        let t = rec.host(Lane::Transfer, "read r (double)", 0, |_| gpu.read(g.residual.source()))?;
        let mut r = double::join_all(&t);
        r.truncate(self.n);
        Ok(Some(r))
    }
}
