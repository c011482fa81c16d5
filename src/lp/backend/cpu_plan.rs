//! What the cpu backend builds for a standard-form A: its normal equations' path
//! ([`choose_shape`] on A's column kinds), how it holds A for the products, and the log line
//! that says so.

use super::cpu_vectors::Storage;
use super::shape::{choose_shape, shape_costs, NormalShape, ShapeCosts, ShapeFacts};
use super::{sparse_assembly_pays, CpuNormal, CpuVectors};
use crate::cpu::products::{column_kinds, ColumnKinds, DiagonalSplit};
use crate::lp::model::SparseColMatrix;
use std::sync::Arc;

/// The cpu backend's plan for one A.
#[derive(Clone, Debug)]
pub struct CpuPlan {
    pub shape: NormalShape,
    pub facts: ShapeFacts,
    pub costs: ShapeCosts,
    /// A's column kinds.
    pub kinds: ColumnKinds,
}

impl CpuPlan {
    /// The plan for `a` with the split free columns `pairs`.
    pub fn new(a: &SparseColMatrix, pairs: &[(usize, usize)]) -> Self {
        let (m, n) = (a.nrows, a.ncols);
        let sparse = sparse_assembly_pays(a);
        let kinds = column_kinds(a.csc(), pairs);
        let facts = ShapeFacts {
            rows: m,
            cols: n,
            block: kinds.slots.len(),
            units: kinds.units.len(),
            bare_rows: kinds.bare_rows.len(),
            sparse,
        };
        Self { shape: choose_shape(&facts), facts, costs: shape_costs(&facts), kinds }
    }

    /// The vectors for `a`: as today ([`CpuVectors::for_matrix`]) on the full path; on the
    /// others, A held sparse with its products read from `split` (the block and the unit
    /// columns the normal equations read too).
    pub fn vectors(
        &self,
        a: &SparseColMatrix,
        pairs: &[(usize, usize)],
        split: Option<&Arc<DiagonalSplit>>,
    ) -> CpuVectors {
        match split {
            Some(s) if self.shape != NormalShape::Full => CpuVectors::sparse(a.clone(), pairs).with_split(s.clone()),
            _ => CpuVectors::for_matrix(a, pairs),
        }
    }

    /// The dense block and the unit columns of `a` (`None` on the full path).
    pub fn split(&self, a: &SparseColMatrix) -> Option<Arc<DiagonalSplit>> {
        (self.shape != NormalShape::Full).then(|| Arc::new(DiagonalSplit::new(a.csc(), self.kinds.clone())))
    }

    /// One log line: the path, the shape it was chosen from, and the predicted costs.
    pub fn describe(&self) -> String {
        let f = &self.facts;
        let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let shape =
            [(f.block, "block column", "block columns"), (f.units, "column of one entry", "columns of one entry")]
                .into_iter()
                .chain([(f.bare_rows, "row without one", "rows without one")])
                .map(|(n, one, many)| plural(n, one, many))
                .collect::<Vec<_>>()
                .join(", ");
        let costs = |c: f64| format!("{c:.2e}");
        match self.shape {
            NormalShape::Full => String::new(),
            NormalShape::Diagonal => format!(
                "A·D²·Aᵀ as the dense block's product plus a diagonal ({shape}; {} multiply-adds per iteration against {} for all columns); products from the block; dense Cholesky",
                costs(self.costs.diagonal),
                costs(self.costs.full)
            ),
            NormalShape::Schur => format!(
                "A·D²·Aᵀ through its smaller side: the {k}×{k} dual normal matrix W⁻¹ + A₁ᵀ·Δ⁻¹·A₁{bare} ({shape}; {} multiply-adds per iteration against {} for the {m}×{m} matrix); products from the block",
                costs(self.costs.schur.unwrap_or(f64::NAN)),
                costs(self.costs.full),
                k = f.block,
                m = f.rows,
                bare = if f.bare_rows > 0 { " and the bare rows' Schur complement" } else { "" },
            ),
        }
    }
}

fn storage_name(vk: &CpuVectors) -> &'static str {
    match vk.storage() {
        Storage::Dense(_) => "dense",
        Storage::Sparse(_) => "sparse",
    }
}

impl CpuNormal {
    /// One log line: how A·D²·Aᵀ is assembled (from `vk`'s A) and factored.
    pub fn describe(&self, vk: &CpuVectors) -> String {
        let storage = storage_name(vk);
        match self.sparse_factor() {
            Some((nnz, l, flops)) => format!(
                "A·D²·Aᵀ assembled from {storage} A into its {nnz} lower entries; sparse Cholesky (AMD, supernodal): {l} entries in L, {flops:.2e} multiply-adds"
            ),
            None => format!("A·D²·Aᵀ assembled from {storage} A; dense Cholesky"),
        }
    }
}
