//! Building an [`LpModel`] in code: sizes come from the matrix, names are optional, and the
//! result is validated ([`LpModel::validate`]) before it is handed out.
//!
//! ```
//! use glsolve::lp::LpModel;
//! use nalgebra::dmatrix;
//! // max 3x + 2y  s.t.  x + y ≤ 4,  x + 3y ≤ 6,  0 ≤ x ≤ 3, y ≥ 0
//! let model = LpModel::builder(dmatrix![1.0, 1.0; 1.0, 3.0])
//!     .maximize([3.0, 2.0])
//!     .rows_at_most([4.0, 6.0])
//!     .col_bounds([0.0, 0.0], [3.0, f64::INFINITY])
//!     .col_names(["x", "y"])
//!     .build()?;
//! assert_eq!((model.num_rows(), model.num_cols()), (2, 2));
//! assert_eq!(model.row_name(1), "R1");
//! # Ok::<(), glsolve::lp::ModelError>(())
//! ```

use crate::lp::model::ModelError;
use crate::lp::model::{LpModel, Sense, SparseColMatrix};
use nalgebra::{DMatrix, DVector};

/// Anything that is a list of f64: `Vec<f64>`, `&[f64]`, arrays, nalgebra's `DVector<f64>`.
pub trait IntoValues {
    /// The values, in order.
    fn into_values(self) -> Vec<f64>;
}

impl IntoValues for Vec<f64> {
    fn into_values(self) -> Vec<f64> {
        self
    }
}
impl IntoValues for &Vec<f64> {
    fn into_values(self) -> Vec<f64> {
        self.clone()
    }
}
impl IntoValues for &[f64] {
    fn into_values(self) -> Vec<f64> {
        self.to_vec()
    }
}
impl<const N: usize> IntoValues for [f64; N] {
    fn into_values(self) -> Vec<f64> {
        self.to_vec()
    }
}
impl<const N: usize> IntoValues for &[f64; N] {
    fn into_values(self) -> Vec<f64> {
        self.to_vec()
    }
}
impl IntoValues for DVector<f64> {
    fn into_values(self) -> Vec<f64> {
        self.as_slice().to_vec()
    }
}
impl IntoValues for &DVector<f64> {
    fn into_values(self) -> Vec<f64> {
        self.as_slice().to_vec()
    }
}

impl From<&DMatrix<f64>> for SparseColMatrix {
    fn from(a: &DMatrix<f64>) -> Self {
        SparseColMatrix::from_dense(a)
    }
}
impl From<DMatrix<f64>> for SparseColMatrix {
    fn from(a: DMatrix<f64>) -> Self {
        SparseColMatrix::from_dense(&a)
    }
}
impl From<&SparseColMatrix> for SparseColMatrix {
    fn from(a: &SparseColMatrix) -> Self {
        a.clone()
    }
}

impl LpModel {
    /// The common LP: minimize cᵀx subject to `row_lower ≤ A·x ≤ row_upper` and x ≥ 0. Sizes are
    /// A's; the vectors must match them. For a maximization, other column bounds, names or an
    /// objective constant use [`LpModel::builder`].
    ///
    /// ```
    /// use glsolve::lp::LpModel;
    /// use nalgebra::{dmatrix, dvector};
    /// let inf = f64::INFINITY;
    /// // min x + 2y  s.t.  x + y ≥ 1,  x, y ≥ 0
    /// let model = LpModel::new(dmatrix![1.0, 1.0], dvector![1.0, 2.0], [1.0], [inf])?;
    /// assert_eq!(model.num_cols(), 2);
    /// # Ok::<(), glsolve::lp::ModelError>(())
    /// ```
    pub fn new(
        a: impl Into<SparseColMatrix>,
        c: impl IntoValues,
        row_lower: impl IntoValues,
        row_upper: impl IntoValues,
    ) -> Result<LpModel, ModelError> {
        LpModel::builder(a).minimize(c).row_bounds(row_lower, row_upper).build()
    }

