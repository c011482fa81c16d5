"""Shared fixtures: the repository's NETLIB problems and the checks of an LP's duals in scipy's
conventions."""

import pathlib

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
NETLIB = REPO / "tests" / "data" / "netlib"


def netlib_problems():
    """Every MPS file of tests/data/netlib (whatever is added there later is tested too)."""
    return sorted(p for p in NETLIB.iterdir() if p.name.endswith((".mps", ".mps.gz")))


def dual_checks(res, c, A_ub, b_ub, A_eq, b_eq, lower, upper):
    """The measures of an optimal answer's marginals in scipy's conventions: the sign
    violations, the stationarity residual ‖c − A_ubᵀ·y_ub − A_eqᵀ·y_eq − λ_l − λ_u‖∞ and the
    dual objective b_ubᵀ·y_ub + b_eqᵀ·y_eq + lᵀ·λ_l + uᵀ·λ_u (finite bounds only). They hold
    for every optimal dual, unique or not, so they test both the signs and the values."""
    y_ub, y_eq = res.ineqlin.marginals, res.eqlin.marginals
    l_m, u_m = res.lower.marginals, res.upper.marginals
    scale = max(1.0, np.abs(y_ub).max(initial=0), np.abs(y_eq).max(initial=0), np.abs(l_m).max(initial=0),
                np.abs(u_m).max(initial=0))
    signs = max(y_ub.max(initial=0), -l_m.min(initial=0), u_m.max(initial=0)) / scale
    at = lambda A, y: np.asarray(A.T @ y).reshape(-1) if A.shape[0] else np.zeros(len(c))  # noqa: E731
    stationarity = np.abs(c - at(A_ub, y_ub) - at(A_eq, y_eq) - l_m - u_m).max() / max(1.0, np.abs(c).max())
    fin_l, fin_u = np.isfinite(lower), np.isfinite(upper)
    assert np.all(l_m[~fin_l] == 0) and np.all(u_m[~fin_u] == 0), "a marginal on an infinite bound"
    dual_obj = b_ub @ y_ub + b_eq @ y_eq + lower[fin_l] @ l_m[fin_l] + upper[fin_u] @ u_m[fin_u]
    return signs, stationarity, dual_obj


def nondegenerate(res, lower, upper, b_ub, rows, tol=1e-7):
    """Whether scipy's (HiGHS's) optimal vertex is primal nondegenerate, so that the optimal
    duals are unique: as many variables and row slacks strictly inside their bounds as there
    are rows."""
    x = res.x
    off_l = ~np.isfinite(lower) | (x - lower > tol * (1 + np.abs(lower)))
    off_u = ~np.isfinite(upper) | (upper - x > tol * (1 + np.abs(upper)))
    inside = np.sum(off_l & off_u) + np.sum(res.ineqlin.residual > tol * (1 + np.abs(b_ub)))
    return inside == rows


@pytest.fixture(scope="session")
def netlib_dir():
    return NETLIB
