"""A CVXPY solver: ``problem.solve(solver=GlsolveSolver())`` solves CVXPY's linear programs
with :func:`glsolve.linprog`. Anything that is not an LP (second-order, exponential or
semidefinite cones, a quadratic objective, integer variables) is refused by CVXPY itself with
its ``SolverError``, before glsolve is called.

Written after CVXPY's SciPy interface (the same conic form: equality rows ``Zero``,
inequality rows ``NonNeg``, variable bounds handed over as bounds) with CVXPY's statuses as
its Clarabel interface gives them.
"""

from collections import namedtuple

import numpy as np
import scipy.sparse as sp

import cvxpy.settings as s
from cvxpy.constraints import NonNeg, Zero
from cvxpy.reductions.solution import Solution, failure_solution
from cvxpy.reductions.solvers import utilities
from cvxpy.reductions.solvers.conic_solvers.conic_solver import ConicSolver

from ._linprog import linprog

# glsolve's verdicts (OptimizeResult.verdict) as CVXPY statuses.
STATUS_MAP = {
    "optimal": s.OPTIMAL,
    "optimal (reduced accuracy)": s.OPTIMAL_INACCURATE,
    "primal infeasible": s.INFEASIBLE,
    "primal infeasible (reduced accuracy)": s.INFEASIBLE_INACCURATE,
    "unbounded": s.UNBOUNDED,
    "unbounded (reduced accuracy)": s.UNBOUNDED_INACCURATE,
    "iteration limit": s.USER_LIMIT,
    "time limit": s.USER_LIMIT,
    "interrupted": s.USER_LIMIT,
    "numerical failure": s.SOLVER_ERROR,
}


class GlsolveSolver(ConicSolver):
    """CVXPY's linear programs solved by glsolve.

    Pass an instance: ``problem.solve(solver=glsolve.GlsolveSolver())``. CVXPY looks a
    solver given by name up among its own solvers only (it has no way to register another
    one), so ``solver="GLSOLVE"`` is CVXPY's "The solver GLSOLVE is not installed".

    ``GlsolveSolver(backend="auto", tol=None, max_iter=None, time_limit=None)`` sets
    :func:`glsolve.linprog`'s options for every solve; the same names given to
    ``problem.solve(solver=GlsolveSolver(), ...)`` override them for one solve.

    Statuses: optimal, optimal_inaccurate (glsolve's check passes only at reduced accuracy),
    infeasible and unbounded (each with a checked certificate; ``_inaccurate`` where the
    certificate passes only at reduced accuracy), infeasible_or_unbounded (a checked primal
    ray, primal feasibility undecided), user_limit (iteration or time limit: the best iterate),
    solver_error. Constraint duals follow CVXPY's conventions (as CLARABEL gives them).
    ``problem.solver_stats.extra_stats`` is glsolve's OptimizeResult (backend, verification,
    timings, log). Inequalities on one variable (``x >= 0``, ``x <= u``, ``a * x[j] >= l``) are
    solved as bounds rather than rows, and their duals mapped back.
    """

    SUPPORTED_CONSTRAINTS = [Zero, NonNeg]
    BOUNDED_VARIABLES = True
    MIP_CAPABLE = False

    def __init__(self, **options):
        unknown = set(options) - {"backend", "tol", "max_iter", "time_limit"}
        if unknown:
            raise TypeError(f"GlsolveSolver got unknown options {sorted(unknown)}: it takes backend, tol, max_iter, time_limit")
        self.options = options

    def name(self):
        return "GLSOLVE"

    def import_solver(self):
        from . import _glsolve  # noqa: F401

    def apply(self, problem):
        data, inv_data = {}, {self.VAR_ID: problem.x.id}
        if not problem.formatted:
            problem = self.format_constraints(problem, None)
        data[s.PARAM_PROB] = problem
        data[self.DIMS] = inv_data[self.DIMS] = problem.cone_dims
        inv_data[self.EQ_CONSTR] = problem.constr_map[Zero]
        inv_data[self.NEQ_CONSTR] = problem.constr_map[NonNeg]
        len_eq = problem.cone_dims.zero
        c, d, A, b = problem.apply_parameters()
        data[s.C], inv_data[s.OFFSET] = c, d
        # CVXPY's rows are A·x + b ∈ cone: Zero rows are −A_eq·x = b_eq, NonNeg rows −G·x ≤ h.
        data[s.A], data[s.B] = -A[:len_eq], b[:len_eq].flatten(order="F")
        data[s.G], data[s.H] = -A[len_eq:], b[len_eq:].flatten(order="F")
        data[s.LOWER_BOUNDS] = problem.lower_bounds
        data[s.UPPER_BOUNDS] = problem.upper_bounds
        return data, inv_data

    def solve_via_data(self, data, warm_start, verbose, solver_opts, solver_cache=None):
        n = data[s.C].shape[0]
        lb, ub = data.get(s.LOWER_BOUNDS), data.get(s.UPPER_BOUNDS)
        lower = np.full(n, -np.inf) if lb is None else np.array(lb, dtype=np.float64)
        upper = np.full(n, np.inf) if ub is None else np.array(ub, dtype=np.float64)
        G, h = sp.csr_array(data[s.G]), np.asarray(data[s.H], dtype=np.float64)
        rows = _singleton_rows(G, h, lower, upper)
        keep = np.setdiff1d(np.arange(G.shape[0]), rows.index)
        options = {**self.options, **(solver_opts or {})}
        res = linprog(data[s.C], A_ub=G[keep], b_ub=h[keep], A_eq=data[s.A], b_eq=data[s.B],
                      bounds=np.column_stack([lower, upper]), verbose=bool(verbose), **options)
        res["singleton_rows"] = rows
        res["kept_rows"] = keep
        res["inequality_rows"] = G.shape[0]
        return res

    def cite(self, data):
        return (
            "@misc{glsolve,\n  title = {glsolve: dense linear programs on the OpenGL raster pipeline},\n"
            "  note = {after J. H. Jung and D. P. O'Leary, Cholesky decomposition and linear programming on a GPU (2006)}\n}"
        )

    def invert(self, solution, inverse_data):
        status = STATUS_MAP.get(solution["verdict"])
        if status is None:  # dual infeasible: a checked primal ray
            status = s.INFEASIBLE if solution["status"] == 2 else s.INFEASIBLE_OR_UNBOUNDED
        attr = {
            s.NUM_ITERS: solution["nit"],
            s.SOLVE_TIME: solution["timings"]["total"],
            s.EXTRA_STATS: solution,
        }
        if status not in s.SOLUTION_PRESENT or solution["x"] is None:
            return failure_solution(status, attr)
        opt_val = solution["fun"] + inverse_data[s.OFFSET]
        primal_vars = {inverse_data[self.VAR_ID]: solution["x"]}
        # CVXPY's duals are the negated sensitivities (its SciPy interface does the same).
        eq_dual = utilities.get_dual_values(-solution["eqlin"]["marginals"], utilities.extract_dual_value,
                                            inverse_data[self.EQ_CONSTR])
        leq_dual = utilities.get_dual_values(-_inequality_marginals(solution), utilities.extract_dual_value,
                                             inverse_data[self.NEQ_CONSTR])
        eq_dual.update(leq_dual)
        return Solution(status, opt_val, primal_vars, eq_dual, attr)


