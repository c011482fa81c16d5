"""`linprog` with scipy's signature and OptimizeResult, and `solve_mps`."""

import os
import sys
import time
import warnings
from collections.abc import Mapping

import numpy as np

from . import _checks as chk
from . import _glsolve
from ._result import (
    GlsolveWarning,
    OptimizeResult,
    floats,
    glsolve_fields,
    iteration,
    scipy_status,
    warn_if_no_gl,
    with_point,
)

BACKENDS = tuple(_glsolve.lp_backends())

# The largest iteration limit (HiGHS's, an int32; no solve comes near it).
MAX_ITER = 2**31 - 1

# scipy.optimize.linprog's methods. glsolve solves every one with its interior-point method;
# asking for a simplex method is answered with a warning, as its optimum need not be a vertex.
INTERIOR_METHODS = ("highs", "highs-ipm", "interior-point")
SIMPLEX_METHODS = ("highs-ds", "simplex", "revised simplex")

# scipy's linprog options that have a glsolve counterpart; every other one is ignored with a
# GlsolveWarning (scipy's HiGHS methods also warn about names they do not know).
TOLERANCE_OPTIONS = ("tol", "primal_feasibility_tolerance", "dual_feasibility_tolerance", "ipm_optimality_tolerance")


def _number(v):
    """A number of the library's record, where JSON writes a non-finite one as null."""
    return float("nan") if v is None else float(v)


def _options(backend, tol, max_iter, time_limit, verbose, callback):
    chk.option_str("backend", backend, BACKENDS)
    tol = chk.option_real("tol", tol, 0.0, 1.0, "the tolerance must be in (0, 1)")
    max_iter = chk.option_int("max_iter", max_iter, 1, MAX_ITER, f"the iteration limit must be between 1 and {MAX_ITER}")
    time_limit = chk.option_real("time_limit", time_limit, 0.0, float("inf"), "the time limit must be > 0 seconds and finite")
    verbose = chk.option_bool("verbose", verbose)
    chk.option_callable("callback", callback)
    return tol, max_iter, time_limit, verbose


def _method(method):
    """scipy's `method` (case-insensitive, as scipy reads it), checked; warns for a simplex one."""
    known = INTERIOR_METHODS + SIMPLEX_METHODS
    if not isinstance(method, str):
        raise TypeError(f"method must be a string (one of {', '.join(repr(m) for m in known)}), not {type(method).__name__}")
    meth = method.lower()
    if meth not in known:
        raise ValueError(f"method = {method!r}: unknown solver; scipy.optimize.linprog's methods are "
                         f"{', '.join(repr(m) for m in known)} (glsolve solves each with its interior-point method)")
    if meth in SIMPLEX_METHODS:
        warnings.warn(f"method={method!r} asks for a simplex method: glsolve solves with its interior-point method, "
                      "so where the optimum is not unique x need not be a vertex", GlsolveWarning, stacklevel=3)
    return meth


def _scipy_options(options, tol, max_iter, time_limit, verbose):
    """scipy's `options` dict merged into glsolve's arguments: ``maxiter`` → max_iter,
    ``disp`` → verbose, ``time_limit`` → time_limit, the tolerances (``tol``,
    ``primal_feasibility_tolerance``, ``dual_feasibility_tolerance``,
    ``ipm_optimality_tolerance``) → tol, the smallest of them. A glsolve argument given too
    must agree; any other option is ignored with one GlsolveWarning that lists them."""
    if options is None:
        return tol, max_iter, time_limit, verbose
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict of scipy's linprog options (e.g. {{'maxiter': 100, 'disp': True}}), "
                        f"not {type(options).__name__}")
    name = lambda key: f"options[{key!r}]"  # noqa: E731

    def merge(ours, our_name, key, value):
        if ours is not None and value is not None and ours != value:
            raise ValueError(f"{our_name} = {ours} and {name(key)} = {value} disagree: give one of them")
        return value if ours is None else ours

    ignored = {}
    for key, value in options.items():
        if key == "maxiter":
            v = chk.option_int(name(key), value, 1, MAX_ITER, f"the iteration limit must be between 1 and {MAX_ITER}")
            max_iter = merge(max_iter, "max_iter", key, v)
        elif key == "time_limit":
            v = chk.option_real(name(key), value, 0.0, float("inf"), "the time limit must be > 0 seconds and finite")
            time_limit = merge(time_limit, "time_limit", key, v)
        elif key == "disp":
            verbose = verbose or chk.option_bool(name(key), value)
        elif key in TOLERANCE_OPTIONS:
            v = chk.option_real(name(key), value, 0.0, 1.0, "the tolerance must be in (0, 1)")
            if v is not None:
                given = [options[k] for k in TOLERANCE_OPTIONS if options.get(k) is not None]
                tol = merge(tol, "tol", key, min(float(t) for t in given))
        else:
            ignored[key] = value
    if ignored:
        warnings.warn(f"options {ignored} have no counterpart in glsolve and are ignored (glsolve reads maxiter, disp, "
                      f"time_limit and the tolerances {', '.join(TOLERANCE_OPTIONS)})", GlsolveWarning, stacklevel=3)
    return tol, max_iter, time_limit, verbose


