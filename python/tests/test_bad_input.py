"""Bad input of every argument raises TypeError or ValueError naming the argument, the index
and the limit — never a crash, never a silently wrong shape."""

import gzip

import numpy as np
import pytest
import scipy.sparse as sp

import glsolve
from glsolve import _glsolve

C = [1.0, 2.0]
A = [[1.0, 1.0], [1.0, -1.0]]
B = [4.0, 1.0]


def lp(**kw):
    args = dict(c=C, A_ub=A, b_ub=B, backend="cpu")
    args.update(kw)
    return glsolve.linprog(**args)


@pytest.mark.parametrize("kw,exc,match", [
    (dict(c=None), TypeError, "c must be"),
    (dict(c=["x", "y"]), TypeError, "c must be an array of real numbers"),
    (dict(c=[1 + 2j, 1.0]), TypeError, "c must hold real numbers"),
    (dict(c=[[1.0, 2.0], [3.0, 4.0]]), ValueError, r"c must be 1-D, but has shape \(2, 2\)"),
    (dict(c=[]), ValueError, "c has 0 entries"),
    (dict(c=[1.0, np.nan]), ValueError, r"c\[1\] = nan"),
    (dict(c=[np.inf, 1.0]), ValueError, r"c\[0\] = inf"),
    (dict(A_ub=[[1.0, 1.0, 1.0]], b_ub=[1.0]), ValueError, "A_ub has 3 columns, but c .* needs 2"),
    (dict(A_ub=[1.0, 1.0], b_ub=[1.0]), ValueError, r"A_ub must be 2-D, but has shape \(2,\)"),
    (dict(A_ub=[[1.0, 1.0], [np.inf, 0.0]]), ValueError, r"A_ub\[1, 0\] = inf"),
    (dict(A_ub=sp.csr_matrix(np.array([[1.0, 0.0], [0.0, np.nan]]))), ValueError, r"A_ub\[1, 1\] = nan"),
    (dict(A_ub=[["a", "b"], ["c", "d"]]), TypeError, "A_ub must be an array of real numbers"),
    (dict(A_ub=[[1.0, 1.0], [1.0]]), ValueError, "A_ub is ragged: its rows .* have different lengths"),
    (dict(A_eq=[[1.0], [1.0, 2.0]], b_eq=[1.0, 1.0]), ValueError, "A_eq is ragged"),
    (dict(b_ub=[1.0, [2.0, 3.0]]), ValueError, "b_ub is ragged"),
    (dict(c=[1.0, [2.0]]), ValueError, "c is ragged"),
    (dict(A_ub=np.zeros((0, 0)), b_ub=[]), ValueError, "A_ub has 0 columns, but c .* needs 2"),
    (dict(A_ub=sp.csr_matrix(np.array([[1j, 0], [0, 1]]))), TypeError, "A_ub must hold real numbers"),
    (dict(b_ub=[1.0, 2.0, 3.0]), ValueError, r"b_ub has 3 entries, but A_ub \(one entry per row\) needs 2"),
    (dict(b_ub=[1.0, np.nan]), ValueError, r"b_ub\[1\] = nan"),
    (dict(b_ub=None), ValueError, "b_ub is missing, but A_ub has 2 rows"),
    (dict(b_ub=[[1.0, 2.0], [3.0, 4.0]]), ValueError, "b_ub must be 1-D"),
    (dict(b_ub={"a": 1}), TypeError, "b_ub must be an array of real numbers"),
    (dict(A_eq=[[1.0, 2.0, 3.0]], b_eq=[1.0]), ValueError, "A_eq has 3 columns, but c .* needs 2"),
    (dict(A_eq=[[1.0, -np.inf]], b_eq=[1.0]), ValueError, r"A_eq\[0, 1\] = -inf"),
    (dict(A_eq=[[1.0, 1.0]], b_eq=[1.0, 2.0]), ValueError, r"b_eq has 2 entries, but A_eq \(one entry per row\) needs 1"),
    (dict(A_eq=[[1.0, 1.0]], b_eq=[np.nan]), ValueError, r"b_eq\[0\] = nan"),
    (dict(b_eq=[1.0]), ValueError, "b_eq is given without A_eq"),
    (dict(bounds=[(0, 1), (0, 1), (0, 1)]), ValueError, r"bounds has shape \(3, 2\), but c has 2 entries"),
    (dict(bounds=[(0, 1, 2)]), ValueError, r"bounds has shape \(1, 3\)"),
    (dict(bounds=[(0, "x"), (0, 1)]), ValueError, "bounds: unable to interpret"),
    (dict(bounds=[(0, object()), (0, 1)]), TypeError, "bounds must hold numbers"),
    (dict(bounds=np.zeros((2, 2, 2))), ValueError, "bounds must be a pair or an n x 2 array"),
    (dict(backend="fast"), ValueError, "backend = 'fast' is not a backend: use one of 'auto', 'cpu', 'hybrid', 'gpu'"),
    (dict(backend=3), TypeError, "backend must be a string"),
    (dict(tol=0.0), ValueError, r"tol = 0.0: the tolerance must be in \(0, 1\)"),
    (dict(tol=1.5), ValueError, r"tol = 1.5: the tolerance must be in \(0, 1\)"),
    (dict(tol="1e-8"), TypeError, "tol must be a real number"),
    (dict(tol=True), TypeError, "tol must be a real number"),
    (dict(backend="gpu", tol=1e-9), ValueError, "below what the gpu backend's single precision can reach"),
    (dict(max_iter=0), ValueError, "max_iter = 0: the iteration limit must be between 1 and 2147483647"),
    (dict(max_iter=10**20), ValueError, "max_iter = 100000000000000000000: the iteration limit must be between 1"),
    (dict(max_iter=2.5), TypeError, "max_iter must be an integer"),
    (dict(tol=10**400), ValueError, r"tol = 10000000...\(401 digits\): the tolerance must be in \(0, 1\)"),
    (dict(time_limit=10**400), ValueError, r"time_limit = 10000000...\(401 digits\): the time limit must be > 0"),
    (dict(time_limit=0), ValueError, "time_limit = 0: the time limit must be > 0"),
    (dict(time_limit=np.nan), ValueError, "time_limit = nan"),
    (dict(time_limit=np.inf), ValueError, "time_limit = inf"),
    (dict(time_limit="1"), TypeError, "time_limit must be a real number"),
    (dict(verbose="yes"), TypeError, "verbose must be True or False"),
    (dict(callback=3), TypeError, "callback must be callable"),
    (dict(method=3), TypeError, "method must be a string"),
    (dict(method="dual simplex"), ValueError, "method = 'dual simplex': unknown solver; scipy.optimize.linprog's methods"),
    (dict(options=[("maxiter", 3)]), TypeError, "options must be a dict of scipy's linprog options"),
    (dict(options={"maxiter": 0}), ValueError, r"options\['maxiter'\] = 0: the iteration limit must be between 1"),
    (dict(options={"maxiter": 10**20}), ValueError, r"options\['maxiter'\] = 100000000000000000000: the iteration"),
    (dict(options={"maxiter": "10"}), TypeError, r"options\['maxiter'\] must be an integer"),
    (dict(options={"disp": "yes"}), TypeError, r"options\['disp'\] must be True or False"),
    (dict(options={"time_limit": -1.0}), ValueError, r"options\['time_limit'\] = -1.0: the time limit must be > 0"),
    (dict(options={"primal_feasibility_tolerance": 2.0}), ValueError,
     r"options\['primal_feasibility_tolerance'\] = 2.0: the tolerance must be in \(0, 1\)"),
    (dict(options={"maxiter": 5}, max_iter=6), ValueError, r"max_iter = 6 and options\['maxiter'\] = 5 disagree"),
    (dict(options={"tol": 1e-6}, tol=1e-7), ValueError, r"tol = 1e-07 and options\['tol'\] = 1e-06 disagree"),
    (dict(x0=[1.0, 2.0, 3.0]), ValueError, r"x0 has 3 entries, but c \(one guess per variable\) needs 2"),
    (dict(x0=[np.nan, 1.0]), ValueError, r"x0\[0\] = nan"),
    (dict(integrality=[0, 1, 0]), ValueError, r"integrality has shape \(3,\), but c has 2 entries"),
    (dict(integrality=[0, 4]), ValueError, r"integrality\[1\] = 4.0: each entry must be 0 \(continuous\), 1"),
    (dict(integrality=[0.5, 0]), ValueError, r"integrality\[0\] = 0.5"),
    (dict(integrality=["x", 0]), TypeError, "integrality must be an array of real numbers"),
    (dict(integrality=[0, 1]), NotImplementedError, r"integrality\[1\] = 1: glsolve solves linear programs without "
     "integer constraints. Only `method='highs'` supports integer constraints"),
])
def test_linprog_argument(kw, exc, match):
    with pytest.raises(exc, match=match):
        lp(**kw)


