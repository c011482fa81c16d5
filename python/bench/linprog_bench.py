"""glsolve.linprog (auto, cpu, hybrid, gpu) against scipy's HiGHS (interior point and dual
simplex), Clarabel and CVXOPT — each called directly and through CVXPY — on the papers' random
dense LP family (min 1ᵀx, A·x = b, x ≥ 0, A m × 4m: `glsolve generate --random M --seed S`)
on an L1-regression family (min ‖X·β − y‖₁ over a dense n × p design, as the LP
min 1ᵀ(u + v) s.t. X·β + u − v = y, u, v ≥ 0), on the same regressions written as their
dual LP (max yᵀλ s.t. Xᵀλ = 0, −1 ≤ λ ≤ 1: p rows instead of n), and, with `--l1-t`, in the
textbook t form (min 1ᵀt s.t. −t ≤ X·β − y ≤ t, as A_ub: glsolve and HiGHS only).

Every time is time to solution from numpy arrays: the conversion each solver needs (scipy
sparse matrices, cvxopt matrices, a CVXPY problem and its compilation) is inside the clock.
glsolve runs a warm-up solve per backend first (the GL context and the shader compilations
are made once per process). Repetitions: `--reps` for runs under 10 s, one above; the median
is reported. A solver whose time at one size predicts more than `--budget` seconds at the
next (× 8 for twice the rows) is not run there, and the table says so.

    python python/bench/linprog_bench.py --out docs/bench/python.json

needs numpy, scipy, clarabel, cvxopt and cvxpy beside glsolve (`pip install ./python`).
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import time

import numpy as np
import scipy.optimize as so
import scipy.sparse as sp

import glsolve


def dense_family(m, seed):
    c, A, b = glsolve.random_lp(m, seed)
    return dict(c=c, A_eq=A, b_eq=b, bounds=(0, None))


def l1_family(n, p, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = X @ rng.normal(size=p) + rng.laplace(size=n)
    eye = sp.identity(n, format="csc")
    A = sp.hstack([sp.csc_matrix(X), eye, -eye], format="csc")
    c = np.r_[np.zeros(p), np.ones(2 * n)]
    bounds = np.r_[np.tile([-np.inf, np.inf], (p, 1)), np.tile([0.0, np.inf], (2 * n, 1))]
    return dict(c=c, A_eq=A, b_eq=y, bounds=bounds, X=X, y=y)


def l1_dual_family(n, p, seed):
    """The dual of the L1 regression: max yᵀλ s.t. Xᵀλ = 0, −1 ≤ λ ≤ 1 (p rows, n columns; its
    optimum is the L1 regression's)."""
    primal = l1_family(n, p, seed)
    X, y = primal["X"], primal["y"]
    return dict(c=-y, A_eq=np.ascontiguousarray(X.T), b_eq=np.zeros(p), bounds=(-1, 1), Xt=X.T, y=y)


def l1_t_family(n, p, seed):
    """The same regression as the textbooks write it: min 1ᵀt s.t. −t ≤ X·β − y ≤ t, i.e.
    A_ub = [[X, −I], [−X, −I]], b_ub = [y, −y], β free, t ≥ 0 (for linprog-shaped solvers)."""
    primal = l1_family(n, p, seed)
    X, y = primal["X"], primal["y"]
    eye = sp.identity(n, format="csc")
    A = sp.vstack([sp.hstack([sp.csc_matrix(X), -eye]), sp.hstack([sp.csc_matrix(-X), -eye])], format="csc")
    bounds = np.r_[np.tile([-np.inf, np.inf], (p, 1)), np.tile([0.0, np.inf], (n, 1))]
    return dict(c=np.r_[np.zeros(p), np.ones(n)], A_ub=A, b_ub=np.r_[y, -y], bounds=bounds)


def lp_args(lp):
    return {k: lp[k] for k in ("c", "A_ub", "b_ub", "A_eq", "b_eq", "bounds") if k in lp}


def columns(lp):
    """Lower and upper bounds per column."""
    n = len(lp["c"])
    b = np.atleast_2d(np.array(lp["bounds"], dtype=float))
    b = np.tile(b, (n, 1)) if b.shape == (1, 2) else b
    lo, up = b[:, 0].copy(), b[:, 1].copy()
    lo[np.isnan(lo)], up[np.isnan(up)] = -np.inf, np.inf
    return lo, up


# --- the solvers, each from the LP's numpy data --------------------------------------------


def run_glsolve(backend):
    def solve(lp):
        r = glsolve.linprog(**lp_args(lp), backend=backend)
        return ("optimal" if r.status == 0 else r.verdict), r.fun, r.backend

    return solve


def run_highs(method):
    def solve(lp):
        r = so.linprog(**lp_args(lp), method=method)
        return ("optimal" if r.status == 0 else r.message), r.fun, None

    return solve


def run_clarabel(lp):
    import clarabel

    c, lo, up = lp["c"], *columns(lp)
    n = len(c)
    A_eq = sp.csc_matrix(lp["A_eq"])
    fin_l, fin_u = np.flatnonzero(np.isfinite(lo)), np.flatnonzero(np.isfinite(up))
    eye = sp.identity(n, format="csc")
    A = sp.vstack([A_eq, -eye[fin_l], eye[fin_u]], format="csc")
    b = np.r_[lp["b_eq"], -lo[fin_l], up[fin_u]]
    cones = [clarabel.ZeroConeT(A_eq.shape[0]), clarabel.NonnegativeConeT(len(fin_l) + len(fin_u))]
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    s = clarabel.DefaultSolver(sp.csc_matrix((n, n)), c, A, b, cones, settings).solve()
    return str(s.status).lower(), s.obj_val, None


def run_cvxopt(lp):
    import cvxopt

    cvxopt.solvers.options["show_progress"] = False
    c, lo, up = lp["c"], *columns(lp)
    n = len(c)
    fin_l, fin_u = np.flatnonzero(np.isfinite(lo)), np.flatnonzero(np.isfinite(up))
    eye = np.eye(n)
    G = np.vstack([-eye[fin_l], eye[fin_u]])
    h = np.r_[-lo[fin_l], up[fin_u]]
    A = lp["A_eq"].toarray() if sp.issparse(lp["A_eq"]) else lp["A_eq"]
    m = cvxopt.matrix
    r = cvxopt.solvers.lp(m(c), m(G), m(h), m(np.asarray(A, dtype=float)), m(lp["b_eq"]))
    return r["status"], r["primal objective"], None


def run_cvxpy(solver):
    def solve(lp):
        import cvxpy as cp

        if "Xt" in lp:  # the L1 regression's dual
            lam = cp.Variable(len(lp["y"]))
            prob = cp.Problem(cp.Maximize(lp["y"] @ lam), [lp["Xt"] @ lam == 0, lam >= -1, lam <= 1])
        elif "X" in lp:  # the L1 family as a CVXPY user writes it
            beta = cp.Variable(lp["X"].shape[1])
            prob = cp.Problem(cp.Minimize(cp.norm1(lp["X"] @ beta - lp["y"])))
        else:
            x = cp.Variable(len(lp["c"]))
            prob = cp.Problem(cp.Minimize(lp["c"] @ x), [lp["A_eq"] @ x == lp["b_eq"], x >= 0])
        target = glsolve.GlsolveSolver() if solver == "GLSOLVE" else solver
        prob.solve(solver=target)
        return prob.status, prob.value, None

    return solve


SOLVERS = {
    "glsolve auto": run_glsolve("auto"),
    "glsolve cpu": run_glsolve("cpu"),
    "glsolve hybrid": run_glsolve("hybrid"),
    "glsolve gpu": run_glsolve("gpu"),
    "HiGHS ipm": run_highs("highs-ipm"),
    "HiGHS dual simplex": run_highs("highs-ds"),
    "Clarabel": run_clarabel,
    "CVXOPT": run_cvxopt,
    "CVXPY + glsolve": run_cvxpy("GLSOLVE"),
    "CVXPY + Clarabel": run_cvxpy("CLARABEL"),
    "CVXPY + CVXOPT": run_cvxpy("CVXOPT"),
    "CVXPY + HiGHS": run_cvxpy("HIGHS"),
}


def timed(solve, lp, reps):
    times, out = [], None
    for _ in range(reps):
        t = time.perf_counter()
        try:
            out = solve(lp)
        except Exception as e:  # a solver's failure is a row of the table, not the end of the run
            out = (f"error: {type(e).__name__}: {e}"[:160], None, None)
        times.append(time.perf_counter() - t)
        if times[-1] > 10:
            break
    return times, out


def run_family(name, cases, solvers, reps, budget, log):
    rows, last = [], {}  # solver -> (seconds at the size before, whether measured)
    for label, growth, lp in cases:
        for solver in solvers:
            prev, measured = last.get(solver, (None, True))
            if prev is not None and prev * growth > budget:
                how = "measured" if measured else "itself predicted"
                why = f"predicted {prev * growth:.0f} s > {budget:.0f} s (× {growth:.0f} from {prev:.1f} s, {how}, at the size before)"
                rows.append(dict(family=name, case=label, solver=solver, skipped=why))
                log(f"{name} {label} {solver}: skipped, {why}")
                last[solver] = (prev * growth, False)
                continue
            times, (status, objective, ran) = timed(SOLVERS[solver], lp, reps)
            med = statistics.median(times)
            last[solver] = (med, True)
            rows.append(dict(family=name, case=label, solver=solver, median_s=med, reps=len(times), times_s=times,
                             status=status, objective=objective, backend_ran=ran))
            log(f"{name} {label} {solver}: {med:.3f} s ({len(times)} reps) {status} {objective}")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="256,512,1024,2048", help="m of the dense family (n = 4m)")
    ap.add_argument("--l1", default="500x20,1000x50,2000x100", help="n x p of the L1-regression family")
    ap.add_argument("--l1-dual", default="500x20,1000x50,2000x100", help="n x p of the L1 regression's dual")
    ap.add_argument("--l1-t", default="", help="n x p of the L1 regression in its t form (A_ub; linprog-shaped solvers only: glsolve and HiGHS)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--budget", type=float, default=300.0, help="seconds a single predicted run may take")
    ap.add_argument("--solvers", default=",".join(SOLVERS))
    ap.add_argument("--out", default=None, help="JSON file (e.g. docs/bench/python.json)")
    a = ap.parse_args()
    solvers = [s.strip() for s in a.solvers.split(",")]
    log = lambda s: print(s, flush=True)  # noqa: E731
    info = glsolve._glsolve.info()
    renderer = dict(info.get("driver", [])).get("GL renderer", f"none ({info.get('error')})")
    # Warm-up: the GL context and shader compilation, the imports CVXPY makes on first use.
    for backend in ("auto", "cpu", "hybrid", "gpu"):
        glsolve.linprog(**lp_args(dense_family(520, 1)), backend=backend)
    for solver in solvers:
        if solver.startswith("CVXPY"):
            SOLVERS[solver](dense_family(16, 1))
    start = datetime.datetime.now(datetime.timezone.utc)
    load_before = os.getloadavg()
    sizes = [int(s) for s in a.sizes.split(",") if s]
    dense = [(f"m = {m}, n = {4 * m}", 8.0, dense_family(m, a.seed)) for m in sizes]
    rows = run_family("dense", dense, solvers, a.reps, a.budget, log)
    l1 = []
    for spec in [s for s in a.l1.split(",") if s]:
        n, p = (int(v) for v in spec.split("x"))
        l1.append((f"n = {n}, p = {p}", 8.0, l1_family(n, p, a.seed)))
    rows += run_family("l1", l1, solvers, a.reps, a.budget, log)
    dual = []
    for spec in [s for s in a.l1_dual.split(",") if s]:
        n, p = (int(v) for v in spec.split("x"))
        dual.append((f"n = {n}, p = {p}", 8.0, l1_dual_family(n, p, a.seed)))
    rows += run_family("l1dual", dual, solvers, a.reps, a.budget, log)
    t_form = []
    for spec in [s for s in a.l1_t.split(",") if s]:
        n, p = (int(v) for v in spec.split("x"))
        t_form.append((f"n = {n}, p = {p}", 8.0, l1_t_family(n, p, a.seed)))
    t_solvers = [s for s in solvers if s.startswith(("glsolve", "HiGHS"))]
    rows += run_family("l1t", t_form, t_solvers, a.reps, a.budget, log)
    import clarabel
    import cvxopt
    import cvxpy
    import scipy

    result = dict(
        date=start.strftime("%Y-%m-%d %H:%M UTC"),
        machine=dict(cpus=os.cpu_count(), load_before=load_before, load_after=os.getloadavg(),
                     platform=platform.platform(), python=platform.python_version(), gl_renderer=renderer,
                     lp_num_threads=os.environ.get("LP_NUM_THREADS", "default")),
        versions=dict(glsolve=glsolve.__version__, numpy=np.__version__, scipy=scipy.__version__,
                      clarabel=clarabel.__version__, cvxopt=cvxopt.__version__, cvxpy=cvxpy.__version__),
        reps=a.reps, budget_s=a.budget, seed=a.seed, rows=rows,
    )
    if a.out:
        with open(a.out, "w") as f:
            json.dump(result, f, indent=1)
        log(f"wrote {a.out}")


if __name__ == "__main__":
    main()
