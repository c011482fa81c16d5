// The page on the package: the controls, the viewer (frames drawn in the solver's worker from a
// recording kept there: step, play, speed, rest of step k) and the LP panel (the iteration log
// streams in as the worker logs it; Cancel aborts). The functions that do the work throw a
// GlsolveError; only the handlers wired to the buttons show errors in the page's error box.
import { createSolver } from './package/index.js';

/** An enclosure's end for the status line (an unproven end comes as null or an infinity). */
const endOf = (v, none) => (typeof v === 'number' && Number.isFinite(v) ? v.toPrecision(12) : none);
const $ = (id) => document.getElementById(id);
const FRAME = [960, 540];
const state = { solver: null, recording: null, k: 0, timer: null, drawing: false, lp: null };

/** Shows `message` in the page's error box (empty: hides it). */
export function showError(message) {
  const box = $('error');
  box.textContent = message ? String(message) : '';
  box.hidden = !message;
}

const messageOf = (e) => (e && e.code ? `${e.message} [${e.code}]` : (e && e.message) || String(e));

/** The request the controls describe. */
export function spec() {
  return {
    algorithm: $('algorithm').value,
    variant: $('variant').value,
    m: Number($('m').value),
    n: Number($('n').value),
    packed: $('packed').checked,
    direction: $('direction').value,
    seed: Number($('seed').value),
  };
}

export function showControls() {
  const alg = $('algorithm').value;
  $('variant-label').hidden = !['cholesky', 'assemble', 'lp'].includes(alg);
  $('n-label').hidden = !['assemble', 'lsq'].includes(alg);
  $('packed-label').hidden = !['cholesky', 'assemble', 'solve', 'lsq', 'lp'].includes(alg);
  $('direction-label').hidden = alg !== 'solve';
}

/** Draws pass `state.k` of the recording (frames come from the worker; one at a time). */
export async function draw() {
  const r = state.recording;
  if (!r || r.length === 0 || state.drawing) return;
  state.k = Math.max(0, Math.min(state.k, r.length - 1));
  const k = state.k;
  const [w, h] = FRAME;
  state.drawing = true;
  try {
    const bytes = await r.frame(k, w, h);
    const canvas = $('frame');
    canvas.width = w;
    canvas.height = h;
    canvas.getContext('2d').putImageData(new ImageData(bytes, w, h), 0, 0);
  } finally {
    state.drawing = false;
  }
  const p = r.passes[k];
  const frags = p.fragments == null ? '?' : `${p.fragments}${p.fragments_predicted ? ' (predicted from the primitive)' : ''}`;
  const time = p.time_ms == null ? '' : `, ${p.time_ms.toFixed(3)} ms`;
  $('pass-info').textContent =
    `pass ${k + 1} of ${r.length}  k = ${p.step ?? '-'}  ${p.name} (${p.primitive}, ${p.kernel}${p.defines.length ? ' ' + p.defines.join(' ') : ''})  ${frags} fragments${time}`;
  $('pass').max = String(r.length - 1);
  $('pass').value = String(k);
}

function stop() {
  clearInterval(state.timer);
  state.timer = null;
  $('play').textContent = '▶';
}

function play() {
  if (state.timer) return stop();
  if (!state.recording) return;
  $('play').textContent = '⏸';
  state.timer = setInterval(() => {
    if (state.drawing) return;
    if (state.k >= state.recording.length - 1) return stop();
    state.k += 1;
    draw().catch(fail);
  }, 1000 / Number($('speed').value));
}

/** Records the run `s` describes (the LP of `mps` when given) and shows its first pass. */
export async function watch(s = spec(), mps = '') {
  stop();
  $('run-status').textContent = mps ? 'running the gpu backend on the LP of the file…' : `running ${s.algorithm} m = ${s.m} on the GPU…`;
  const recording = await state.solver.watch(mps ? { mps, variant: s.variant } : s);
  await state.recording?.release();
  state.recording = recording;
  state.k = 0;
  $('run-status').textContent =
    `${recording.length} passes in ${(recording.seconds * 1e3).toFixed(1)} ms; the watched run ${recording.bitIdentical ? 'equals' : 'DIFFERS FROM'} the unwatched one bit for bit`;
  await draw();
  return recording;
}

async function time() {
  const s = spec();
  $('run-status').textContent = `timing ${s.algorithm} m = ${s.m}…`;
  const t = await state.solver.time(s, 3);
  $('run-status').textContent = `${s.algorithm} ${s.variant ?? ''} m = ${s.m}: ${(t * 1e3).toFixed(2)} ms (median of 3, after a warm-up)`;
}

const e = (x) => x.toExponential(2).padStart(9);
/** One streamed row, in the columns of the library's log. */
const rowLine = (r) => `${String(r.iteration).padStart(4)}  ${r.primalObjective.toExponential(9).padStart(16)}  ${r.dualObjective.toExponential(9).padStart(16)}  ${e(r.primalInfeasibility)}  ${e(r.dualInfeasibility)}  ${e(r.gap)}  ${e(r.mu)}  ${r.backend}`;

