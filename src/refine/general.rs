//! The dense general system as a [`Refinable`] problem: the single-precision factors (from either
//! GPU LU) and one of two ways to apply them — the paper's blocked substitutions split between
//! CPU and GPU with the residual formed on the GPU in double precision, or everything on the CPU
//! (single-precision substitution, double-precision residual).

use super::criterion::{inf_norm, Criterion};
use super::iterate::Refinable;
use crate::cpu::rowmajor;
use crate::gpu::lu::substitute::SplitSolver;
use crate::gpu::lu::timeline::{Lane, Recorder};
use crate::gpu::GpuError;

/// How the factors are applied in each refinement step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Substitution {
    /// The paper's Figs. 2–5: blocked forward substitution with look-ahead (GPU updates, CPU
    /// diagonal blocks), blocked backward substitution on the CPU while the GPU forms
    /// r = b − A·x in double precision — on the CPU, in double precision, where shaders have
    /// none (OpenGL ES, WebGL2).
    Split,
    /// Forward and back substitution on the CPU in single precision, the residual on the CPU in
    /// double precision.
    Cpu,
}

impl Substitution {
    /// The substitution's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Substitution::Split => "split",
            Substitution::Cpu => "cpu",
        }
    }
}

/// A·x = b with its single-precision factors.
pub(super) struct General<'a, 'g> {
    pub a: &'a [f64],
    pub b: &'a [f64],
    pub n: usize,
    pub a_norm: f64,
    pub b_norm: f64,
    pub test: Criterion,
    /// LAPACK-style n×n factor and its permutation.
    pub factor: Vec<f32>,
    pub perm: Vec<usize>,
    /// L⁻¹·P·b from the factorization of [A | b], if it was done that way.
    pub forward: Option<Vec<f32>>,
    pub split: Option<SplitSolver<'g>>,
    pub rec: Recorder,
    pub iteration: u32,
}

impl General<'_, '_> {
    /// b − A·x in double precision on the CPU.
    fn cpu_residual(&mut self, x: &[f64]) -> Vec<f64> {
        let (a, b, n) = (self.a, self.b, self.n);
        self.rec.enter("residual", self.iteration);
        self.rec.host(Lane::Cpu, "r = b − A·x (double)", 0, |_| {
            rowmajor::matvec(a, n, n, x).iter().zip(b).map(|(q, p)| p - q).collect()
        })
    }

    /// The single-precision solve on the CPU: L·U·z = P·r, or only U·z = y when L⁻¹·P·b is known.
    fn cpu_solve(&mut self, r: Option<&[f64]>) -> Vec<f64> {
        let (factor, perm, n) = (&self.factor, &self.perm, self.n);
        let forward = self.forward.take();
        self.rec.enter("substitute", self.iteration);
        self.rec.host(Lane::Cpu, "substitute (single)", 0, |_| match (r, forward) {
            (Some(r), _) => {
                let r32: Vec<f32> = r.iter().map(|&v| v as f32).collect();
                rowmajor::lu_solve(factor, n, perm, &r32).into_iter().map(f64::from).collect()
            }
            (None, Some(mut y)) => {
                y.truncate(n);
                for i in (0..n).rev() {
                    let row = &factor[i * n..(i + 1) * n];
                    let s: f32 = row[i + 1..].iter().zip(&y[i + 1..]).map(|(u, z)| u * z).sum();
                    y[i] = (y[i] - s) / row[i];
                }
                y.into_iter().map(f64::from).collect()
            }
            (None, None) => Vec::new(),
        })
    }
}

impl Refinable for General<'_, '_> {
    type Error = GpuError;

    fn start(&mut self) -> Result<(Vec<f64>, Vec<f64>), GpuError> {
        let Some(split) = self.split.as_mut() else {
            let x = match self.forward.is_some() {
                true => self.cpu_solve(None),
                false => self.cpu_solve(Some(self.b)),
            };
            let r = self.cpu_residual(&x);
            return Ok((x, r));
        };
        let y = match self.forward.take() {
            Some(mut y) => {
                y.resize(split.blocking().padded, 0.0);
                y
            }
            None => {
                self.rec.enter("forward", 0);
                split.forward(self.b, &mut self.rec)?
            }
        };
        let mut x = vec![0.0; self.n];
        self.rec.enter("backward", 0);
        let r = match split.backward(y, &mut x, &mut self.rec)? {
            Some(r) => r,
            None => self.cpu_residual(&x),
        };
        Ok((x, r))
    }

    fn correct(&mut self, x: &mut [f64], r: &[f64]) -> Result<Vec<f64>, GpuError> {
        self.iteration += 1;
        let Some(split) = self.split.as_mut() else {
            let z = self.cpu_solve(Some(r));
            for (xi, zi) in x.iter_mut().zip(&z) {
                *xi += zi;
            }
            return Ok(self.cpu_residual(x));
        };
        self.rec.enter("forward", self.iteration);
        let y = split.forward(r, &mut self.rec)?;
        self.rec.enter("backward", self.iteration);
        match split.backward(y, x, &mut self.rec)? {
            Some(r) => Ok(r),
            None => Ok(self.cpu_residual(x)),
        }
    }

    fn criterion(&mut self, x: &[f64], r: &[f64]) -> f64 {
        self.test.value(inf_norm(r), self.a_norm, self.b_norm, inf_norm(x), self.n)
    }
}