# Inequality rows with one entry, solved as bounds: `index` the rows, `col` their column,
# `coef` their entry, `side` "lower" or "upper" (the bound the row became), `owns` whether the
# row is the tightest bound of its side (it gets the bound's marginal; others get 0).
Singletons = namedtuple("Singletons", "index col coef side owns")


def _singleton_rows(G, h, lower, upper):
    """CVXPY writes x >= 0, x <= u and the like as rows of G; glsolve's interior-point method
    would carry each as a row of its normal equations (m + n rows for `x >= 0` alone), while
    as bounds they cost nothing. Rows g·x_j <= h with one entry become bounds here, tightening
    `lower` and `upper` in place; the returned record maps the bounds' marginals back to the
    rows (the sensitivity to h is the bound's marginal divided by g)."""
    G.sum_duplicates()
    first = G.indptr[:-1]
    candidates = np.flatnonzero(np.diff(G.indptr) == 1)
    nonzero = G.data[first[candidates]] != 0
    index = candidates[nonzero]
    col, coef = G.indices[first[index]], G.data[first[index]]
    value = h[index] / coef
    side = np.where(coef > 0, "upper", "lower")
    owns = np.zeros(len(index), dtype=bool)
    for k in np.argsort(value, kind="stable"):  # lower bounds: the largest wins, upper: the smallest
        j = col[k]
        if side[k] == "upper" and value[k] <= upper[j]:
            upper[j] = value[k]
    for k in np.argsort(-value, kind="stable"):
        j = col[k]
        if side[k] == "lower" and value[k] >= lower[j]:
            lower[j] = value[k]
    # The first row that sets a bound's final value owns it.
    taken = set()
    for k in range(len(index)):
        j, bound = col[k], (upper if side[k] == "upper" else lower)
        if value[k] == bound[j] and (j, side[k]) not in taken:
            owns[k] = True
            taken.add((j, side[k]))
    return Singletons(index, col, coef, side, owns)


def _inequality_marginals(solution):
    """The marginals of every row of G: the kept rows' from linprog, the singleton rows' from the
    bounds they became."""
    rows, y = solution["singleton_rows"], np.zeros(solution["inequality_rows"])
    y[solution["kept_rows"]] = solution["ineqlin"]["marginals"]
    bound = np.where(rows.side == "upper", solution["upper"]["marginals"][rows.col],
                     solution["lower"]["marginals"][rows.col])
    y[rows.index] = np.where(rows.owns, bound / rows.coef, 0.0)
    return y
