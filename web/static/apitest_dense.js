// The API suite's dense half: Cholesky, the refined linear solve and weighted least squares on
// the GPU and the CPU, against answers computed here in double precision; refused inputs.
import { assert, rejects, relErr, random } from './testkit.js';

/** A well-conditioned SPD matrix of order n: B·Bᵀ/n + I (row-major), from `seed`. */
function spd(n, seed) {
  const r = random(seed);
  const b = Array.from({ length: n * n }, () => r() - 0.5);
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += b[i * n + k] * b[j * n + k];
      c[i * n + j] = s / n + (i === j ? 1 : 0);
    }
  }
  return c;
}

const matvec = (a, rows, cols, x) => Float64Array.from({ length: rows }, (_, i) => {
  let s = 0;
  for (let j = 0; j < cols; j++) s += a[i * cols + j] * x[j];
  return s;
});

/** ‖L·Lᵀ − C‖max / ‖C‖max and the largest entry above L's diagonal. */
function factorError(l, c, n) {
  let err = 0;
  let scale = 0;
  let upper = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += l[i * n + k] * l[j * n + k];
      err = Math.max(err, Math.abs(s - c[i * n + j]));
      scale = Math.max(scale, Math.abs(c[i * n + j]));
      if (j > i) upper = Math.max(upper, Math.abs(l[i * n + j]));
    }
  }
  return [err / scale, upper];
}

