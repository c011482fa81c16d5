//! A plan timed over and over on a fresh copy of its input: the benchmarks' runner (native and
//! in the browser alike, so their times are of the same thing).

use crate::clock::Instant;
use crate::gl::{GlResult, Gpu, Measure, Pass, PassLog, PingPong, TexelFormat, Texture};
use crate::gpu::blocked::Block;
use crate::gpu::plan::{execute_planes, PlannedPass};
use crate::kernels;
use crate::layout::Tiles;

/// A plan ready to be timed over and over on a fresh copy of its input: S and T are restored
/// from a pristine texture (one per plane) by copy passes outside the timed region; `glFinish`
/// before and after.
pub struct PlanRunner<'a> {
    gpu: &'a Gpu,
    pristine: Vec<Texture>,
    pp: Vec<PingPong>,
    /// The plan's auxiliary textures (the blocked factor L and its diagonal block D; the tiled
    /// factor's and diagonal block's planes).
    aux: Vec<Texture>,
    passes: &'a [PlannedPass],
}

impl<'a> PlanRunner<'a> {
    pub fn new(gpu: &'a Gpu, data: &[f32], (w, h): (usize, usize), passes: &'a [PlannedPass]) -> GlResult<Self> {
        let pristine = vec![gpu.upload(w, h, data, "C")?];
        let pp = vec![PingPong::new(gpu.texture(w, h, "S")?, gpu.texture(w, h, "T")?)];
        Ok(Self { gpu, pristine, pp, aux: Vec::new(), passes })
    }

    /// A runner for a blocked plan: the m×m matrix `c` in 2×2 blocks, and the textures L and D.
    pub fn blocked(gpu: &'a Gpu, c: &[f32], m: usize, block: Block, passes: &'a [PlannedPass]) -> GlResult<Self> {
        let layout = block.layout(m);
        let (w, h) = layout.texture_size();
        let rgba = |w, h, what| gpu.texture_of(TexelFormat::Rgba32F, w, h, what);
        let pristine = vec![gpu.upload_of(TexelFormat::Rgba32F, w, h, &layout.pack(c, 1.0), "C")?];
        let pp = vec![PingPong::new(rgba(w, h, "S")?, rgba(w, h, "T")?)];
        let nb = block.size() / 2;
        let aux = vec![rgba(w, h, "L")?, rgba(nb, nb, "D")?];
        Ok(Self { gpu, pristine, pp, aux, passes })
    }

    /// A runner for a tiled plan: the m×m matrix `c` in the four planes of `layout` (4×4 tiles),
    /// and the planes of L and D.
    pub fn tiled(gpu: &'a Gpu, c: &[f32], layout: Tiles, block: Block, passes: &'a [PlannedPass]) -> GlResult<Self> {
        let (w, h) = layout.plane_size();
        let rgba = |w, h, what| gpu.texture_of(TexelFormat::Rgba32F, w, h, what);
        let mut pristine = Vec::new();
        let mut pp = Vec::new();
        for data in layout.pack(c, 1.0) {
            pristine.push(gpu.upload_of(TexelFormat::Rgba32F, w, h, &data, "C (a plane)")?);
            pp.push(PingPong::new(rgba(w, h, "S")?, rgba(w, h, "T")?));
        }
        let nt = block.size() / 4;
        let mut aux = Vec::new();
        for _ in 0..pp.len() {
            aux.push(rgba(w, h, "L")?);
        }
        for _ in 0..pp.len() {
            aux.push(rgba(nt, nt, "D")?);
        }
        Ok(Self { gpu, pristine, pp, aux, passes })
    }

    fn restore(&self) -> GlResult<()> {
        for (pristine, pp) in self.pristine.iter().zip(&self.pp) {
            let full = crate::geometry::Primitive::full(pristine.width(), pristine.height());
            let copy = match pristine.format() {
                TexelFormat::R32F => &kernels::COPY,
                TexelFormat::Rgba32F => &kernels::COPY4,
            };
            for t in [pp.source(), pp.target()] {
                self.gpu.run(&Pass::new("restore", copy, t, &[pristine], full))?;
            }
        }
        self.gpu.finish();
        Ok(())
    }

    fn execute(&mut self, gpu: &Gpu) -> GlResult<()> {
        let aux: Vec<&Texture> = self.aux.iter().collect();
        execute_planes(gpu, &mut self.pp, &aux, self.passes)
    }

    /// One timed run, in seconds.
    pub fn time_once(&mut self) -> GlResult<f64> {
        self.restore()?;
        let gpu = self.gpu;
        let t = Instant::now();
        self.execute(gpu)?;
        gpu.finish();
        Ok(t.elapsed().as_secs_f64())
    }

    /// What the last run left in S (all channels; plane 0 of a planed plan).
    pub fn result(&self) -> GlResult<Vec<f32>> {
        self.gpu.read(self.pp[0].source())
    }

    /// The plan's auxiliary textures (where a blocked or tiled plan leaves its factor).
    pub fn aux(&self) -> &[Texture] {
        &self.aux
    }

    /// One untimed run with fragment counting: the pass log.
    pub fn count(&mut self) -> GlResult<PassLog> {
        self.restore()?;
        let gpu = self.gpu;
        let (r, log) = gpu.logged(Measure::FRAGMENTS, |g| self.execute(g));
        r?;
        Ok(log)
    }
}
