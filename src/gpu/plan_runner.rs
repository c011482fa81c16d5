//! A plan timed over and over on a fresh copy of its input: the benchmarks' runner (native and
//! in the browser alike, so their times are of the same thing).

use crate::clock::Instant;
use crate::gl::{GlResult, Gpu, Measure, Pass, PassLog, PingPong, TexelFormat, Texture};
use crate::gpu::blocked::Block;
use crate::gpu::plan::{execute, PlannedPass};
use crate::kernels;

/// A plan ready to be timed over and over on a fresh copy of its input: S and T are restored
/// from a pristine texture by copy passes outside the timed region; `glFinish` before and after.
pub struct PlanRunner<'a> {
    gpu: &'a Gpu,
    pristine: Texture,
    pp: PingPong,
    /// The plan's auxiliary textures (the blocked factor L and its diagonal block D).
    aux: Vec<Texture>,
    passes: &'a [PlannedPass],
}

impl<'a> PlanRunner<'a> {
    pub fn new(gpu: &'a Gpu, data: &[f32], (w, h): (usize, usize), passes: &'a [PlannedPass]) -> GlResult<Self> {
        let pristine = gpu.upload(w, h, data, "C")?;
        let pp = PingPong::new(gpu.texture(w, h, "S")?, gpu.texture(w, h, "T")?);
        Ok(Self { gpu, pristine, pp, aux: Vec::new(), passes })
    }

    /// A runner for a blocked plan: the m×m matrix `c` in 2×2 blocks, and the textures L and D.
    pub fn blocked(gpu: &'a Gpu, c: &[f32], m: usize, block: Block, passes: &'a [PlannedPass]) -> GlResult<Self> {
        let layout = block.layout(m);
        let (w, h) = layout.texture_size();
        let rgba = |w, h, what| gpu.texture_of(TexelFormat::Rgba32F, w, h, what);
        let pristine = gpu.upload_of(TexelFormat::Rgba32F, w, h, &layout.pack(c, 1.0), "C")?;
        let pp = PingPong::new(rgba(w, h, "S")?, rgba(w, h, "T")?);
        let nb = block.size() / 2;
        let aux = vec![rgba(w, h, "L")?, rgba(nb, nb, "D")?];
        Ok(Self { gpu, pristine, pp, aux, passes })
    }

    fn restore(&self) -> GlResult<()> {
        let full = crate::geometry::Primitive::full(self.pristine.width(), self.pristine.height());
        let copy = match self.pristine.format() {
            TexelFormat::R32F => &kernels::COPY,
            TexelFormat::Rgba32F => &kernels::COPY4,
        };
        for t in [self.pp.source(), self.pp.target()] {
            self.gpu.run(&Pass::new("restore", copy, t, &[&self.pristine], full))?;
        }
        self.gpu.finish();
        Ok(())
    }

    fn execute(&mut self, gpu: &Gpu) -> GlResult<()> {
        let aux: Vec<&Texture> = self.aux.iter().collect();
        execute(gpu, &mut self.pp, &aux, self.passes)
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

    /// What the last run left in S (all channels).
    pub fn result(&self) -> GlResult<Vec<f32>> {
        self.gpu.read(self.pp.source())
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