def _x0_and_integrality(x0, integrality, n, meth):
    """scipy's `x0` (checked, then unused: warned) and `integrality` (none asked: nothing to
    do; asked: refused where scipy would solve a MIP, ignored with scipy's warning where scipy
    ignores it)."""
    if x0 is not None:
        chk.vector("x0", x0, n, "c (one guess per variable)")
        warnings.warn("x0 is not used: glsolve's interior-point method starts from its own point "
                      "(scipy uses x0 only with method='revised simplex')", GlsolveWarning, stacklevel=3)
    if integrality is None:
        return
    kinds = chk.floats("integrality", integrality)
    try:
        kinds = np.broadcast_to(kinds, (n,))
    except ValueError:
        raise ValueError(f"integrality has shape {kinds.shape}, but c has {n} entries: give one value or {n}") from None
    bad = np.flatnonzero(~np.isin(kinds, (0, 1, 2, 3)))
    if bad.size:
        k = int(bad[0])
        raise ValueError(f"integrality[{k}] = {kinds[k]}: each entry must be 0 (continuous), 1 (integer), "
                         "2 (semi-continuous) or 3 (semi-integer)")
    asked = np.flatnonzero(kinds)
    if asked.size == 0:
        return
    if meth == "highs":
        k = int(asked[0])
        raise NotImplementedError(f"integrality[{k}] = {int(kinds[k])}: glsolve solves linear programs without "
                                  "integer constraints. Only `method='highs'` supports integer constraints: "
                                  "scipy.optimize.linprog(..., method='highs') solves this problem.")
    warnings.warn("Only `method='highs'` supports integer constraints. Ignoring `integrality`.", GlsolveWarning,
                  stacklevel=3)


class _Lines:
    """Receives the solve's log lines and iteration records on the calling thread: keeps the
    lines, prints them when verbose, and hands each iteration's record to the callback (with
    `rows(x)` giving its slack and con)."""

    def __init__(self, verbose, callback, rows=None):
        self.lines, self.verbose, self.callback, self.rows = [], verbose, callback, rows

    def line(self, line):
        self.lines.append(line)
        if self.verbose:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def iteration(self, record):
        if self.callback is not None:
            self.callback(iteration(record, self.rows))


def _bounds(bounds, n):
    """scipy's bounds: None or (0, None) for all; one (min, max) pair for all; n pairs; None or
    NaN for no bound. Returns (lower, upper)."""
    if bounds is None or (np.size(bounds) == 0 and np.ndim(bounds) <= 2):
        bounds = (0, np.inf)
    try:
        b = np.atleast_2d(np.array(bounds, dtype=np.float64))
    except ValueError as e:
        raise ValueError(f"bounds: unable to interpret bounds ({e}); give (min, max) or one pair per variable") from None
    except TypeError as e:
        raise TypeError(f"bounds must hold numbers or None ({e})") from None
    if b.ndim > 2:
        raise ValueError(f"bounds must be a pair or an n x 2 array, but has shape {b.shape}")
    if b.shape == (n, 2):
        lower, upper = b[:, 0].copy(), b[:, 1].copy()
    elif b.shape in ((1, 2), (2, 1)):
        lower, upper = np.full(n, b.flat[0]), np.full(n, b.flat[1])
    elif b.shape == (2, n):
        raise ValueError(f"bounds has shape (2, {n}): give an {n} x 2 array (one (min, max) pair per variable)")
    else:
        raise ValueError(f"bounds has shape {b.shape}, but c has {n} entries: give one (min, max) pair, or {n} of them")
    lower[np.isnan(lower)] = -np.inf
    upper[np.isnan(upper)] = np.inf
    return lower, upper


