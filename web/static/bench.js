// The browser benchmark (`?bench`): glsolve through its package — in the worker (gpu and auto
// backends) and on the main thread (gpu, alternating with the worker run by run: what the worker
// costs) — against HiGHS (npm `highs`: dual simplex and interior point) and GLPK (npm
// `glpk.js`: simplex), all compiled to WebAssembly, in the same page, on the papers' random
// dense LPs and on five NETLIB problems of tests/data; at m = 512 also glsolve gpu with the
// blocked kernels and with the register tiles named (by the solve's own clock); and glsolve's
// blocked and tiled Cholesky timed as the native `glsolve bench` times them. Every other time is
// wall-clock from the page's side of the call, the model already in each solver's own input form
// (glsolve arrays, HiGHS MPS text, GLPK its JSON); a warm-up run first, then the median of `reps`
// runs, or one when the warm-up took over 10 s. The report goes to /report (web/bench.mjs collects it).
import { createSolver } from './package/index.js';
import { post, text } from './report.js';

const NETLIB = ['afiro', 'adlittle', 'blend', 'sc50b', 'e226'];
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const describe = (e) => `${e?.message ?? e}${e?.code ? ` [${e.code}]` : ''}`;

/** Runs `once` (async; resolves to {objective, status, …}) after a warm-up; the median time. */
async function timed(once, reps) {
  let t = performance.now();
  let last = await once();
  const warm = (performance.now() - t) / 1e3;
  const runs = [];
  const own = [];
  for (let k = 0; k < (warm > 10 ? 1 : reps); k++) {
    t = performance.now();
    last = await once();
    runs.push((performance.now() - t) / 1e3);
    if (last.solve_s !== undefined) own.push(last.solve_s);
  }
  // glsolve's own clock (the solve alone, in its thread), as `glsolve bench lp` reads it.
  const clock = own.length ? { solve_s: median(own) } : {};
  return { ...last, ...clock, median_s: median(runs), runs: runs.length };
}

async function loadHighs() {
  const { default: load } = await import('./node_modules/highs/build/highs.mjs');
  return load({ locateFile: (file) => `./node_modules/highs/build/${file}` });
}

/** HiGHS on MPS text with `options`. */
function highsOnce(highs, mps, options) {
  const data = new TextEncoder().encode(mps);
  return async () => {
    let out;
    highs.withModel({ format: 'mps', data }, (model) => {
      model.options.set({ output_flag: false, ...options });
      model.run();
      const status = model.getModelStatus();
      // HiGHS's model status 7 is kOptimal.
      out = { objective: model.getObjectiveValue(), status: status === 7 ? 'optimal' : `HiGHS model status ${status}` };
    });
    return out;
  };
}

/** The arrays model in glpk.js's JSON (rows and columns by name, bounds by GLPK's kinds). */
function glpkModel(glpk, m) {
  const kind = (lo, up) => {
    if (lo === up) return glpk.GLP_FX;
    if (Number.isFinite(lo) && Number.isFinite(up)) return glpk.GLP_DB;
    if (Number.isFinite(lo)) return glpk.GLP_LO;
    return Number.isFinite(up) ? glpk.GLP_UP : glpk.GLP_FR;
  };
  const bnds = (lo, up) => ({ type: kind(lo, up), lb: Number.isFinite(lo) ? lo : 0, ub: Number.isFinite(up) ? up : 0 });
  const { rows, cols } = m.A;
  const byRow = Array.from({ length: rows }, () => []);
  if (m.A.data) {
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) if (m.A.data[i * cols + j] !== 0) byRow[i].push({ name: `x${j}`, coef: m.A.data[i * cols + j] });
  } else {
    m.A.values.forEach((v, k) => byRow[m.A.row[k]].push({ name: `x${m.A.col[k]}`, coef: v }));
  }
  return {
    name: 'bench',
    objective: { direction: m.sense === 'max' ? glpk.GLP_MAX : glpk.GLP_MIN, name: 'obj', vars: Array.from(m.c, (coef, j) => ({ name: `x${j}`, coef })) },
    subjectTo: byRow.map((vars, i) => ({ name: `r${i}`, vars, bnds: bnds(m.rowLower[i], m.rowUpper[i]) })),
    bounds: Array.from(m.c, (_, j) => ({ name: `x${j}`, ...bnds(m.colLower[j], m.colUpper[j]) })),
  };
}

