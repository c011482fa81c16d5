"""cholesky, solve and lstsq on both backends against numpy in double precision, on sizes that
are not round (1, odd, a block ± 1), with one and many right-hand sides. Tolerances: the gpu
Cholesky factor carries single precision (unit roundoff 6e-8, times a modest growth for these
well-conditioned matrices); solve and lstsq are refined to double precision on either
backend."""

import numpy as np
import pytest

import glsolve


def spd(n, seed):
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(rng.normal(size=(n, n)))
    return (q * rng.uniform(1, 10, n)) @ q.T  # eigenvalues in [1, 10]: κ ≤ 10


@pytest.mark.parametrize("n", [1, 7, 15, 17, 33])
@pytest.mark.parametrize("backend", ["gpu", "cpu"])
def test_cholesky(n, backend):
    a = spd(n, n)
    L = glsolve.cholesky(a, backend=backend)
    assert L.shape == (n, n) and L.dtype == np.float64 and np.all(np.triu(L, 1) == 0)
    err = np.linalg.norm(L @ L.T - a) / np.linalg.norm(a)
    assert err <= (1e-6 if backend == "gpu" else 1e-14), err
    np.testing.assert_allclose(L, np.linalg.cholesky(a), atol=1e-5 if backend == "gpu" else 1e-12)


@pytest.mark.parametrize("variant", ["triangle-pair", "square-triad", "inner", "blocked-16"])
def test_cholesky_variants_agree(variant):
    a = spd(17, 3)
    L = glsolve.cholesky(a, variant=variant, backend="gpu")
    assert np.linalg.norm(L @ L.T - a) / np.linalg.norm(a) <= 1e-6


def test_cholesky_reads_only_the_lower_triangle():
    a = spd(9, 1)
    garbage = np.tril(a) + np.triu(np.full((9, 9), np.nan), 1)
    for backend in ("gpu", "cpu"):
        np.testing.assert_allclose(glsolve.cholesky(garbage, backend=backend), glsolve.cholesky(a, backend=backend))


@pytest.mark.parametrize("n", [1, 8, 31, 65])
@pytest.mark.parametrize("backend", ["gpu", "cpu"])
def test_solve(n, backend):
    rng = np.random.default_rng(n)
    a = rng.normal(size=(n, n)) + n * np.eye(n)
    x_true = rng.normal(size=n)
    x = glsolve.solve(a, a @ x_true, backend=backend)
    assert x.shape == (n,)
    np.testing.assert_allclose(x, np.linalg.solve(a, a @ x_true), rtol=1e-11, atol=1e-12)
    xs = glsolve.solve(a, np.column_stack([a @ x_true, 2 * a @ x_true]), backend=backend)
    assert xs.shape == (n, 2)
    np.testing.assert_allclose(xs[:, 1], 2 * x, rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("shape", [(1, 1), (9, 3), (40, 7), (129, 16)])
@pytest.mark.parametrize("backend", ["gpu", "cpu"])
def test_lstsq(shape, backend):
    rng = np.random.default_rng(shape[0])
    a, b = rng.normal(size=shape), rng.normal(size=shape[0])
    w = rng.uniform(0.5, 2.0, shape[0])
    x = glsolve.lstsq(a, b, w, backend=backend)
    ref = np.linalg.lstsq(a * w[:, None], b * w, rcond=None)[0]
    assert x.shape == (shape[1],)
    np.testing.assert_allclose(x, ref, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(glsolve.lstsq(a, b, backend=backend), np.linalg.lstsq(a, b, rcond=None)[0],
                               rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("backend", ["gpu", "cpu"])
def test_many_right_hand_sides(backend):
    """b with k columns gives x with k columns, each the solution of its own column."""
    rng = np.random.default_rng(3)
    n, k = 40, 7
    a = rng.normal(size=(n, n)) + n * np.eye(n)
    b = rng.normal(size=(n, k))
    x = glsolve.solve(a, b, backend=backend)
    assert x.shape == (n, k)
    np.testing.assert_allclose(x, np.linalg.solve(a, b), rtol=1e-11, atol=1e-12)
    obs = rng.normal(size=(60, 5))
    bs, w = rng.normal(size=(60, 3)), rng.uniform(0.5, 2.0, 60)
    xs = glsolve.lstsq(obs, bs, w, backend=backend)
    assert xs.shape == (5, 3)
    np.testing.assert_allclose(xs, np.linalg.lstsq(obs * w[:, None], bs * w[:, None], rcond=None)[0], rtol=1e-7,
                               atol=1e-9)
    np.testing.assert_allclose(xs[:, 1], glsolve.lstsq(obs, bs[:, 1], w, backend=backend), rtol=1e-12, atol=1e-14)


def test_the_defaults_are_double_precision_on_the_cpu():
    """No backend named: f64 on the CPU. The Cholesky factor shows it (the gpu one carries
    single precision, ~1e-7 here); that no GL is needed, test_runtime's run without a driver."""
    a = spd(9, 4)
    np.testing.assert_allclose(glsolve.cholesky(a), np.linalg.cholesky(a), rtol=1e-13, atol=1e-13)
    assert np.abs(glsolve.cholesky(a, backend="gpu") - np.linalg.cholesky(a)).max() > 1e-12


def test_empty_systems_as_numpy_gives_them():
    for backend in ("cpu", "gpu"):
        assert glsolve.solve(np.zeros((0, 0)), np.zeros(0), backend=backend).shape == (0,)
        assert glsolve.solve(np.zeros((0, 0)), np.zeros((0, 3)), backend=backend).shape == (0, 3)
        assert glsolve.solve(np.eye(2), np.zeros((2, 0)), backend=backend).shape == (2, 0)
        assert glsolve.cholesky(np.zeros((0, 0)), backend=backend).shape == (0, 0)
        assert glsolve.lstsq(np.zeros((3, 0)), np.ones(3), backend=backend).shape == (0,)
    assert np.linalg.solve(np.zeros((0, 0)), np.zeros(0)).shape == (0,)


def test_a_dense_solve_from_another_thread():
    """The GL context lives on glsolve's own thread: any Python thread may call."""
    import threading

    out = []
    t = threading.Thread(target=lambda: out.append(glsolve.solve(np.eye(3) * 2, [2.0, 4.0, 6.0])))
    t.start()
    t.join()
    np.testing.assert_allclose(out[0], [1.0, 2.0, 3.0])
