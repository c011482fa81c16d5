// The API suite's small toolkit: named checks that record pass or fail with what they saw,
// assertions, and the rejection a call must end in.
import { GlsolveError } from './package/index.js';

export function assert(ok, message) {
  if (!ok) throw new Error(message);
}

export const close = (a, b, tol) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

/** max_i |a_i − b_i| / max(1, max_i |b_i|). */
export function relErr(a, b) {
  assert(a.length === b.length, `lengths ${a.length} and ${b.length}`);
  let num = 0;
  let den = 1;
  for (let i = 0; i < a.length; i++) {
    num = Math.max(num, Math.abs(a[i] - b[i]));
    den = Math.max(den, Math.abs(b[i]));
  }
  return num / den;
}

/** `promise` must reject with a GlsolveError of `code` whose message holds each of `words`. */
export async function rejects(promise, code, words = []) {
  let value;
  try {
    value = await promise;
  } catch (e) {
    assert(e instanceof GlsolveError, `rejected with ${e?.constructor?.name ?? typeof e} (${e?.message ?? e}), not a GlsolveError`);
    assert(e.code === code, `rejected with code ${e.code}, ${code} expected: ${e.message}`);
    for (const w of words) assert(e.message.includes(w), `the message does not say "${w}": ${e.message}`);
    return e;
  }
  throw new Error(`resolved (${JSON.stringify(value)?.slice(0, 120)}), a rejection with ${code} expected`);
}

/** Collects checks: `await suite.check(name, async () => detail)`. */
export class Suite {
  constructor(label) {
    this.label = label;
    this.checks = [];
  }

  async check(name, body) {
    const started = performance.now();
    const entry = { mode: this.label, name };
    try {
      const detail = await body();
      Object.assign(entry, { passed: true, detail: detail === undefined ? '' : String(detail) });
    } catch (e) {
      Object.assign(entry, { passed: false, detail: `${e?.message ?? e}${e?.code ? ` [${e.code}]` : ''}` });
    }
    entry.seconds = (performance.now() - started) / 1e3;
    this.checks.push(entry);
  }
}

/** A seeded generator (mulberry32): the same test data in every browser. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
