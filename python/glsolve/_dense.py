"""Dense linear algebra: Cholesky, linear systems and weighted least squares on the GPU
(single precision on the OpenGL raster pipeline, refined to double precision where said) or
the CPU (double precision)."""

import numpy as np

from . import _checks as chk
from . import _glsolve
from ._result import OptimizeResult

DENSE_BACKENDS = ("gpu", "cpu")


def _square(name, a):
    a = chk.matrix(name, a)
    if chk._is_sparse(a):
        a = a.toarray()
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"{name} is {a.shape[0]}x{a.shape[1]}, but it must be square")
    return np.ascontiguousarray(a)


def _values(raw, shape):
    return np.frombuffer(raw["values"], dtype=np.float64).copy().reshape(shape)


def cholesky(A, *, variant="triangle-pair", backend="gpu"):
    """The lower factor L of a symmetric positive definite A = L @ L.T (only A's lower
    triangle is read).

    backend="gpu": single precision on the OpenGL raster pipeline with the Cholesky kernel
    `variant` (the papers': "triangle-pair" (default), "triangle-triad", "triangle-computed",
    "square-pair", "square-triad", "square-computed", "column-multipass", "inner"; beyond
    them "blocked-8", "blocked-16", "blocked-32"); L then carries single precision's accuracy
    (‖A − L·Lᵀ‖/‖A‖ ≈ 1e-7 when A is well conditioned). backend="cpu": double precision
    (nalgebra), `variant` unused.

    Raises ValueError for a matrix that is not square or has a NaN or infinity in its lower
    triangle, numpy.linalg.LinAlgError (a ValueError) when A is not positive definite, and
    RuntimeError without a usable OpenGL driver (backend="gpu").
    """
    chk.option_str("backend", backend, DENSE_BACKENDS)
    chk.option_str("variant", variant, _glsolve.cholesky_variants())
    a = chk.floats("A", A)
    if a.ndim != 2:
        raise ValueError(f"A must be 2-D, but has shape {a.shape}")
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"A is {a.shape[0]}x{a.shape[1]}, but it must be square")
    chk.finite("A (its lower triangle)", np.tril(a))
    n = a.shape[0]
    raw = _glsolve.cholesky(np.ascontiguousarray(a).tobytes(), n, variant, backend)
    return np.tril(_values(raw, (n, n)))


def solve(A, b, *, backend="gpu"):
    """x with A @ x = b for a square A; b is (n,) or (n, k) and x has its shape.

    backend="gpu": LU with partial pivoting in single precision on the OpenGL raster
    pipeline, refined in double precision until the LINPACK criterion
    ‖b − A·x‖∞/(‖A‖∞‖x‖∞·n·ε) ≤ 16 (a double-precision LU answers where refinement cannot
    converge). backend="cpu": double-precision LU (nalgebra).

    Raises ValueError for shapes that do not fit or a NaN or infinity, numpy.linalg.LinAlgError
    for a singular A, RuntimeError without a usable OpenGL driver (backend="gpu").
    """
    chk.option_str("backend", backend, DENSE_BACKENDS)
    a = _square("A", A)
    n = a.shape[0]
    bb = chk.floats("b", b)
    if bb.ndim not in (1, 2) or bb.shape[0] != n:
        raise ValueError(f"b has shape {bb.shape}, but A is {n}x{n}: b must be ({n},) or ({n}, k)")
    chk.finite("b", bb)
    columns = bb.reshape(n, -1)
    x = np.empty_like(columns)
    for k in range(columns.shape[1]):
        raw = _glsolve.solve(a.tobytes(), np.ascontiguousarray(columns[:, k]).tobytes(), n, backend)
        x[:, k] = _values(raw, (n,))
    return x.reshape(bb.shape)


def lstsq(A, b, weights=None, *, backend="gpu"):
    """The x minimizing Σₖ (wₖ·(bₖ − (A·x)ₖ))²: A has one row per observation and one column
    per unknown, w are plain weights (wₖ = 1/σₖ; default 1).

    backend="gpu": the normal equations Aᵀ·W²·A assembled and factored in single precision on
    the OpenGL raster pipeline, refined in double precision (the 2008 structure paper's
    Algorithm 1). backend="cpu": Householder QR of W·A in double precision (nalgebra).

    Raises ValueError for shapes that do not fit, a NaN or infinity, a negative weight;
    numpy.linalg.LinAlgError when A is rank deficient on the rows of non-zero weight (the
    minimizer is not unique; none is returned); RuntimeError without a usable OpenGL driver.
    """
    chk.option_str("backend", backend, DENSE_BACKENDS)
    a = chk.matrix("A", A)
    if chk._is_sparse(a):
        a = a.toarray()
    rows, cols = a.shape
    bv = chk.vector("b", b, rows, "A (one observation per row)", squeeze=False)
    w = None
    if weights is not None:
        w = chk.vector("weights", weights, rows, "A (one weight per row)", squeeze=False)
        neg = np.flatnonzero(w < 0)
        if neg.size:
            raise ValueError(f"weights[{neg[0]}] = {w[neg[0]]}: weights must be >= 0")
        w = w.tobytes()
    raw = _glsolve.lstsq(np.ascontiguousarray(a).tobytes(), bv.tobytes(), w, rows, cols, backend)
    return _values(raw, (cols,))


def info():
    """The OpenGL driver glsolve finds through EGL and its capability record (what ``glsolve
    info`` prints), or why there is none (then the LP solver runs on the cpu backend, and the
    dense functions' backend="gpu" raises RuntimeError). Returns the record as an
    OptimizeResult: ``available``, ``driver`` (name -> value) or ``error``; prints it too."""
    raw = _glsolve.info()
    if "driver" in raw:
        record = dict(raw["driver"])
        width = max(len(k) for k in record) + 1
        for k, v in record.items():
            print(f"{k + ':':{width}} {v}")
        return OptimizeResult(available=True, driver=record, error=None)
    print(f"no OpenGL driver: {raw['error']}\nglsolve's LP solver runs on the cpu backend.")
    return OptimizeResult(available=False, driver={}, error=raw["error"])
