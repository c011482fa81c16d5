// The in-browser test suite (`?selftest`): every kernel family against f64 references computed
// in wasm, the LP on the NETLIB problems of tests/data (served under /data) with the statuses and
// objectives the desktop tests demand, and malformed input shown as the page's error. The report
// is posted to /report, where `glsolve web` prints it for the test runner (tests/browser.rs).
import { ready, solveLp, watch } from './app.js';

// The 2006 paper's Table 3 problems and tolerances: the gpu backend must end optimal within 10ε
// of the NETLIB optimum (as tests/lp_gpu.rs asks on the desktop).
const TABLE3 = [
  ['adlittle', 3e-5], ['afiro', 4e-5], ['agg2', 5e-5], ['agg3', 6e-4], ['bandm', 2e-3],
  ['beaconfd', 3e-4], ['blend', 2e-3], ['e226', 9e-4], ['sc50b', 3e-5], ['sctap1', 5e-4],
];

const messageOf = (e) => (e && e.message) ? e.message : String(e);
const errorBox = () => document.getElementById('error');

async function text(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.text();
}

/// name → the optimal objective with the file's objective constant, from optimal.tsv.
async function optima() {
  const rows = (await text('/data/netlib/optimal.tsv')).trim().split('\n').slice(1);
  return new Map(rows.map((r) => { const f = r.split('\t'); return [f[0], Number(f[4]) + Number(f[5])]; }));
}

async function lp(report, table, name, backend, tolerance, within) {
  const started = performance.now();
  const mps = await text(`/data/netlib/${name}.mps`);
  const r = await solveLp(mps, { backend, tolerance });
  const optimum = table.get(name);
  const entry = { name, backend, tolerance, seconds: (performance.now() - started) / 1e3 };
  if (!r) {
    Object.assign(entry, { passed: false, detail: errorBox().textContent });
  } else {
    const rel = Math.abs(r.objective - optimum) / Math.max(Math.abs(optimum), 1);
    Object.assign(entry, {
      status: r.status, objective: r.objective, iterations: r.iterations, rel,
      passed: r.optimal && rel <= within,
      detail: `${r.status}, rel. error ${rel.toExponential(2)} (≤ ${within.toExponential(1)} asked), ${r.iterations} iterations`,
    });
  }
  report.lp.push(entry);
}

/// A request the page must refuse with an error box naming what was wrong.
async function refused(report, name, action, expect) {
  errorBox().hidden = true;
  errorBox().textContent = '';
  let result;
  try { result = await action(); } catch (e) { result = `threw instead of showing the error: ${messageOf(e)}`; }
  const shown = errorBox().hidden ? '' : errorBox().textContent;
  const passed = result === null && expect.every((word) => shown.includes(word));
  report.errors.push({ name, passed, detail: shown || String(result) });
}

/// The viewer's path: a run recorded pass by pass, equal bit for bit to the unwatched run, and a
/// frame of the right size drawn for its first and last pass.
async function viewer(report, name, s, mps = '') {
  const r = await watch(s, mps);
  let passed = false;
  let detail = errorBox().hidden ? 'no recording' : errorBox().textContent;
  if (r) {
    const [w, h] = [320, 200];
    const sizes = [0, r.len() - 1].map((k) => r.frame(k, w, h).length);
    passed = r.len() > 0 && r.bit_identical() && sizes.every((n) => n === w * h * 4);
    detail = `${r.len()} passes, ${r.bit_identical() ? 'bit-identical' : 'DIFFERENT'} to the unwatched run, frames of ${sizes.join(', ')} bytes`;
  }
  report.viewer.push({ name, passed, detail });
}

export async function run(params) {
  const report = { backend: params.get('backend') ?? '', kernels: [], lp: [], viewer: [], errors: [], fatal: null };
  const app = await ready;
  if (!app) {
    report.fatal = `the page did not start: ${errorBox().textContent}`;
    return post(report);
  }
  report.info = Object.fromEntries(JSON.parse(app.info()));
  try {
    report.kernels = JSON.parse(app.selftest_kernels());
  } catch (e) {
    report.fatal = `the kernel suite stopped: ${messageOf(e)}`;
    return post(report);
  }
  try {
    const table = await optima();
    for (const [name, eps] of TABLE3) await lp(report, table, name, 'gpu', eps, 10 * eps);
    for (const name of table.keys()) await lp(report, table, name, 'hybrid', 1e-8, 1e-6);
  } catch (e) {
    report.fatal = `the LP suite stopped: ${messageOf(e)}`;
  }
  try {
    for (const variant of ['triangle-pair', 'square-triad', 'inner', 'blocked-8', 'tiled-8']) {
      await viewer(report, `cholesky ${variant}`, { algorithm: 'cholesky', variant, m: 9 });
    }
    await viewer(report, 'cholesky packed', { algorithm: 'cholesky', variant: 'triangle-pair', m: 9, packed: true });
    await viewer(report, 'assembly blocked', { algorithm: 'assemble', variant: 'blocked-16', m: 7, n: 13 });
    await viewer(report, 'assembly tiled', { algorithm: 'assemble', variant: 'tiled-16', m: 7, n: 13 });
    await viewer(report, 'substitution packed', { algorithm: 'solve', variant: 'triangle-pair', m: 8, packed: true, direction: 'both' });
    await viewer(report, 'lu', { algorithm: 'lu', variant: 'triangle-pair', m: 7 });
    await viewer(report, 'least squares', { algorithm: 'lsq', variant: 'triangle-pair', m: 4, n: 9 });
    await viewer(report, 'lp random', { algorithm: 'lp', variant: 'blocked-16', m: 6 });
    await viewer(report, 'lp afiro from its file', { algorithm: 'lp', variant: 'blocked-16', m: 1 }, await text('/data/netlib/afiro.mps'));
  } catch (e) {
    report.fatal = `the viewer suite stopped: ${messageOf(e)}`;
  }
  const max = app.max_side();
  await refused(report, 'a malformed MPS file', () => solveLp('NAME bad\nROWS\n N obj\n L c1\nCOLUMNS\n x obj one\nENDATA\n'), ['MPS', 'line']);
  await refused(report, 'a size beyond the texture limit', () => watch({ algorithm: 'cholesky', variant: 'triangle-pair', m: max + 1 }), ['MAX_TEXTURE_SIZE', String(max)]);
  await refused(report, 'an unknown variant', () => watch({ algorithm: 'cholesky', variant: 'triangle-quad', m: 4 }), ['unknown variant', 'blocked-16']);
  await refused(report, 'a size the viewer does not record', () => watch({ algorithm: 'lp', variant: 'blocked-16', m: 1000 }), ['viewer']);
  return post(report);
}

async function post(report) {
  await fetch('/report', { method: 'POST', body: JSON.stringify(report) });
  document.title = 'glsolve self-test: reported';
}
