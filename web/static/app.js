// The page: the controls, the viewer (frames drawn by the library's renderer, replayed from a
// recording: step, play, speed, rest of step k) and the LP panel. Every error reaches #error.
import init, { App, variants } from './pkg/glsolve_web.js';

const $ = (id) => document.getElementById(id);
const FRAME = [960, 540];
const state = { app: null, replay: null, k: 0, timer: null };

/// Shows `message` in the page's error box (empty: hides it).
export function showError(message) {
  const box = $('error');
  box.textContent = message ? String(message) : '';
  box.hidden = !message;
}

const messageOf = (e) => (e && e.message) ? e.message : String(e);

/// The request the controls describe.
export function spec() {
  const alg = $('algorithm').value;
  return {
    algorithm: alg,
    variant: $('variant').value,
    m: Number($('m').value),
    n: Number($('n').value),
    packed: $('packed').checked,
    direction: $('direction').value,
    seed: Number($('seed').value),
  };
}

function showControls() {
  const alg = $('algorithm').value;
  $('variant-label').hidden = !['cholesky', 'assemble', 'lp'].includes(alg);
  $('n-label').hidden = !['assemble', 'lsq'].includes(alg);
  $('packed-label').hidden = !['cholesky', 'assemble', 'solve', 'lsq', 'lp'].includes(alg);
  $('direction-label').hidden = alg !== 'solve';
}

/// Lets the page paint a status line before a long synchronous run.
const nextFrame = () => new Promise((r) => setTimeout(r, 20));

function draw() {
  const r = state.replay;
  if (!r || r.len() === 0) return;
  state.k = Math.max(0, Math.min(state.k, r.len() - 1));
  const [w, h] = FRAME;
  const bytes = r.frame(state.k, w, h);
  const canvas = $('frame');
  canvas.width = w;
  canvas.height = h;
  canvas.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(bytes.buffer, bytes.byteOffset, bytes.length), w, h), 0, 0);
  const p = JSON.parse(r.pass(state.k));
  const frags = p.fragments == null ? '?' : `${p.fragments}${p.fragments_predicted ? ' (predicted from the primitive)' : ''}`;
  const time = p.time_ms == null ? '' : `, ${p.time_ms.toFixed(3)} ms`;
  $('pass-info').textContent =
    `pass ${state.k + 1} of ${r.len()}  k = ${p.step ?? '-'}  ${p.name} (${p.primitive}, ${p.kernel}${p.defines.length ? ' ' + p.defines.join(' ') : ''})  ${frags} fragments${time}`;
  $('pass').max = String(r.len() - 1);
  $('pass').value = String(state.k);
}

function stop() {
  clearInterval(state.timer);
  state.timer = null;
  $('play').textContent = '▶';
}

function play() {
  if (state.timer) return stop();
  if (!state.replay) return;
  $('play').textContent = '⏸';
  const tick = () => {
    if (state.k >= state.replay.len() - 1) return stop();
    state.k += 1;
    draw();
  };
  state.timer = setInterval(tick, 1000 / Number($('speed').value));
}

/// Records the run `s` describes (the LP of `mps` when given) and shows its first pass.
export async function watch(s = spec(), mps = '') {
  stop();
  showError('');
  $('run-status').textContent = mps ? 'running the gpu backend on the LP of the file…' : `running ${s.algorithm} m = ${s.m} on the GPU…`;
  await nextFrame();
  try {
    const replay = mps ? state.app.watch_mps(mps, s.variant) : state.app.watch(JSON.stringify(s));
    if (state.replay) state.replay.free();
    state.replay = replay;
    state.k = 0;
    $('run-status').textContent =
      `${replay.len()} passes in ${(replay.seconds() * 1e3).toFixed(1)} ms; the watched run ${replay.bit_identical() ? 'equals' : 'DIFFERS FROM'} the unwatched one bit for bit`;
    draw();
    return replay;
  } catch (e) {
    $('run-status').textContent = '';
    showError(messageOf(e));
    return null;
  }
}

async function time() {
  showError('');
  const s = spec();
  $('run-status').textContent = `timing ${s.algorithm} m = ${s.m}…`;
  await nextFrame();
  try {
    const t = state.app.time(JSON.stringify(s), 3);
    $('run-status').textContent = `${s.algorithm} ${s.variant ?? ''} m = ${s.m}: ${(t * 1e3).toFixed(2)} ms (median of 3, after a warm-up)`;
  } catch (e) {
    $('run-status').textContent = '';
    showError(messageOf(e));
  }
}