export async function denseChecks(suite, solver, ctx) {
  await suite.check('cholesky on the GPU (two variants) and the CPU against L·Lᵀ = C', async () => {
    const out = [];
    const two = await solver.cholesky([[4, 2], [2, 3]], { backend: 'cpu' });
    assert(relErr(two.L.data, [2, 0, 1, Math.SQRT2]) < 1e-15, `L of [[4,2],[2,3]]: ${two.L.data}`);
    for (const [backend, variant, n, tol] of [['gpu', 'triangle-pair', 37, 2e-5], ['gpu', 'blocked-16', 33, 2e-5], ['cpu', 'triangle-pair', 37, 1e-14]]) {
      const c = spd(n, n);
      const r = await solver.cholesky({ rows: n, cols: n, data: c }, { backend, variant });
      assert(r.L.rows === n && r.L.cols === n && r.L.data.length === n * n, `L's shape ${r.L.rows}×${r.L.cols}`);
      const [err, upper] = factorError(r.L.data, c, n);
      assert(err <= tol && upper === 0, `${backend} ${variant} n = ${n}: ‖LLᵀ − C‖/‖C‖ = ${err.toExponential(2)} (≤ ${tol} asked), above the diagonal ${upper}`);
      out.push(`${backend} ${variant} n = ${n}: ${err.toExponential(1)} (${r.method})`);
    }
    return out.join('; ');
  });

  await suite.check('solve: the GPU\'s LU refined to double precision, and the CPU\'s', async () => {
    const n = 33;
    const r = random(5);
    const a = Float64Array.from({ length: n * n }, (_, k) => (k % (n + 1) === 0 ? n : 0) + r() - 0.5);
    const x = Float64Array.from({ length: n }, () => r() * 10 - 5);
    const b = matvec(a, n, n, x);
    const out = [];
    for (const backend of ['gpu', 'cpu']) {
      const s = await solver.solve({ rows: n, cols: n, data: a }, b, { backend });
      const err = relErr(s.x, x);
      assert(err <= 1e-12, `${backend}: relative error ${err.toExponential(2)} (≤ 1e-12 asked; ${s.method})`);
      if (backend === 'gpu') assert(s.method.includes('refined') && s.iterations >= 1, `gpu method: ${s.method}, ${s.iterations} refinement steps`);
      out.push(`${backend} ${err.toExponential(1)} (${s.method}${s.iterations ? `, ${s.iterations} steps` : ''})`);
    }
    return out.join('; ');
  });

  await suite.check('lstsq: weights are honoured (an outlier of weight 0 changes nothing)', async () => {
    const [rows, cols] = [41, 3];
    const r = random(9);
    const a = Float64Array.from({ length: rows * cols }, () => r() * 2 - 1);
    const x = new Float64Array([1.5, -2, 0.25]);
    const b = matvec(a, rows, cols, x);
    b[17] += 1000;
    const w = new Float64Array(rows).fill(1);
    w[17] = 0;
    const out = [];
    for (const backend of ['gpu', 'cpu']) {
      const s = await solver.lstsq({ rows, cols, data: a }, b, { weights: w, backend });
      const err = relErr(s.x, x);
      assert(err <= 1e-10, `${backend}: relative error ${err.toExponential(2)} (≤ 1e-10 asked; ${s.method})`);
      out.push(`${backend} ${err.toExponential(1)}`);
    }
    const unweighted = await solver.lstsq({ rows, cols, data: a }, b, { backend: 'cpu' });
    assert(relErr(unweighted.x, x) > 1, 'without the weights the outlier must move x: the check would not see weights ignored');
    return out.join('; ');
  });

  await suite.check('dense inputs the mathematics or the shapes refuse, with the right code', async () => {
    await rejects(solver.cholesky([[1, 2], [2, 1]], { backend: 'gpu' }), 'not-positive-definite');
    await rejects(solver.cholesky([[1, 2], [2, 1]], { backend: 'cpu' }), 'not-positive-definite');
    await rejects(solver.cholesky([[1, 2, 3], [4, 5, 6]]), 'invalid-argument', ['square']);
    await rejects(solver.cholesky([[1]], { variant: 'triangle-quad' }), 'invalid-argument', ['triangle-quad']);
    await rejects(solver.solve([[1, 2], [2, 4]], [1, 2], { backend: 'gpu' }), 'singular');
    await rejects(solver.solve([[1, 2], [2, 4]], [1, 2], { backend: 'cpu' }), 'singular');
    await rejects(solver.solve([[1, 0], [0, 1]], [1, 2, 3]), 'invalid-argument', ['b']);
    await rejects(solver.solve([[1, NaN], [0, 1]], [1, 2], { backend: 'gpu' }), 'invalid-argument', ['NaN']);
    await rejects(solver.lstsq([[1, 1], [2, 2], [3, 3]], [1, 2, 3], { backend: 'gpu' }), 'rank-deficient');
    await rejects(solver.lstsq([[1, 1], [2, 2], [3, 3]], [1, 2, 3], { backend: 'cpu' }), 'rank-deficient');
    await rejects(solver.lstsq([[1], [2]], [1, 2], { weights: [1, -1] }), 'invalid-argument', ['w[1]']);
    await rejects(solver.lstsq([[1], [2]], [1, 2], { backend: 'hybrid' }), 'invalid-argument', ['hybrid']);
    await rejects(solver.solve({ rows: 2, cols: 2, data: [1, 2, 3] }, [1, 2]), 'invalid-argument', ['A.data']);
    const rows = ctx.max + 1;
    const e = await rejects(solver.lstsq({ rows, cols: 2, data: new Float64Array(2 * rows).fill(1) }, new Float64Array(rows), { backend: 'gpu' }), 'too-large');
    return `a ${rows}×2 design matrix: ${e.message.slice(0, 120)}`;
  });

  await suite.check('aborting a dense call rejects at once; the next call works', async () => {
    const n = 512;
    const c = spd(n, 1);
    const controller = new AbortController();
    const call = solver.cholesky({ rows: n, cols: n, data: c }, { backend: 'gpu', signal: controller.signal });
    controller.abort();
    await rejects(call, 'aborted');
    const r = await solver.cholesky([[4, 2], [2, 3]], { backend: 'gpu' });
    assert(relErr(r.L.data, [2, 0, 1, Math.SQRT2]) < 1e-6, `the next call: ${r.L.data}`);
    return 'rejected; next call right';
  });
}
