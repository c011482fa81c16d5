// The engine: the wasm module and one WebGL2 context, in whatever thread loads this file — the
// solver's dedicated worker (worker.js), or the page itself in main-thread mode. Every call is
// synchronous here; the Solver (solver.js) makes them promises.
import init, { App, random_lp_mps, variants } from '../wasm/glsolve_web.js';
import { GlsolveError, loadError } from './errors.js';

let loaded = null;

/**
 * Fetches and instantiates the wasm module once per thread. The default URL is written as the
 * literal `new URL('…', import.meta.url)`, the form bundlers (Vite, webpack 5, Rollup) emit the
 * file for and rewrite; `wasmUrl` (absolute: the Solver resolved it against the page) overrides it.
 */
function load(wasmUrl) {
  loaded ??= (async () => {
    const url = wasmUrl ? new URL(wasmUrl) : new URL('../wasm/glsolve_web_bg.wasm', import.meta.url);
    const fail = (why) => loadError('wasm module', url, why, 'wasmUrl');
    let response;
    try {
      response = await fetch(url);
    } catch (e) {
      throw fail(`the fetch failed (${e.message})`);
    }
    if (!response.ok) throw fail(`HTTP ${response.status} ${response.statusText}`.trim());
    try {
      const exports = await init({ module_or_path: response });
      memory = exports.memory;
      return exports;
    } catch (e) {
      throw fail(`it does not compile as glsolve's wasm module (${e.message})`);
    }
  })();
  // A failed load is not kept: the next solver in this thread tries again.
  loaded.catch(() => { loaded = null; });
  return loaded;
}

/** Bytes of the wasm module's memory now (it only grows: the most a call has needed so far). */
export const wasmBytes = () => (loaded === null ? 0 : memory?.buffer.byteLength ?? 0);
let memory = null;

const ATTRIBUTES = { alpha: false, antialias: false, depth: false, stencil: false, preserveDrawingBuffer: false };

/** Makes getExtension and getSupportedExtensions of `gl` deny `names` (to try the fallback). */
function hideExtensions(gl, names) {
  const hidden = new Set(names);
  const getExtension = gl.getExtension.bind(gl);
  const supported = gl.getSupportedExtensions.bind(gl);
  gl.getExtension = (name) => (hidden.has(name) ? null : getExtension(name));
  gl.getSupportedExtensions = () => (supported() ?? []).filter((n) => !hidden.has(n));
}

/** The frame buffers and other typed arrays of `value`, to transfer rather than copy. */
export function transferables(value) {
  const out = [];
  const add = (v) => { if (ArrayBuffer.isView(v) && !out.includes(v.buffer)) out.push(v.buffer); };
  if (ArrayBuffer.isView(value)) add(value);
  else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) {
      add(v);
      if (v && typeof v === 'object' && !ArrayBuffer.isView(v)) Object.values(v).forEach(add);
    }
  }
  return out;
}

export class Engine {
  /** @param {{webgl?: boolean, disableExtensions?: string[], powerPreference?: string, wasmUrl?: string|URL}} options */
  static async create(options = {}) {
    await load(options.wasmUrl);
    const e = new Engine(options);
    e.app = e.makeApp();
    return e;
  }

  constructor(options) {
    this.options = options;
    this.gl = null;
    this.app = null;
    this.replays = new Map();
    this.nextReplay = 1;
    this.loseAtIteration = null;
  }

  makeApp() {
    const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;
    this.gl = null;
    if (this.options.webgl === false) return new App(undefined, 'WebGL was turned off (webgl: false)', ua);
    let why = '';
    try {
      const canvas = typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(1, 1)
        : (typeof document !== 'undefined' ? document.createElement('canvas') : null);
      if (!canvas) why = 'no OffscreenCanvas in this worker';
      else this.gl = canvas.getContext('webgl2', { ...ATTRIBUTES, powerPreference: this.options.powerPreference ?? 'high-performance' });
      if (canvas && !this.gl) why = 'getContext("webgl2") returned null: WebGL2 is disabled or no driver is accepted';
    } catch (e) {
      why = `getContext("webgl2") threw: ${e.message}`;
    }
    if (this.gl && this.options.disableExtensions?.length) hideExtensions(this.gl, this.options.disableExtensions);
    return new App(this.gl ?? undefined, why, ua);
  }