function glpkOnce(glpk, m) {
  const lp = glpkModel(glpk, m);
  return async () => {
    const r = await glpk.solve(lp, { msglev: glpk.GLP_MSG_OFF });
    return { objective: r.result.z + (m.objectiveConstant ?? 0), status: r.result.status === glpk.GLP_OPT ? 'optimal' : `GLPK status ${r.result.status}` };
  };
}

function glsolveOnce(solver, model, options) {
  return async () => {
    const r = await solver.solveLp(model, options);
    return { objective: r.objective, status: r.status, iterations: r.iterations, backend: r.backend, solve_s: r.timings.total };
  };
}

/**
 * `a` and `b` alternately (a warm-up of each, then `reps` of each, interleaved: a, b, a, b, …),
 * so that a change in the machine's load falls on both: the worker against the main thread. One
 * pair only where a warm-up took over 10 s, unless `always` (every reading is kept, wall clock
 * from the page's side and the solve's own clock).
 */
async function pair(a, b, reps, always = false) {
  const once = async (f) => { const t = performance.now(); const v = await f(); return [(performance.now() - t) / 1e3, v]; };
  const [[wa], [wb]] = [await once(a), await once(b)];
  const n = !always && Math.max(wa, wb) > 10 ? 1 : reps;
  const runs = [[], []];
  const own = [[], []];
  const last = [];
  for (let k = 0; k < n; k++) {
    for (const [i, f] of [a, b].entries()) {
      const [t, v] = await once(f);
      runs[i].push(t);
      own[i].push(v.solve_s);
      last[i] = v;
    }
  }
  return [0, 1].map((i) => ({
    ...last[i], solve_s: median(own[i]), median_s: median(runs[i]), runs: n, wall_s: runs[i], own_s: own[i],
  }));
}

/**
 * `?bench&part=worker`: only glsolve gpu in the worker against the main thread, at `sizes`, with
 * `reps` interleaved pairs whatever the warm-up took.
 */
async function workerCost(report, sizes, reps) {
  const worker = await createSolver();
  const main = await createSolver({ worker: false });
  report.info = await worker.info();
  report.pairs = [];
  for (const m of sizes) {
    const model = await worker.randomLp(m, { seed: 7 });
    const [w, t] = await pair(glsolveOnce(worker, model, { backend: 'gpu' }), glsolveOnce(main, model, { backend: 'gpu' }), reps, true);
    report.pairs.push({ m, n: 4 * m, seed: 7, worker: w, main: t });
  }
  await worker.dispose();
  await main.dispose();
}

/**
 * `?bench&part=cpu&builds=NAME:WASM_URL,…`: the cpu backend (double precision in wasm) in a worker
 * per build of the wasm module (an empty URL: the package's own), on the dense family at `sizes`
 * and the NETLIB problems `netlib`; a warm-up of each, then `reps` rounds of every build in turn
 * (a, b, a, b, …), every reading kept.
 */
async function cpuBuilds(report, params, sizes, reps) {
  const builds = (params.get('builds') ?? 'package:').split(',').map((b) => { const i = b.indexOf(':'); return [b.slice(0, i), b.slice(i + 1)]; });
  const solvers = [];
  for (const [, url] of builds) solvers.push(await createSolver(url ? { wasmUrl: new URL(url, location.href) } : {}));
  report.info = await solvers[0].info();
  report.builds = builds.map(([name, url]) => ({ name, url }));
  const problems = [];
  for (const m of sizes) problems.push([`${m} × ${4 * m}`, await solvers[0].randomLp(m, { seed: 7 })]);
  for (const name of (params.get('netlib') ?? '').split(',').filter(Boolean)) problems.push([name, await solvers[0].readMps(await text(`data/netlib/${name}.mps`))]);
  report.cpu = [];
  for (const [name, model] of problems) {
    const runs = solvers.map((s) => glsolveOnce(s, model, { backend: 'cpu' }));
    const out = builds.map(([build]) => ({ build, wall_s: [], own_s: [] }));
    for (const f of runs) await f();
    for (let k = 0; k < reps; k++) {
      for (const [i, f] of runs.entries()) {
        const t = performance.now();
        const v = await f();
        out[i].wall_s.push((performance.now() - t) / 1e3);
        out[i].own_s.push(v.solve_s);
        Object.assign(out[i], { status: v.status, objective: v.objective, iterations: v.iterations });
      }
    }
    report.cpu.push({ problem: name, rows: model.A.rows, cols: model.A.cols, builds: out });
  }
  for (const s of solvers) await s.dispose();
}

