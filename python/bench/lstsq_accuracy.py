"""glsolve.lstsq on designs of chosen condition number, from Python: A = U·Σ·Vᵀ (rows × cols,
σ from 1 down to 1/κ, U and V random orthogonal from a seeded numpy generator), y = A·x₀ +
noise (the problem issue 62 measured: 300 × 40, noise 1e-3). For each κ and backend: the
relative error ‖x − x_ref‖₂/‖x_ref‖₂ against numpy's Householder QR (LAPACK) and against
glsolve's cpu backend (faer's QR), numpy's SVD-based lstsq against numpy's QR (how far two f64
methods are apart on the problem), and what ``return_info=True`` says: the method, the
refinement steps, the check's forward- and backward-error bounds, and whether a
GlsolveWarning was raised.

    python python/bench/lstsq_accuracy.py --out docs/bench/lstsq_python.json

needs numpy and scipy beside glsolve (`pip install ./python`).
"""

import argparse
import datetime
import json
import sys
import warnings

import numpy as np
import scipy
import scipy.linalg

import glsolve


def design(rows, cols, kappa, noise, seed):
    rng = np.random.default_rng(seed)
    u, _ = np.linalg.qr(rng.normal(size=(rows, cols)))
    v, _ = np.linalg.qr(rng.normal(size=(cols, cols)))
    a = (u * kappa ** (-np.arange(cols) / (cols - 1))) @ v.T
    return a, a @ rng.uniform(-1, 1, cols) + noise * rng.uniform(-1, 1, rows)


def rel(x, ref):
    return float(np.linalg.norm(x - ref) / np.linalg.norm(ref))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shapes", default="300x40,61x13", help="ROWSxCOLS,... (observations x unknowns)")
    ap.add_argument("--kappas", default="1e2,1e4,1e6,1e7,1e8,1e10")
    ap.add_argument("--noise", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="write the JSON here")
    args = ap.parse_args()
    rows_out = []
    for shape in args.shapes.split(","):
        rows, cols = (int(v) for v in shape.split("x"))
        for kappa in (float(k) for k in args.kappas.split(",")):
            a, y = design(rows, cols, kappa, args.noise, args.seed)
            q, r = np.linalg.qr(a)
            ref = scipy.linalg.solve_triangular(r, q.T @ y)
            svd = np.linalg.lstsq(a, y, rcond=None)[0]
            x_cpu = glsolve.lstsq(a, y, backend="cpu")
            for backend in ("cpu", "gpu"):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    x, info = glsolve.lstsq(a, y, backend=backend, return_info=True)
                row = dict(rows=rows, cols=cols, kappa=kappa, backend=backend, error_numpy_qr=rel(x, ref),
                           error_cpu=rel(x, x_cpu), svd_spread=rel(svd, ref), method=info.method, nit=info.nit,
                           forward_error=info.get("forward_error"), backward_error=info.get("backward_error"),
                           warned=any(issubclass(w.category, glsolve.GlsolveWarning) for w in caught))
                print(f"{rows}x{cols} κ={kappa:.0e} {backend}: vs numpy QR {row['error_numpy_qr']:.1e}, "
                      f"vs cpu {row['error_cpu']:.1e}, {info.method} ({info.nit} steps)", file=sys.stderr)
                rows_out.append(row)
    result = dict(
        date=datetime.date.today().isoformat(),
        command="python " + " ".join(["python/bench/lstsq_accuracy.py"] + sys.argv[1:]),
        versions=dict(glsolve=glsolve.__version__, numpy=np.__version__, scipy=scipy.__version__,
                      python=sys.version.split()[0]),
        noise=args.noise,
        rows=rows_out,
    )
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    else:
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