  /** A lost context never comes back: drop it (and what was recorded on it), make a new one. */
  renew() {
    if (!this.app.context_lost()) return;
    this.releaseAll();
    this.app.free();
    this.app = this.makeApp();
  }

  releaseAll() {
    for (const r of this.replays.values()) r.free();
    this.replays.clear();
  }

  info() {
    const i = this.app.info();
    return { ...i, variants: JSON.parse(variants()), contextLost: this.app.context_lost() };
  }

  /**
   * Runs `op`; `onRow(row)` sees each LP iteration row and returns true to stop the solve.
   * @param {string} op
   * @param {any[]} args
   * @param {(row: object) => boolean} [onRow]
   */
  call(op, args, onRow = () => false) {
    if (op !== 'dispose' && op !== 'stats') this.renew();
    const a = this.app;
    switch (op) {
      case 'info': return this.info();
      case 'stats': return { liveTextures: a.live_textures(), recordings: this.replays.size, wasmBytes: wasmBytes() };
      case 'checkLp': { const [m, n, options] = args; a.check_lp(m, n, options); return null; }
      case 'solveLp': {
        const [model, options] = args;
        const lose = this.loseAtIteration;
        this.loseAtIteration = null;
        return a.solve_lp(model, options, (row) => {
          if (lose !== null && row.iteration >= lose) this.loseContext();
          return onRow(row);
        });
      }
      case 'cholesky': { const [c, variant, backend] = args; return this.shaped(a.cholesky(c.rows, c.data, variant, backend), 'L', c.rows, c.rows); }
      case 'solve': { const [m, b, backend] = args; return a.solve(m.rows, m.data, b, backend); }
      case 'lstsq': { const [m, b, w, backend] = args; return a.lstsq(m.rows, m.cols, m.data, b, w, backend); }
      case 'readMps': return a.read_mps(args[0]);
      case 'randomLp': { const [m, seed, format] = args; return format === 'mps' ? random_lp_mps(m, seed) : a.random_lp(m, seed); }
      case 'watch': {
        const [spec] = args;
        const r = spec.mps !== undefined ? a.watch_mps(spec.mps, spec.variant ?? 'blocked-16') : a.watch(JSON.stringify(spec));
        const id = this.nextReplay++;
        this.replays.set(id, r);
        return { id, length: r.len(), bitIdentical: r.bit_identical(), seconds: r.seconds(), passes: JSON.parse(r.passes()) };
      }
      case 'frame': {
        const [id, k, w, h] = args;
        const r = this.replays.get(id);
        if (!r) throw new GlsolveError('invalid-argument', `recording ${id} was released`);
        const bytes = r.frame(k, w, h);
        return new Uint8ClampedArray(bytes.buffer, bytes.byteOffset, bytes.length);
      }
      case 'release': { const r = this.replays.get(args[0]); r?.free(); this.replays.delete(args[0]); return null; }
      case 'time': return a.time(JSON.stringify(args[0]), args[1]);
      case 'selftestKernels': return JSON.parse(a.selftest_kernels());
      case 'benchLp': return JSON.parse(a.bench_lp(args[0], args[1], args[2], args[3] ?? ''));
      case 'benchCholesky': return a.bench_cholesky(args[0], args[1], args[2]);
      case 'loseContext': {
        const at = args[0]?.afterIterations;
        if (at === undefined) this.loseContext(); else this.loseAtIteration = at;
        return null;
      }
      case 'dispose': return this.dispose();
      default: throw new GlsolveError('internal', `unknown operation ${op}`);
    }
  }

  shaped(result, key, rows, cols) {
    result[key] = { rows, cols, data: result[key] };
    return result;
  }

  loseContext() {
    this.gl?.getExtension('WEBGL_lose_context')?.loseContext();
  }

  /** Frees every recording and the context; the textures alive just before are counted. */
  dispose() {
    this.releaseAll();
    const liveTextures = this.app.live_textures();
    this.app.free();
    this.app = null;
    // Releases the context's memory now rather than at garbage collection.
    this.loseContext();
    this.gl = null;
    return { liveTextures };
  }
}
