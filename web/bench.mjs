// The browser benchmark, run from the repository: `bash web/build.sh && (cd web && npm ci && node bench.mjs)`.
// For each of headless Chromium's two WebGL2 back-ends (SwiftShader; ANGLE on Mesa's EGL) it
// serves the page with `glsolve web`, opens `?bench` and collects the page's report: glsolve's gpu
// backend against HiGHS (wasm) on the random dense LPs m = 64, 128, 256, 512 (seed 7; m = 512
// also with blocked-16 and tiled-16 named), and the blocked and tiled Cholesky m = 1024. Then the native binary times the same Cholesky and the LP m = 256 on
// the same llvmpipe (`glsolve bench`), and everything goes to docs/bench/browser.json, from which
// `glsolve bench all --report-only` renders docs/results.md's "In the browser".
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reps = Number(process.env.REPS ?? 3);
const BACKENDS = {
  swiftshader: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  'gl-egl': ['--use-gl=angle', '--use-angle=gl-egl', '--ignore-gpu-blocklist'],
};

function cargo(args) {
  const r = spawnSync('cargo', ['run', '--release', '--quiet', '--', ...args], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`glsolve ${args.join(' ')} failed:\n${r.stderr}`);
  return r.stdout;
}

/// Serves the page and runs `?bench` on one back-end; resolves to the page's report.
function inBrowser(backend) {
  return new Promise((resolve, reject) => {
    const server = spawn('cargo', ['run', '--release', '--quiet', '--', 'web', '--port', '0', '--exit-after-reports', '1', '--root', root], { cwd: root });
    const profile = mkdtempSync(join(tmpdir(), 'glsolve-bench-'));
    let browser = null;
    let settled = false;
    const done = (f) => (v) => {
      if (settled) return;
      settled = true;
      browser?.kill();
      server.kill();
      // The browser may still be writing its profile as it exits: remove it once it has.
      const clean = () => { try { rmSync(profile, { recursive: true, force: true, maxRetries: 5 }); } catch { /* a temporary folder */ } };
      if (browser) browser.on('exit', clean); else clean();
      f(v);
    };
    const lines = createInterface({ input: server.stdout });
    lines.on('line', (line) => {
      if (line.startsWith('serving ')) {
        const url = line.split(' ')[1];
        browser = spawn('chromium', ['--headless=new', '--no-sandbox', '--disable-background-networking', '--disable-component-update',
          '--disable-sync', '--disable-quic', '--no-first-run', '--mute-audio', ...BACKENDS[backend], `--user-data-dir=${profile}`,
          `${url}?bench&backend=${backend}&reps=${reps}`], { stdio: 'ignore' });
      } else if (line.startsWith('report: ')) {
        done(resolve)(JSON.parse(line.slice(8)));
      }
    });
    server.on('exit', (code) => done(reject)(new Error(`glsolve web exited (${code}) without a report`)));
  });
}

const out = { date: new Date().toISOString().slice(0, 10), reps, browser: {}, native: {} };
for (const backend of Object.keys(BACKENDS)) {
  process.stderr.write(`in Chromium on ${backend}…\n`);
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
writeFileSync(join(root, 'docs/bench/browser.json'), JSON.stringify(out, null, 2));
for (const [backend, r] of Object.entries(out.browser)) {
  console.log(`\n${backend}: ${r.info['GL renderer']}`);
  console.log('| m | glsolve gpu | HiGHS (default) | HiGHS ipm | glsolve / HiGHS | objectives |');
  for (const x of r.lp) {
    const rel = Math.abs(x.glsolve.objective - x.highs.objective) / Math.max(1, Math.abs(x.highs.objective));
    console.log(`| ${x.m} | ${x.glsolve.median_s.toFixed(3)} s (${x.glsolve.status}) | ${x.highs.median_s.toFixed(3)} s | ${x.highs_ipm.median_s.toFixed(3)} s | ${(x.glsolve.median_s / x.highs.median_s).toFixed(2)} | rel. diff ${rel.toExponential(1)} |`);
    for (const v of x.variants ?? []) console.log(`|   ${v.variant} | ${v.median_s.toFixed(3)} s (${v.status}, ${v.iterations} iterations) |`);
  }
  for (const c of r.cholesky) console.log(`Cholesky ${c.variant} m = ${c.m}: ${c.median_s.toFixed(3)} s`);
}
console.log(`\nnative (${out.native.renderer}):`, JSON.stringify(out.native));
console.log('wrote docs/bench/browser.json');
