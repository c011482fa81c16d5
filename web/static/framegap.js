// The page's responsiveness (`?framegap&m=512&mode=worker|main&reps=3`): the page's own LP
// panel solves the random dense LP of m rows on the gpu backend, `reps` times, while
// requestAnimationFrame counts frames; the report has, per solve, the longest gap between two
// frames (from the start to the status shown) and the frames drawn, and the idle page's longest
// gap before. In the worker the page keeps drawing; on the main thread (the page before the
// package) one gap is as long as the solve. A blocked main thread shows in every run; a machine
// busy with other work shows as a gap now and then, so the test reads the best of the runs.
import { $, start, solveLp } from './page.js';
import { post } from './report.js';

/** Counts frames while running: the longest gap since `reset()`, in ms. */
function frameMeter() {
  const m = { frames: 0, longest: 0, last: 0, since: 0, gaps: [], chain: 0 };
  const chain = (id) => () => {
    if (id !== m.chain) return;
    const now = performance.now();
    if (now - m.last > 50) m.gaps.push([Math.round(m.last - m.since), Math.round(now - m.last)]);
    m.longest = Math.max(m.longest, now - m.last);
    m.last = now;
    m.frames += 1;
    requestAnimationFrame(chain(id));
  };
  // The event loop's lag: how late a 10 ms timer fires (the main thread busy, or not scheduled).
  const timer = (id) => {
    const due = performance.now() + 10;
    setTimeout(() => {
      if (id !== m.chain) return;
      m.lag = Math.max(m.lag, performance.now() - due);
      timer(id);
    }, 10);
  };
  m.reset = () => { m.frames = 0; m.longest = 0; m.lag = 0; m.last = performance.now(); m.since = m.last; m.gaps = []; };
  m.start = () => { m.chain += 1; m.reset(); requestAnimationFrame(chain(m.chain)); timer(m.chain); };
  // The gap still open at the end counts too (frames may not have resumed yet).
  m.stop = () => { m.chain += 1; m.longest = Math.max(m.longest, performance.now() - m.last); };
  m.start();
  return m;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function run(params) {
  const mode = params.get('mode') ?? 'worker';
  const m = Number(params.get('m') ?? 512);
  const reps = Number(params.get('reps') ?? 3);
  const report = { suite: 'framegap', backend: params.get('backend') ?? '', mode, m, fatal: null };
  try {
    const { info } = await start({ worker: mode !== 'main' });
    report.renderer = info.renderer;
    $('lp-backend').value = params.get('lp-backend') ?? 'gpu';
    // A small solve first: the kernels compile outside the measurement, as on a page in use.
    await solveLp('', { m: 8 });
    const meter = frameMeter();
    await sleep(1000);
    report.idle = { frames: meter.frames, longestGapMs: meter.longest, gapsOver50ms: meter.gaps, timerLagMs: meter.lag };
    report.runs = [];
    for (let k = 0; k < reps; k++) {
      meter.start();
      const t = performance.now();
      const r = await solveLp('', { m, seed: 7 });
      const ms = performance.now() - t;
      meter.stop();
      report.runs.push({
        status: r.status, iterations: r.iterations, backendRan: r.backend, solveMs: ms,
        frames: meter.frames, longestGapMs: meter.longest, gapsOver50ms: meter.gaps, timerLagMs: meter.lag,
        shown: $('lp-status').textContent.split('\n')[0],
      });
    }
    report.bestLongestGapMs = Math.min(...report.runs.map((x) => x.longestGapMs));
  } catch (e) {
    report.fatal = `${e?.message ?? e}${e?.code ? ` [${e.code}]` : ''}`;
  }
  return post(report, 'glsolve frame gaps');
}
