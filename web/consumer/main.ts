// A web developer's use of glsolve, type-checked against the package's declarations and run in
// the browser: an LP from arrays with progress, a Cholesky factor and a weighted least-squares
// fit, each checked against answers known here, an abort, and files that cannot be loaded. The
// same source runs unbundled (index.html's import map), and built for production by Vite and by
// webpack with no glsolve-specific configuration. The report goes to the server's /report, or
// to the collector `?report=URL` names (a plain static server takes no POST).
import { createSolver, GlsolveError, type ErrorCode, type IterationRow, type LpArrays } from 'glsolve';

interface Check { name: string; passed: boolean; detail: string }

async function main(): Promise<{ checks: Check[]; renderer: string | null; isolated: boolean }> {
  const checks: Check[] = [];
  const check = (name: string, passed: boolean, detail: string) => checks.push({ name, passed, detail });
  const solver = await createSolver();
  const info = await solver.info();

  // max x + y  s.t.  x + 2y ≤ 4,  3x + y ≤ 6,  x, y ≥ 0  →  x = 1.6, y = 1.2, objective 2.8.
  const lp: LpArrays = { sense: 'max', c: [1, 1], A: { rows: 2, cols: 2, data: new Float64Array([1, 2, 3, 1]) }, rowUpper: [4, 6] };
  const rows: IterationRow[] = [];
  const r = await solver.solveLp(lp, { backend: info.gpu ? 'gpu' : 'cpu', tolerance: 1e-6, onIteration: (row) => rows.push(row) });
  check('solveLp', r.optimal && r.objective !== null && Math.abs(r.objective - 2.8) < 1e-4 && Math.abs(r.x[0] - 1.6) < 1e-4 && rows.length === r.iterations + 1,
    `${r.status} ${r.objective} x = ${Array.from(r.x)} on ${r.backend}, ${rows.length} rows`);

  const l = await solver.cholesky([[4, 2], [2, 3]], { variant: 'blocked-16' });
  const want = [2, 0, 1, Math.SQRT2];
  check('cholesky', l.L.data.every((v, k) => Math.abs(v - want[k]) < 1e-6), `L = ${Array.from(l.L.data)} (${l.method})`);

  // y = 2 + 3t observed at t = 0..5, one outlier given weight 0.
  const t = [0, 1, 2, 3, 4, 5];
  const b = new Float64Array(t.map((v) => 2 + 3 * v));
  b[4] = 100;
  const weights = new Float64Array([1, 1, 1, 1, 0, 1]);
  const fit = await solver.lstsq(t.map((v) => [1, v]), b, { weights });
  check('lstsq', Math.abs(fit.x[0] - 2) < 1e-9 && Math.abs(fit.x[1] - 3) < 1e-9, `x = ${Array.from(fit.x)} (${fit.method})`);

  try {
    await solver.solveLp('NAME bad\nROWS\n N obj\nCOLUMNS\n x obj one\nENDATA\n');
    check('a parse error', false, 'resolved');
  } catch (e) {
    const code: ErrorCode | undefined = e instanceof GlsolveError ? e.code : undefined;
    check('a parse error', code === 'parse' && e instanceof GlsolveError && e.line === 5, `${code} at line ${(e as GlsolveError).line}`);
  }
  // @ts-expect-error: the declarations know the backends.
  const refused = solver.solveLp(lp, { backend: 'fast' }).then(() => 'resolved', (e: GlsolveError) => e.code);
  check('an unknown backend', (await refused) === 'invalid-argument', String(await refused));

  // A page served as most sites are (not cross-origin isolated): an abort ends the worker, the
  // next call starts another.
  const controller = new AbortController();
  const big = await solver.randomLp(128, { seed: 7 });
  const stopped = await solver.solveLp(big, { backend: 'gpu', signal: controller.signal, onIteration: (row) => { if (row.iteration === 1) controller.abort(); } })
    .then(() => 'resolved', (e: GlsolveError) => `${e.name} ${e.code} at ${e.iteration}`);
  const again = await solver.solveLp(lp, { backend: 'cpu' });
  check('abort', stopped === 'AbortError aborted at 1' && again.optimal && solver.abortMode === (crossOriginIsolated ? 'interrupt' : 'terminate'),
    `${stopped}; abort by ${solver.abortMode} (crossOriginIsolated ${crossOriginIsolated}); next solve ${again.status}`);

  const d = await solver.dispose();
  check('dispose', d.liveTextures === 0, JSON.stringify(d));

  // Files that are not where they are said to be: code 'load', the URL and the option named.
  for (const [name, option] of [['a missing wasm file', 'wasmUrl'], ['a missing worker script', 'workerUrl']] as const) {
    const failed = await createSolver({ [option]: 'no-such-file.js' }).then(async (s) => { await s.dispose(); return null; }, (e: GlsolveError) => e);
    check(name, failed?.code === 'load' && failed.url?.endsWith('/no-such-file.js') === true && failed.message.includes(option),
      failed ? `${failed.code}: ${failed.message}` : 'resolved');
  }
  return { checks, renderer: info.renderer, isolated: crossOriginIsolated };
}

const params = new URLSearchParams(location.search);
main()
  .then((r) => ({ ...r, fatal: null }))
  .catch((e: unknown) => ({ checks: [], renderer: null, isolated: crossOriginIsolated, fatal: String(e instanceof Error ? e.stack ?? e.message : e) }))
  .then(async (report) => {
    (document.getElementById('out') as HTMLElement).textContent = JSON.stringify(report, null, 2);
    await fetch(params.get('report') ?? '/report', { method: 'POST', body: JSON.stringify({ suite: 'consumer', backend: params.get('backend'), ...report }) });
  });
