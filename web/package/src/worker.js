// The solver's dedicated worker: one Engine (the wasm module and a WebGL2 context on an
// OffscreenCanvas) serving the Solver's calls one at a time. Each LP iteration row is posted as
// it is logged; a solve stops at its next row when the page has written this call's id into the
// shared abort word (only where the page is cross-origin isolated: see solver.js).
import { Engine, transferables } from './engine.js';
import { toPlain } from './errors.js';

let engine = null;
let abortWord = null;

self.onmessage = async ({ data: { id, op, args } }) => {
  try {
    if (op === 'start') {
      const [options, shared] = args;
      abortWord = shared ? new Int32Array(shared) : null;
      engine = await Engine.create(options);
      return reply(id, engine.info());
    }
    const onRow = (row) => {
      self.postMessage({ id, row });
      return abortWord !== null && Atomics.load(abortWord, 0) === id;
    };
    reply(id, engine.call(op, args, onRow));
  } catch (e) {
    self.postMessage({ id, error: toPlain(e) });
  }
};

function reply(id, value) {
  self.postMessage({ id, value }, transferables(value));
}
