"""Dense linear algebra: Cholesky, linear systems and weighted least squares in double
precision on the CPU (the default: faer, one factorization for every right-hand side) or on
the GPU (single precision on the OpenGL raster pipeline, refined to double precision where
said, and checked in double precision: where the check fails, the CPU answers in double
precision, a GlsolveWarning says so, and ``return_info=True`` says how each answer was
obtained)."""

import warnings

import numpy as np

from . import _checks as chk
from . import _glsolve
from ._result import GlsolveWarning, OptimizeResult

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


def _info(raw, ndim, backend, what):
    """The OptimizeResult of ``return_info`` from the extension's per-column info; warns
    (GlsolveWarning) for every column the gpu path handed to the CPU's double precision."""
    cols = raw["info"]
    for j, c in enumerate(cols):
        if c["method"] == "DoubleFallback":
            which = "" if ndim == 1 else f" (column {j} of b)"
            warnings.warn(f"{what}: the gpu backend's mixed-precision answer{which} was not proven accurate "
                          f"({c['reason']}); double precision on the CPU answered instead", GlsolveWarning,
                          stacklevel=3)
    keys = []
    for c in cols:
        keys += [k for k in c if k not in keys]
    one = ndim == 1 or ndim == 0
    info = OptimizeResult(backend=backend, message=raw["method"])
    for k in keys:
        values = [c.get(k) for c in cols]
        info["nit" if k == "iterations" else k] = values[0] if one else values
    return info


def _empty_info(backend):
    return OptimizeResult(backend=backend, method=None, reason=None, nit=0, message="an empty problem: nothing to solve")


def cholesky(A, *, variant="triangle-pair", backend="cpu", return_info=False):
    """The lower factor L of a symmetric positive definite A = L @ L.T (only A's lower
    triangle is read).

    backend="cpu" (default): double precision (faer), `variant` unused. backend="gpu":
    single precision on the OpenGL raster pipeline with the Cholesky kernel `variant` (the
    papers': "triangle-pair" (default), "triangle-triad", "triangle-computed", "square-pair",
    "square-triad", "square-computed", "column-multipass", "inner"; beyond them "blocked-8",
    "blocked-16", "blocked-32"); L then carries single precision's accuracy
    (‖A − L·Lᵀ‖/‖A‖ ≈ 1e-7 when A is well conditioned).

    return_info=True returns ``(L, info)``: ``info`` is an OptimizeResult with ``method``
    ("Single": the gpu backend's single-precision factor; "Double": the cpu backend's),
    ``backward_error`` = ‖A − L·Lᵀ‖_F/‖A‖_F computed in double precision (m³ operations on the
    CPU, done only when asked; single precision keeps it a small multiple of n·6e-8),
    ``backend`` and ``message``.

    A 0 x 0 matrix gives a 0 x 0 factor (as numpy.linalg.cholesky). Raises ValueError for a
    matrix that is not square or has a NaN or infinity in its lower triangle,
    numpy.linalg.LinAlgError (a ValueError) when A is not positive definite, and RuntimeError
    without a usable OpenGL driver (backend="gpu").
    """
    chk.option_str("backend", backend, DENSE_BACKENDS)
    chk.option_bool("return_info", return_info)
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
        return (np.zeros((0, 0)), _empty_info(backend)) if return_info else np.zeros((0, 0))
    raw = _glsolve.cholesky(np.ascontiguousarray(lower).tobytes(), n, variant, backend, return_info)
    L = np.tril(_values(raw, (n, n)))
    return (L, _info(raw, 0, backend, "cholesky")) if return_info else L


