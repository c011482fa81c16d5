"""The library's answer shaped as scipy's OptimizeResult, status codes and messages."""

import warnings

import numpy as np

try:  # scipy's own class where scipy is installed, so isinstance checks hold
    from scipy.optimize import OptimizeResult
except ImportError:  # pragma: no cover - exercised only without scipy

    class OptimizeResult(dict):
        """A dict whose keys are also attributes (scipy.optimize.OptimizeResult's behaviour)."""

        def __getattr__(self, name):
            try:
                return self[name]
            except KeyError as e:
                raise AttributeError(name) from e

        __setattr__ = dict.__setitem__
        __delattr__ = dict.__delitem__

        def __dir__(self):
            return list(self.keys())


class GlsolveWarning(RuntimeWarning):
    """A notice from glsolve: a backend that wanted OpenGL ran on the CPU because no driver
    could be used, a dense solve on the gpu backend whose mixed-precision answer was not
    proven accurate and was answered in double precision on the CPU instead (``lstsq``,
    ``solve``), or a scipy argument that glsolve accepts but does not use (an option without
    a counterpart, ``x0``, a simplex ``method``)."""


# scipy's status codes: 0 optimal, 1 iteration or time limit, 2 infeasible, 3 unbounded,
# 4 numerical difficulties. glsolve's statuses (by their stable names, the `verdict` field)
# map onto them here.
_SCIPY = {
    "optimal": (0, "Optimization terminated successfully."),
    "optimal (reduced accuracy)": (
        4,
        "Numerical difficulties encountered: the point passes glsolve's check only at the reduced "
        "tolerance sqrt(tol).",
    ),
    "primal infeasible": (2, "The problem is infeasible."),
    "primal infeasible (reduced accuracy)": (2, "The problem is infeasible (certificate checked at reduced accuracy)."),
    "unbounded": (3, "The problem is unbounded."),
    "unbounded (reduced accuracy)": (3, "The problem is unbounded (checked at reduced accuracy)."),
    "iteration limit": (1, "Iteration limit reached."),
    "time limit": (1, "Time limit reached."),
    "interrupted": (1, "Interrupted."),
    "numerical failure": (4, "Numerical difficulties encountered."),
}

# The fields of the library's solution record that a result carries as they are.
_RECORD_FIELDS = ("enclosure", "verification", "certificate", "feasibility", "gpu_iterations", "detail",
                  "best_iterate")


def scipy_status(raw):
    """(code, message) for the library's answer `raw`. A dual-infeasible answer (a checked
    primal ray) is infeasible where the feasibility solve refuted a feasible point (the LP is
    primal and dual infeasible), and "unbounded or infeasible" (4, as scipy's HiGHS methods say
    it) where it could not decide."""
    status = raw["status"]
    if status.startswith("dual infeasible"):
        if (raw["feasibility"] or {}).get("outcome") == "Refuted":
            return 2, "The problem is infeasible (and its dual is infeasible too)."
        return 4, "The problem is unbounded or infeasible."
    return _SCIPY.get(status, (4, f"glsolve status {status}"))


def with_point(raw):
    """Whether the answer carries a point to report: optimal (at full or reduced accuracy) or a
    limit's best iterate."""
    return raw["status"] in ("optimal", "optimal (reduced accuracy)", "iteration limit", "time limit", "interrupted")


def glsolve_fields(raw, log_lines, elapsed):
    """glsolve's own fields of every result: the verdict (the status's name), the check and the
    other structured facts of the library's record under their own names, the backend, the
    timings, the log."""
    timings = dict(raw["timings"])
    timings["python"] = elapsed
    return {
        "verdict": raw["status"],
        **{name: raw[name] for name in _RECORD_FIELDS},
        # Without a GL context every backend but gpu (which raises) runs on the CPU.
        "backend": "cpu" if raw.get("gl_missing") else raw["backend"],
        "notes": list(raw["notes"]),
        "timings": timings,
        "log": "\n".join(log_lines),
    }


def warn_if_no_gl(raw, backend):
    if raw.get("gl_missing"):
        warnings.warn(
            f"no OpenGL driver could be used ({raw['gl_missing']}); backend '{backend}' solved on the cpu",
            GlsolveWarning,
            stacklevel=3,
        )


def floats(raw, key):
    return np.frombuffer(raw[key], dtype=np.float64).copy()


def iteration(record, rows=None):
    """The OptimizeResult handed to `callback` for one iteration, as scipy's interior-point
    method hands it: ``x``, ``fun``, ``slack``, ``con``, ``nit``, ``phase`` (1), ``status``
    (0), ``message`` (""), ``success`` and ``complete`` (False: the solve goes on); and
    glsolve's progress record beside them (``dual_objective``, ``primal_infeasibility``,
    ``dual_infeasibility``, ``gap``, ``mu``, ``alpha_primal``, ``alpha_dual``, ``backend``).
    `rows(x)` gives (slack, con) for a linprog model; without it they are None."""
    res = OptimizeResult(record)
    x = floats(record, "x") if "x" in record else None
    slack, con = rows(x) if (rows is not None and x is not None) else (None, None)
    res.update(x=x, slack=slack, con=con, phase=1, status=0, message="", success=False, complete=False)
    return res
