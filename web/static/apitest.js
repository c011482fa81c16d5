// The package's API suite (`?apitest`): every function, in the worker (abort by interrupt where
// the page is cross-origin isolated, and by terminating the worker) and on the main thread;
// progress, abort, context loss, dispose, the fallback without float render targets or without
// WebGL2, malformed input → the right code. Where the browser has no WebGL2 at all only the
// fallback runs. The report goes to /report (tests/browser_api.rs reads it).
import { createSolver, GlsolveError } from './package/index.js';
import { lpChecks } from './apitest_lp.js';
import { denseChecks } from './apitest_dense.js';
import { optima, post, text } from './report.js';
import { Suite, assert, close, rejects } from './testkit.js';

const MODES = [
  ['worker', {}],
  ['worker, abort by terminate', { abort: 'terminate' }],
  ['main thread', { worker: false }],
];

/** Without float render targets (or without WebGL2): auto runs the cpu backend, gpu is refused. */
async function fallback(suite, options, code, ctx) {
  await suite.check(`fallback (${code})`, async () => {
    const solver = await createSolver(options);
    const info = await solver.info();
    assert(!info.gpu && info.code === code && info.reason, `info: gpu ${info.gpu}, code ${info.code}, reason ${info.reason}`);
    const r = await solver.solveLp(ctx.afiro, { backend: 'auto' });
    assert(r.optimal && r.backend === 'cpu' && close(r.objective, ctx.afiroOptimum, 1e-6), `auto: ${r.status} on ${r.backend}`);
    await rejects(solver.solveLp(ctx.afiro, { backend: 'gpu' }), code);
    const l = await solver.cholesky([[4, 2], [2, 3]]);
    assert(l.method.startsWith('cpu') && Math.abs(l.L.data[3] - Math.SQRT2) < 1e-15, `cholesky auto: ${l.method}`);
    await rejects(solver.cholesky([[4, 2], [2, 3]], { backend: 'gpu' }), code);
    await rejects(solver.watch({ algorithm: 'cholesky', m: 4 }), code);
    await solver.dispose();
    return `${info.reason.slice(0, 100)}; auto ran ${r.backend}`;
  });
}

async function lifecycle(suite, label, options, ctx) {
  await suite.check('stats, release and dispose: every texture freed, later calls refused', async () => {
    const solver = await createSolver(options);
    await solver.solveLp(ctx.afiro, { backend: 'gpu' });
    await solver.cholesky([[4, 2], [2, 3]], { backend: 'gpu' });
    const between = await solver.stats();
    assert(between.liveTextures === 0, `${between.liveTextures} textures alive between calls`);
    const rec = await solver.watch({ algorithm: 'cholesky', variant: 'blocked-8', m: 9 });
    assert((await solver.stats()).recordings === 1, 'one recording held');
    await rec.release();
    assert((await solver.stats()).recordings === 0, 'the recording released');
    await solver.watch({ algorithm: 'lu', m: 7 });
    const pending = solver.solveLp(ctx.afiro, { backend: 'gpu' });
    const d = await solver.dispose();
    assert(d.liveTextures === 0 || d.terminated, `dispose: ${JSON.stringify(d)}`);
    const e = await pending.then(() => null, (x) => x);
    assert(e === null || e.code === 'disposed', `the call queued before dispose: ${e?.code}`);
    await rejects(solver.solveLp(ctx.afiro), 'disposed');
    await rejects(solver.info(), 'disposed');
    return `${label}: dispose → ${JSON.stringify(d)}`;
  });
}

export async function run(params) {
  const report = { suite: 'apitest', backend: params.get('backend') ?? '', checks: [], fatal: null, isolated: self.crossOriginIsolated };
  try {
    const afiro = await text('data/netlib/afiro.mps');
    const ctx = { afiro, afiroOptimum: (await optima()).get('afiro') };
    const probe = await createSolver();
    report.info = await probe.info();
    await probe.dispose();
    if (!report.info.gpu) {
      const suite = new Suite('no WebGL2');
      await fallback(suite, {}, report.info.code, ctx);
      report.checks.push(...suite.checks);
      return post(report, 'glsolve API suite');
    }
    ctx.max = report.info.maxTextureSize;
    for (const [label, options] of MODES) {
      const suite = new Suite(label);
      await suite.check('createSolver and info', async () => {
        ctx.solver = await createSolver(options);
        const info = await ctx.solver.info();
        assert(info.gpu && info.maxTextureSize >= 2048 && info.variants.includes('blocked-16'), JSON.stringify(info).slice(0, 200));
        assert(ctx.solver.inWorker === (options.worker !== false), `inWorker ${ctx.solver.inWorker}`);
        return `${info.renderer}; abort by ${ctx.solver.abortMode}`;
      });
      if (ctx.solver) {
        ctx.label = label;
        await lpChecks(suite, ctx.solver, ctx);
        if (label !== 'worker, abort by terminate') await denseChecks(suite, ctx.solver, ctx);
        await ctx.solver.dispose();
      }
      if (label !== 'worker, abort by terminate') {
        await lifecycle(suite, label, options, ctx);
        await fallback(suite, { ...options, disableExtensions: ['EXT_color_buffer_float'] }, 'no-float-targets', ctx);
        await fallback(suite, { ...options, webgl: false }, 'no-webgl2', ctx);
      }
      report.checks.push(...suite.checks);
      ctx.solver = null;
    }
    const suite = new Suite('options');
    await suite.check('createSolver refuses what it does not know', async () => {
      await rejects(createSolver({ workers: 2 }), 'invalid-argument', ['workers']);
      await rejects(createSolver({ abort: 'sometimes' }), 'invalid-argument', ['sometimes']);
      assert(new GlsolveError('aborted', 'x').name === 'AbortError', 'an abort is an AbortError');
    });
    report.checks.push(...suite.checks);
  } catch (e) {
    report.fatal = `the suite stopped: ${e?.stack ?? e}`;
  }
  return post(report, 'glsolve API suite');
}
