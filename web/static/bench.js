// The browser benchmark (`?bench`): glsolve's gpu backend against HiGHS compiled to WebAssembly
// (npm `highs`, served from web/node_modules) on the same random dense LPs in the same page (at
// m = 512 also with the blocked kernels and with the register tiles), and glsolve's blocked and
// tiled Cholesky and LP timed as the native `glsolve bench` times them. The report is
// posted to /report (web/bench.mjs collects it).
import { ready } from './app.js';
import { random_lp_mps } from './pkg/glsolve_web.js';

const messageOf = (e) => (e && e.message) ? e.message : String(e);
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

async function loadHighs() {
  const { default: load } = await import('/node_modules/highs/build/highs.mjs');
  return load({ locateFile: (file) => `/node_modules/highs/build/${file}` });
}

/// HiGHS on `mps` with `options`: a warm-up, then the median of `reps` wall-clock solves.
function timeHighs(highs, mps, options, reps) {
  const data = new TextEncoder().encode(mps);
  let objective = NaN;
  let status = '';
  const once = () => {
    const t = performance.now();
    highs.withModel({ format: 'mps', data }, (model) => {
      model.options.set({ output_flag: false, ...options });
      model.run();
      objective = model.getObjectiveValue();
      status = String(model.getModelStatus());
    });
    return (performance.now() - t) / 1e3;
  };
  once();
  const runs = Array.from({ length: reps }, once);
  return { median_s: median(runs), objective, status, runs: reps };
}

export async function run(params) {
  const report = { backend: params.get('backend') ?? '', lp: [], cholesky: [], fatal: null };
  const app = await ready;
  if (!app) {
    report.fatal = `the page did not start: ${document.getElementById('error').textContent}`;
    return post(report);
  }
  report.info = Object.fromEntries(JSON.parse(app.info()));
  const reps = Number(params.get('reps') ?? 3);
  const sizes = (params.get('sizes') ?? '64,128,256,512').split(',').map(Number);
  const variantSizes = (params.get('variant_sizes') ?? '512').split(',').map(Number);
  const variantNames = (params.get('variants') ?? 'blocked-16,tiled-16').split(',');
  try {
    const highs = await loadHighs();
    for (const m of sizes) {
      const glsolve = JSON.parse(app.bench_lp(m, 7, reps, ''));
      const mps = random_lp_mps(m, 7);
      const simplex = timeHighs(highs, mps, {}, reps);
      const ipm = timeHighs(highs, mps, { solver: 'ipm' }, reps);
      // The sizes of `variant_sizes` also with each of `variants` (the blocked kernels against
      // the register tiles), interleaved with nothing else.
      const variants = variantSizes.includes(m) ? variantNames.map((v) => JSON.parse(app.bench_lp(m, 7, reps, v))) : [];
      report.lp.push({ m, n: 4 * m, seed: 7, reps, glsolve, variants, highs: simplex, highs_ipm: ipm });
    }
    for (const [variant, m] of (params.get('cholesky') ?? 'blocked-16:1024,tiled-16:1024').split(',').map((s) => s.split(':'))) {
      report.cholesky.push({ variant, m: Number(m), reps, median_s: app.bench_cholesky(variant, Number(m), reps) });
    }
  } catch (e) {
    report.fatal = messageOf(e);
  }
  return post(report);
}

async function post(report) {
  await fetch('/report', { method: 'POST', body: JSON.stringify(report) });
  document.title = 'glsolve bench: reported';
}
