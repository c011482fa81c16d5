"""README's "From Python" runs as written, and says what it gives."""

import os
import re

import numpy as np

from conftest import REPO


def python_blocks():
    text = (REPO / "README.md").read_text()
    section = text.split("## From Python", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_readme_examples_run_and_say_what_they_give(capsys):
    blocks = python_blocks()
    assert len(blocks) == 2
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        first, second = {}, {}
        exec(blocks[0], first)
        exec(blocks[1], second)
    finally:
        os.chdir(cwd)
    capsys.readouterr()
    # The first block's first solve, as its comment says: [3, 1], 11.0, [-2, 0].
    import glsolve

    res = glsolve.linprog(c=[-3, -2], A_ub=[[1, 1], [1, 3]], b_ub=[4, 7], bounds=[(0, 3), (0, None)])
    np.testing.assert_allclose(res.x, [3, 1], atol=1e-7)
    np.testing.assert_allclose(-res.fun, 11.0, rtol=1e-8)
    np.testing.assert_allclose(res.ineqlin.marginals, [-2, 0], atol=1e-7)
    assert res.backend == "cpu" and res.verification["accuracy"] == "Tolerance"
    assert first["res"].status == 0 and first["L"].shape == (2, 2) and first["beta"].shape == (2,)
    assert second["prob"].status == "optimal"
