// The Solver: promises over an Engine that lives in a dedicated worker (default) or in the
// calling thread. Calls run one at a time, in order.
//
// Abort. A worker busy in a synchronous wasm solve reads no messages, so an AbortSignal reaches
// it one of two ways:
//  - 'interrupt' (where the page is cross-origin isolated, i.e. SharedArrayBuffer exists): the
//    page writes the call's id into a shared word; the worker reads it at every iteration row
//    and the solve stops there. The promise rejects when the worker has stopped (the error's
//    `iteration` says where); context, compiled kernels and the worker stay.
//  - 'terminate' (anywhere): the worker is terminated at once and the promise rejects; the next
//    call starts a fresh worker (wasm instantiation and a new context: some 100 ms).
// Dense calls have no iterations: aborting one always terminates.
import { Engine } from './engine.js';
import { GlsolveError, asError, fromPlain, loadError } from './errors.js';

/** The error an aborted call rejects with (`iteration`: where an LP solve stopped). */
export const aborted = (signal, iteration) => {
  const reason = signal?.reason;
  const why = reason instanceof Error ? `: ${reason.message}` : (reason !== undefined ? `: ${String(reason)}` : '');
  return new GlsolveError('aborted', `the call was aborted${why}`, { iteration, cause: reason });
};

/** The ArrayBuffers under `value`'s typed arrays (arrays and plain objects searched). */
export function buffers(value, out = []) {
  if (ArrayBuffer.isView(value)) {
    if (!out.includes(value.buffer) && !(typeof SharedArrayBuffer !== 'undefined' && value.buffer instanceof SharedArrayBuffer)) out.push(value.buffer);
  } else if (Array.isArray(value)) {
    for (const v of value) buffers(v, out);
  } else if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const v of Object.values(value)) buffers(v, out);
  }
  return out;
}

/** Runs the engine in a dedicated worker. */
export class WorkerTransport {
  constructor(options) {
    this.options = options;
    this.worker = null;
    this.starting = null;
    this.nextId = 1;
    this.current = null;
    /** Workers started so far (a terminate makes the next call start another). */
    this.started = 0;
    const isolated = typeof crossOriginIsolated !== 'undefined' && crossOriginIsolated && typeof SharedArrayBuffer !== 'undefined';
    if (options.abort === 'interrupt' && !isolated) {
      throw new GlsolveError('invalid-argument', 'abort: "interrupt" needs SharedArrayBuffer, which a page has only when cross-origin isolated (COOP: same-origin, COEP: require-corp)');
    }
    this.abortMode = options.abort === 'terminate' || !isolated ? 'terminate' : 'interrupt';
    this.abortWord = this.abortMode === 'interrupt' ? new Int32Array(new SharedArrayBuffer(4)) : null;
  }

