"""`read_mps`: an MPS file's model as numpy/scipy data."""

import os

import numpy as np

from . import _glsolve


class MpsModel:
    """A linear program as an MPS file writes it::

        min or max  c @ x + obj_constant
        s.t.        row_lower <= A @ x <= row_upper,  col_lower <= x <= col_upper

    Attributes: ``name``, ``sense`` ("min" or "max"), ``c``, ``obj_constant``, ``A`` (a
    scipy.sparse CSC array where scipy is installed, else the tuple (indptr, indices, data,
    shape)), ``row_lower``, ``row_upper``, ``col_lower``, ``col_upper`` (±inf for no bound),
    ``row_names``, ``col_names``, ``integer`` (integer marks, relaxed by the LP solver) and
    ``warnings`` (the reader's non-fatal findings).
    """

    def __init__(self, raw):
        f = lambda k: np.frombuffer(raw[k], dtype=np.float64).copy()  # noqa: E731
        i = lambda k: np.frombuffer(raw[k], dtype=np.int64).copy()  # noqa: E731
        self.name, self.sense = raw["name"], raw["sense"]
        self.c, self.obj_constant = f("c"), raw["obj_constant"]
        shape = (raw["nrows"], raw["ncols"])
        parts = (f("data"), i("indices"), i("indptr"))
        try:
            import scipy.sparse as sp

            self.A = sp.csc_array(parts, shape=shape)
        except ImportError:  # pragma: no cover - exercised only without scipy
            self.A = (parts[2], parts[1], parts[0], shape)
        self.row_lower, self.row_upper = f("row_lower"), f("row_upper")
        self.col_lower, self.col_upper = f("col_lower"), f("col_upper")
        self.row_names, self.col_names = list(raw["row_names"]), list(raw["col_names"])
        self.integer, self.warnings = list(raw["integer"]), list(raw["warnings"])

    @property
    def shape(self):
        return (len(self.row_lower), len(self.c))

    def to_linprog(self):
        """The model as keyword arguments of ``linprog`` (glsolve's or scipy's): equality rows
        to A_eq, ``<=`` rows to A_ub, ``>=`` rows negated into A_ub, ranged rows as both, free
        rows dropped; a maximization becomes min (-c) @ x. The objective of the file is then
        ``objective(result.fun)``."""
        import scipy.sparse as sp

        A = sp.csr_array(self.A)
        lo, up = self.row_lower, self.row_upper
        eq = np.flatnonzero(lo == up)
        le = np.flatnonzero((lo != up) & np.isfinite(up))
        ge = np.flatnonzero((lo != up) & np.isfinite(lo))
        A_ub = sp.vstack([A[le], -A[ge]]).tocsc()
        b_ub = np.concatenate([up[le], -lo[ge]])
        sign = -1.0 if self.sense == "max" else 1.0
        return dict(c=sign * self.c, A_ub=A_ub, b_ub=b_ub, A_eq=A[eq].tocsc(), b_eq=lo[eq],
                    bounds=np.column_stack([self.col_lower, self.col_upper]))

    def objective(self, fun):
        """The file's objective for the ``fun`` of a solve of :meth:`to_linprog`'s problem."""
        return (-fun if self.sense == "max" else fun) + self.obj_constant

    def __repr__(self):
        return f"MpsModel({self.name!r}, {self.sense}, {self.shape[0]} rows, {self.shape[1]} columns)"


def read_mps(path):
    """Read an MPS file (free or fixed format; gzip recognized by its magic bytes) into an
    :class:`MpsModel`. OSError for a file that cannot be read; ValueError, with the line, for
    one that does not parse."""
    return MpsModel(_glsolve.read_mps(os.fspath(path)))
