// What the wasm module can hold, checked on the caller's thread from the sizes alone — before a
// model is copied, sent to the worker or built — so that a model too large for wasm32 is refused
// at once with `too-large` instead of trapping in the allocator after seconds of work.
//
// wasm32 has 4 GiB of linear memory, and Rust's allocator there refuses any single allocation
// of 2 GiB or more (isize::MAX: "capacity overflow"). The estimates below count the copies the
// package's paths hold at once (web/src/matrix.rs, model.rs, dense.rs and the library's standard
// form and backends). They are upper bounds of what was measured (a fresh worker's memory after
// one solve of the papers' dense LP, Chromium: m = 512, 46–56 MiB against 126 MiB estimated;
// m = 1024, 178–210 MiB against 307 MiB, on the cpu, hybrid and gpu backends), which the API
// suite checks again (`stats().wasmBytes`).
import { tooLarge } from './errors.js';

/** wasm32's linear memory: 4 GiB. */
export const WASM_MEMORY = 2 ** 32;
/** The largest single allocation Rust makes on wasm32 (isize::MAX bytes). */
export const MAX_ALLOCATION = 2 ** 31 - 1;
/** The module's own data, stack, compiled kernels' strings and allocator slack. */
export const BASELINE = 64 * 2 ** 20;

const GIB = 2 ** 30;
const gib = (b) => `${(b / GIB).toFixed(1)} GiB`;

/**
 * The sizes of an LP given as arrays, read without copying: `rows`, `cols`, `entries` (the
 * values A's form carries: rows·cols for dense), and the standard form's size at most — `m` the
 * rows with a finite bound (each kept; free rows are dropped), `n` the columns (a free one split
 * in two, a fixed one eliminated) plus one slack per kept row that is not an equality.
 */
export function lpShape(model) {
  const a = model.A;
  const rows = a.rows;
  const cols = a.cols;
  const kind = 'data' in a ? 'dense' : 'rowPtr' in a ? 'csr' : 'coo';
  const entries = kind === 'dense' ? rows * cols : (a.values?.length ?? 0);
  const at = (v, i, d) => (v === undefined || v === null || i >= v.length ? d : Number(v[i]));
  let m = 0;
  let slacks = 0;
  for (let i = 0; i < rows; i++) {
    const lo = at(model.rowLower, i, -Infinity);
    const up = at(model.rowUpper, i, Infinity);
    if (lo === -Infinity && up === Infinity) continue;
    m += 1;
    if (lo !== up) slacks += 1;
  }
  let n = slacks;
  let free = 0;
  for (let j = 0; j < cols; j++) {
    const lo = at(model.colLower, j, 0);
    const up = at(model.colUpper, j, Infinity);
    if (lo === up) continue;
    const isFree = lo === -Infinity && up === Infinity;
    free += isFree ? 1 : 0;
    n += isFree ? 2 : 1;
  }
  return { kind, rows, cols, entries, m, n, free };
}

/**
 * Bytes an LP of `shape` needs in the wasm module at its peak, and its largest single array.
 * `backend` is the one asked for: the gpu and hybrid backends (and auto, which may pick hybrid)
 * hold the standard form's A dense in double and single precision; the cpu backend does so for a
 * dense model.
 */
export function lpBytes(shape, backend) {
  const { kind, rows, cols, entries: e, m, n, free } = shape;
  // The arrays copied into the module, then A in compressed columns (12 bytes an entry on
  // wasm32); sparse forms go through (row, col, value) triplets and their sorted copy.
  const input = kind === 'dense' ? 8 * rows * cols : kind === 'csr' ? 8 * (rows + 1 + 2 * e) : 24 * e;
  const build = kind === 'dense' ? 12 * e : 44 * e;
  // The solve: the model's A, the standard form's (a free column's entries twice, a slack's
  // one), the dense copies, and the normal matrix with its factor.
  const freeEntries = kind === 'dense' ? rows * free : (free > 0 ? e : 0);
  const standard = 12 * e + 12 * (e + freeEntries + m);
  const dense = backend !== 'cpu' || kind === 'dense' ? 12 * m * n : 0;
  const normal = dense > 0 ? 16 * m * m : 0;
  const vectors = 8 * 40 * (rows + cols + m + n);
  const peak = BASELINE + input + build + standard + dense + normal + vectors;
  const largest = Math.max(kind === 'dense' ? 8 * rows * cols : 16 * e, dense > 0 ? 8 * m * n : 0, 8 * m * m);
  return { peak, largest };
}

/** Refuses (throws `too-large`) what wasm32 cannot hold: `need` as lpBytes/denseBytes give it. */
export function checkMemory(what, { peak, largest }) {
  if (largest > MAX_ALLOCATION) {
    throw tooLarge(`${what} needs one array of ${gib(largest)} in the wasm module, and wasm32 allocates at most 2 GiB at once (refused before anything was copied)`);
  }
  if (peak > WASM_MEMORY) {
    throw tooLarge(`${what} needs about ${gib(peak)} in the wasm module, more than wasm32's 4 GiB of memory (refused before anything was copied)`);
  }
}

/**
 * Bytes a dense call holds at its peak: the matrix copied in, its nalgebra copy and the
 * factorization or the answer (`copies` matrices of rows×cols in all, counted in web/src/dense.rs).
 */
export function denseBytes(rows, cols, copies) {
  const one = 8 * rows * cols;
  return { peak: BASELINE + copies * one + 8 * 40 * (rows + cols), largest: one };
}
