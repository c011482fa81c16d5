// glsolve for the web: LP, Cholesky, linear solves and least squares on WebGL2, in a worker.
// The API is described in index.d.ts and README.md.
import { GlsolveError, CODES, invalid } from './src/errors.js';
import { dense, floats, known, model as copyModel, modelShape } from './src/inputs.js';
import { checkMemory, denseBytes, lpBytes, lpShape } from './src/limits.js';
import { LocalTransport, WorkerTransport, aborted } from './src/solver.js';

export { GlsolveError, CODES };

const SOLVER_OPTIONS = ['worker', 'abort', 'webgl', 'disableExtensions', 'powerPreference', 'workerUrl', 'wasmUrl'];
const LP_OPTIONS = ['backend', 'tolerance', 'maxIterations', 'timeLimit', 'onIteration', 'signal'];
const BACKENDS = ['auto', 'gpu', 'cpu'];

function denseBackend(b = 'auto') {
  if (!BACKENDS.includes(b)) throw invalid(`backend "${b}" is not one of ${BACKENDS.join(', ')}`);
  return b;
}

/** A solver: one WebGL2 context (in a dedicated worker unless `worker: false`). */
export class Solver {
  #transport;
  #tail = Promise.resolve();
  #disposed = false;

  /** @internal use createSolver */
  constructor(transport) {
    this.#transport = transport;
  }

  /** How a signal's abort reaches a running LP solve here: 'interrupt' or 'terminate'. */
  get abortMode() {
    return this.#transport.abortMode;
  }

  /** Whether the engine runs in a worker. */
  get inWorker() {
    return this.#transport instanceof WorkerTransport;
  }

