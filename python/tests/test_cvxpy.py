"""GlsolveSolver through CVXPY's custom-solver mechanism against CLARABEL on LPs written in
CVXPY: values, statuses, duals; anything that is not an LP refused with CVXPY's own error."""

import cvxpy as cp
import numpy as np
import pytest

import glsolve
from glsolve import GlsolveSolver


def portfolio(seed):
    """A scenario LP: maximize the mean return subject to a CVaR-like shortfall limit."""
    rng = np.random.default_rng(seed)
    S, n = 40, 8
    R = rng.normal(0.01, 0.05, size=(S, n))
    w, t, u = cp.Variable(n), cp.Variable(), cp.Variable(S)
    cons = [cp.sum(w) == 1, w >= 0, w <= 0.4, u >= 0, u >= -R @ w - t, t + cp.sum(u) / (0.1 * S) <= 0.05]
    return cp.Problem(cp.Maximize(R.mean(axis=0) @ w), cons)


def l1_regression(seed):
    rng = np.random.default_rng(seed)
    X, y = rng.normal(size=(30, 4)), rng.normal(size=30)
    beta = cp.Variable(4)
    return cp.Problem(cp.Minimize(cp.norm1(X @ beta - y)), [cp.abs(beta) <= 1])


def chebyshev(seed):
    rng = np.random.default_rng(seed)
    X, y = rng.normal(size=(25, 3)), rng.normal(size=25)
    beta = cp.Variable(3)
    return cp.Problem(cp.Minimize(cp.norm_inf(X @ beta - y)), [beta[0] >= -0.5, beta[1] == 0.25])


@pytest.mark.parametrize("make", [portfolio, l1_regression, chebyshev])
@pytest.mark.parametrize("seed", range(3))
def test_matches_clarabel(make, seed):
    ref = make(seed)
    ref.solve(solver=cp.CLARABEL)
    prob = make(seed)
    prob.solve(solver=GlsolveSolver(backend="cpu"))
    assert prob.status == ref.status == cp.OPTIMAL
    assert abs(prob.value - ref.value) <= 1e-6 * max(1.0, abs(ref.value))
    for c_ours, c_ref in zip(prob.constraints, ref.constraints):
        np.testing.assert_allclose(c_ours.dual_value, c_ref.dual_value, atol=1e-5, rtol=1e-4)
    assert prob.solver_stats.solver_name == "GLSOLVE"
    assert prob.solver_stats.extra_stats["backend"] == "cpu"


def test_infeasible_and_unbounded():
    x = cp.Variable(2)
    infeasible = cp.Problem(cp.Minimize(cp.sum(x)), [x >= 1, cp.sum(x) <= 1])
    infeasible.solve(solver=GlsolveSolver())
    assert infeasible.status == cp.INFEASIBLE and infeasible.value == np.inf
    unbounded = cp.Problem(cp.Minimize(x[0] - x[1]), [x >= 0, x[0] <= 3])
    unbounded.solve(solver=GlsolveSolver())
    assert unbounded.status == cp.UNBOUNDED and unbounded.value == -np.inf


def test_iteration_limit_is_a_user_limit():
    prob = portfolio(0)
    prob.solve(solver=GlsolveSolver(backend="cpu"), max_iter=2)
    assert prob.status == cp.USER_LIMIT and prob.value is not None


def test_not_an_lp_is_refused_by_cvxpy():
    x = cp.Variable(3)
    for prob in [cp.Problem(cp.Minimize(cp.norm(x, 2)), [cp.sum(x) == 1]),
                 cp.Problem(cp.Minimize(cp.sum_squares(x)), [cp.sum(x) == 1]),
                 cp.Problem(cp.Maximize(cp.sum(cp.log(x))), [cp.sum(x) == 1])]:
        with pytest.raises(cp.error.SolverError, match="GLSOLVE cannot solve this problem"):
            prob.solve(solver=GlsolveSolver())
    z = cp.Variable(2, integer=True)
    with pytest.raises(cp.error.SolverError, match="not MIP-capable"):
        cp.Problem(cp.Minimize(cp.sum(z)), [z >= 0.5]).solve(solver=GlsolveSolver())


def test_options():
    with pytest.raises(TypeError, match="unknown options"):
        GlsolveSolver(method="simplex")
    with pytest.raises(ValueError, match="backend = 'x'"):
        portfolio(0).solve(solver=GlsolveSolver(backend="x"))
    assert glsolve.GlsolveSolver is GlsolveSolver


def test_rows_on_one_variable_keep_their_duals():
    """Rows with one entry are solved as bounds; their duals come back scaled by the entry,
    and the tightest of several rows on one bound gets it."""

    def make():
        x = cp.Variable(3)
        cons = [2 * x[0] <= 3, 3 * x[0] >= -3, -4 * x[1] <= -1, x[1] >= 0.1, 0.5 * x[2] >= 0.2, x[2] <= 10,
                x[0] + x[1] + x[2] >= 2, x[0] - x[2] <= 1]
        return cp.Problem(cp.Minimize(3 * x[0] + x[1] + 2 * x[2]), cons)

    ref, prob = make(), make()
    ref.solve(solver=cp.CLARABEL)
    prob.solve(solver=GlsolveSolver(backend="cpu"))
    assert prob.status == ref.status == cp.OPTIMAL
    assert abs(prob.value - ref.value) <= 1e-7 * max(1.0, abs(ref.value))
    for c_ours, c_ref in zip(prob.constraints, ref.constraints):
        np.testing.assert_allclose(c_ours.dual_value, c_ref.dual_value, atol=1e-6)
    assert any(abs(c.dual_value) > 0.1 for c in prob.constraints[:4])
