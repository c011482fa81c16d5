#!/usr/bin/env python3
"""Solve an MPS file with HiGHS (highspy): `highs_mps.py FILE ipm|simplex`.

Prints "status objective iterations" on stderr and the seconds of the solve call (h.run(),
reading the file excluded) on the last line of stdout. HiGHS's defaults otherwise: the
interior-point method runs its crossover, both use HiGHS's own presolve and threads."""
import sys, time, highspy

h = highspy.Highs()
h.setOptionValue("output_flag", False)
h.readModel(sys.argv[1])
h.setOptionValue("solver", sys.argv[2] if len(sys.argv) > 2 else "ipm")
t = time.perf_counter()
h.run()
dt = time.perf_counter() - t
info = h.getInfo()
its = info.ipm_iteration_count if sys.argv[2:] == ["ipm"] else info.simplex_iteration_count
status = h.modelStatusToString(h.getModelStatus()).replace(" ", "_")
print(status, repr(info.objective_function_value), its, file=sys.stderr)
print(f"{dt:.4f}")
