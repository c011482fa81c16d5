"""Calls written for scipy.optimize.linprog run unchanged with glsolve.linprog: the same
signature (method, callback, options, x0, integrality in scipy's order), scipy's options
mapped where they mean something and warned about where they do not, scipy's callback fields,
and the same answers as scipy's HiGHS."""

import inspect
import warnings

import numpy as np
import pytest
import scipy.optimize

import glsolve
from glsolve import GlsolveWarning

# A mixed LP: inequalities, one equality, a free variable, an upper bound, a shifted lower bound.
C = np.array([-1.0, 4.0, 2.0, -3.0])
A_UB = np.array([[-3.0, 1.0, 0.0, 1.0], [1.0, 2.0, 1.0, 1.0], [0.0, -1.0, 1.0, 2.0]])
B_UB = np.array([6.0, 4.0, 5.0])
A_EQ = np.array([[1.0, 1.0, 1.0, 1.0]])
B_EQ = np.array([2.0])
BOUNDS = [(None, None), (-3.0, None), (0.0, 1.5), (0.5, 4.0)]


def same_answer(ours, ref):
    assert ours.status == ref.status == 0, (ours.message, ref.message)
    assert abs(ours.fun - ref.fun) <= 3e-9 * max(1.0, abs(ref.fun))
    np.testing.assert_allclose(ours.x, ref.x, atol=1e-7)
    for part in ("ineqlin", "eqlin", "lower", "upper"):
        np.testing.assert_allclose(ours[part].marginals, ref[part].marginals, atol=1e-7)


def test_the_signature_is_scipys_in_its_order():
    ours = list(inspect.signature(glsolve.linprog).parameters)
    scipys = list(inspect.signature(scipy.optimize.linprog).parameters)
    assert ours[: len(scipys)] == scipys
    for name in scipys:
        assert inspect.signature(glsolve.linprog).parameters[name].default == \
            inspect.signature(scipy.optimize.linprog).parameters[name].default or name == "options"