  /**
   * Queues `op`: calls run one at a time, in the order they were made. A call whose signal
   * aborts while it waits rejects at once and never runs.
   */
  #call(op, args, hooks = {}) {
    if (this.#disposed) return Promise.reject(new GlsolveError('disposed', `${op}: the solver was disposed`));
    const { signal } = hooks;
    if (signal?.aborted) return Promise.reject(aborted(signal));
    let started = false;
    let onAbort = null;
    const waiting = new Promise((_, reject) => {
      onAbort = () => { if (!started) reject(aborted(signal)); };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const run = async () => {
      started = true;
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return undefined;
      if (this.#disposed) throw new GlsolveError('disposed', `${op}: the solver was disposed`);
      // What must pass before the call's data is copied and sent, in the call's turn: checks,
      // some in the engine; `prepare` resolves to the arguments.
      const final = hooks.prepare ? await hooks.prepare((o, a) => this.#transport.run(o, a, {})) : args;
      return this.#transport.run(op, final, hooks);
    };
    const result = this.#tail.then(run, run);
    this.#tail = result.catch(() => {});
    return signal ? Promise.race([result, waiting]) : result;
  }

  /** The context's capability record (a new context's after a context loss). */
  info() {
    return this.#call('info', []);
  }

  /**
   * Textures alive on the context and recordings held (between calls: 0 textures), and the
   * workers started so far (an abort by terminate makes the next call start another).
   */
  async stats() {
    const s = await this.#call('stats', []);
    return { ...s, workers: this.#transport.started };
  }

  solveLp(model, options = {}) {
    try {
      const o = known(options, LP_OPTIONS, 'solveLp');
      const { onIteration, signal, ...rest } = o;
      if (onIteration !== undefined && typeof onIteration !== 'function') throw invalid('solveLp: onIteration must be a function');
      if (signal !== undefined && !(signal instanceof AbortSignal)) throw invalid('solveLp: signal must be an AbortSignal');
      const json = JSON.stringify(rest);
      const text = typeof modelShape(model) === 'string';
      // Sizes first, from the arrays' lengths: nothing is copied, sent or built for a model whose
      // standard form, slack columns included, exceeds the context's textures on the gpu backend
      // (the engine's check: the library's formulas, on the sizes alone), nor for one the wasm
      // module cannot hold.
      const prepare = async (engine) => {
        if (!text) {
          const shape = lpShape(model);
          if (rest.backend === 'gpu') await engine('checkLp', [shape.m, shape.n, json]);
          checkMemory(`an LP of ${shape.rows} rows and ${shape.cols} columns (${shape.kind})`, lpBytes(shape, rest.backend ?? 'auto'));
        }
        return [copyModel(model), json];
      };
      return this.#call('solveLp', [], { onRow: onIteration, signal, interruptible: true, prepare });
    } catch (e) {
      return Promise.reject(e);
    }
  }

  cholesky(matrix, options = {}) {
    try {
      const { variant = 'triangle-pair', backend, signal } = known(options, ['variant', 'backend', 'signal'], 'cholesky');
      const c = dense(matrix, 'C', (r, k) => checkMemory(`a ${r}×${k} Cholesky`, denseBytes(r, k, 6)));
      if (c.rows !== c.cols) throw invalid(`cholesky: C is ${c.rows}×${c.cols}, but it must be square`);
      return this.#call('cholesky', [c, variant, denseBackend(backend)], { signal });
    } catch (e) {
      return Promise.reject(e);
    }
  }

  solve(matrix, b, options = {}) {
    try {
      const { backend, signal } = known(options, ['backend', 'signal'], 'solve');
      const a = dense(matrix, 'A', (r, k) => checkMemory(`a ${r}×${k} solve`, denseBytes(r, k, 6)));
      if (a.rows !== a.cols) throw invalid(`solve: A is ${a.rows}×${a.cols}, but it must be square`);
      return this.#call('solve', [a, floats(b, 'b') ?? new Float64Array(), denseBackend(backend)], { signal });
    } catch (e) {
      return Promise.reject(e);
    }
  }

  lstsq(matrix, b, options = {}) {
    try {
      const { weights, backend, signal } = known(options, ['weights', 'backend', 'signal'], 'lstsq');
      const a = dense(matrix, 'A', (r, k) => checkMemory(`a ${r}×${k} least-squares problem`, denseBytes(r, k, 8)));
      const args = [a, floats(b, 'b') ?? new Float64Array(), floats(weights, 'weights'), denseBackend(backend)];
      return this.#call('lstsq', args, { signal });
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** The papers' random dense LP: m rows, n = 4m (as arrays, or as MPS text). */
  randomLp(m, { seed = 7, format = 'arrays' } = {}) {
    if (!Number.isInteger(m) || m < 1) return Promise.reject(invalid(`randomLp: m must be a whole number ≥ 1 (got ${m})`));
    if (!['arrays', 'mps'].includes(format)) return Promise.reject(invalid(`randomLp: format "${format}" is not arrays or mps`));
    return this.#call('randomLp', [m, seed, format]);
  }

  /** The model of MPS text as arrays (A in triplets): to inspect a file or hand it to another solver. */
  readMps(text) {
    if (typeof text !== 'string') return Promise.reject(invalid('readMps: the MPS file\'s text is a string'));
    return this.#call('readMps', [text]);
  }

  /**
   * Records a run pass by pass (the page's viewer): `spec` is {algorithm, variant, m, n, packed,
   * direction, seed} or {mps, variant}. Resolves to a Recording; release() frees it.
   */
  async watch(spec) {
    const r = await this.#call('watch', [spec]);
    const call = (op, args) => this.#call(op, args);
    return {
      length: r.length, bitIdentical: r.bitIdentical, seconds: r.seconds, passes: r.passes,
      frame: (k, width, height) => call('frame', [r.id, k, width, height]),
      release: () => call('release', [r.id]),
    };
  }

  /** Median seconds of `reps` runs of `spec` without the viewer (after a warm-up). */
  time(spec, reps = 3) {
    return this.#call('time', [spec, reps]);
  }

  /**
   * Loses the WebGL2 context (WEBGL_lose_context), now or once a later LP solve has logged
   * `afterIterations` rows: to try how an application handles `context-lost`.
   */
  simulateContextLoss(options = {}) {
    return this.#call('loseContext', [known(options, ['afterIterations'], 'simulateContextLoss')]);
  }

  /** The in-browser test suite's kernel half (the page's ?selftest). */
  _selftestKernels() {
    return this.#call('selftestKernels', []);
  }

  /** The benchmark's timings (the page's ?bench); `variant` '' is the gpu backend's default. */
  _benchLp(m, seed, reps, variant = '') {
    return this.#call('benchLp', [m, seed, reps, variant]);
  }

  _benchCholesky(variant, m, reps) {
    return this.#call('benchCholesky', [variant, m, reps]);
  }

  /**
   * Frees every texture and recording, loses the context and ends the worker. Calls made after
   * reject with `disposed`; a call still running rejects so too. Resolves to
   * {liveTextures, terminated}: the textures that were alive when everything was released.
   */
  async dispose() {
    if (this.#disposed) return { liveTextures: 0, terminated: true };
    this.#disposed = true;
    return this.#transport.dispose();
  }
}

/** Makes a solver and its context (in a worker: the worker, the wasm module and the context); resolves once it is ready. */
export async function createSolver(options = {}) {
  const o = known(options, SOLVER_OPTIONS, 'createSolver');
  if (o.abort !== undefined && !['auto', 'interrupt', 'terminate'].includes(o.abort)) {
    throw invalid(`createSolver: abort "${o.abort}" is not auto, interrupt or terminate`);
  }
  if (o.disableExtensions !== undefined && !(Array.isArray(o.disableExtensions) && o.disableExtensions.every((x) => typeof x === 'string'))) {
    throw invalid('createSolver: disableExtensions must be an array of extension names');
  }
  // URLs the caller gives are resolved against the page (or the caller's worker), not against
  // the package's worker.
  const base = typeof document !== 'undefined' ? document.baseURI : self.location?.href;
  const resolve = (u, name) => {
    if (u === undefined) return undefined;
    try {
      return new URL(String(u), base).href;
    } catch {
      throw invalid(`createSolver: ${name} "${u}" is not a URL`);
    }
  };
  const engineOptions = { ...o, workerUrl: resolve(o.workerUrl, 'workerUrl'), wasmUrl: resolve(o.wasmUrl, 'wasmUrl') };
  const useWorker = o.worker !== false;
  if (useWorker && typeof Worker === 'undefined') throw new GlsolveError('worker', 'this environment has no Worker; pass worker: false');
  const transport = useWorker ? new WorkerTransport(engineOptions) : new LocalTransport(engineOptions);
  await transport.start();
  return new Solver(transport);
}
