// What callers pass, checked for its shape and turned into Float64Arrays before it leaves the
// caller's thread. The values themselves (NaN, indices out of range, bounds that cross) are
// checked by the library, which names the field and the index.
import { GlsolveError, invalid } from './errors.js';

const isArrayLike = (v) => Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));

/**
 * `v` as a Float64Array of the package's own (`undefined` stays undefined): always a copy, so
 * that it can be moved to the worker without detaching the caller's array. `code` is the
 * error's code.
 */
export function floats(v, name, code = 'invalid-argument') {
  if (v === undefined || v === null) return undefined;
  if (v instanceof Float64Array) return v.slice();
  if (isArrayLike(v)) return Float64Array.from(v, Number);
  throw new GlsolveError(code, `${name} must be an array or a typed array of numbers (got ${typeof v})`);
}

function whole(v, name, code) {
  if (!Number.isInteger(v) || v < 0) throw new GlsolveError(code, `${name} must be a whole number ≥ 0 (got ${v})`);
  return v;
}

/**
 * A dense matrix: `{rows, cols, data}` (row-major) or an array of rows. `check(rows, cols)` runs
 * on the sizes before anything is copied (it throws what is too large).
 * @returns {{rows: number, cols: number, data: Float64Array}}
 */
export function dense(m, name, check = () => {}) {
  if (Array.isArray(m) && m.every(Array.isArray)) {
    const cols = m.length ? m[0].length : 0;
    const bad = m.findIndex((r) => r.length !== cols);
    if (bad >= 0) throw invalid(`${name}: row ${bad} has ${m[bad].length} entries, row 0 has ${cols}`);
    check(m.length, cols);
    return { rows: m.length, cols, data: Float64Array.from(m.flat(), Number) };
  }
  if (!m || typeof m !== 'object') throw invalid(`${name} must be {rows, cols, data} (row-major) or an array of rows`);
  const rows = whole(m.rows, `${name}.rows`, 'invalid-argument');
  const cols = whole(m.cols, `${name}.cols`, 'invalid-argument');
  check(rows, cols);
  const data = floats(m.data, `${name}.data`);
  if (!data) throw invalid(`${name} has no data`);
  if (data.length !== rows * cols) {
    throw invalid(`${name}.data has ${data.length} entries, but ${name} is ${rows}×${cols} (row-major: ${rows * cols})`);
  }
  return { rows, cols, data };
}

const A_FORMS = 'A must be dense {rows, cols, data}, CSR {rows, cols, rowPtr, colIdx, values} or triplets {rows, cols, row, col, values}';

/** The constraint matrix in one of its three forms, its kind named for the wasm side. */
function constraintMatrix(a) {
  const code = 'invalid-model';
  const rows = whole(a.rows, 'A.rows', code);
  const cols = whole(a.cols, 'A.cols', code);
  const f = (k) => floats(a[k], `A.${k}`, code);
  if ('data' in a) return { kind: 'dense', rows, cols, data: f('data') };
  if ('rowPtr' in a) return { kind: 'csr', rows, cols, rowPtr: f('rowPtr'), colIdx: f('colIdx'), values: f('values') };
  return { kind: 'coo', rows, cols, row: f('row'), col: f('col'), values: f('values') };
}

const MODEL_KEYS = ['sense', 'c', 'A', 'rowLower', 'rowUpper', 'colLower', 'colUpper', 'objectiveConstant'];

/**
 * Checks an arrays model's shape (fields, A's form and sizes, row bounds given) without copying
 * anything; MPS text passes as it is.
 */
export function modelShape(m) {
  if (typeof m === 'string') return m;
  if (!m || typeof m !== 'object') throw new GlsolveError('invalid-model', 'a model is MPS text or an object {c, A, rowLower, rowUpper, …}');
  const unknown = Object.keys(m).filter((k) => !MODEL_KEYS.includes(k));
  if (unknown.length) throw new GlsolveError('invalid-model', `unknown model field ${unknown.map((k) => `"${k}"`).join(', ')} (fields: ${MODEL_KEYS.join(', ')})`);
  const a = m.A;
  if (!a || typeof a !== 'object') throw new GlsolveError('invalid-model', 'the model has no constraint matrix A');
  whole(a.rows, 'A.rows', 'invalid-model');
  whole(a.cols, 'A.cols', 'invalid-model');
  if (!('data' in a || 'rowPtr' in a || 'row' in a || 'col' in a)) throw new GlsolveError('invalid-model', A_FORMS);
  if (m.c === undefined || m.c === null) throw new GlsolveError('invalid-model', 'the model has no objective c (one cost per column of A)');
  if (a.rows > 0 && (m.rowLower ?? null) === null && (m.rowUpper ?? null) === null) {
    throw new GlsolveError('invalid-model', `the model has no row bounds: give rowLower, rowUpper or both (one value per row of A, ${a.rows}; ±Infinity for a missing side, equal values for an equality)`);
  }
  return m;
}

/** An LP as the worker takes it: MPS text, or the arrays object copied into Float64Arrays. */
export function model(m) {
  if (typeof m === 'string') return m;
  modelShape(m);
  const f = (k) => floats(m[k], k, 'invalid-model');
  return {
    sense: m.sense, c: f('c'), A: constraintMatrix(m.A),
    rowLower: f('rowLower'), rowUpper: f('rowUpper'), colLower: f('colLower'), colUpper: f('colUpper'),
    objectiveConstant: m.objectiveConstant,
  };
}

/** Refuses option names a call does not know (a misspelt option is an error, not a default). */
export function known(options, names, call) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') throw invalid(`${call}: options must be an object`);
  const unknown = Object.keys(options).filter((k) => !names.includes(k));
  if (unknown.length) throw invalid(`${call}: unknown option ${unknown.map((k) => `"${k}"`).join(', ')} (options: ${names.join(', ')})`);
  // The options travel as JSON, which writes NaN and ±Infinity as null: "no value". A number the
  // library would refuse must reach it, or be refused here, never become the default.
  for (const [k, v] of Object.entries(options)) {
    if (typeof v === 'number' && !Number.isFinite(v)) throw invalid(`${call}: ${k} = ${v}: not a finite number`);
  }
  return options;
}