def test_scipy_shapes_are_accepted_as_scipy_accepts_them():
    """scipy squeezes singleton dimensions of c and b; so does linprog, and the answer is 1-D."""
    res = lp(c=[[1.0, 2.0]], b_ub=[[4.0], [1.0]])
    assert res.status == 0 and res.x.shape == (2,) and res.slack.shape == (2,)


def test_the_extension_checks_sizes_itself():
    """Called without the Python layer, the extension still refuses inconsistent data."""
    f64 = lambda v: np.asarray(v, dtype=np.float64).tobytes()  # noqa: E731
    i64 = lambda v: np.asarray(v, dtype=np.int64).tobytes()  # noqa: E731
    ok = dict(row_lower=f64([-np.inf]), row_upper=f64([1.0]), col_lower=f64([0, 0]), col_upper=f64([1, 1]))

    def call(blocks, time_limit=None, **kw):
        args = dict(ok, **kw)
        return _glsolve.linprog(f64([1, 1]), blocks, args["row_lower"], args["row_upper"], args["col_lower"],
                                args["col_upper"], "cpu", None, None, time_limit, None)

    dense = ("A_ub", "dense", 1, 2, f64([1, 1]), None, None)
    assert call([dense])["status"] == "optimal"
    with pytest.raises(ValueError, match="A_ub has 8 bytes, but 2 float64 values need 16"):
        call([("A_ub", "dense", 1, 2, f64([1]), None, None)])
    with pytest.raises(ValueError, match="row_upper has 16 bytes, but 1 float64 values need 8"):
        call([dense], row_upper=f64([1, 2]))
    with pytest.raises(ValueError, match="A_ub: .*row index 5"):
        call([("A_ub", "csc", 1, 2, f64([1, 1]), i64([0, 1, 2]), i64([0, 5]))])
    with pytest.raises(ValueError, match=r"A_ub.indices\[0\] = -1"):
        call([("A_ub", "csc", 1, 2, f64([1, 1]), i64([0, 1, 2]), i64([-1, 0]))])
    with pytest.raises(ValueError, match=r"A_ub: A.col_ptr\[2\] = 1"):
        call([("A_ub", "csc", 1, 2, f64([1]), i64([0, 2, 1]), i64([0]))])
    with pytest.raises(ValueError, match="A_ub: A: column 0 lists row 0 after row 0"):
        call([("A_ub", "csc", 1, 2, f64([1, 1]), i64([0, 2, 2]), i64([0, 0]))])
    with pytest.raises(ValueError, match="constraint block 0 has 3 columns, but c has 2 entries"):
        call([("A_ub", "dense", 1, 3, f64([1, 1, 1]), None, None)])
    with pytest.raises(ValueError, match="constraint block 0 has 1 columns, but c has 2 entries"):
        call([("A_ub", "csc", 1, 1, f64([1]), i64([0, 1]), i64([0]))])
    with pytest.raises(ValueError, match="unknown block kind"):
        call([("A_ub", "lower-triangular", 1, 2, f64([1, 1]), None, None)])
    for limit in (float("nan"), float("inf"), -1.0, 0.0, 1e300):
        with pytest.raises(ValueError, match=r"time_limit = .*: the time limit must be > 0 seconds and finite"):
            call([dense], time_limit=limit)
    assert call([dense], time_limit=30.0)["status"] == "optimal"


