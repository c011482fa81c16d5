"""A CVXPY solver: ``problem.solve(solver=GlsolveSolver())`` solves CVXPY's linear programs
with :func:`glsolve.linprog`. Anything that is not an LP (second-order, exponential or
semidefinite cones, a quadratic objective, integer variables) is refused by CVXPY itself with
its ``SolverError``, before glsolve is called.

Written after CVXPY's SciPy interface (the same conic form: equality rows ``Zero``,
inequality rows ``NonNeg``, variable bounds handed over as bounds) with CVXPY's statuses as
its Clarabel interface gives them.
"""

import numpy as np

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

    ``GlsolveSolver(backend="auto", tol=None, max_iter=None, time_limit=None)`` sets
    :func:`glsolve.linprog`'s options for every solve; the same names given to
    ``problem.solve(solver=GlsolveSolver(), ...)`` override them for one solve.

    Statuses: optimal, optimal_inaccurate (glsolve's check passes only at reduced accuracy),
    infeasible and unbounded (each with a checked certificate; ``_inaccurate`` where the
    certificate passes only at reduced accuracy), infeasible_or_unbounded (a checked primal
    ray, primal feasibility undecided), user_limit (iteration or time limit: the best iterate),
    solver_error. Constraint duals follow CVXPY's conventions (as CLARABEL gives them).
    ``problem.solver_stats.extra_stats`` is glsolve's OptimizeResult (backend, verification,
    timings, log).
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
        lower = np.full(n, -np.inf) if lb is None else np.asarray(lb, dtype=np.float64)
        upper = np.full(n, np.inf) if ub is None else np.asarray(ub, dtype=np.float64)
        options = {**self.options, **(solver_opts or {})}
        return linprog(data[s.C], A_ub=data[s.G], b_ub=data[s.H], A_eq=data[s.A], b_eq=data[s.B],
                       bounds=np.column_stack([lower, upper]), verbose=bool(verbose), **options)

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
        leq_dual = utilities.get_dual_values(-solution["ineqlin"]["marginals"], utilities.extract_dual_value,
                                             inverse_data[self.NEQ_CONSTR])
        eq_dual.update(leq_dual)
        return Solution(status, opt_val, primal_vars, eq_dual, attr)
