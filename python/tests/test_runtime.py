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


def test_callback_sees_every_iteration():
    seen = []
    c, A, b = glsolve.random_lp(32, seed=5)
    res = glsolve.linprog(c, A_eq=A, b_eq=b, backend="cpu", callback=seen.append)
    assert res.status == 0
    assert [r.nit for r in seen] == list(range(res.nit + 1))  # iteration 0 is the starting point
    last = seen[-1]
    assert abs(last.fun - res.fun) <= 1e-6 * abs(res.fun) and last.backend.startswith("cpu")
    assert last.gap < 1e-7 and last.mu > 0


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


def test_import_and_solve_without_an_opengl_driver():
    """No EGL vendor library: import works, auto and hybrid solve on the CPU with a
    GlsolveWarning, gpu raises RuntimeError, info() says why."""
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
        info = glsolve.info()
        print("INFO", info.available)
    """, __EGL_VENDOR_LIBRARY_FILENAMES="/nonexistent/egl_vendor.json")
    assert code == 0, err
    assert "auto 0 cpu" in out and "hybrid 0 cpu" in out and "cpu 0 cpu" in out, out
    assert "WARNINGS ['GlsolveWarning'] 2" in out, out
    assert "GPU backend 'gpu' needs an OpenGL driver" in out
    assert "CHOLESKY backend 'gpu' needs an OpenGL driver" in out
    assert "CPU CHOLESKY 2.0" in out
    assert "no OpenGL driver" in out and "INFO False" in out


def test_info_prints_the_capability_record(capsys):
    info = glsolve.info()
    out = capsys.readouterr().out
    assert info.available, info.error
    assert "GL renderer" in info.driver and info.driver["GL renderer"] in out
    assert "largest matrix side" in info.driver


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
