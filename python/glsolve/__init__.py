"""glsolve: dense linear programs, least squares and linear systems whose linear algebra runs
in the OpenGL raster pipeline (any GPU vendor's driver, or Mesa's software one), beside a fast
double-precision CPU path.

* :func:`linprog` — scipy.optimize.linprog's signature (method, callback, options, x0 and
  integrality included: a scipy call runs unchanged), meaning and OptimizeResult, with
  ``backend="auto" | "cpu" | "hybrid" | "gpu"``;
* :func:`read_mps`, :func:`solve_mps` — models from MPS files (gzip too);
* :func:`cholesky`, :func:`solve`, :func:`lstsq` — dense factorizations and solves, double
  precision on the CPU by default (``backend="gpu"`` on request), many right-hand sides at once;
* :class:`GlsolveSolver` — a CVXPY solver (``problem.solve(solver=glsolve.GlsolveSolver())``;
  needs ``pip install 'glsolve[cvxpy]'``);
* :func:`info` — the OpenGL driver found and what it can do;
* :func:`random_lp` — the papers' random dense LP family.

numpy arrays (and scipy.sparse matrices) in, float64 numpy arrays out. Every solve runs with
the GIL released; Ctrl-C stops it and raises KeyboardInterrupt. Importing needs no OpenGL
driver: without one the LP solver runs on the CPU (with a :class:`GlsolveWarning`).
"""

import numpy as _np

from . import _checks as _chk
from . import _glsolve
from ._dense import cholesky, info, lstsq, solve
from ._linprog import linprog, solve_mps
from ._mps import MpsModel, read_mps
from ._result import GlsolveWarning, OptimizeResult

__version__ = _glsolve.__version__

# random_lp's largest m: A (m x 4m float64) is then 8 GiB.
RANDOM_LP_MAX_ROWS = 16384

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
    if isinstance(m, bool) or not isinstance(m, int) or not 1 <= m <= RANDOM_LP_MAX_ROWS:
        raise ValueError(f"m = {_chk.shown(m)}: the number of rows must be an integer from 1 to {RANDOM_LP_MAX_ROWS} "
                         "(A is m x 4m float64: 8 GiB at the largest)")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed = {_chk.shown(seed)}: the seed must be an integer from 0 to 2**64 - 1")
    raw = _glsolve.random_lp(m, seed)
    f = lambda k: _np.frombuffer(raw[k], dtype=_np.float64).copy()  # noqa: E731
    return f("c"), f("a").reshape(raw["m"], raw["n"]), f("b")


def __getattr__(name):
    # The CVXPY solver imports cvxpy and scipy, which `import glsolve` does not need.
    if name == "GlsolveSolver":
        try:
            from .cvxpy_solver import GlsolveSolver
        except ModuleNotFoundError as e:
            if (e.name or "").split(".")[0] not in ("cvxpy", "scipy"):
                raise
            raise ImportError(f"glsolve.GlsolveSolver needs CVXPY and scipy, and {e.name.split('.')[0]} is not installed: "
                              "pip install 'glsolve[cvxpy]'", name=e.name) from e
        return GlsolveSolver
    raise AttributeError(f"module 'glsolve' has no attribute {name!r}")
