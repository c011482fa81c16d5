"""How solves run: off the GIL, interruptible by Ctrl-C, a callback per iteration, a verbose
log; and an import that works without any OpenGL driver."""

import os
import signal
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import glsolve


def run_python(code, **env):
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300,
                         env={**os.environ, **env})
    return out.returncode, out.stdout, out.stderr


def test_the_gil_is_released_during_a_solve():
    """While one thread solves, another runs Python: it could not if the solve held the GIL."""
    c, A, b = glsolve.random_lp(256, seed=2)
    done = []
    t = threading.Thread(target=lambda: done.append(glsolve.linprog(c, A_eq=A, b_eq=b, backend="cpu")))
    ticks = 0
    t.start()
    while t.is_alive():
        ticks += 1
    t.join()
    assert done[0].status == 0
    assert ticks > 10_000, f"the other thread ran only {ticks} loop steps during the solve"


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_callback_sees_every_iteration_as_scipy_shows_it(backend):
    """scipy's interior-point callback fields (x, fun, slack, con, nit, phase, status,
    message, success, complete) and glsolve's progress record, every iteration, on the cpu and
    on the gpu (where x is read back)."""
    seen = []
    c, A, b = glsolve.random_lp(32, seed=5)
    A_ub, b_ub = np.ones((1, A.shape[1])), [1e4]  # a row of slack, never binding
    res = glsolve.linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A, b_eq=b, backend=backend, callback=seen.append)
    assert res.status == 0
    assert [r.nit for r in seen] == list(range(res.nit + 1))  # iteration 0 is the starting point
    for r in seen:
        assert r.x.shape == (A.shape[1],) and r.phase == 1 and r.status == 0 and r.message == ""
        assert r.success is False and r.complete is False
        np.testing.assert_allclose(r.slack, b_ub - A_ub @ r.x, rtol=1e-12, atol=1e-9)
        np.testing.assert_allclose(r.con, b - A @ r.x, rtol=1e-12, atol=1e-9)
        # An interior point: x strictly inside its bounds (x >= 0).
        assert r.x.min() > 0
        # fun is the iterate's objective (the gpu's iterate is single precision).
        assert abs(r.fun - c @ r.x) <= (1e-9 if backend == "cpu" else 1e-4) * max(1.0, abs(r.fun))
    last = seen[-1]
    tol = 1e-6 if backend == "cpu" else 1e-3
    np.testing.assert_allclose(last.x, res.x, rtol=tol, atol=tol)
    assert abs(last.fun - res.fun) <= tol * abs(res.fun) and last.backend.startswith(backend)
    assert last.mu > 0 and (last.gap < 1e-7 if backend == "cpu" else last.gap < 1e-3)


def test_an_exception_in_the_callback_stops_the_solve():
    class Stop(Exception):
        pass

    def callback(r):
        if r.nit == 2:
            raise Stop("enough")

    c, A, b = glsolve.random_lp(32, seed=5)
    with pytest.raises(Stop, match="enough"):
        glsolve.linprog(c, A_eq=A, b_eq=b, backend="cpu", callback=callback)
    # The solver is usable right after.
    assert glsolve.linprog(c, A_eq=A, b_eq=b, backend="cpu").status == 0


def test_verbose_prints_the_log(capsys):
    res = glsolve.linprog([1.0, 1.0], A_ub=[[-1.0, -1.0]], b_ub=[-1.0], backend="cpu", verbose=True)
    out = capsys.readouterr().out
    assert "iter" in out and "verification: passed" in out
    assert out.strip() == res.log.strip()
    glsolve.linprog([1.0, 1.0], A_ub=[[-1.0, -1.0]], b_ub=[-1.0], backend="cpu")
    assert capsys.readouterr().out == ""


