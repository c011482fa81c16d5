// The in-browser test suite (`?selftest`), run through the package in its worker: every kernel
// family against f64 references computed in wasm, the LP on the NETLIB problems of tests/data
// (served as data/ beside the page) with the statuses and objectives the desktop tests demand, the viewer's
// recordings, and refused input with the error code it must carry. The report goes to /report,
// where `glsolve web` prints it for the test runner (tests/browser.rs), or to `?report=`.
import { createSolver } from './package/index.js';
import { described, optima, post, text } from './report.js';

// The 2006 paper's Table 3 problems and tolerances: the gpu backend must end optimal within 10ε
// of the NETLIB optimum (as tests/lp_gpu.rs asks on the desktop).
const TABLE3 = [
  ['adlittle', 3e-5], ['afiro', 4e-5], ['agg2', 5e-5], ['agg3', 6e-4], ['bandm', 2e-3],
  ['beaconfd', 3e-4], ['blend', 2e-3], ['e226', 9e-4], ['sc50b', 3e-5], ['sctap1', 5e-4],
];

async function lp(solver, report, table, name, backend, tolerance, within) {
  const started = performance.now();
  const entry = { name, backend, tolerance };
  try {
    const r = await solver.solveLp(await text(`data/netlib/${name}.mps`), { backend, tolerance });
    const optimum = table.get(name);
    const rel = Math.abs(r.objective - optimum) / Math.max(Math.abs(optimum), 1);
    Object.assign(entry, {
      status: r.status, objective: r.objective, iterations: r.iterations, rel, ran: r.backend,
      passed: r.optimal && rel <= within && r.backend === backend,
      detail: `${r.status} on ${r.backend}, rel. error ${rel.toExponential(2)} (≤ ${within.toExponential(1)} asked), ${r.iterations} iterations`,
    });
  } catch (e) {
    Object.assign(entry, { passed: false, detail: `rejected: ${e.message} [${e.code}]` });
  }
  entry.seconds = (performance.now() - started) / 1e3;
  report.lp.push(entry);
}

/** A request that must be refused with `code` and a message naming `words`. */
async function refused(report, name, action, code, words) {
  let passed = false;
  let detail;
  try {
    const value = await action();
    detail = `resolved instead of rejecting: ${JSON.stringify(value)?.slice(0, 200)}`;
  } catch (e) {
    const d = described(e);
    passed = d.code === code && words.every((w) => d.message.includes(w));
    detail = `${d.code}: ${d.message}`;
  }
  report.errors.push({ name, passed, detail });
}

/** A run recorded pass by pass, equal bit for bit to the unwatched run, frames of the right size. */
async function viewer(solver, report, name, spec) {
  let passed = false;
  let detail;
  try {
    const r = await solver.watch(spec);
    const [w, h] = [320, 200];
    const sizes = [];
    for (const k of [0, r.length - 1]) sizes.push((await r.frame(k, w, h)).length);
    await r.release();
    passed = r.length > 0 && r.passes.length === r.length && r.bitIdentical && sizes.every((n) => n === w * h * 4);
    detail = `${r.length} passes, ${r.bitIdentical ? 'bit-identical' : 'DIFFERENT'} to the unwatched run, frames of ${sizes.join(', ')} bytes`;
  } catch (e) {
    detail = `rejected: ${e.message} [${e.code}]`;
  }
  report.viewer.push({ name, passed, detail });
}

export async function run(params) {
  const report = { backend: params.get('backend') ?? '', kernels: [], lp: [], viewer: [], errors: [], fatal: null };
  let solver;
  try {
    solver = await createSolver();
    report.info = await solver.info();
    report.worker = solver.inWorker;
    report.abortMode = solver.abortMode;
    report.isolated = self.crossOriginIsolated;
  } catch (e) {
    report.fatal = `no solver: ${e.message} [${e.code}]`;
    return post(report, 'glsolve self-test');
  }
  if (!report.info.gpu) {
    report.fatal = `the suite needs WebGL2: ${report.info.reason} [${report.info.code}]`;
    return post(report, 'glsolve self-test');
  }
  try {
    report.kernels = await solver._selftestKernels();
  } catch (e) {
    report.fatal = `the kernel suite stopped: ${e.message} [${e.code}]`;
    return post(report, 'glsolve self-test');
  }
  try {
    const table = await optima();
    for (const [name, eps] of TABLE3) await lp(solver, report, table, name, 'gpu', eps, 10 * eps);
    for (const name of table.keys()) await lp(solver, report, table, name, 'hybrid', 1e-8, 1e-6);
    const cases = [
      ['triangle-pair', 'square-triad', 'inner', 'blocked-8', 'tiled-8'].map((variant) => [`cholesky ${variant}`, { algorithm: 'cholesky', variant, m: 9 }]),
      [['cholesky packed', { algorithm: 'cholesky', variant: 'triangle-pair', m: 9, packed: true }]],
      [['assembly blocked', { algorithm: 'assemble', variant: 'blocked-16', m: 7, n: 13 }]],
      [['assembly tiled', { algorithm: 'assemble', variant: 'tiled-16', m: 7, n: 13 }]],
      [['substitution packed', { algorithm: 'solve', variant: 'triangle-pair', m: 8, packed: true, direction: 'both' }]],
      [['lu', { algorithm: 'lu', variant: 'triangle-pair', m: 7 }]],
      [['least squares', { algorithm: 'lsq', variant: 'triangle-pair', m: 4, n: 9 }]],
      [['lp random', { algorithm: 'lp', variant: 'blocked-16', m: 6 }]],
      [['lp afiro from its file', { mps: await text('data/netlib/afiro.mps'), variant: 'blocked-16' }]],
    ].flat();
    for (const [name, spec] of cases) await viewer(solver, report, name, spec);
  } catch (e) {
    report.fatal = `the suite stopped: ${e.message}`;
  }
  const max = report.info.maxTextureSize;
  await refused(report, 'a malformed MPS file', () => solver.solveLp('NAME bad\nROWS\n N obj\n L c1\nCOLUMNS\n x obj one\nENDATA\n'), 'parse', ['MPS', 'line']);
  await refused(report, 'a size beyond the texture limit', () => solver.watch({ algorithm: 'cholesky', variant: 'triangle-pair', m: max + 1 }), 'too-large', ['MAX_TEXTURE_SIZE', String(max)]);
  await refused(report, 'an unknown variant', () => solver.watch({ algorithm: 'cholesky', variant: 'triangle-quad', m: 4 }), 'invalid-argument', ['unknown variant', 'blocked-16']);
  await refused(report, 'a size the viewer does not record', () => solver.watch({ algorithm: 'lp', variant: 'blocked-16', m: 1000 }), 'invalid-argument', ['viewer']);
  report.stats = await solver.stats();
  return post(report, 'glsolve self-test');
}
