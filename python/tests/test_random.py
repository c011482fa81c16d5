"""linprog against scipy's HiGHS on random LPs: equality and inequality rows, free, fixed,
bounded and half-bounded columns, dense and sparse matrices; infeasible and unbounded ones;
the gpu and hybrid backends on the papers' family."""

import numpy as np
import pytest
import scipy.optimize as so
import scipy.sparse as sp

import glsolve

from conftest import dual_checks, nondegenerate


def random_lp(seed, m_ub=12, m_eq=6, n=30):
    """A feasible, bounded LP with every kind of column: a point x0 inside the bounds makes the
    rows feasible; a dual point with the right signs makes c, so the dual is feasible too."""
    rng = np.random.default_rng(seed)
    kinds = rng.choice(["free", "fixed", "boxed", "lower", "upper"], size=n)
    lower = np.where(np.isin(kinds, ["boxed", "lower", "fixed"]), rng.uniform(-2, 0, n), -np.inf)
    upper = np.where(np.isin(kinds, ["boxed", "upper"]), rng.uniform(1, 3, n), np.inf)
    upper = np.where(kinds == "fixed", lower, upper)
    x0 = np.where(np.isfinite(lower), lower, 0) + np.where(kinds == "fixed", 0, rng.uniform(0, 1, n))
    x0 = np.minimum(x0, upper)
    A_ub, A_eq = rng.normal(size=(m_ub, n)), rng.normal(size=(m_eq, n))
    b_ub = A_ub @ x0 + rng.uniform(0, 1, m_ub) * (rng.uniform(size=m_ub) < 0.7)
    b_eq = A_eq @ x0
    y_ub, y_eq = -rng.uniform(0, 1, m_ub), rng.normal(size=m_eq)
    lam_l = np.where(np.isfinite(lower), rng.uniform(0, 1, n), 0)
    lam_u = np.where(np.isfinite(upper) & (kinds != "fixed"), -rng.uniform(0, 1, n), 0)
    c = A_ub.T @ y_ub + A_eq.T @ y_eq + lam_l + lam_u
    return dict(c=c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=np.column_stack([lower, upper]))


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
def test_random_lp_matches_highs(seed, sparse):
    kw = random_lp(seed)
    if sparse:
        kw = dict(kw, A_ub=sp.csr_matrix(kw["A_ub"]), A_eq=sp.coo_array(kw["A_eq"]))
    ref = so.linprog(method="highs", **kw)
    res = glsolve.linprog(**kw, backend="cpu", tol=1e-9)
    assert ref.status == 0 and res.status == 0 and res.success, res.message
    assert abs(res.fun - ref.fun) <= 1e-8 * max(1.0, abs(ref.fun))
    lower, upper = kw["bounds"][:, 0], kw["bounds"][:, 1]
    assert np.all(res.x >= lower - 1e-7) and np.all(res.x <= upper + 1e-7)
    np.testing.assert_allclose(res.slack, kw["b_ub"] - kw["A_ub"] @ res.x)
    np.testing.assert_allclose(res.con, kw["b_eq"] - kw["A_eq"] @ res.x, atol=1e-12)
    np.testing.assert_allclose(res.lower.residual, res.x - lower)
    np.testing.assert_allclose(res.upper.residual, upper - res.x)
    signs, stationarity, dual_obj = dual_checks(res, kw["c"], kw["A_ub"], kw["b_ub"], kw["A_eq"], kw["b_eq"], lower, upper)
    assert signs <= 1e-7 and stationarity <= 1e-7
    assert abs(dual_obj - ref.fun) <= 1e-7 * max(1.0, abs(ref.fun))
    # The construction makes HiGHS's vertex nondegenerate: the duals are unique and must agree.
    assert nondegenerate(ref, lower, upper, kw["b_ub"], 18)
    for part in ("ineqlin", "eqlin", "lower", "upper"):
        np.testing.assert_allclose(res[part].marginals, ref[part].marginals, atol=1e-6, err_msg=part)
    np.testing.assert_allclose(res.x, ref.x, atol=1e-6)


def test_default_bounds_and_single_pair():
    """bounds=(0, None) is x >= 0 for every column; one pair applies to all; None is no bound."""
    kw = random_lp(3)
    for bounds in [(0, None), None, (-1, 2), [(None, None)] * 30]:
        args = dict(kw, bounds=bounds)
        ref = so.linprog(method="highs", **args)
        res = glsolve.linprog(**args, backend="cpu")
        assert res.status == ref.status, (bounds, res.message, ref.message)
        if ref.status == 0:
            assert abs(res.fun - ref.fun) <= 1e-7 * max(1.0, abs(ref.fun))