def test_mps_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        glsolve.read_mps(tmp_path / "missing.mps")
    with pytest.raises(FileNotFoundError):
        glsolve.solve_mps(tmp_path / "missing.mps")
    bad = tmp_path / "bad.mps"
    bad.write_text("NAME T\nROWS\n N COST\n L R1\nCOLUMNS\n X COST 1 R9 2\nRHS\nENDATA\n")
    with pytest.raises(ValueError, match="MPS line 6: unknown row `R9`"):
        glsolve.read_mps(bad)
    gz = tmp_path / "bad.mps.gz"
    gz.write_bytes(gzip.compress(bad.read_bytes()))
    with pytest.raises(ValueError, match="MPS line 6"):
        glsolve.solve_mps(gz)
    with pytest.raises(TypeError):
        glsolve.read_mps(3.5)
    with pytest.raises(ValueError, match="backend = 'x'"):
        glsolve.solve_mps(bad, backend="x")


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_dense_arguments(backend):
    spd = np.array([[4.0, 2.0], [2.0, 3.0]])
    with pytest.raises(ValueError, match="A is 2x3, but it must be square"):
        glsolve.cholesky(np.ones((2, 3)), backend=backend)
    with pytest.raises(ValueError, match=r"A \(its lower triangle\)\[1, 0\] = nan"):
        glsolve.cholesky(np.array([[1.0, 0.0], [np.nan, 1.0]]), backend=backend)
    with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
        glsolve.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]]), backend=backend)
    with pytest.raises(ValueError, match="variant = 'diagonal' is not a Cholesky variant"):
        glsolve.cholesky(spd, variant="diagonal", backend=backend)
    with pytest.raises(TypeError, match="variant must be a string"):
        glsolve.cholesky(spd, variant=5, backend=backend)
    with pytest.raises(ValueError, match=r"b has shape \(3,\), but A is 2x2"):
        glsolve.solve(spd, [1.0, 2.0, 3.0], backend=backend)
    with pytest.raises(ValueError, match=r"b\[1\] = inf"):
        glsolve.solve(spd, [1.0, np.inf], backend=backend)
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        glsolve.solve(np.array([[1.0, 2.0], [2.0, 4.0]]), [1.0, 2.0], backend=backend)
    with pytest.raises(ValueError, match=r"b has shape \(2,\), but A has 3 rows \(one observation each\): b must be "
                                         r"\(3,\) or \(3, k\)"):
        glsolve.lstsq(np.ones((3, 2)), [1.0, 2.0], backend=backend)
    with pytest.raises(ValueError, match=r"b has shape \(2, 2, 1\), but A is 2x2"):
        glsolve.solve(spd, np.ones((2, 2, 1)), backend=backend)
    with pytest.raises(ValueError, match="b is ragged"):
        glsolve.solve(spd, [[1.0, 2.0], [3.0]], backend=backend)
    with pytest.raises(ValueError, match="A is ragged"):
        glsolve.lstsq([[1.0, 2.0], [3.0]], [1.0, 2.0], backend=backend)
    with pytest.raises(ValueError, match=r"b\[1, 0\] = nan"):
        glsolve.lstsq(np.eye(2), [[1.0, 2.0], [np.nan, 1.0]], backend=backend)
    with pytest.raises(ValueError, match=r"weights\[2\] = -1.0: weights must be >= 0"):
        glsolve.lstsq(np.ones((3, 2)), [1.0, 2.0, 3.0], [1.0, 1.0, -1.0], backend=backend)
    with pytest.raises(ValueError, match=r"weights has 2 entries"):
        glsolve.lstsq(np.ones((3, 2)), [1.0, 2.0, 3.0], [1.0, 1.0], backend=backend)
    with pytest.raises(np.linalg.LinAlgError, match="rank deficient"):
        glsolve.lstsq(np.ones((3, 2)), [1.0, 2.0, 3.0], backend=backend)
    with pytest.raises(ValueError, match=r"A\[0, 1\] = nan"):
        glsolve.lstsq(np.array([[1.0, np.nan], [1.0, 1.0], [0.0, 1.0]]), [1.0, 2.0, 3.0], backend=backend)


def test_dense_backend_names():
    with pytest.raises(ValueError, match="backend = 'tpu' is not a backend: use 'gpu' or 'cpu'"):
        glsolve.solve(np.eye(2), [1.0, 1.0], backend="tpu")
    with pytest.raises(ValueError, match="backend = 'auto' is not a backend: use 'gpu' or 'cpu'"):
        glsolve.cholesky(np.eye(2), backend="auto")
    with pytest.raises(TypeError, match="backend must be a string"):
        glsolve.lstsq(np.eye(2), [1.0, 1.0], backend=None)


def test_random_lp_arguments():
    with pytest.raises(ValueError, match="m = 0"):
        glsolve.random_lp(0)
    with pytest.raises(ValueError, match=r"m = 100000000000000000000: the number of rows must be an integer from 1"):
        glsolve.random_lp(10**20)
    with pytest.raises(ValueError, match="seed = -1"):
        glsolve.random_lp(4, seed=-1)
    with pytest.raises(ValueError, match="seed = 18446744073709551616: the seed must be an integer from 0"):
        glsolve.random_lp(4, seed=2**64)