def test_ctrl_c_stops_the_solve_and_raises_keyboard_interrupt():
    """SIGINT after the first iteration: KeyboardInterrupt, and the solve stopped early (its
    printed log has fewer iterations than the same solve run to the end).

    The signal comes from this process once the child has printed that its iteration 1 is done,
    so it always arrives while the child's solve still runs."""
    code = textwrap.dedent("""
        import signal, glsolve
        # Python leaves SIGINT ignored when its parent ignored it (a job started with `&` from a
        # script, as CI runners may): install the handler an interactive session has.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        c, A, b = glsolve.random_lp(1024, seed=7)
        full = glsolve.linprog(c, A_eq=A, b_eq=b, backend="cpu")
        print("FULL", full.nit, flush=True)
        try:
            glsolve.linprog(c, A_eq=A, b_eq=b, backend="cpu", verbose=True,
                            callback=lambda r: r.nit == 1 and print("SIGNAL ME", flush=True))
        except KeyboardInterrupt:
            print("INTERRUPTED", flush=True)
        print("AFTER", glsolve.linprog(c, A_eq=A, b_eq=b, backend="cpu").status, flush=True)
    """)
    child = subprocess.Popen([sys.executable, "-u", "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    lines = []
    for line in child.stdout:
        lines.append(line)
        if line.strip() == "SIGNAL ME":
            child.send_signal(signal.SIGINT)
    err = child.stderr.read()
    assert child.wait(timeout=300) == 0, err
    out = "".join(lines)
    full = int(out.split("FULL ")[1].split()[0])
    assert "SIGNAL ME" in out and "INTERRUPTED" in out and "AFTER 0" in out, out
    log = out.split("FULL")[1].split("INTERRUPTED")[0]
    rows = [l for l in log.splitlines() if l.strip() and l.split()[0].isdigit() and len(l.split()) >= 10]
    assert 2 <= len(rows) < full, f"{len(rows)} iterations printed; the whole solve takes {full}"


@pytest.mark.parametrize("absent", ["vendor", "libEGL"])
def test_import_and_solve_without_an_opengl_driver(absent, tmp_path):
    """Without a driver, two ways: libEGL (glvnd) present with no vendor library, and no
    libEGL at all — glutin opens libEGL.so.1, then libEGL.so, with dlopen at run time, and an
    empty file of each name first on LD_LIBRARY_PATH makes both opens fail as on a machine
    without it. Either way: import works, auto and hybrid solve on the CPU with a
    GlsolveWarning, gpu raises RuntimeError, the dense functions' default (cpu) works, info()
    says why without printing."""
    if absent == "vendor":
        env = dict(__EGL_VENDOR_LIBRARY_FILENAMES="/nonexistent/egl_vendor.json")
    else:
        for name in ("libEGL.so.1", "libEGL.so"):
            (tmp_path / name).write_bytes(b"")
        env = dict(LD_LIBRARY_PATH=f"{tmp_path}:{os.environ.get('LD_LIBRARY_PATH', '')}")
    code, out, err = run_python("""
        import warnings, glsolve
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            for backend in ("auto", "hybrid", "cpu"):
                c, A, b = glsolve.random_lp(600, seed=1)
                r = glsolve.linprog(c, A_eq=A, b_eq=b, backend=backend)
                print(backend, r.status, r.backend)
        print("WARNINGS", sorted({str(x.category.__name__) for x in w}), len(w))
        try:
            glsolve.linprog([1.0], A_ub=[[1.0]], b_ub=[1.0], backend="gpu")
        except RuntimeError as e:
            print("GPU", e)
        try:
            glsolve.cholesky([[4.0]], backend="gpu")
        except RuntimeError as e:
            print("CHOLESKY", e)
        print("CPU CHOLESKY", glsolve.cholesky([[4.0]], backend="cpu")[0, 0])
        print("DEFAULT SOLVE", glsolve.solve([[2.0, 0.0], [0.0, 4.0]], [[2.0, 4.0], [4.0, 8.0]]).tolist())
        import contextlib, io
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            info = glsolve.info()
        print("INFO", info.available, info.driver, "|", info.error, "| PRINTED", repr(printed.getvalue()))
    """, **env)
    assert code == 0, err
    assert "auto 0 cpu" in out and "hybrid 0 cpu" in out and "cpu 0 cpu" in out, out
    assert "WARNINGS ['GlsolveWarning'] 2" in out, out
    assert "GPU backend 'gpu' needs an OpenGL driver" in out
    assert "CHOLESKY backend 'gpu' needs an OpenGL driver" in out
    assert "CPU CHOLESKY 2.0" in out and "DEFAULT SOLVE [[1.0, 2.0], [1.0, 2.0]]" in out
    assert "INFO False None | no EGL driver found" in out and "| PRINTED ''" in out, out


def test_info_returns_the_capability_record_without_printing(capsys):
    info = glsolve.info()
    assert capsys.readouterr().out == ""
    assert info.available and info.error is None, info.error
    assert isinstance(info, dict) and info["driver"] is info.driver
    assert "GL renderer" in info.driver and "largest matrix side" in info.driver
    assert "GL renderer" in repr(info)


def test_help_shows_the_docstrings():
    for f in (glsolve.linprog, glsolve.solve_mps, glsolve.read_mps, glsolve.cholesky, glsolve.solve, glsolve.lstsq,
              glsolve.info, glsolve.random_lp):
        assert f.__doc__ and len(f.__doc__) > 200 or f in (glsolve.read_mps,), f.__name__
    assert "marginals" in glsolve.linprog.__doc__ and "KeyboardInterrupt" in glsolve.linprog.__doc__


def test_read_and_solve_mps_gzip(tmp_path, netlib_dir):
    import gzip

    src = netlib_dir / "afiro.mps"
    gz = tmp_path / "afiro.mps.gz"
    gz.write_bytes(gzip.compress(src.read_bytes()))
    a, b = glsolve.read_mps(src), glsolve.read_mps(gz)
    assert a.shape == b.shape == (27, 32) and (a.A != b.A).nnz == 0
    assert a.row_names[:2] == b.row_names[:2] and a.sense == "min"
    r = glsolve.solve_mps(gz, backend="cpu")
    assert r.status == 0 and abs(r.fun - (-464.753142857)) < 1e-6
    assert r.row_marginals.shape == (27,) and r.col_marginals.shape == (32,)


def test_random_lp_is_the_cli_generator():
    """The same member as `glsolve generate --random 8 --seed 3`: equality rows, unit columns."""
    c, A, b = glsolve.random_lp(8, seed=3)
    assert A.shape == (8, 32) and c.shape == (32,) and b.shape == (8,)
    np.testing.assert_allclose(np.linalg.norm(A, axis=0), 1.0)
    assert np.all(c == 1.0)
    c2, A2, b2 = glsolve.random_lp(8, seed=3)
    assert np.array_equal(A, A2) and not np.array_equal(A, glsolve.random_lp(8, seed=4)[1])


def test_the_cvxpy_solver_without_cvxpy_names_the_extra_to_install():
    """`import glsolve` needs only numpy; GlsolveSolver without CVXPY says what to install.
    (The wheel's consumer test, tests/python_wheel.rs, does the same in a venv that has
    neither CVXPY nor scipy.)"""
    code, out, err = run_python("""
        import sys
        sys.modules["cvxpy"] = None  # what `import cvxpy` meets where CVXPY is not installed
        import glsolve
        print("SOLVED", glsolve.linprog([1.0], bounds=[(1, 2)]).x)
        try:
            from glsolve import GlsolveSolver
        except ImportError as e:
            print("IMPORT", e)
    """)
    assert code == 0, err
    assert "SOLVED [1.]" in out, out
    assert "IMPORT glsolve.GlsolveSolver needs CVXPY and scipy, and cvxpy is not installed: " \
           "pip install 'glsolve[cvxpy]'" in out, out
