"""glsolve: dense linear programs, least squares and linear systems whose linear algebra runs
in the OpenGL raster pipeline (any GPU vendor's driver, or Mesa's software one), beside a fast
double-precision CPU path.

* :func:`linprog` — scipy.optimize.linprog's signature, meaning and OptimizeResult, with
  ``backend="auto" | "cpu" | "hybrid" | "gpu"``;
* :func:`read_mps`, :func:`solve_mps` — models from MPS files (gzip too);
* :func:`cholesky`, :func:`solve`, :func:`lstsq` — dense factorizations and solves,
  ``backend="gpu" | "cpu"``;
* :class:`GlsolveSolver` — a CVXPY solver (``problem.solve(solver=glsolve.GlsolveSolver())``);
* :func:`info` — the OpenGL driver found and what it can do;
* :func:`random_lp` — the papers' random dense LP family.

numpy arrays (and scipy.sparse matrices) in, float64 numpy arrays out. Every solve runs with
the GIL released; Ctrl-C stops it and raises KeyboardInterrupt. Importing needs no OpenGL
driver: without one the LP solver runs on the CPU (with a :class:`GlsolveWarning`).
"""

import numpy as _np

from . import _glsolve
from ._dense import cholesky, info, lstsq, solve
from ._linprog import linprog, solve_mps
from ._mps import MpsModel, read_mps
from ._result import GlsolveWarning, OptimizeResult

__version__ = _glsolve.__version__

__all__ = [
    "GlsolveSolver",
    "GlsolveWarning",
    "MpsModel",
    "OptimizeResult",
    "cholesky",
    "info",
    "linprog",
    "lstsq",
    "random_lp",
    "read_mps",
    "solve",
    "solve_mps",
]


def random_lp(m, seed=7):
    """The member (m, seed) of the papers' random dense LP family — min c @ x s.t. A @ x = b,
    x >= 0 with n = 4m unit-norm Gaussian columns, c = 1, Gaussian b — the LP that ``glsolve
    generate --random M --seed S`` writes. Returns (c, A, b) as float64 arrays (A is m x 4m)."""
    if isinstance(m, bool) or not isinstance(m, int) or m < 1:
        raise ValueError(f"m = {m!r}: the number of rows must be an integer >= 1")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed = {seed!r}: the seed must be an integer >= 0")
    raw = _glsolve.random_lp(m, seed)
    f = lambda k: _np.frombuffer(raw[k], dtype=_np.float64).copy()  # noqa: E731
    return f("c"), f("a").reshape(raw["m"], raw["n"]), f("b")


def __getattr__(name):
    # The CVXPY solver imports cvxpy, which `import glsolve` does not need.
    if name == "GlsolveSolver":
        from .cvxpy_solver import GlsolveSolver

        return GlsolveSolver
    raise AttributeError(f"module 'glsolve' has no attribute {name!r}")