def _bound_marginals(d, lower, upper):
    """The reduced costs d = c − Aᵀy split into the sensitivities to the lower and the upper
    bounds, as scipy's HiGHS methods report them: a reduced cost belongs to the bound the
    column rests on — the lower one where it is positive, the upper one where negative — and
    to the only finite bound of a column that has one; a free column has none (its reduced
    cost is zero at an optimum)."""
    has_l, has_u = np.isfinite(lower), np.isfinite(upper)
    to_lower = has_l & ((d > 0) | ~has_u)
    to_upper = has_u & ~to_lower
    return np.where(to_lower, d, 0.0), np.where(to_upper, d, 0.0)


def linprog(c, A_ub=None, b_ub=None, A_eq=None, b_eq=None, bounds=(0, None), method="highs", callback=None,
            options=None, x0=None, integrality=None, *, backend="auto", tol=None, max_iter=None, time_limit=None,
            verbose=False):
    """Minimize a linear objective subject to linear equality and inequality constraints,
    with scipy.optimize.linprog's arguments (in its order), meaning and result: a call
    written for scipy runs unchanged::

        min  c @ x
        s.t. A_ub @ x <= b_ub,  A_eq @ x == b_eq,  lb <= x <= ub

    Parameters
    ----------
    c : 1-D array (n,)
        The cost of each variable.
    A_ub, b_ub : 2-D array or scipy.sparse matrix (m_ub, n); 1-D array (m_ub,), optional
        Inequality rows ``A_ub @ x <= b_ub``.
    A_eq, b_eq : 2-D array or scipy.sparse matrix (m_eq, n); 1-D array (m_eq,), optional
        Equality rows ``A_eq @ x == b_eq``.
    bounds : sequence, optional
        ``(min, max)`` for every variable, or one pair per variable; None (or NaN) is no bound.
        Default ``(0, None)``: x >= 0.
    method : str, optional
        scipy's method name (``"highs"`` by default, ``"highs-ipm"``, ``"interior-point"``,
        ``"highs-ds"``, ``"simplex"``, ``"revised simplex"``; any case): every one is solved by
        glsolve's interior-point method. A simplex method gives a GlsolveWarning (where the
        optimum is not unique, x need not be a vertex); any other name is a ValueError.
    callback : callable, optional
        Called once per interior-point iteration with an OptimizeResult as scipy's
        interior-point method gives it: ``x`` (the iterate), ``fun``, ``slack``, ``con``,
        ``nit``, ``phase`` (1), ``status`` (0), ``message``, ``success`` and ``complete``
        (False); beside them glsolve's ``dual_objective``, ``primal_infeasibility``,
        ``dual_infeasibility``, ``gap``, ``mu``, ``alpha_primal``, ``alpha_dual`` and
        ``backend``. Asking for x costs a copy of the iterate per iteration (a readback from
        the GPU on ``gpu`` and ``hybrid``). An exception raised by the callback stops the solve
        and propagates.
    options : dict, optional
        scipy's options: ``maxiter`` (as max_iter), ``disp`` (as verbose), ``time_limit``, and
        the tolerances ``tol``, ``primal_feasibility_tolerance``,
        ``dual_feasibility_tolerance``, ``ipm_optimality_tolerance`` (glsolve's one
        tolerance tol is the smallest given). Every other option (``presolve``,
        ``autoscale``, ...) is ignored with a GlsolveWarning. An option and the glsolve
        argument of the same meaning must agree.
    x0 : 1-D array, optional
        Checked (n finite entries) and not used, with a GlsolveWarning: the interior-point
        method starts from its own point (scipy uses x0 only with ``"revised simplex"``).
    integrality : 1-D array or int, optional
        scipy's integrality (0 continuous, 1 integer, 2 semi-continuous, 3 semi-integer;
        broadcast to c's shape). All zero: nothing to do. Any other value is refused with
        NotImplementedError where scipy would solve a mixed-integer problem (method
        ``"highs"``), and ignored with scipy's warning where scipy ignores it (the other
        methods).
    backend : {"auto", "cpu", "hybrid", "gpu"}
        ``cpu``: double precision on the CPU. ``gpu``: every kernel in single precision on the
        OpenGL raster pipeline (default tol 1e-4; a tol below 1e-7 is refused). ``hybrid``: the
        normal equations on the GPU while single precision suffices, double precision on the
        CPU after (answers in double precision). ``auto`` (default): ``cpu`` or ``hybrid``,
        whichever this problem on this device should finish sooner; ``result.backend`` and
        ``result.notes`` say which ran and why. Without an OpenGL driver ``auto`` and
        ``hybrid`` solve on the CPU with a :class:`GlsolveWarning`; ``gpu`` raises RuntimeError.
    tol : float in (0, 1), optional
        The termination tolerance ε (default 1e-8; 1e-4 on ``gpu``). Every answer is proven
        in double precision on the original problem: optimal means an enclosure of the
        optimum no wider than 10·ε of the objective's size, from a point whose componentwise
        backward error is at most 10·ε.
    max_iter : int >= 1, optional
        Iteration limit (default 200); reaching it is status 1 with the best iterate.
    time_limit : float > 0, optional
        Wall-clock limit in seconds; reaching it is status 1 with the best iterate.
    verbose : bool
        Print the iteration log while solving (it is in ``result.log`` either way).

    Returns
    -------
    OptimizeResult
        scipy's fields: ``x``, ``fun``, ``slack`` (b_ub - A_ub @ x), ``con`` (b_eq - A_eq @ x),
        ``success``, ``status`` (0 optimal, 1 iteration or time limit, 2 infeasible,
        3 unbounded, 4 numerical difficulties — including an answer that passes the check
        only at reduced accuracy, and "unbounded or infeasible"), ``message``, ``nit``, and
        ``ineqlin``, ``eqlin``, ``lower``, ``upper``, each with ``residual`` and
        ``marginals`` in the sign conventions of scipy's HiGHS methods (marginals are the
        sensitivities of ``fun`` to b_ub, b_eq, the lower and the upper bounds). As there,
        x and the rest are None when there is no point to report (status 2, 3 and failures);
        at a limit (status 1) they are the best iterate. glsolve's own: ``verdict`` (its
        status), ``enclosure`` (``{"lower": …, "upper": …}``: an interval proven to hold the
        optimal value, in the model's sense; ``None`` for infeasible and unbounded models; a
        missing side is ``None``), ``verification`` (the proof's measures: the enclosure,
        x's componentwise backward error, the width, how the bound was found), ``certificate``
        (the infeasibility ray and its check), ``backend`` (the one that ran),
        ``gpu_iterations``, ``notes``, ``detail``, ``timings`` (seconds per phase;
        ``python``: the whole call, conversions included) and ``log``.

    Raises
    ------
    TypeError, ValueError
        For a bad argument, naming it, the index and the limit (e.g. ``A_ub[2, 5] = nan``,
        ``b_eq has 3 entries, but A_eq needs 4``, ``options['maxiter'] = 0``).
    NotImplementedError
        An integrality that asks for integer variables (with method ``"highs"``).
    KeyboardInterrupt
        On Ctrl-C: the solve stops at its next iteration.
    RuntimeError
        ``backend="gpu"`` without a usable OpenGL driver, or a GL fault.

    Examples
    --------
    >>> import glsolve
    >>> res = glsolve.linprog([-1, -2], A_ub=[[1, 1], [-1, 1]], b_ub=[4, 2], backend="cpu")
    >>> res.status, round(res.fun, 6), res.x.round(6).tolist()
    (0, -7.0, [1.0, 3.0])
    >>> res.ineqlin.marginals.round(6).tolist()
    [-1.5, -0.5]

    An unchanged scipy call:

    >>> res = glsolve.linprog([-1, -2], [[1, 1], [-1, 1]], [4, 2], method="highs", options={"maxiter": 100})
    >>> res.status, round(res.fun, 6)
    (0, -7.0)
    """
    start = time.perf_counter()
    if c is None:
        raise TypeError("c must be a 1-D array of numbers, not None")
    c = chk.vector("c", c)
    n = c.shape[0]
    if n == 0:
        raise ValueError("c has 0 entries: a problem needs at least one variable")
    meth = _method(method)
    tol, max_iter, time_limit, verbose = _options(backend, tol, max_iter, time_limit, verbose, callback)
    tol, max_iter, time_limit, verbose = _scipy_options(options, tol, max_iter, time_limit, verbose)
    _x0_and_integrality(x0, integrality, n, meth)
    parts = []
    for a_name, b_name, a, b in (("A_ub", "b_ub", A_ub, b_ub), ("A_eq", "b_eq", A_eq, b_eq)):
        if a is None and b is not None and np.size(b) > 0:
            raise ValueError(f"{b_name} is given without {a_name}")
        if a is None:
            a = np.zeros((0, n))
        a = chk.matrix(a_name, a, n, "c (one column per variable)")
        if b is None:
            if a.shape[0]:
                raise ValueError(f"{b_name} is missing, but {a_name} has {a.shape[0]} rows")
            b = np.zeros(0)
        b = chk.vector(b_name, b, a.shape[0], f"{a_name} (one entry per row)")
        parts.append((a_name, a, b))
    (_, a_ub, b_ub), (_, a_eq, b_eq) = parts
    lower, upper = _bounds(bounds, n)
    m_ub = a_ub.shape[0]
    row_lower = np.concatenate([np.full(m_ub, -np.inf), b_eq])
    row_upper = np.concatenate([b_ub, b_eq])
    lines = _Lines(verbose, callback, lambda x: (b_ub - chk.matvec(a_ub, x), b_eq - chk.matvec(a_eq, x)))
    raw = _glsolve.linprog(
        c.tobytes(),
        [chk.block("A_ub", a_ub), chk.block("A_eq", a_eq)],
        row_lower.tobytes(),
        row_upper.tobytes(),
        lower.tobytes(),
        upper.tobytes(),
        backend,
        tol,
        max_iter,
        time_limit,
        lines,
        callback is not None,
    )
    warn_if_no_gl(raw, backend)
    code, message = scipy_status(raw)
    res = OptimizeResult(x=None, fun=None, slack=None, con=None, success=code == 0, status=code,
                         message=message, nit=raw["iterations"])
    res["ineqlin"] = OptimizeResult(residual=None, marginals=None)
    res["eqlin"] = OptimizeResult(residual=None, marginals=None)
    res["lower"] = OptimizeResult(residual=None, marginals=None)
    res["upper"] = OptimizeResult(residual=None, marginals=None)
    if with_point(raw):
        x, y, d = floats(raw, "x"), floats(raw, "row_duals"), floats(raw, "reduced_costs")
        slack = b_ub - chk.matvec(a_ub, x)
        con = b_eq - chk.matvec(a_eq, x)
        res.update(x=x, fun=float(c @ x), slack=slack, con=con)
        res["ineqlin"] = OptimizeResult(residual=slack, marginals=y[:m_ub])
        res["eqlin"] = OptimizeResult(residual=con, marginals=y[m_ub:])
        lower_m, upper_m = _bound_marginals(d, lower, upper)
        res["lower"] = OptimizeResult(residual=x - lower, marginals=lower_m)
        res["upper"] = OptimizeResult(residual=upper - x, marginals=upper_m)
    res.update(glsolve_fields(raw, lines.lines, time.perf_counter() - start))
    if res["verdict"] != "optimal":
        res["message"] = f"{res['message']} (glsolve: {res['verdict']}; {res['detail']})".replace("; )", ")")
    return res