def solve(A, b, *, backend="cpu", return_info=False):
    """x with A @ x = b for a square A; b is (n,) or (n, k) — k right-hand sides — and x has
    its shape.

    backend="cpu" (default): LU with partial pivoting in double precision (faer), factored
    once for all k columns of b. backend="gpu": LU with partial pivoting in single precision on
    the OpenGL raster pipeline, refined in double precision, and returned when a proven bound on
    its backward error, (‖b − A·x‖∞ + its rounding)/(‖A‖∞‖x‖∞·n·ε), is ≤ 16 (HPL's
    threshold); where refinement cannot get there (κ(A) beyond about 1e7) a double-precision LU
    on the CPU answers and a GlsolveWarning says so. One refined solve per column of b.

    return_info=True returns ``(x, info)``: ``info`` is an OptimizeResult with ``method``
    ("Mixed": refined on the gpu and proven; "DoubleFallback": the CPU's LU answered, and
    ``reason`` says why; "Double": the cpu backend), ``nit`` (refinement steps),
    ``backward_error`` and ``threshold`` (gpu backend), ``backend`` and ``message``. With k
    right-hand sides each of these is a list, one entry per column.

    A 0 x 0 system has the empty solution (as numpy.linalg.solve). Raises ValueError for
    shapes that do not fit or a NaN or infinity, numpy.linalg.LinAlgError for a singular A
    (an exact zero pivot, numpy's rule, or a solution that overflows), RuntimeError without a
    usable OpenGL driver (backend="gpu").
    """
    chk.option_str("backend", backend, DENSE_BACKENDS)
    chk.option_bool("return_info", return_info)
    a = _square("A", A)
    n = a.shape[0]
    columns, ndim = _right_hand_sides("b", b, n, f"A is {n}x{n}")
    k = columns.shape[1]
    if n == 0 or k == 0:
        x = np.zeros((n,) if ndim == 1 else (n, k))
        return (x, _empty_info(backend)) if return_info else x
    raw = _glsolve.solve(a.tobytes(), columns.tobytes(), n, k, backend)
    info = _info(raw, ndim, backend, "solve")
    x = _values(raw, (n,) if ndim == 1 else (n, k))
    return (x, info) if return_info else x


def lstsq(A, b, weights=None, *, backend="cpu", return_info=False):
    """The x minimizing Σₖ (wₖ·(bₖ − (A·x)ₖ))²: A has one row per observation and one column
    per unknown, w are plain weights (wₖ = 1/σₖ; default 1). b is (rows,) or (rows, k) — k
    right-hand sides, each fitted on its own — and x is (cols,) or (cols, k).

    backend="cpu" (default): Householder QR of W·A in double precision (faer), factored once
    for all columns of b. backend="gpu": the normal equations Aᵀ·W²·A assembled and factored
    in single precision on the OpenGL raster pipeline, refined in double precision (the 2008
    structure paper's Algorithm 1, run until the correction is below 1e-9 of x), and checked:
    a bound on its forward error ‖x − x*‖∞/‖x‖∞, computed in double precision from the normal
    equations' residual with every rounding accounted for, must be ≤ 1e-8. Where it is not —
    single precision cannot resolve Aᵀ·W²·A once κ(A)² nears 1e7 — Householder QR in double
    precision on the CPU answers and a GlsolveWarning says why. One refined solve per column of
    b.

    return_info=True returns ``(x, info)``: ``info`` is an OptimizeResult with ``method``
    ("Mixed": the gpu answer passed its check; "DoubleFallback": QR on the CPU answered, and
    ``reason`` says why; "Double": the cpu backend), ``nit`` (refinement steps), and on the gpu
    backend ``forward_error`` (the bound), ``threshold`` (1e-8), ``backward_error`` (a proven
    bound on the normwise backward error: x solves the problem exactly for W·A changed by at
    most that fraction in the Frobenius norm) and ``contraction`` (the refinement's rate), with
    ``backend`` and ``message``. With k right-hand sides each of these is a list, one entry per
    column.

    Unlike numpy.linalg.lstsq, only x is returned and a rank-deficient A is an error (the
    minimizer is then not unique): numpy.linalg.LinAlgError when A is rank deficient on the
    rows of non-zero weight. Also raises ValueError for shapes that do not fit, a NaN or
    infinity, a negative weight; RuntimeError without a usable OpenGL driver.
    """
    chk.option_str("backend", backend, DENSE_BACKENDS)
    chk.option_bool("return_info", return_info)
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
        return (np.zeros(shape), _empty_info(backend)) if return_info else np.zeros(shape)
    raw = _glsolve.lstsq(np.ascontiguousarray(a).tobytes(), columns.tobytes(), None if w is None else w.tobytes(),
                         rows, cols, k, backend)
    info = _info(raw, ndim, backend, "lstsq")
    x = _values(raw, shape)
    return (x, info) if return_info else x


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