def infeasible_rows(seed):
    kw = random_lp(seed)
    a = kw["A_eq"][0]
    kw["A_eq"] = np.vstack([kw["A_eq"], a])
    kw["b_eq"] = np.append(kw["b_eq"], kw["b_eq"][0] + 1.0)
    return kw


def unbounded_column(seed):
    kw = random_lp(seed)
    kw["c"] = np.append(kw["c"], -1.0)
    kw["A_ub"] = np.column_stack([kw["A_ub"], np.zeros(12)])
    kw["A_eq"] = np.column_stack([kw["A_eq"], np.zeros(6)])
    kw["bounds"] = np.vstack([kw["bounds"], [0, np.inf]])
    return kw


def unbounded_ray(seed):
    """Unbounded through the rows: x_a − x_b = 0 with both free to grow and c pulling."""
    rng = np.random.default_rng(seed)
    n = 6
    A_ub = np.abs(rng.normal(size=(3, n)))
    A_ub[:, 0] = -1.0
    return dict(c=np.r_[-1.0, np.ones(n - 1)], A_ub=A_ub, b_ub=np.ones(3), bounds=(0, None))


@pytest.mark.parametrize("make,code", [(infeasible_rows, 2), (unbounded_column, 3), (unbounded_ray, 3)],
                         ids=["infeasible", "unbounded-column", "unbounded-ray"])
@pytest.mark.parametrize("seed", range(3))
def test_infeasible_and_unbounded(make, code, seed):
    kw = make(seed)
    ref = so.linprog(method="highs", **kw)
    res = glsolve.linprog(**kw, backend="cpu")
    assert ref.status == code
    assert res.status == code and not res.success, res.message
    # As scipy's HiGHS methods do: no point for an infeasible or unbounded problem.
    assert res.x is None and res.fun is None and res.ineqlin.marginals is None
    if res.detail.startswith("presolve"):  # an empty column that improves c: no ray to check
        assert "appears in no constraint" in res.detail
    else:
        assert res.certificate["check"]["accuracy"] != "Failed"


def test_infeasible_and_unbounded_at_once():
    """Primal and dual infeasible: infeasible (status 2) whichever certificate comes first."""
    kw = dict(c=[-1.0, -1.0], A_ub=[[1.0, -1.0], [-1.0, 1.0]], b_ub=[-1.0, -1.0], bounds=(0, None))
    assert so.linprog(method="highs", **kw).status in (2, 4)
    res = glsolve.linprog(**kw, backend="cpu")
    assert res.status == 2 and res.x is None


@pytest.mark.parametrize("outcome,code", [("Refuted", 2), ("Unknown", 4), ("Established", 4)])
def test_a_primal_ray_alone_is_infeasible_only_when_refuted(outcome, code):
    """A dual-infeasible verdict (a checked ray) is scipy's 2 when the feasibility solve refuted
    a feasible point, else 4 ("unbounded or infeasible"), as HiGHS's kUnboundedOrInfeasible."""
    from glsolve._result import scipy_status

    raw = {"status": "dual infeasible", "feasibility": {"outcome": outcome}}
    assert scipy_status(raw)[0] == code


@pytest.mark.parametrize("backend", ["gpu", "hybrid", "auto"])
def test_gl_backends_on_the_papers_family(backend):
    """The GL backends (Mesa's llvmpipe without a GPU) on the papers' random LP (n = 4m)."""
    c, A, b = glsolve.random_lp(48, seed=3)
    ref = so.linprog(c, A_eq=A, b_eq=b, method="highs")
    res = glsolve.linprog(c, A_eq=A, b_eq=b, backend=backend)
    assert res.status == 0, res.message
    tol = 1e-4 if backend == "gpu" else 1e-8
    assert abs(res.fun - ref.fun) <= 10 * tol * max(1.0, abs(ref.fun))
    assert res.verification["accuracy"] == "Tolerance"
    expected = {"gpu": "gpu", "hybrid": "hybrid", "auto": "cpu"}[backend]
    assert res.backend == expected and res.timings["total"] > 0
    if backend == "auto":
        assert res.notes[0].startswith("auto: cpu"), res.notes
    if backend == "hybrid":
        assert res.gpu_iterations is not None and res.gpu_iterations > 0


def test_limits_return_the_best_iterate():
    c, A, b = glsolve.random_lp(64, seed=1)
    res = glsolve.linprog(c, A_eq=A, b_eq=b, backend="cpu", max_iter=2)
    assert res.status == 1 and res.verdict == "iteration limit" and res.nit == 2
    assert res.x is not None and res.x.shape == (256,)