def solve_mps(path, *, backend="auto", tol=None, max_iter=None, time_limit=None, verbose=False, callback=None):
    """Solve the LP of an MPS file (free or fixed format, gzip too) as it is written: its own
    sense (OBJSENSE), ranges and bounds. The options are :func:`linprog`'s.

    Returns an OptimizeResult with ``x``, ``fun`` (the objective in the file's sense, its
    constant included), ``success``, ``status`` and ``message`` (scipy's codes), ``nit``,
    ``row_marginals`` (the sensitivity of ``fun`` to each row's bound) and ``col_marginals``
    (reduced costs), plus :func:`linprog`'s glsolve fields. Raises OSError for a file that
    cannot be read and ValueError, with the line, for one that does not parse.
    """
    start = time.perf_counter()
    path = os.fspath(path)
    tol, max_iter, time_limit, verbose = _options(backend, tol, max_iter, time_limit, verbose, callback)
    lines = _Lines(verbose, callback)
    raw = _glsolve.solve_mps(path, backend, tol, max_iter, time_limit, lines, callback is not None)
    warn_if_no_gl(raw, backend)
    code, message = scipy_status(raw)
    res = OptimizeResult(x=None, fun=None, success=code == 0, status=code, message=message, nit=raw["iterations"],
                         row_marginals=None, col_marginals=None, sense=raw["sense"])
    if with_point(raw):
        res.update(x=floats(raw, "x"), fun=_number(raw["objective"]), row_marginals=floats(raw, "row_duals"),
                   col_marginals=floats(raw, "reduced_costs"))
    res.update(glsolve_fields(raw, lines.lines, time.perf_counter() - start))
    return res
