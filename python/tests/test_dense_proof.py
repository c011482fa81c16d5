"""The dense functions say how they got their answer: lstsq on designs of chosen condition
number (A = U·Σ·Vᵀ, σ from 1 to 1/κ, y = A·x₀ + 1e-3 noise — the problem the issue measured)
is within 1e-8 of a double-precision QR reference on both backends, the gpu backend's answer is
"Mixed" where single precision suffices and falls back to the CPU's QR, with a GlsolveWarning,
where it does not; solve and cholesky report their method and accuracy the same way.

The reference is numpy's Householder QR (LAPACK). At κ = 1e10 with this noise two f64 methods
are no longer 1e-8 apart (the solution moves by κ²·u·‖r‖/‖x‖ ≈ 1e-3 under rounding-sized
changes of A; faer's QR and LAPACK's differ by 2e-7 on 300 × 40), so there the answers are held
to glsolve's own f64 QR (faer) instead: the fallback must be that computation."""

import warnings

import numpy as np
import pytest
import scipy.linalg

import glsolve


def design(rows, cols, kappa, seed=1):
    rng = np.random.default_rng(seed)
    u, _ = np.linalg.qr(rng.normal(size=(rows, cols)))
    v, _ = np.linalg.qr(rng.normal(size=(cols, cols)))
    a = (u * kappa ** (-np.arange(cols) / (cols - 1))) @ v.T
    return a, a @ rng.uniform(-1, 1, cols) + 1e-3 * rng.uniform(-1, 1, rows)


def qr_reference(a, b):
    q, r = np.linalg.qr(a)
    return scipy.linalg.solve_triangular(r, q.T @ b)


def solved(f, *args, **kw):
    """f(*args, return_info=True, **kw) and the GlsolveWarnings it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x, info = f(*args, return_info=True, **kw)
    return x, info, [w for w in caught if issubclass(w.category, glsolve.GlsolveWarning)]


@pytest.mark.parametrize("kappa", [1e2, 1e4, 1e7, 1e8, 1e10])
@pytest.mark.parametrize("shape", [(61, 13), (300, 40)])
def test_lstsq_is_within_1e8_of_qr_and_says_how(shape, kappa):
    a, b = design(*shape, kappa)
    x_cpu, info_cpu, warned = solved(glsolve.lstsq, a, b, backend="cpu")
    assert info_cpu.method == "Double" and info_cpu.backend == "cpu" and not warned
    x, info, warned = solved(glsolve.lstsq, a, b, backend="gpu")
    reference = qr_reference(a, b) if kappa <= 1e8 else x_cpu
    for name, got in (("gpu", x), ("cpu", x_cpu)):
        err = np.linalg.norm(got - reference) / np.linalg.norm(reference)
        assert err <= 1e-8, f"{name}: {err:.1e} ({info.method}, {info.reason})"
    assert info.backend == "gpu" and info.threshold == 1e-8 and info.backward_error < 1e-6
    if kappa <= 1e2:
        assert info.method == "Mixed" and info.reason is None and not warned, info
        assert info.forward_error <= info.threshold and info.nit >= 1 and info.contraction < 1
    else:
        # κ² ≥ 1e8 is beyond single precision's normal equations: the CPU's QR, and a warning.
        assert info.method == "DoubleFallback" and info.reason, info
        assert len(warned) == 1 and "double precision on the CPU" in str(warned[0].message)


def test_the_issue_problem_is_no_longer_returned_silently():
    """A 300 × 40, κ = 1e8, from numpy-style use: a plain array, now with a warning, and the
    answer of a double-precision QR (0.19 off before)."""
    a, b = design(300, 40, 1e8)
    with pytest.warns(glsolve.GlsolveWarning, match="not proven accurate"):
        x = glsolve.lstsq(a, b, backend="gpu")
    assert isinstance(x, np.ndarray) and x.shape == (40,)
    ref = qr_reference(a, b)
    assert np.linalg.norm(x - ref) / np.linalg.norm(ref) <= 1e-8


def test_many_right_hand_sides_report_one_entry_each():
    a, b = design(45, 9, 10.0)
    bb = np.column_stack([b, 2 * b, b + 1])
    x, info, warned = solved(glsolve.lstsq, a, bb, backend="gpu")
    assert x.shape == (9, 3) and not warned
    assert info.method == ["Mixed"] * 3 and len(info.forward_error) == 3 and len(info.nit) == 3
    square = np.random.default_rng(6).normal(size=(9, 9)) + 9 * np.eye(9)
    x, info, _ = solved(glsolve.solve, square, bb[:9], backend="gpu")
    assert info.method == ["Mixed"] * 3 and info.threshold == [16.0] * 3


def test_solve_says_its_method_and_bound():
    rng = np.random.default_rng(4)
    n = 21
    for kappa, method in ((1e2, "Mixed"), (1e9, "DoubleFallback")):
        u, _ = np.linalg.qr(rng.normal(size=(n, n)))
        v, _ = np.linalg.qr(rng.normal(size=(n, n)))
        a = (u * kappa ** (-np.arange(n) / (n - 1))) @ v.T
        b = rng.normal(size=n)
        x, info, warned = solved(glsolve.solve, a, b, backend="gpu")
        assert info.method == method and bool(warned) == (method == "DoubleFallback"), info
        assert info.backward_error <= info.threshold == 16.0
        np.testing.assert_allclose(a @ x, b, atol=1e-12 * kappa)
    x, info, _ = solved(glsolve.solve, a, b, backend="cpu")
    assert info.method == "Double"


@pytest.mark.parametrize("backend", ["gpu", "cpu"])
def test_cholesky_reports_its_backward_error(backend):
    rng = np.random.default_rng(5)
    q, _ = np.linalg.qr(rng.normal(size=(33, 33)))
    a = (q * np.geomspace(1, 1e-4, 33)) @ q.T
    L, info, warned = solved(glsolve.cholesky, a, backend=backend)
    here = np.linalg.norm(a - L @ L.T) / np.linalg.norm(a)
    assert info.method == ("Single" if backend == "gpu" else "Double") and not warned
    # Both are f64 evaluations of ‖A − L·Lᵀ‖/‖A‖ (numpy's over A as given, glsolve's over its lower
    # triangle mirrored): they agree to 1e-3 where the error is single precision's, and to the
    # residual's own rounding, about n·ε, where it is double precision's.
    assert abs(info.backward_error - here) <= 1e-3 * here + 33 * np.finfo(float).eps
    assert info.backward_error <= (8 * 33 * 1.2e-7 if backend == "gpu" else 1e-14)
    assert isinstance(glsolve.cholesky(a, backend=backend), np.ndarray)


def test_return_info_is_a_bool_and_empty_problems_have_info():
    with pytest.raises(TypeError, match="return_info"):
        glsolve.lstsq(np.eye(2), np.ones(2), return_info="yes")
    x, info = glsolve.lstsq(np.zeros((3, 0)), np.ones(3), backend="gpu", return_info=True)
    assert x.shape == (0,) and info.method is None