/**
 * Solves the random LP of the controls, or `mps` when given; streams the log, then shows the
 * status. `options` overrides the request (`backend`, `tolerance`, `maxIterations`, `m`, `seed`).
 */
export async function solveLp(mps = '', options = {}) {
  const { m = Number($('lp-m').value), seed = 7, ...rest } = options;
  const request = { backend: $('lp-backend').value, ...rest };
  const controller = new AbortController();
  state.lp = controller;
  $('lp-cancel').disabled = false;
  $('lp-status').textContent = `solving on the ${request.backend} backend…`;
  const log = $('lp-log');
  log.textContent = '';
  try {
    const model = mps || await state.solver.randomLp(m, { seed });
    const started = performance.now();
    const r = await state.solver.solveLp(model, {
      ...request,
      signal: controller.signal,
      onIteration: (row) => { log.textContent += `${rowLine(row)}\n`; },
    });
    const ms = performance.now() - started;
    $('lp-status').textContent =
      `${r.status}: objective ${r.objective != null ? r.objective.toPrecision(10) : '–'} in ${r.iterations} iterations` +
      `${r.gpuIterations != null ? ` (${r.gpuIterations} on the GPU)` : ''}, ${r.rows} × ${r.columns}, ${r.backend} backend, ${ms.toFixed(0)} ms\n` +
      (r.enclosure ? `optimum in [${endOf(r.enclosure.lower, '−∞')}, ${endOf(r.enclosure.upper, '+∞')}]\n` : '') +
      `verified: ${r.verdict ?? 'no point to verify'}${r.detail ? '\n' + r.detail : ''}`;
    log.textContent = r.log;
    return r;
  } catch (err) {
    $('lp-status').textContent = err.code === 'aborted' ? `cancelled${err.iteration != null ? ` at iteration ${err.iteration}` : ''}` : '';
    throw err;
  } finally {
    $('lp-cancel').disabled = true;
    state.lp = null;
  }
}

function fail(err) {
  if (err?.code === 'aborted') return;
  showError(messageOf(err));
}

/** Runs `action` from a control: errors go to the error box. */
const handler = (action) => async () => {
  showError('');
  try { await action(); } catch (err) { fail(err); }
};

function wire(variants) {
  for (const name of variants) {
    const o = document.createElement('option');
    o.textContent = name;
    $('variant').append(o);
  }
  $('algorithm').addEventListener('change', showControls);
  showControls();
  // Watching the LP with an MPS file chosen watches that file's LP.
  $('watch').addEventListener('click', handler(async () => {
    const file = $('lp-file').files[0];
    await watch(spec(), $('algorithm').value === 'lp' && file ? await file.text() : '');
  }));
  $('time').addEventListener('click', handler(time));
  $('lp-solve').addEventListener('click', handler(async () => {
    const file = $('lp-file').files[0];
    await solveLp(file ? await file.text() : '');
  }));
  $('lp-cancel').addEventListener('click', () => state.lp?.abort());
  const move = (to) => () => { stop(); state.k = to(); draw().catch(fail); };
  $('play').addEventListener('click', play);
  $('step').addEventListener('click', move(() => state.k + 1));
  $('back').addEventListener('click', move(() => state.k - 1));
  $('first').addEventListener('click', move(() => 0));
  $('rest').addEventListener('click', move(() => {
    const r = state.recording;
    if (!r) return state.k;
    let last = state.k;
    while (last + 1 < r.length && r.passes[last + 1].step === r.passes[state.k].step) last += 1;
    return Math.min(last + 1, r.length - 1);
  }));
  $('pass').addEventListener('input', move(() => Number($('pass').value)));
  $('speed').addEventListener('input', () => {
    $('speed-value').textContent = $('speed').value;
    if (state.timer) { stop(); play(); }
  });
}

/**
 * Makes the page's solver (`worker: false`: on the page's own thread, as the page worked before
 * the package) and wires the controls. Throws when there is no solver; a context without WebGL2
 * is not an error (the LP panel's cpu backend still runs) but the page says so.
 */
export async function start({ worker = true } = {}) {
  state.solver = await createSolver({ worker });
  const info = await state.solver.info();
  $('renderer').textContent = info.renderer ?? `no GPU (${info.reason})`;
  for (const [k, v] of info.lines) {
    const row = $('caps-table').insertRow();
    row.insertCell().textContent = k;
    row.insertCell().textContent = v;
  }
  if (!info.gpu) showError(`${info.reason} — the viewer needs WebGL2; the LP panel runs the cpu backend [${info.code}]`);
  wire(info.variants);
  return { solver: state.solver, info };
}

export { $, state, messageOf };