def test_an_unchanged_scipy_call_gives_scipys_answer():
    args = (C, A_UB, B_UB, A_EQ, B_EQ, BOUNDS)
    kwargs = dict(method="highs", options={"maxiter": 500, "disp": False, "time_limit": 60.0,
                                           "primal_feasibility_tolerance": 1e-8})
    ref = scipy.optimize.linprog(*args, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every option of this call has a meaning: no warning
        ours = glsolve.linprog(*args, **kwargs)
    same_answer(ours, ref)
    # method positional, as scipy's seventh argument.
    same_answer(glsolve.linprog(*args, "highs-ipm"), ref)
    same_answer(glsolve.linprog(*args, method="HiGHS"), ref)  # scipy reads it case-insensitively


def test_options_that_mean_something_are_used():
    c, A, b = glsolve.random_lp(32, seed=5)
    limited = glsolve.linprog(c, A_eq=A, b_eq=b, options={"maxiter": 3})
    assert limited.status == 1 and limited.nit == 3 and limited.x is not None
    loose = glsolve.linprog(c, A_eq=A, b_eq=b, backend="cpu", options={"tol": 1e-4})
    tight = glsolve.linprog(c, A_eq=A, b_eq=b, backend="cpu")
    assert loose.status == tight.status == 0 and loose.nit < tight.nit
    # The tolerances map to glsolve's one tol: the smallest of them.
    both = glsolve.linprog(c, A_eq=A, b_eq=b, backend="cpu",
                           options={"dual_feasibility_tolerance": 1e-4, "primal_feasibility_tolerance": 1e-5})
    fives = glsolve.linprog(c, A_eq=A, b_eq=b, backend="cpu", tol=1e-5)
    assert both.nit == fives.nit


def test_disp_prints_the_log(capsys):
    glsolve.linprog([1.0, 1.0], A_ub=[[-1.0, -1.0]], b_ub=[-1.0], options={"disp": True})
    assert "verification: passed" in capsys.readouterr().out


def test_options_without_a_counterpart_are_ignored_with_one_warning():
    with pytest.warns(GlsolveWarning, match=r"options \{'presolve': True, 'autoscale': False\} have no counterpart"):
        res = glsolve.linprog(C, A_UB, B_UB, A_EQ, B_EQ, BOUNDS, options={"presolve": True, "autoscale": False})
    same_answer(res, scipy.optimize.linprog(C, A_UB, B_UB, A_EQ, B_EQ, BOUNDS))


def test_simplex_methods_warn_that_the_answer_need_not_be_a_vertex():
    for method in ("highs-ds", "simplex", "revised simplex"):
        with pytest.warns(GlsolveWarning, match="interior-point method, so where the optimum is not unique"):
            assert glsolve.linprog(C, A_UB, B_UB, A_EQ, B_EQ, BOUNDS, method=method).status == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for method in ("highs", "highs-ipm", "interior-point"):
            glsolve.linprog(C, A_UB, B_UB, A_EQ, B_EQ, BOUNDS, method=method)


def test_x0_is_checked_and_unused():
    with pytest.warns(GlsolveWarning, match="x0 is not used"):
        res = glsolve.linprog(C, A_UB, B_UB, A_EQ, B_EQ, BOUNDS, x0=[0.0, 0.0, 1.0, 1.0])
    assert res.status == 0


def test_integrality_as_scipy_reads_it():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # all continuous: nothing to ignore
        assert glsolve.linprog(C, A_UB, B_UB, A_EQ, B_EQ, BOUNDS, integrality=0).status == 0
        assert glsolve.linprog(C, A_UB, B_UB, A_EQ, B_EQ, BOUNDS, integrality=[0, 0, 0, 0]).status == 0
    # Where scipy solves a mixed-integer problem (method "highs"), glsolve refuses...
    with pytest.raises(NotImplementedError, match=r"integrality\[0\] = 1: .* Only `method='highs'` supports"):
        glsolve.linprog(C, A_UB, B_UB, A_EQ, B_EQ, BOUNDS, integrality=1)
    # ...and where scipy ignores integrality (any other method), so does glsolve, with scipy's words.
    with pytest.warns(scipy.optimize.OptimizeWarning, match="Only `method='highs'` supports integer constraints"):
        scipy.optimize.linprog(C, A_UB, B_UB, A_EQ, B_EQ, BOUNDS, method="highs-ipm", integrality=[0, 1, 0, 0])
    with pytest.warns(GlsolveWarning, match=r"^Only `method='highs'` supports integer constraints. Ignoring "):
        res = glsolve.linprog(C, A_UB, B_UB, A_EQ, B_EQ, BOUNDS, method="highs-ipm", integrality=[0, 1, 0, 0])
    assert res.status == 0


def test_a_scipy_style_callback_reads_the_iterate():
    """The callback a scipy user writes for the interior-point method: it reads res.x, res.fun,
    res.slack, res.con and res.nit."""
    trace = []

    def callback(res):
        trace.append((res.nit, res.fun, res.x.copy(), res.slack.copy(), res.con.copy(), res.phase, res.status))

    res = glsolve.linprog(C, A_UB, B_UB, A_EQ, B_EQ, BOUNDS, callback=callback)
    assert res.status == 0 and [t[0] for t in trace] == list(range(res.nit + 1))
    nit, fun, x, slack, con, phase, status = trace[-1]
    np.testing.assert_allclose(x, res.x, atol=1e-6)
    np.testing.assert_allclose(slack, B_UB - A_UB @ x, atol=1e-12)
    np.testing.assert_allclose(con, B_EQ - A_EQ @ x, atol=1e-12)
    assert phase == 1 and status == 0 and abs(fun - res.fun) <= 1e-6
    # Every iterate is strictly above its lower bounds (an interior point; upper bounds are rows
    # of the infeasible-start method, met only as it converges).
    lower = np.array([-np.inf if lo is None else lo for lo, _ in BOUNDS])
    assert all(np.all(t[2] > lower) for t in trace)
