//! What the cpu backend builds for a standard-form A: its normal equations' path
//! ([`choose_shape`] on A's column kinds), how it holds A for the products, and the log line
//! that says so.

use super::cpu_vectors::Storage;
use super::dense_columns::{dense_column_costs, dense_columns_pay, split_columns, ColumnSplit, DenseColumnCosts};
use super::shape::{choose_shape, forced_shape, shape_costs, NormalShape, ShapeCosts, ShapeFacts};
use super::{sparse_assembly_pays, CpuNormal, CpuVectors};
use crate::cpu::products::{column_kinds, ColumnKinds, DiagonalSplit};
use crate::lp::model::SparseColMatrix;
use std::sync::Arc;

/// The cpu backend's plan for one A.
#[derive(Clone, Debug)]
pub struct CpuPlan {
    pub shape: NormalShape,
    /// The shape chosen from the column kinds alone (what the GL backends' passes follow).
    pub base: NormalShape,
    pub facts: ShapeFacts,
    pub costs: ShapeCosts,
    /// A's column kinds.
    pub kinds: ColumnKinds,
    /// On the dense-column path: the split and its predicted costs.
    pub dense: Option<(ColumnSplit, DenseColumnCosts)>,
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
        let base = choose_shape(&facts);
        let costs = shape_costs(&facts);
        // A shape forced (tests, `--compare-full`) is that path: the dense columns' only when it
        // is the one forced.
        let forced = forced_shape() == Some(NormalShape::DenseColumns);
        let other_forced = forced_shape().is_some() && !forced;
        // Dense columns beside sparse ones, against the path otherwise taken: the full one on
        // A held sparse (estimated with P's analysis), or the shape's predicted cost.
        let incumbent = match base {
            _ if forced => Some(f64::INFINITY),
            NormalShape::Full if sparse => None,
            NormalShape::Full | NormalShape::DenseColumns => Some(costs.full),
            NormalShape::Diagonal => Some(costs.diagonal),
            NormalShape::Schur => Some(costs.schur.unwrap_or(costs.full)),
        };
        let split = split_columns(a.csc(), pairs);
        let dense = dense_column_costs(a, &split, incumbent)
            .filter(|c| forced || (!other_forced && dense_columns_pay(c)))
            .map(|c| (split, DenseColumnCosts { incumbent: if forced { costs.full } else { c.incumbent }, ..c }));
        let base = if base == NormalShape::DenseColumns { NormalShape::Full } else { base };
        let shape = if dense.is_some() { NormalShape::DenseColumns } else { base };
        Self { shape, base, facts, costs, kinds, dense }
    }

    /// The dense-column path's normal equations for `a` (`None` on the other paths).
    pub fn dense_column_normal(
        &self,
        a: &SparseColMatrix,
        paths: crate::cpu::products::CpuPaths,
    ) -> Option<Result<super::DenseColumnNormal, super::BackendError>> {
        let (split, costs) = self.dense.as_ref()?;
        Some(super::DenseColumnNormal::new(a, split.clone(), costs.rows_limit, paths))
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
            Some(s) if self.split_shape() => CpuVectors::sparse(a.clone(), pairs).with_split(s.clone()),
            _ => CpuVectors::for_matrix(a, pairs),
        }
    }

    /// Whether the base shape reads the dense block and the unit columns.
    pub fn split_shape(&self) -> bool {
        matches!(self.base, NormalShape::Diagonal | NormalShape::Schur)
    }

    /// The dense block and the unit columns of `a`, for the base shape (`None` on the full
    /// path).
    pub fn split(&self, a: &SparseColMatrix) -> Option<Arc<DiagonalSplit>> {
        self.split_shape().then(|| Arc::new(DiagonalSplit::new(a.csc(), self.kinds.clone())))
    }

    /// The predicted multiply-adds of one iteration on the chosen path.
    pub fn cost(&self) -> f64 {
        match self.shape {
            NormalShape::Full => self.costs.full,
            NormalShape::Diagonal => self.costs.diagonal,
            NormalShape::Schur => self.costs.schur.unwrap_or(self.costs.full),
            NormalShape::DenseColumns => self.dense.as_ref().map_or(self.costs.full, |d| d.1.path),
        }
    }

    /// The cpu backend's normal equations on this plan's path for `split` (made by
    /// [`Self::split`]): the block's product plus the diagonal (with mixed precision when
    /// `mixed_precision`), or the smaller side.
    pub fn shaped_normal(
        &self,
        split: &Arc<DiagonalSplit>,
        paths: crate::cpu::products::CpuPaths,
        mixed_precision: bool,
    ) -> Box<dyn super::NormalEquations<CpuVectors>> {
        if self.base == NormalShape::Schur {
            Box::new(super::DualNormal::new(split.clone()))
        } else {
            Box::new(super::DiagonalNormal::new(split.clone(), paths, mixed_precision))
        }
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
            NormalShape::DenseColumns => match &self.dense {
                Some((split, c)) => format!(
                    "A·D²·Aᵀ as the {s} sparse columns' product, factored sparse (AMD, supernodal: {l} entries in L), and {k} dense {cols} through a Schur complement, in double precision throughout ({} multiply-adds per iteration predicted against {} for the path otherwise taken)",
                    costs(c.path),
                    costs(c.incumbent),
                    s = split.sparse.len(),
                    l = c.factor_entries,
                    k = c.dense,
                    cols = if c.dense == 1 { "column" } else { "columns" },
                ),
                None => String::new(),
            },
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
