// The API suite's LP half: models in every form, progress, abort, context loss, malformed input.
import { createSolver } from './package/index.js';
import { lpBytes, lpShape } from './package/src/limits.js';
import { assert, close, rejects } from './testkit.js';

// max x + y s.t. x + 2y ≤ 4, 3x + y ≤ 6, x, y ≥ 0: the optimum x = 8/5, y = 6/5, objective 14/5,
// the row duals (∂objective/∂row bound) 2/5 and 1/5, both reduced costs 0 (both columns basic).
const SMALL = {
  dense: { rows: 2, cols: 2, data: [1, 2, 3, 1] },
  csr: { rows: 2, cols: 2, rowPtr: [0, 2, 4], colIdx: [0, 1, 0, 1], values: [1, 2, 3, 1] },
  // Triplets in no order, one entry split in two (duplicates are summed).
  coo: { rows: 2, cols: 2, row: [1, 0, 0, 1, 0], col: [0, 1, 0, 1, 1], values: [3, 1.5, 1, 1, 0.5] },
};
const small = (A) => ({ sense: 'max', c: new Float64Array([1, 1]), A, rowUpper: [4, 6] });

/** The checks of the LP half on `solver` (made with the suite's mode); `ctx` has the fixtures. */
export async function lpChecks(suite, solver, ctx) {
  await suite.check('an LP from arrays, in each form, on each backend', async () => {
    const seen = [];
    for (const [form, A] of Object.entries(SMALL)) {
      for (const backend of ['cpu', 'hybrid', 'gpu', 'auto']) {
        const r = await solver.solveLp(small(A), { backend, ...(backend === 'gpu' ? { tolerance: 1e-6 } : {}) });
        const tol = backend === 'gpu' ? 1e-4 : 1e-7;
        assert(r.optimal && r.status === 'optimal', `${form}/${backend}: ${r.status} ${r.detail}`);
        assert(r.x instanceof Float64Array && r.rowDuals instanceof Float64Array && r.reducedCosts instanceof Float64Array, 'typed arrays');
        assert(close(r.objective, 2.8, tol), `${form}/${backend}: objective ${r.objective}`);
        assert(close(r.x[0], 1.6, tol) && close(r.x[1], 1.2, tol), `${form}/${backend}: x = ${r.x}`);
        assert(close(r.rowDuals[0], 0.4, tol) && close(r.rowDuals[1], 0.2, tol), `${form}/${backend}: duals ${r.rowDuals}`);
        assert(Math.abs(r.reducedCosts[0]) <= tol && Math.abs(r.reducedCosts[1]) <= tol, `${form}/${backend}: reduced costs ${r.reducedCosts}`);
        assert(r.verification && typeof r.verdict === 'string' && r.timings.total >= 0 && r.log.includes('iter'), `${form}/${backend}: result fields`);
        if (backend !== 'auto') assert(r.backend === backend, `${backend} asked, ${r.backend} ran`);
        seen.push(`${form}/${r.backend}`);
      }
    }
    return seen.join(' ');
  });

  await suite.check('an MPS file (NETLIB afiro) on gpu and hybrid against its reference optimum', async () => {
    const out = [];
    for (const [backend, tol] of [['gpu', 4e-4], ['hybrid', 1e-6]]) {
      const r = await solver.solveLp(ctx.afiro, { backend });
      assert(r.optimal && close(r.objective, ctx.afiroOptimum, tol), `${backend}: ${r.status} ${r.objective} vs ${ctx.afiroOptimum}`);
      assert(r.x.length === 32 && r.rowDuals.length === 27, `afiro is 27 × 32: got ${r.rowDuals.length} × ${r.x.length}`);
      out.push(`${backend} ${r.objective.toPrecision(8)} in ${r.iterations} it.`);
    }
    // The same model as arrays: readMps and back.
    const arrays = await solver.readMps(ctx.afiro);
    assert(arrays.A.rows === 27 && arrays.A.cols === 32 && arrays.A.values.length === arrays.A.row.length, `readMps: ${arrays.A.rows} × ${arrays.A.cols}`);
    const r = await solver.solveLp(arrays, { backend: 'hybrid' });
    assert(r.optimal && close(r.objective, ctx.afiroOptimum, 1e-6), `afiro from readMps: ${r.status} ${r.objective}`);
    await rejects(solver.readMps('NAME x\nROWS\n N obj\nCOLUMNS\n x obj one\nENDATA\n'), 'parse', ['line 5']);
    return out.join(', ');
  });

  await suite.check('onIteration sees every iteration row, in order, before the answer', async () => {
    const rows = [];
    const r = await solver.solveLp(ctx.afiro, { backend: 'gpu', onIteration: (row) => rows.push(row) });
    assert(rows.length === r.iterations + 1, `${rows.length} rows for ${r.iterations} iterations`);
    rows.forEach((row, k) => assert(row.iteration === k, `row ${k} says iteration ${row.iteration}`));
    const last = rows[rows.length - 1];
    for (const key of ['primalObjective', 'dualObjective', 'primalInfeasibility', 'dualInfeasibility', 'gap', 'mu', 'alphaPrimal', 'alphaDual']) {
      assert(typeof last[key] === 'number' && Number.isFinite(last[key]), `row.${key} = ${last[key]}`);
    }
    assert(close(last.primalObjective, r.objective, 1e-3), `the last row's objective ${last.primalObjective} is the answer's ${r.objective}`);
    return `${rows.length} rows, backend column "${last.backend}"`;
  });

  await suite.check('abort during an m = 512 gpu solve: rejected within one iteration, the solver stays right', async () => {
    const model = await solver.randomLp(512, { seed: 7 });
    const workers = (await solver.stats()).workers;
    const controller = new AbortController();
    let abortedAt = null;
    let rowsAfter = 0;
    let t0 = 0;
    const e = await rejects(solver.solveLp(model, {
      backend: 'gpu',
      signal: controller.signal,
      onIteration: (row) => {
        if (abortedAt !== null) rowsAfter += 1;
        if (row.iteration === 3) { abortedAt = 3; t0 = performance.now(); controller.abort(); }
      },
    }), 'aborted');
    const ms = performance.now() - t0;
    assert(e.name === 'AbortError', `name ${e.name}`);
    assert(abortedAt === 3, 'the abort was never requested: the solve ended first');
    assert(e.iteration !== undefined && e.iteration <= abortedAt + 1, `stopped at iteration ${e.iteration}, aborted at ${abortedAt}`);
    assert(rowsAfter <= 1, `${rowsAfter} rows after the abort`);
    const r = await solver.solveLp(ctx.afiro, { backend: 'gpu' });
    assert(r.optimal && close(r.objective, ctx.afiroOptimum, 4e-4), `the next solve: ${r.status} ${r.objective}`);
    // Interrupted, the worker is kept; terminated, the next call started a new one.
    const started = (await solver.stats()).workers - workers;
    const expected = solver.inWorker && solver.abortMode === 'terminate' ? 1 : 0;
    assert(started === expected, `${started} workers started by the abort and the next call, ${expected} expected`);
    return `${solver.abortMode}: stopped at iteration ${e.iteration} (aborted at 3), rejected ${ms.toFixed(0)} ms after abort(); next solve optimal`;
  });

  await suite.check('abort before the start, and of a queued call, rejects at once; the calls ahead finish', async () => {
    const done = new AbortController();
    done.abort();
    await rejects(solver.solveLp(ctx.afiro, { signal: done.signal }), 'aborted');
    const later = new AbortController();
    const order = [];
    const first = solver.solveLp(ctx.afiro, { backend: 'hybrid' });
    first.then(() => order.push('the call ahead answered'), () => {});
    const queued = solver.solveLp(ctx.afiro, { backend: 'hybrid', signal: later.signal });
    queued.catch(() => order.push('the queued call rejected'));
    later.abort(new Error('changed my mind'));
    const e = await rejects(queued, 'aborted', ['changed my mind']);
    const r = await first;
    assert(r.optimal, `the call ahead: ${r.status}`);
    assert(order[0] === 'the queued call rejected', `in this order: ${order.join(', ')}`);
    return `queued call rejected first (${e.message}); the one ahead optimal`;
  });

  await suite.check('an onIteration that throws rejects the solve with what it threw', async () => {
    const mine = new Error('from my callback');
    let thrown = null;
    try {
      await solver.solveLp(ctx.afiro, { backend: 'gpu', onIteration: (row) => { if (row.iteration === 2) throw mine; } });
    } catch (e) {
      thrown = e;
    }
    assert(thrown === mine || thrown?.message === mine.message, `rejected with ${thrown}`);
    const r = await solver.solveLp(ctx.afiro, { backend: 'gpu' });
    assert(r.optimal, `the next solve: ${r.status}`);
    return 'rejected with the callback\'s error; next solve optimal';
  });

  await suite.check('context loss during a solve rejects with context-lost; the next call gets a new context', async () => {
    await solver.simulateContextLoss({ afterIterations: 2 });
    const model = await solver.randomLp(32, { seed: 3 });
    await rejects(solver.solveLp(model, { backend: 'gpu' }), 'context-lost');
    const r = await solver.solveLp(ctx.afiro, { backend: 'gpu' });
    assert(r.optimal && close(r.objective, ctx.afiroOptimum, 4e-4), `after the loss: ${r.status} ${r.objective}`);
    const info = await solver.info();
    assert(info.gpu && !info.contextLost, `info after: ${JSON.stringify(info).slice(0, 200)}`);
    return 'rejected; next solve optimal on a new context';
  });

  await suite.check('malformed models and options are refused with the right code', async () => {
    const bad = 'NAME bad\nROWS\n N obj\n L c1\nCOLUMNS\n x obj one\nENDATA\n';
    const p = await rejects(solver.solveLp(bad), 'parse', ['line']);
    assert(p.line === 6, `the parse error's line is ${p.line}, 6 expected`);
    const nanC = { ...small(SMALL.dense), c: [1, NaN] };
    await rejects(solver.solveLp(nanC), 'invalid-model', ['c[1]']);
    await rejects(solver.solveLp(small({ ...SMALL.csr, colIdx: [0, 1, 0, 2] })), 'invalid-model', ['A.colIdx[3]']);
    await rejects(solver.solveLp(small({ ...SMALL.csr, rowPtr: [0, 3, 2] })), 'invalid-model', ['A.rowPtr']);
    await rejects(solver.solveLp(small({ ...SMALL.coo, row: [1, 0, 0, -1, 0] })), 'invalid-model', ['A.row[3]']);
    await rejects(solver.solveLp(small({ rows: 2, cols: 2, data: [1, 2, 3] })), 'invalid-model', ['A.data']);
    await rejects(solver.solveLp({ ...small(SMALL.dense), rowUpper: [4] }), 'invalid-model', ['row']);
    await rejects(solver.solveLp({ ...small(SMALL.dense), colour: 1 }), 'invalid-model', ['colour']);
    await rejects(solver.solveLp(42), 'invalid-model');
    await rejects(solver.solveLp(ctx.afiro, { backend: 'fast' }), 'invalid-argument', ['fast']);
    await rejects(solver.solveLp(ctx.afiro, { maxIter: 3 }), 'invalid-argument', ['maxIter']);
    await rejects(solver.solveLp(ctx.afiro, { tolerance: -1 }), 'invalid-argument', ['tolerance']);
    // The time limit as Rust, the command line and Python decide it: > 0 seconds and finite.
    for (const t of [-2, 0, NaN, Infinity, 1e300]) {
      await rejects(solver.solveLp(ctx.afiro, { timeLimit: t }), 'invalid-argument', ['timeLimit']);
    }
    const timed = await solver.solveLp(ctx.afiro, { timeLimit: 30 });
    assert(timed.optimal, `timeLimit 30: ${timed.status}`);
    const r = await solver.solveLp(ctx.afiro, { maxIterations: 2 });
    assert(r.status === 'iteration limit' && !r.optimal, `maxIterations 2: ${r.status}`);
    return `parse error at line ${p.line}; a limit is a status: "${r.status}"`;
  });

  if (ctx.label === 'worker') {
    await suite.check('a 5000×20000 dense LP is refused too-large at once, the page drawing', async () => {
      // 10⁸ entries (800 MB): more than wasm32's 4 GiB once copied, built and put in standard form.
      const [rows, cols] = [5000, 20000];
      const model = { c: new Float64Array(cols).fill(1), A: { rows, cols, data: new Float64Array(rows * cols).fill(1) }, rowUpper: new Float64Array(rows).fill(1) };
      const frames = [];
      let running = true;
      const tick = (t) => { frames.push(t); if (running) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
      await new Promise((r) => setTimeout(r, 100));
      const t = performance.now();
      const e = await rejects(solver.solveLp(model, { backend: 'auto' }), 'too-large', ['4 GiB']);
      const ms = performance.now() - t;
      await new Promise((r) => setTimeout(r, 100));
      running = false;
      const gaps = frames.slice(1).map((f, k) => f - frames[k]);
      const longest = Math.max(...gaps, performance.now() - frames[frames.length - 1]);
      assert(ms < 500, `refused after ${ms.toFixed(0)} ms`);
      assert(frames.length >= 3 && longest < 100, `${frames.length} frames, longest gap ${longest.toFixed(0)} ms`);
      assert(model.A.data.length === rows * cols, 'the caller\'s array is left as it was');
      return `refused in ${ms.toFixed(1)} ms, longest frame gap ${longest.toFixed(0)} ms over ${frames.length} frames: ${e.message.slice(0, 140)}`;
    });
  }

  if (ctx.label === 'worker') {
    await suite.check('the size check\'s memory estimate bounds what a solve takes', async () => {
      // A fresh worker's module grows to the most it held: its memory after one solve is the
      // solve's peak, which the estimate that refuses large models must not undercut.
      const model = await solver.randomLp(512, { seed: 3 });
      const fresh = await createSolver();
      const start = (await fresh.stats()).wasmBytes;
      const r = await fresh.solveLp(model, { backend: 'cpu' });
      const peak = (await fresh.stats()).wasmBytes;
      await fresh.dispose();
      const estimate = lpBytes(lpShape(model), 'cpu').peak;
      const mib = (b) => (b / 2 ** 20).toFixed(0);
      assert(r.optimal && peak <= estimate, `${r.status}: ${mib(peak)} MiB used (from ${mib(start)}), ${mib(estimate)} MiB estimated`);
      return `512×2048 on cpu: ${mib(peak)} MiB of wasm memory, ${mib(estimate)} MiB estimated`;
    });
  }

  await suite.check('an LP wider than the context\'s textures is refused before any work', async () => {
    const m = ctx.max + 1;
    // x_i + x_(i+1) ≤ 1 for i < m: a sparse model of m rows whose dense standard form exceeds the limit.
    const row = new Float64Array(2 * m);
    const col = new Float64Array(2 * m);
    for (let i = 0; i < m; i++) { row[2 * i] = i; row[2 * i + 1] = i; col[2 * i] = i; col[2 * i + 1] = i + 1; }
    const model = { c: new Float64Array(m + 1).fill(-1), A: { rows: m, cols: m + 1, row, col, values: new Float64Array(2 * m).fill(1) }, rowUpper: new Float64Array(m).fill(1) };
    const t = performance.now();
    const e = await rejects(solver.solveLp(model, { backend: 'gpu' }), 'too-large', ['MAX_TEXTURE_SIZE']);
    return `${m} rows refused in ${(performance.now() - t).toFixed(0)} ms: ${e.message.slice(0, 160)}`;
  });
}
