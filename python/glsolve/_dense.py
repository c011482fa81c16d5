"""Dense linear algebra: Cholesky, linear systems and weighted least squares in double
precision on the CPU (the default: faer, one factorization for every right-hand side) or on
the GPU (single precision on the OpenGL raster pipeline, refined to double precision where
said)."""

import numpy as np

from . import _checks as chk
from . import _glsolve
from ._result import OptimizeResult

DENSE_BACKENDS = ("cpu", "gpu")


def _square(name, a):
    a = chk.matrix(name, a)
    if chk._is_sparse(a):
        a = a.toarray()
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"{name} is {a.shape[0]}x{a.shape[1]}, but it must be square")
    return np.ascontiguousarray(a)


def _values(raw, shape):
    return np.frombuffer(raw["values"], dtype=np.float64).copy().reshape(shape)


def _right_hand_sides(name, b, rows, of):
    """b as a finite (rows, k) block, with the shape the answer takes: (n,) or (n, k)."""
    bb = chk.floats(name, b)
    if bb.ndim not in (1, 2) or bb.shape[0] != rows:
        raise ValueError(f"{name} has shape {bb.shape}, but {of}: {name} must be ({rows},) or ({rows}, k)")
    chk.finite(name, bb)
    return np.ascontiguousarray(bb.reshape(rows, 1 if bb.ndim == 1 else bb.shape[1])), bb.ndim


def cholesky(A, *, variant="triangle-pair", backend="cpu"):
    """The lower factor L of a symmetric positive definite A = L @ L.T (only A's lower
    triangle is read).

    backend="cpu" (default): double precision (faer), `variant` unused. backend="gpu":
    single precision on the OpenGL raster pipeline with the Cholesky kernel `variant` (the
    papers': "triangle-pair" (default), "triangle-triad", "triangle-computed", "square-pair",
    "square-triad", "square-computed", "column-multipass", "inner"; beyond them "blocked-8",
    "blocked-16", "blocked-32"); L then carries single precision's accuracy
    (‖A − L·Lᵀ‖/‖A‖ ≈ 1e-7 when A is well conditioned).

    A 0 x 0 matrix gives a 0 x 0 factor (as numpy.linalg.cholesky). Raises ValueError for a
    matrix that is not square or has a NaN or infinity in its lower triangle,
    numpy.linalg.LinAlgError (a ValueError) when A is not positive definite, and RuntimeError
    without a usable OpenGL driver (backend="gpu").
    """
    chk.option_str("backend", backend, DENSE_BACKENDS)
    chk.option_str("variant", variant, _glsolve.cholesky_variants())
    a = chk.floats("A", A)
    if a.ndim != 2:
        raise ValueError(f"A must be 2-D, but has shape {a.shape}")
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"A is {a.shape[0]}x{a.shape[1]}, but it must be square")
    lower = np.tril(a)
    chk.finite("A (its lower triangle)", lower)
    n = a.shape[0]
    if n == 0:
        return np.zeros((0, 0))
    raw = _glsolve.cholesky(np.ascontiguousarray(lower).tobytes(), n, variant, backend)
    return np.tril(_values(raw, (n, n)))


def solve(A, b, *, backend="cpu"):
    """x with A @ x = b for a square A; b is (n,) or (n, k) — k right-hand sides — and x has
    its shape.

    backend="cpu" (default): LU with partial pivoting in double precision (faer), factored
    once for all k columns of b. backend="gpu": LU with partial pivoting in single precision on
    the OpenGL raster pipeline, refined in double precision until the LINPACK criterion
    ‖b − A·x‖∞/(‖A‖∞‖x‖∞·n·ε) ≤ 16 (a double-precision LU answers where refinement cannot
    converge), one refined solve per column of b.

    A 0 x 0 system has the empty solution (as numpy.linalg.solve). Raises ValueError for
    shapes that do not fit or a NaN or infinity, numpy.linalg.LinAlgError for a singular A
    (an exact zero pivot, numpy's rule, or a solution that overflows), RuntimeError without a
    usable OpenGL driver (backend="gpu").
    """
    chk.option_str("backend", backend, DENSE_BACKENDS)
    a = _square("A", A)
    n = a.shape[0]
    columns, ndim = _right_hand_sides("b", b, n, f"A is {n}x{n}")
    k = columns.shape[1]
    if n == 0 or k == 0:
        return np.zeros((n,) if ndim == 1 else (n, k))
    raw = _glsolve.solve(a.tobytes(), columns.tobytes(), n, k, backend)
    return _values(raw, (n,) if ndim == 1 else (n, k))


def lstsq(A, b, weights=None, *, backend="cpu"):
    """The x minimizing Σₖ (wₖ·(bₖ − (A·x)ₖ))²: A has one row per observation and one column
    per unknown, w are plain weights (wₖ = 1/σₖ; default 1). b is (rows,) or (rows, k) — k
    right-hand sides, each fitted on its own — and x is (cols,) or (cols, k).

    backend="cpu" (default): Householder QR of W·A in double precision (faer), factored once
    for all columns of b. backend="gpu": the normal equations Aᵀ·W²·A assembled and factored
    in single precision on the OpenGL raster pipeline, refined in double precision (the 2008
    structure paper's Algorithm 1), one refined solve per column of b.

    Unlike numpy.linalg.lstsq, only x is returned and a rank-deficient A is an error (the
    minimizer is then not unique): numpy.linalg.LinAlgError when A is rank deficient on the
    rows of non-zero weight. Also raises ValueError for shapes that do not fit, a NaN or
    infinity, a negative weight; RuntimeError without a usable OpenGL driver.
    """
    chk.option_str("backend", backend, DENSE_BACKENDS)
    a = chk.matrix("A", A)
    if chk._is_sparse(a):
        a = a.toarray()
    rows, cols = a.shape
    columns, ndim = _right_hand_sides("b", b, rows, f"A has {rows} rows (one observation each)")
    w = None
    if weights is not None:
        w = chk.vector("weights", weights, rows, "A (one weight per row)", squeeze=False)
        neg = np.flatnonzero(w < 0)
        if neg.size:
            raise ValueError(f"weights[{neg[0]}] = {w[neg[0]]}: weights must be >= 0")
    k = columns.shape[1]
    shape = (cols,) if ndim == 1 else (cols, k)
    if cols == 0 or k == 0:
        return np.zeros(shape)
    raw = _glsolve.lstsq(np.ascontiguousarray(a).tobytes(), columns.tobytes(), None if w is None else w.tobytes(),
                         rows, cols, k, backend)
    return _values(raw, shape)


def info():
    """The OpenGL driver glsolve finds through EGL and its capability record (what ``glsolve
    info`` prints), or why there is none (then the LP solver runs on the cpu backend, and the
    dense functions' backend="gpu" raises RuntimeError). Returns, without printing, a dict
    (an OptimizeResult: its keys are attributes too): ``available``, ``driver`` (name ->
    value; None without a driver) and ``error`` (why there is none; None with a driver)."""
    raw = _glsolve.info()
    if "driver" in raw:
        return OptimizeResult(available=True, driver=dict(raw["driver"]), error=None)
    return OptimizeResult(available=False, driver=None, error=raw["error"])