/// Solves the random LP of the controls, or `mps` when given; shows the log and the status.
/// `options` overrides the request (`backend`, `tolerance`, `max_iterations`, `m`, `seed`).
export async function solveLp(mps = '', options = {}) {
  showError('');
  const request = { m: Number($('lp-m').value), backend: $('lp-backend').value, ...options };
  $('lp-status').textContent = `solving on the ${request.backend} backend…`;
  $('lp-log').textContent = '';
  await nextFrame();
  try {
    const r = JSON.parse(state.app.solve_lp(JSON.stringify(request), mps));
    $('lp-status').textContent =
      `${r.status}: objective ${r.objective.toPrecision(10)} in ${r.iterations} iterations` +
      `${r.gpu_iterations != null ? ` (${r.gpu_iterations} on the GPU)` : ''}, ${r.rows} × ${r.columns}, ${(r.seconds * 1e3).toFixed(0)} ms\n` +
      `verified: ${r.verification ?? 'no point to verify'}${r.detail ? '\n' + r.detail : ''}`;
    $('lp-log').textContent = r.log;
    return r;
  } catch (e) {
    $('lp-status').textContent = '';
    showError(messageOf(e));
    return null;
  }
}

async function solveFromControls() {
  const file = $('lp-file').files[0];
  return solveLp(file ? await file.text() : '');
}

function wire() {
  for (const name of JSON.parse(variants())) {
    const o = document.createElement('option');
    o.textContent = name;
    $('variant').append(o);
  }
  $('algorithm').addEventListener('change', showControls);
  showControls();
  // Watching the LP with an MPS file chosen watches that file's LP.
  $('watch').addEventListener('click', async () => {
    const file = $('lp-file').files[0];
    watch(spec(), $('algorithm').value === 'lp' && file ? await file.text() : '');
  });
  $('time').addEventListener('click', time);
  $('lp-solve').addEventListener('click', solveFromControls);
  $('play').addEventListener('click', play);
  $('step').addEventListener('click', () => { stop(); state.k += 1; draw(); });
  $('back').addEventListener('click', () => { stop(); state.k -= 1; draw(); });
  $('first').addEventListener('click', () => { stop(); state.k = 0; draw(); });
  $('rest').addEventListener('click', () => {
    stop();
    if (state.replay) state.k = Math.min(state.replay.end_of_step(state.k) + 1, state.replay.len() - 1);
    draw();
  });
  $('pass').addEventListener('input', () => { stop(); state.k = Number($('pass').value); draw(); });
  $('speed').addEventListener('input', () => {
    $('speed-value').textContent = $('speed').value;
    if (state.timer) { stop(); play(); }
  });
}

async function start() {
  try {
    await init();
  } catch (e) {
    showError(`the WebAssembly module could not be loaded: ${messageOf(e)}`);
    return null;
  }
  try {
    state.app = new App($('gl'), navigator.userAgent);
  } catch (e) {
    showError(messageOf(e));
    return null;
  }
  const caps = JSON.parse(state.app.info());
  $('renderer').textContent = Object.fromEntries(caps)['GL renderer'];
  for (const [k, v] of caps) {
    const row = $('caps-table').insertRow();
    row.insertCell().textContent = k;
    row.insertCell().textContent = v;
  }
  wire();
  return state.app;
}

/// Resolves to the App, or null when the page could not start (the error box says why).
export const ready = start();

const params = new URLSearchParams(location.search);
if (params.has('selftest')) import('./selftest.js').then((t) => t.run(params));
else if (params.has('bench')) import('./bench.js').then((b) => b.run(params));
else if (params.has('show')) ready.then(async (app) => {
  // ?show=cholesky&variant=blocked-16&m=64&pass=40: a run stopped at a pass (for screenshots);
  // &lp=M also solves the random LP with M rows in the LP panel.
  if (!app) return;
  for (const key of ['variant', 'm', 'n', 'seed']) if (params.has(key)) $(key).value = params.get(key);
  $('algorithm').value = params.get('show');
  $('packed').checked = params.has('packed');
  showControls();
  const replay = await watch();
  if (replay) {
    // &find=NAME: the first pass of that name from &pass on.
    state.k = Number(params.get('pass') ?? 0);
    const find = params.get('find');
    while (find && state.k < replay.len() - 1 && JSON.parse(replay.pass(state.k)).name !== find) state.k += 1;
    draw();
  }
  if (params.has('lp')) { $('lp-m').value = params.get('lp'); await solveLp(); }
  document.title += ' — ready';
});
