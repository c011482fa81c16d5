// The one error class every failure rejects with: a `code` to switch on, the library's message,
// and for some codes a detail (`line` of an MPS file, `iteration` where an aborted solve stopped,
// `url` of a file that could not be loaded).

/** @type {readonly string[]} */
export const CODES = Object.freeze([
  'parse', 'invalid-model', 'invalid-argument', 'too-large', 'no-webgl2', 'no-float-targets',
  'context-lost', 'aborted', 'not-positive-definite', 'singular', 'rank-deficient', 'gpu',
  'disposed', 'worker', 'load', 'internal',
]);

export class GlsolveError extends Error {
  /**
   * @param {string} code one of CODES
   * @param {string} message
   * @param {{line?: number, iteration?: number, url?: string, cause?: unknown}} [detail]
   */
  constructor(code, message, detail = {}) {
    super(message, detail.cause === undefined ? undefined : { cause: detail.cause });
    // Aborts follow the DOM's convention, so that `e.name === 'AbortError'` checks work too.
    this.name = code === 'aborted' ? 'AbortError' : 'GlsolveError';
    this.code = CODES.includes(code) ? code : 'internal';
    if (detail.line !== undefined) this.line = detail.line;
    if (detail.iteration !== undefined) this.iteration = detail.iteration;
    if (detail.url !== undefined) this.url = detail.url;
  }
}

/** What crosses from a worker: the fields of an error, never the object. */
export function toPlain(e) {
  if (e instanceof GlsolveError || (e && typeof e.code === 'string' && CODES.includes(e.code))) {
    return { code: e.code, message: e.message, line: e.line, iteration: e.iteration, url: e.url };
  }
  // A trap in the wasm (a panic: its message went to the console) or any other throw.
  const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return { code: 'internal', message: `glsolve stopped on an internal error (${message})` };
}

/** The error `toPlain` described, as a GlsolveError. */
export function fromPlain(p) {
  return new GlsolveError(p.code, p.message, { line: p.line ?? undefined, iteration: p.iteration ?? undefined, url: p.url ?? undefined });
}

/** Any thrown value as a GlsolveError (a value the caller's own callback threw is kept as is). */
export function asError(e) {
  if (e instanceof GlsolveError) return e;
  return fromPlain(toPlain(e));
}

export const invalid = (message) => new GlsolveError('invalid-argument', message);

/**
 * A file of the package that could not be loaded: names the URL and the option that says where
 * the file is served.
 */
export const loadError = (what, url, why, option) => new GlsolveError(
  'load',
  `glsolve's ${what} could not be loaded from ${url}: ${why}. Serve the package's file and pass its URL as createSolver({ ${option} })`,
  { url: String(url) },
);

/**
 * A model or matrix larger than the solver can hold: refused before anything is copied or sent.
 */
export const tooLarge = (message) => new GlsolveError('too-large', message);
