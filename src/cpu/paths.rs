//! Which code the CPU path runs: the hand-written kernels (chosen from what this CPU has, or
//! forced) or the library calls they stand in for (faer on rayon: the portable path, and the
//! only one built for wasm32). One value of [`CpuPaths`] travels from the settings down to
//! every kernel, so that a test or a benchmark can run each path in one process.

use thiserror::Error;

/// The code of a kernel family.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Kernels {
    /// The best this CPU runs: AVX-512, else AVX2 with FMA, else portable.
    #[default]
    Auto,
    /// The 512-bit kernels (AVX-512F with FMA).
    Avx512,
    /// The 256-bit kernels (AVX2 with FMA).
    Avx2,
    /// The library calls (faer on rayon).
    Portable,
}

/// An instruction set the hand-written kernels are built for, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// 512-bit registers.
    Avx512,
    /// 256-bit registers with FMA.
    Avx2,
    /// No hand-written kernel: the library calls.
    Portable,
}

impl Isa {
    /// Every instruction set, best first.
    pub const ALL: [Isa; 3] = [Isa::Avx512, Isa::Avx2, Isa::Portable];

    /// The best this CPU runs.
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            // Every AVX-512 CPU has FMA, but a virtual machine may hide either bit.
            let fma = std::arch::is_x86_feature_detected!("fma");
            if std::arch::is_x86_feature_detected!("avx512f") && fma {
                return Isa::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") && fma {
                return Isa::Avx2;
            }
        }
        Isa::Portable
    }

    /// Whether this CPU (and this build) runs the kernels.
    pub fn runs_here(self) -> bool {
        match (self, Isa::detect()) {
            (Isa::Portable, _) | (Isa::Avx2, Isa::Avx512) => true,
            (isa, best) => isa == best,
        }
    }

    /// The name used in settings, logs and test output.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Avx512 => "avx512",
            Isa::Avx2 => "avx2",
            Isa::Portable => "portable",
        }
    }
}

impl Kernels {
    /// The instruction set this choice runs on this CPU ([`Kernels::Auto`]: the best; a forced
    /// one this CPU lacks: [`Isa::Portable`], which [`CpuPaths::validate`] refuses beforehand).
    pub fn isa(self) -> Isa {
        let isa = match self {
            Kernels::Auto => return Isa::detect(),
            Kernels::Avx512 => Isa::Avx512,
            Kernels::Avx2 => Isa::Avx2,
            Kernels::Portable => Isa::Portable,
        };
        if isa.runs_here() {
            isa
        } else {
            Isa::Portable
        }
    }
}

impl From<Isa> for Kernels {
    fn from(isa: Isa) -> Self {
        match isa {
            Isa::Avx512 => Kernels::Avx512,
            Isa::Avx2 => Kernels::Avx2,
            Isa::Portable => Kernels::Portable,
        }
    }
}

/// Whether the reduced-precision products may use AMX-BF16 tiles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Amx {
    /// Where the CPU has them and the operating system lends their state.
    #[default]
    Auto,
    /// Never: single precision instead (what a CPU without AMX runs).
    Off,
}

/// The code each part of the CPU path runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CpuPaths {
    /// A·diag(w)·Aᵀ and the Cholesky's trailing updates in a reduced precision (the
    /// mixed-precision iterations): `cpu::syrk`'s f32 kernels (AMX tiles for bf16 pairs where
    /// allowed), or faer's f32 triangular product per k block. (In f64 they are always faer's
    /// triangular product.)
    pub reduced: Kernels,
    /// Whether the reduced-precision kernels other than portable may use AMX for bf16 pairs.
    pub amx: Amx,
    /// The fused passes over dense A (Aᵀy, then A·v from the same read): `cpu::column_pass`, or
    /// two faer products.
    pub pass: Kernels,
}

/// A path this CPU or build cannot run.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum PathError {
    /// A forced instruction set the CPU lacks.
    #[error("the {what} kernels were set to {}, which this CPU cannot run (it runs {})", .isa.name(), Isa::detect().name())]
    Isa {
        /// Which kernels: "reduced-precision" or "column pass".
        what: &'static str,
        /// The instruction set they were set to.
        isa: Isa,
    },
}

impl CpuPaths {
    /// The library calls everywhere: what wasm32 runs.
    pub const PORTABLE: CpuPaths = CpuPaths { reduced: Kernels::Portable, amx: Amx::Off, pass: Kernels::Portable };

    /// Refuses a forced path this CPU or build cannot run.
    pub fn validate(&self) -> Result<(), PathError> {
        for (what, k) in [("reduced-precision", self.reduced), ("column pass", self.pass)] {
            let isa = match k {
                Kernels::Auto | Kernels::Portable => continue,
                Kernels::Avx512 => Isa::Avx512,
                Kernels::Avx2 => Isa::Avx2,
            };
            if !isa.runs_here() {
                return Err(PathError::Isa { what, isa });
            }
        }
        Ok(())
    }
}