/** Each solver of `entries` on one problem; a failure is recorded, not fatal. */
async function row(entries, reps) {
  const out = {};
  for (const [name, once] of entries) {
    try { out[name] = await timed(once, reps); } catch (e) { out[name] = { error: describe(e) }; }
  }
  return out;
}

export async function run(params) {
  const report = { backend: params.get('backend') ?? '', userAgent: navigator.userAgent, lp: [], netlib: [], cholesky: [], fatal: null };
  const reps = Number(params.get('reps') ?? 3);
  const sizes = (params.get('sizes') ?? '64,128,256,512').split(',').map(Number);
  const variantSizes = (params.get('variant_sizes') ?? '512').split(',').map(Number);
  const variantNames = (params.get('variants') ?? 'blocked-16,tiled-16').split(',');
  const part = { worker: () => workerCost(report, sizes, reps), cpu: () => cpuBuilds(report, params, sizes, reps) }[params.get('part')];
  if (part) {
    try { await part(); } catch (e) { report.fatal = describe(e); }
    return post(report, 'glsolve bench');
  }
  try {
    const worker = await createSolver();
    const main = await createSolver({ worker: false });
    report.info = await worker.info();
    const highs = await loadHighs();
    const { default: GLPK } = await import('./node_modules/glpk.js/dist/index.js');
    const glpk = await GLPK();
    for (const m of sizes) {
      const model = await worker.randomLp(m, { seed: 7 });
      const mps = await worker.randomLp(m, { seed: 7, format: 'mps' });
      let both;
      try {
        const [w, t] = await pair(glsolveOnce(worker, model, { backend: 'gpu' }), glsolveOnce(main, model, { backend: 'gpu' }), reps);
        both = { glsolve: w, glsolve_main: t };
      } catch (e) {
        both = { glsolve: { error: describe(e) }, glsolve_main: { error: describe(e) } };
      }
      report.lp.push({ m, n: 4 * m, seed: 7, ...both, ...await row([
        ['glsolve_auto', glsolveOnce(worker, model, { backend: 'auto' })],
        ['highs', highsOnce(highs, mps, {})],
        ['highs_ipm', highsOnce(highs, mps, { solver: 'ipm' })],
        ['glpk', glpkOnce(glpk, model)],
      ], reps) });
      // The sizes of `variant_sizes` also with each of `variants` (the blocked kernels against
      // the register tiles), in the worker, by the solve's own clock.
      const variants = [];
      if (variantSizes.includes(m)) for (const v of variantNames) variants.push(await worker._benchLp(m, 7, reps, v));
      report.lp.at(-1).variants = variants;
    }
    for (const name of (params.get('netlib') ?? NETLIB.join(',')).split(',').filter(Boolean)) {
      const mps = await text(`data/netlib/${name}.mps`);
      const model = await worker.readMps(mps);
      report.netlib.push({ name, rows: model.A.rows, cols: model.A.cols, ...await row([
        ['glsolve', glsolveOnce(worker, model, { backend: 'gpu' })],
        ['glsolve_auto', glsolveOnce(worker, model, { backend: 'auto' })],
        ['highs', highsOnce(highs, mps, {})],
        ['highs_ipm', highsOnce(highs, mps, { solver: 'ipm' })],
        ['glpk', glpkOnce(glpk, model)],
      ], reps) });
    }
    for (const [variant, m] of (params.get('cholesky') ?? 'blocked-16:1024,tiled-16:1024').split(',').filter(Boolean).map((s) => s.split(':'))) {
      report.cholesky.push({ variant, m: Number(m), reps, median_s: await worker._benchCholesky(variant, Number(m), reps) });
    }
    await worker.dispose();
    await main.dispose();
  } catch (e) {
    report.fatal = describe(e);
  }
  return post(report, 'glsolve bench');
}