    /// A builder for a model with constraint matrix `a` (a `DMatrix<f64>` or a
    /// [`SparseColMatrix`]). Columns default to x ≥ 0; the objective and the row bounds must
    /// be given.
    pub fn builder(a: impl Into<SparseColMatrix>) -> LpModelBuilder {
        let a: SparseColMatrix = a.into();
        let n = a.ncols;
        LpModelBuilder {
            model: LpModel {
                objective_name: "COST".into(),
                col_lower: vec![0.0; n],
                col_upper: vec![f64::INFINITY; n],
                a,
                ..LpModel::default()
            },
            objective: false,
            rows: false,
        }
    }
}

/// Builds an [`LpModel`] step by step; [`LpModelBuilder::build`] validates it.
#[derive(Clone, Debug)]
#[must_use = "a builder does nothing until build() is called"]
pub struct LpModelBuilder {
    model: LpModel,
    objective: bool,
    rows: bool,
}

impl LpModelBuilder {
    /// Minimize cᵀx.
    pub fn minimize(mut self, c: impl IntoValues) -> Self {
        self.model.sense = Sense::Minimize;
        self.model.c = c.into_values();
        self.objective = true;
        self
    }
    /// Maximize cᵀx.
    pub fn maximize(mut self, c: impl IntoValues) -> Self {
        self.model.sense = Sense::Maximize;
        self.model.c = c.into_values();
        self.objective = true;
        self
    }
    /// A constant added to the objective (reported objective = cᵀx + constant).
    pub fn objective_constant(mut self, constant: f64) -> Self {
        self.model.obj_constant = constant;
        self
    }
    /// `lower ≤ A·x ≤ upper` (±∞ for a missing side; lower = upper for an equality).
    pub fn row_bounds(mut self, lower: impl IntoValues, upper: impl IntoValues) -> Self {
        self.model.row_lower = lower.into_values();
        self.model.row_upper = upper.into_values();
        self.rows = true;
        self
    }
    /// `A·x ≤ b`.
    pub fn rows_at_most(self, b: impl IntoValues) -> Self {
        let b = b.into_values();
        let lower = vec![f64::NEG_INFINITY; b.len()];
        self.row_bounds(lower, b)
    }
    /// `A·x ≥ b`.
    pub fn rows_at_least(self, b: impl IntoValues) -> Self {
        let b = b.into_values();
        let upper = vec![f64::INFINITY; b.len()];
        self.row_bounds(b, upper)
    }
    /// `A·x = b`.
    pub fn rows_equal(self, b: impl IntoValues) -> Self {
        let b = b.into_values();
        self.row_bounds(b.clone(), b)
    }
    /// `lower ≤ x ≤ upper` (default: 0 ≤ x).
    pub fn col_bounds(mut self, lower: impl IntoValues, upper: impl IntoValues) -> Self {
        self.model.col_lower = lower.into_values();
        self.model.col_upper = upper.into_values();
        self
    }
    /// Every column free: −∞ < x < +∞.
    pub fn free_columns(mut self) -> Self {
        let n = self.model.a.ncols;
        self.model.col_lower = vec![f64::NEG_INFINITY; n];
        self.model.col_upper = vec![f64::INFINITY; n];
        self
    }
    /// The model's name (logs, MPS output).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.model.name = name.into();
        self
    }
    /// One name per row.
    pub fn row_names<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.model.row_names = names.into_iter().map(Into::into).collect();
        self
    }
    /// One name per column.
    pub fn col_names<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.model.col_names = names.into_iter().map(Into::into).collect();
        self
    }
    /// The model, if it is well formed ([`LpModel::validate`]); a model with rows needs row
    /// bounds, and every model needs an objective.
    pub fn build(self) -> Result<LpModel, ModelError> {
        if !self.objective {
            return Err(ModelError::Missing("objective (call minimize or maximize)"));
        }
        if !self.rows && self.model.a.nrows > 0 {
            return Err(ModelError::Missing("row bounds (call row_bounds, rows_at_most, rows_at_least or rows_equal)"));
        }
        self.model.validate()?;
        Ok(self.model)
    }
}