  /** Starts a worker (once; again after a terminate); resolves to the engine's info. */
  start() {
    this.starting ??= new Promise((resolve, reject) => {
      const { workerUrl } = this.options;
      // The literal `new Worker(new URL('./worker.js', import.meta.url), {type: 'module'})` is
      // the form Vite, webpack 5 and Rollup recognise: they bundle worker.js with its imports
      // into a file of its own and put that file's URL here. Kept literal on purpose.
      const worker = workerUrl
        ? new Worker(workerUrl, { type: 'module', name: 'glsolve' })
        : new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'glsolve' });
      this.worker = worker;
      this.started += 1;
      let heard = false;
      const id = this.nextId++;
      this.current = { id, resolve, reject, onRow: null };
      worker.onmessage = (e) => { heard = true; this.receive(worker, e.data); };
      worker.onerror = (e) => {
        e.preventDefault?.();
        // Before the worker's first message the error is its script (or an import of it) not
        // loading; browsers give no reason and, for the default, the URL is the bundler's.
        const error = heard
          ? new GlsolveError('worker', `the worker failed: ${e.message || 'no reason given'}`)
          : loadError('worker script', workerUrl ?? "src/worker.js beside the package's src/solver.js (or where your bundler put it)",
            `${e.message || 'the browser gives no reason (see its network panel: a 404, a wrong MIME type, or an import of it that failed)'}`, 'workerUrl');
        this.fail(worker, error);
      };
      worker.onmessageerror = () => this.fail(worker, new GlsolveError('worker', 'a message from the worker could not be read'));
      const { workerUrl: _u, abort, worker: _w, ...engineOptions } = this.options;
      worker.postMessage({ id, op: 'start', args: [engineOptions, this.abortWord?.buffer ?? null] });
    }).catch((e) => {
      // A worker that could not start is not kept: the next call tries again.
      this.kill();
      throw e;
    });
    return this.starting;
  }

  receive(worker, msg) {
    const c = this.current;
    if (worker !== this.worker || !c || msg.id !== c.id) return;
    if (msg.row) {
      c.lastIteration = msg.row.iteration;
      try { c.onRow?.(msg.row); } catch (e) { this.abort(c, { thrown: e }); }
      return;
    }
    this.current = null;
    // After an internal error (a trap in the wasm) the module's state is not to be trusted: the
    // next call gets a fresh worker.
    if (msg.error?.code === 'internal') this.kill();
    if (c.stopping) c.reject(c.stopping.thrown ?? aborted(c.signal, msg.value?.iterations ?? c.lastIteration));
    else if (msg.error) c.reject(fromPlain(msg.error));
    else c.resolve(msg.value);
  }

  /** The worker died: the running call rejects, the next call starts another. */
  fail(worker, error) {
    if (worker !== this.worker) return;
    this.kill();
    const c = this.current;
    this.current = null;
    c?.reject(error);
  }

  kill() {
    this.worker?.terminate();
    this.worker = null;
    this.starting = null;
  }

  /** Runs `op` in the worker: resolves to its value. */
  async run(op, args, { onRow, signal, interruptible = false } = {}) {
    await this.start();
    if (signal?.aborted) throw aborted(signal);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => this.abort(c, {});
      const done = () => signal?.removeEventListener('abort', onAbort);
      const c = {
        id, onRow, signal, interruptible, lastIteration: undefined, stopping: null,
        resolve: (v) => { done(); resolve(v); },
        reject: (e) => { done(); reject(e); },
      };
      this.current = c;
      signal?.addEventListener('abort', onAbort, { once: true });
      // The arguments' typed arrays are the package's own copies (inputs.js): moved, not cloned,
      // so that a large model costs the page no copy.
      this.worker.postMessage({ id, op, args }, buffers(args));
    });
  }

  /**
   * Stops call `c`: on the signal's abort (`{}`), or because its onIteration threw
   * (`{thrown}`: the call rejects with what was thrown).
   */
  abort(c, why) {
    if (this.current !== c || c.stopping) return;
    if (this.abortMode === 'interrupt' && c.interruptible) {
      // The worker stops at its next row and answers; receive() turns the answer into the error.
      c.stopping = why;
      Atomics.store(this.abortWord, 0, c.id);
      return;
    }
    this.kill();
    this.current = null;
    c.reject(why.thrown ?? aborted(c.signal, c.lastIteration));
  }

  /** Frees everything in the worker and ends it; resolves to what was alive before. */
  async dispose() {
    if (this.current) {
      const c = this.current;
      this.kill();
      this.current = null;
      c.reject(new GlsolveError('disposed', 'the solver was disposed during the call'));
      return { liveTextures: null, terminated: true };
    }
    if (!this.worker) return { liveTextures: null, terminated: true };
    const counts = await this.run('dispose', []);
    this.kill();
    return { ...counts, terminated: true };
  }
}

/** Runs the engine in the calling thread (each call blocks it for its duration). */
export class LocalTransport {
  constructor(options) {
    this.options = options;
    this.engine = null;
    this.abortMode = 'interrupt';
    this.started = 0;
  }

  async start() {
    const { workerUrl, abort, worker, ...engineOptions } = this.options;
    this.engine ??= await Engine.create(engineOptions);
    return this.engine.info();
  }

  async run(op, args, { onRow, signal } = {}) {
    await this.start();
    // One turn of the event loop first: the caller's own code after the call runs before the
    // thread blocks, as it would with a worker.
    await new Promise((r) => setTimeout(r, 0));
    if (signal?.aborted) throw aborted(signal);
    let last;
    let thrown;
    let value;
    try {
      value = this.engine.call(op, args, (row) => {
        last = row.iteration;
        try {
          onRow?.(row);
        } catch (e) {
          thrown = { e };
          return true;
        }
        return signal?.aborted === true;
      });
    } catch (e) {
      throw asError(e);
    }
    if (thrown) throw thrown.e;
    if (signal?.aborted) throw aborted(signal, value?.iterations ?? last);
    return value;
  }

  async dispose() {
    if (!this.engine) return { liveTextures: 0, terminated: false };
    const counts = this.engine.call('dispose', []);
    this.engine = null;
    return { ...counts, terminated: false };
  }
}
