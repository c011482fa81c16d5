"""A new user's first session with the installed wheel, in a fresh venv where no Rust toolchain
can be reached. argv[1] is the stage:

* ``core``: only the wheel and its one dependency (numpy) are installed: glsolve imports and
  solves, the GL driver is found (argv[2] == "driver") or reported missing (argv[2] ==
  "no-driver", the test hides libEGL), and GlsolveSolver names the extra to install;
* ``scipy``: scipy is installed too: glsolve.linprog against scipy's HiGHS on a mixed LP, and an
  unchanged ``scipy.optimize.linprog(c, A_ub, b_ub, method='highs', options={...})`` call run
  with glsolve.linprog (printed, with scipy's answer beside it).

Exits non-zero (an AssertionError with the numbers) where glsolve's answer is not scipy's."""

import importlib.util
import os
import shutil
import sys
import warnings

import numpy as np

stage = sys.argv[1]
# No Rust toolchain: nothing on PATH, no cargo variables (the test removes them).
assert shutil.which("cargo") is None and shutil.which("rustc") is None, os.environ["PATH"]
assert not [k for k in os.environ if k.startswith(("CARGO", "RUSTUP", "RUSTC"))]

import glsolve  # noqa: E402

print(f"{stage}: glsolve {glsolve.__version__} from {os.path.dirname(glsolve.__file__)}")

if stage == "core":
    assert importlib.util.find_spec("scipy") is None and importlib.util.find_spec("cvxpy") is None
    res = glsolve.linprog([-1, -2], [[1, 1], [-1, 1]], [4, 2], backend="cpu")
    assert res.status == 0 and abs(res.fun + 7) <= 1e-7, res
    assert np.allclose(res.x, [1, 3], atol=1e-7) and np.allclose(res.ineqlin.marginals, [-1.5, -0.5], atol=1e-7)
    assert np.allclose(glsolve.solve(np.array([[2.0, 1.0], [1.0, 3.0]]), [3.0, 4.0]), [1, 1])
    try:
        from glsolve import GlsolveSolver  # noqa: F401
        raise AssertionError("GlsolveSolver imported without CVXPY")
    except ImportError as e:
        assert "pip install 'glsolve[cvxpy]'" in str(e), e
        print(f"core: GlsolveSolver without CVXPY: {e}")
    info = glsolve.info()
    if sys.argv[2] == "driver":
        assert info.available, info.error
        print(f"core: driver: {info.driver['GL renderer']}, {info.driver['GL version']}")
        L = glsolve.cholesky(np.array([[4.0, 2.0], [2.0, 3.0]]), backend="gpu")
        assert np.allclose(L, [[2, 0], [1, np.sqrt(2)]], atol=1e-6)
    else:
        assert not info.available and "no EGL driver found" in info.error, info
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            res = glsolve.linprog([-1, -2], [[1, 1], [-1, 1]], [4, 2], backend="hybrid")
        assert res.status == 0 and res.backend == "cpu"
        assert [type(w.message).__name__ for w in seen] == ["GlsolveWarning"], seen
        try:
            glsolve.cholesky(np.eye(2), backend="gpu")
            raise AssertionError("the gpu backend ran without a driver")
        except RuntimeError as e:
            assert "needs an OpenGL driver" in str(e)
        print(f"core: without libEGL: info().error = {info.error!r}; hybrid solved on the cpu with a GlsolveWarning")
    sys.exit(0)

import scipy.optimize  # noqa: E402


def agree(ours, ref, what):
    """glsolve's answer against HiGHS's: the default tol (1e-8) bounds every relative measure of
    an optimal answer by 1e-7, so the objective is asked to 1e-8 relative, x and the marginals
    (the optimum of these LPs is unique) to 1e-6."""
    assert ours.status == ref.status == 0, (what, ours.message, ref.message)
    assert abs(ours.fun - ref.fun) <= 1e-8 * max(1.0, abs(ref.fun)), (what, ours.fun, ref.fun)
    np.testing.assert_allclose(ours.x, ref.x, atol=1e-6, err_msg=what)
    for part in ("ineqlin", "eqlin", "lower", "upper"):
        np.testing.assert_allclose(ours[part].marginals, ref[part].marginals, atol=1e-6, err_msg=f"{what} {part}")
    np.testing.assert_allclose(ours.slack, ref.slack, atol=1e-6, err_msg=what)
    np.testing.assert_allclose(ours.con, ref.con, atol=1e-6, err_msg=what)


# A mixed LP: inequalities, equalities, a free variable, lower, upper and two-sided bounds.
c = np.array([-1.0, 4.0, 2.0, -3.0, 1.0])
A_ub = np.array([[-3.0, 1.0, 0.0, 1.0, 0.0], [1.0, 2.0, 1.0, 1.0, -1.0], [0.0, -1.0, 1.0, 2.0, 1.0]])
b_ub = np.array([6.0, 4.0, 5.0])
A_eq = np.array([[1.0, 1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 0.0, -1.0, 2.0]])
b_eq = np.array([2.0, -1.0])
bounds = [(None, None), (-3.0, None), (0.0, 1.5), (0.5, 4.0), (None, 2.0)]
ours = glsolve.linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds)
ref = scipy.optimize.linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, bounds=bounds)
agree(ours, ref, "mixed LP")
assert isinstance(ours, scipy.optimize.OptimizeResult)
print(f"scipy: mixed LP: glsolve fun {ours.fun!r} x {ours.x.tolist()} (backend {ours.backend})")
print(f"scipy: mixed LP: HiGHS   fun {ref.fun!r} x {ref.x.tolist()}")
print(f"scipy: mixed LP: |fun - HiGHS| = {abs(ours.fun - ref.fun):.2e}, max |x - HiGHS| = "
      f"{np.abs(ours.x - ref.x).max():.2e}")

# A call written for scipy, run unchanged: positional A_ub, b_ub, method, options (the last one
# without a glsolve counterpart: ignored with a warning).
c, A_ub, b_ub = [-1, 4], [[-3, 1], [1, 2]], [6, 4]
options = {"maxiter": 1000, "disp": False, "time_limit": 30.0, "presolve": True}
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    res = glsolve.linprog(c, A_ub, b_ub, method="highs", options=options)
ref = scipy.optimize.linprog(c, A_ub, b_ub, method="highs", options=options)
agree(res, ref, "scipy call")
print(f"scipy: glsolve.linprog(c, A_ub, b_ub, method='highs', options={options}):")
for key in ("status", "success", "message", "fun", "x", "slack", "nit", "backend"):
    print(f"    {key}: {res[key]!r}" if key != "x" and key != "slack" else f"    {key}: {res[key].tolist()}")
print(f"    ineqlin.marginals: {res.ineqlin.marginals.tolist()}")
print(f"    warnings: {[f'{type(w.message).__name__}: {w.message}' for w in seen]}")
print(f"scipy: scipy.optimize.linprog, the same call: status {ref.status}, fun {ref.fun!r}, x {ref.x.tolist()}, "
      f"ineqlin.marginals {ref.ineqlin.marginals.tolist()}")
