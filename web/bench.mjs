// The browser benchmark, run from the repository: `bash web/build.sh && (cd web && npm ci && node bench.mjs)`.
// For each browser — headless Chromium on its two WebGL2 back-ends (SwiftShader; ANGLE on Mesa's
// EGL) and Firefox ESR under Xvfb — it serves the page with `glsolve web`, opens `?bench` and
// collects the page's report: glsolve through its package (gpu and auto in the worker, gpu on the
// main thread) against HiGHS and GLPK (wasm) on the random dense LPs m = 64 … 512 (seed 7; m = 512
// also with blocked-16 and tiled-16 named) and five NETLIB problems, and the blocked and tiled
// Cholesky m = 1024. Then the native binary times the same Cholesky and the LP m = 256 on the same
// llvmpipe (`glsolve bench`), and everything goes to docs/bench/browser.json, from which
// `glsolve bench all --report-only` renders docs/results.md's "In the browser".
// BROWSERS=gl-egl,firefox runs a subset; REPS sets the repetitions; SIZES (below) reruns some rows. `node bench.mjs framegap` and
// `node bench.mjs worker` measure one thing each (below).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reps = Number(process.env.REPS ?? 3);
const CHROMIUM = ['--headless=new', '--no-sandbox', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--disable-quic', '--no-first-run', '--mute-audio'];
const BROWSERS = {
  swiftshader: (url, profile) => ['chromium', [...CHROMIUM, '--use-angle=swiftshader', '--enable-unsafe-swiftshader', `--user-data-dir=${profile}`, url]],
  'gl-egl': (url, profile) => ['chromium', [...CHROMIUM, '--use-gl=angle', '--use-angle=gl-egl', '--ignore-gpu-blocklist', `--user-data-dir=${profile}`, url]],
  firefox: (url, profile) => ['xvfb-run', ['-a', 'firefox-esr', '--no-remote', '--profile', profile, url]],
};
const chosen = (process.env.BROWSERS ?? Object.keys(BROWSERS).join(',')).split(',');
const version = (cmd) => spawnSync(cmd, ['--version'], { encoding: 'utf8' }).stdout.trim();

function cargo(args) {
  const r = spawnSync('cargo', ['run', '--release', '--quiet', '--', ...args], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`glsolve ${args.join(' ')} failed:\n${r.stderr}`);
  return r.stdout;
}

/// Serves the page and opens `?{query}` in one browser; resolves to the page's report.
function inBrowser(backend, query = `bench&reps=${reps}`) {
  return new Promise((resolve, reject) => {
    const server = spawn('cargo', ['run', '--release', '--quiet', '--', 'web', '--port', '0', '--exit-after-reports', '1', '--root', root], { cwd: root });
    const profile = mkdtempSync(join(tmpdir(), 'glsolve-bench-'));
    let browser = null;
    let settled = false;
    const done = (f) => (v) => {
      if (settled) return;
      settled = true;
      // The browser runs in its own process group (Firefox under xvfb-run has helpers).
      if (browser) { try { process.kill(-browser.pid, 'SIGTERM'); } catch { /* already gone */ } }
      server.kill();
      // The browser may still be writing its profile as it exits: remove it once it has.
      const clean = () => { try { rmSync(profile, { recursive: true, force: true, maxRetries: 5 }); } catch { /* a temporary folder */ } };
      if (browser) browser.on('exit', clean); else clean();
      f(v);
    };
    const lines = createInterface({ input: server.stdout });
    lines.on('line', (line) => {
      if (line.startsWith('serving ')) {
        const url = `${line.split(' ')[1]}?${query}&backend=${backend}`;
        const [cmd, args] = BROWSERS[backend](url, profile);
        browser = spawn(cmd, args, { stdio: 'ignore', detached: true });
      } else if (line.startsWith('report: ')) {
        done(resolve)(JSON.parse(line.slice(8)));
      }
    });
    server.on('exit', (code) => done(reject)(new Error(`glsolve web exited (${code}) without a report`)));
  });
}

// `node bench.mjs framegap`: the page's longest frame gap while its LP panel solves the m = 512
// LP on the gpu backend, in the worker (three solves) and on the main thread (one), in each
// browser; to docs/bench/framegap.json.
if (process.argv[2] === 'framegap') {
  const gaps = { date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', machine: { cpus: cpus().length, load_before: loadavg()[0] },
    versions: { chromium: version('chromium'), firefox: version('firefox-esr') }, browsers: {} };
  for (const backend of chosen) {
    process.stderr.write(`frame gaps in ${backend}…\n`);
    const worker = await inBrowser(backend, 'framegap&mode=worker&m=512&reps=3');
    const main = await inBrowser(backend, 'framegap&mode=main&m=512&reps=1');
    for (const r of [worker, main]) if (r.fatal) throw new Error(`${backend}: ${r.fatal}`);
    gaps.browsers[backend] = { worker, main };
    for (const r of [worker, main]) console.log(`${backend} ${r.mode}: ${r.runs.map((x) => `${x.longestGapMs.toFixed(0)} ms gap in ${x.solveMs.toFixed(0)} ms (${x.frames} frames)`).join('; ')}`);
  }
  gaps.machine.load_after = loadavg()[0];
  writeFileSync(join(root, 'docs/bench/framegap.json'), JSON.stringify(gaps, null, 2));
  console.log('wrote docs/bench/framegap.json');
  process.exit(0);
}

// `node bench.mjs worker`: glsolve gpu in the worker against the main thread alone, at M (default
// 512), REPS (default 5) interleaved pairs per browser, every reading kept (wall clock and the
// solve's own clock); to docs/bench/worker.json.
if (process.argv[2] === 'worker') {
  const n = Number(process.env.REPS ?? 5);
  const sizes = process.env.M ?? '512';
  const cost = { date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', reps: n, machine: { cpus: cpus().length, load_before: loadavg()[0] },
    versions: { chromium: version('chromium'), firefox: version('firefox-esr') }, browsers: {} };
  for (const backend of chosen) {
    process.stderr.write(`the worker against the main thread in ${backend}…\n`);
    const r = await inBrowser(backend, `bench&part=worker&sizes=${sizes}&reps=${n}`);
    if (r.fatal) throw new Error(`${backend}: ${r.fatal}`);
    cost.browsers[backend] = { renderer: r.info.renderer, pairs: r.pairs };
    const s = (v) => v.map((x) => x.toFixed(2)).join(' ');
    for (const p of r.pairs) {
      console.log(`${backend} m = ${p.m}: worker wall ${s(p.worker.wall_s)} own ${s(p.worker.own_s)}; main wall ${s(p.main.wall_s)} own ${s(p.main.own_s)}; ` +
        `worker / main ${(p.worker.median_s / p.main.median_s).toFixed(2)} (wall), ${(p.worker.solve_s / p.main.solve_s).toFixed(2)} (own)`);
    }
  }
  cost.machine.load_after = loadavg()[0];
  writeFileSync(join(root, 'docs/bench/worker.json'), JSON.stringify(cost, null, 2));
  console.log('wrote docs/bench/worker.json');
  process.exit(0);
}

// `node bench.mjs simd`: the cpu backend in wasm built without and with wasm SIMD (simd128), in
// the same page, builds interleaved: BUILDS (name:url of the wasm, comma-separated, the first the
// reference; default `bash web/build.sh --scalar`'s build against the package's own), M (default
// 256,512), NETLIB (default afiro,e226, of tests/data), REPS (default 5); to
// docs/bench/wasm_simd.json.
if (process.argv[2] === 'simd') {
  const n = Number(process.env.REPS ?? 5);
  const builds = process.env.BUILDS ?? 'scalar:/package/wasm/scalar/glsolve_web_bg.wasm,simd128+gemm:';
  const query = `bench&part=cpu&sizes=${process.env.M ?? '256,512'}&netlib=${process.env.NETLIB ?? 'afiro,e226'}&reps=${n}&builds=${encodeURIComponent(builds)}`;
  const simd = { date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', reps: n, machine: { cpus: cpus().length, load_before: loadavg()[0] },
    versions: { chromium: version('chromium'), firefox: version('firefox-esr') }, browsers: {} };
  for (const backend of chosen) {
    process.stderr.write(`the cpu backend's wasm builds in ${backend}…\n`);
    const r = await inBrowser(backend, query);
    if (r.fatal) throw new Error(`${backend}: ${r.fatal}`);
    simd.browsers[backend] = { builds: r.builds, cpu: r.cpu };
    const med = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
    for (const c of r.cpu) {
      console.log(`${backend} ${c.problem}: ${c.builds.map((b) => `${b.build} own ${b.own_s.map((x) => x.toFixed(3)).join(' ')} (${b.status}, ${b.iterations} it)`).join('; ')}; ` +
        `ratio ${c.builds.slice(1).map((b) => (med(b.own_s) / med(c.builds[0].own_s)).toFixed(2)).join(', ')}`);
    }
  }
  simd.machine.load_after = loadavg()[0];
  writeFileSync(join(root, 'docs/bench/wasm_simd.json'), JSON.stringify(simd, null, 2));
  console.log('wrote docs/bench/wasm_simd.json');
  process.exit(0);
}

// SIZES=256,512: only the random LPs of those sizes, in the chosen browsers; their rows replace
// the same rows of docs/bench/browser.json, each marked with its own date, load and repetitions
// (the other rows, browsers, NETLIB, Cholesky and native numbers stay as they were measured).
if (process.env.SIZES) {
  const path = join(root, 'docs/bench/browser.json');
  const old = JSON.parse(readFileSync(path, 'utf8'));
  for (const backend of chosen) {
    const rerun = { date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', reps, load_before: loadavg()[0] };
    process.stderr.write(`in ${backend}, m = ${process.env.SIZES}…\n`);
    const r = await inBrowser(backend, `bench&reps=${reps}&sizes=${process.env.SIZES}&netlib=&cholesky=`);
    if (r.fatal) throw new Error(`${backend}: ${r.fatal}`);
    rerun.load_after = loadavg()[0];
    const page = old.browser[backend];
    if (!page) throw new Error(`docs/bench/browser.json has no ${backend} to update`);
    for (const row of r.lp) {
      row.rerun = rerun;
      const i = page.lp.findIndex((x) => x.m === row.m);
      if (i < 0) page.lp.push(row); else page.lp[i] = row;
      const c = (x) => (x?.error ? 'error' : `${x.median_s.toFixed(3)} s`);
      console.log(`${backend} m = ${row.m}: gpu ${c(row.glsolve)}, auto ${c(row.glsolve_auto)}, main ${c(row.glsolve_main)}, HiGHS ${c(row.highs)}, ipm ${c(row.highs_ipm)}, GLPK ${c(row.glpk)}`);
    }
    page.lp.sort((a, b) => a.m - b.m);
  }
  writeFileSync(path, JSON.stringify(old, null, 2));
  console.log('updated docs/bench/browser.json');
  process.exit(0);
}

const out = {
  date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', reps,
  machine: { cpus: cpus().length, load_before: loadavg()[0] },
  versions: { chromium: version('chromium'), firefox: version('firefox-esr'), node: process.version },
  browser: {}, native: {},
};
for (const backend of chosen) {
  process.stderr.write(`in ${backend}…\n`);
  const r = await inBrowser(backend);
  if (r.fatal) throw new Error(`${backend}: ${r.fatal}`);
  out.browser[backend] = r;
}
process.stderr.write('native, the same work on the same llvmpipe…\n');
const dir = mkdtempSync(join(tmpdir(), 'glsolve-native-'));
cargo(['bench', 'cholesky', '--sizes', '1024', '--variants', 'blocked-16,tiled-16', '--reps', String(reps), '--json', join(dir, 'chol.json')]);
cargo(['bench', 'lp', '--sizes', '256', '--seed', '7', '--backend', 'gpu', '--reps', String(reps), '--json', join(dir, 'lp.json')]);
const chol = JSON.parse(readFileSync(join(dir, 'chol.json'), 'utf8'));
const lp = JSON.parse(readFileSync(join(dir, 'lp.json'), 'utf8'));
const secs = (d) => d.secs + d.nanos / 1e9;
out.native = {
  renderer: chol.renderer,
  cholesky: chol.rows.map((r) => ({ variant: r.variant, m: r.m, median_s: r.median_s, reps: r.reps })),
  lp: lp.rows.map((r) => ({ m: r.m, seed: r.seed, status: r.status, iterations: r.iterations, median_s: secs(r.median) })),
};
rmSync(dir, { recursive: true, force: true });
out.machine.load_after = loadavg()[0];
writeFileSync(join(root, 'docs/bench/browser.json'), JSON.stringify(out, null, 2));
const cell = (c) => (c?.error ? 'error' : `${c.median_s.toFixed(3)} s${c.status === 'optimal' || c.status === 'Optimal' ? '' : ` (${c.status})`}`);
for (const [backend, r] of Object.entries(out.browser)) {
  console.log(`\n${backend}: ${r.info.renderer}`);
  console.log('| m | glsolve gpu (worker) | glsolve auto | glsolve gpu (main thread) | HiGHS simplex | HiGHS ipm | GLPK |');
  for (const x of r.lp) {
    console.log(`| ${x.m} | ${cell(x.glsolve)} | ${cell(x.glsolve_auto)} | ${cell(x.glsolve_main)} | ${cell(x.highs)} | ${cell(x.highs_ipm)} | ${cell(x.glpk)} |`);
    for (const v of x.variants ?? []) console.log(`|   ${v.variant} | ${v.median_s.toFixed(3)} s (${v.status}, ${v.iterations} iterations; the solve's clock) |`);
  }
  for (const x of r.netlib) console.log(`| ${x.name} | ${cell(x.glsolve)} | ${cell(x.glsolve_auto)} | | ${cell(x.highs)} | ${cell(x.highs_ipm)} | ${cell(x.glpk)} |`);
  for (const c of r.cholesky) console.log(`Cholesky ${c.variant} m = ${c.m}: ${c.median_s.toFixed(3)} s`);
}
console.log(`\nnative (${out.native.renderer}):`, JSON.stringify(out.native));
console.log('wrote docs/bench/browser.json');
