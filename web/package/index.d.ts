// Type declarations of the glsolve package (hand-written; checked by compiling a consumer
// project against them in the repository's tests).

/** Every code a GlsolveError carries. */
export type ErrorCode =
  | 'parse' // MPS text that does not parse (`line` says where)
  | 'invalid-model' // a model's arrays do not make a model (the field and index are named)
  | 'invalid-argument' // an option, a name, a shape
  | 'too-large' // more than wasm32's memory or this context's textures (MAX_TEXTURE_SIZE) can hold, found before any work
  | 'no-webgl2' // backend 'gpu' asked where there is no WebGL2
  | 'no-float-targets' // backend 'gpu' asked where float textures cannot be rendered to
  | 'context-lost' // the WebGL2 context was lost during the call (the next call gets a new one)
  | 'aborted' // the AbortSignal fired (the error's name is then 'AbortError')
  | 'not-positive-definite'
  | 'singular'
  | 'rank-deficient'
  | 'gpu' // any other GL failure
  | 'disposed' // the solver was disposed
  | 'worker' // the worker died (or this environment has none)
  | 'load' // the worker script or the wasm module could not be loaded (`url` names it; pass workerUrl / wasmUrl)
  | 'internal'; // a bug: please report it

export declare const CODES: readonly ErrorCode[];

/** The one class every call rejects with (an onIteration callback's own throw excepted). */
export declare class GlsolveError extends Error {
  constructor(code: ErrorCode, message: string, detail?: { line?: number; iteration?: number; cause?: unknown });
  /** 'AbortError' for code 'aborted', else 'GlsolveError'. */
  readonly name: 'GlsolveError' | 'AbortError';
  readonly code: ErrorCode;
  /** `parse`: the 1-based line of the MPS text. */
  readonly line?: number;
  /** `aborted` during an LP solve: the iteration at which it stopped. */
  readonly iteration?: number;
  /** `load`: the URL that could not be loaded (where the bundler chose it: a description). */
  readonly url?: string;
}

/** A number array in any of JavaScript's forms (copied to Float64Array). */
export type Numbers = Float64Array | Float32Array | Int32Array | Uint32Array | ArrayLike<number>;

/** A dense matrix, row-major: `data[i * cols + j]` is entry (i, j). */
export interface DenseMatrix {
  rows: number;
  cols: number;
  data: Numbers;
}

/** Compressed sparse rows: row i's entries are `values[rowPtr[i]..rowPtr[i+1]]` in columns `colIdx`. */
export interface CsrMatrix {
  rows: number;
  cols: number;
  rowPtr: Numbers;
  colIdx: Numbers;
  values: Numbers;
}

/** Triplets (COO): entry k is `values[k]` at (`row[k]`, `col[k]`); duplicates are summed. */
export interface TripletMatrix {
  rows: number;
  cols: number;
  row: Numbers;
  col: Numbers;
  values: Numbers;
}

/**
 * min (or max) cᵀx + objectiveConstant  s.t.  rowLower ≤ A·x ≤ rowUpper,  colLower ≤ x ≤ colUpper.
 * ±Infinity for a missing side; equal bounds for an equality. Columns default to x ≥ 0; a
 * missing row side defaults to ∓Infinity (give at least one side when A has rows).
 */
export interface LpArrays {
  sense?: 'min' | 'max';
  c: Numbers;
  A: DenseMatrix | CsrMatrix | TripletMatrix;
  rowLower?: Numbers;
  rowUpper?: Numbers;
  colLower?: Numbers;
  colUpper?: Numbers;
  objectiveConstant?: number;
}

/** An LP: the text of an MPS file (free or fixed format), or arrays. */
export type LpModel = string | LpArrays;

export type LpBackend = 'auto' | 'gpu' | 'hybrid' | 'cpu';
export type DenseBackend = 'auto' | 'gpu' | 'cpu';

/** One row of the iteration log (objectives in the model's own sense and terms). */
export interface IterationRow {
  iteration: number;
  primalObjective: number;
  dualObjective: number;
  primalInfeasibility: number;
  dualInfeasibility: number;
  gap: number;
  mu: number;
  alphaPrimal: number;
  alphaDual: number;
  /** The backend that solved this iteration's normal equations. */
  backend: string;
}

export interface LpOptions {
  /** Default 'auto': the cpu backend or the hybrid one, whichever this problem should finish sooner. */
  backend?: LpBackend;
  /** The stopping tolerance ε in (0, 1) (default per backend: 1e-8; gpu 1e-4 and at least 1e-7, single precision). */
  tolerance?: number;
  maxIterations?: number;
  /** Seconds. */
  timeLimit?: number;
  /** Called with each iteration row as it is logged (in a worker: as its message arrives). Throwing aborts the solve. */
  onIteration?: (row: IterationRow) => void;
  /** Aborting rejects the call with code 'aborted'; an LP solve stops within one iteration. */
  signal?: AbortSignal;
}

export type LpStatus =
  | 'optimal'
  | 'optimal (reduced accuracy)'
  | 'primal infeasible'
  | 'primal infeasible (reduced accuracy)'
  | 'dual infeasible'
  | 'dual infeasible (reduced accuracy)'
  | 'unbounded'
  | 'unbounded (reduced accuracy)'
  | 'iteration limit'
  | 'time limit'
  | 'interrupted'
  | 'numerical failure';

/** An interval proven to hold the optimal value, in the model's sense (null: that side is unbounded). */
export interface Enclosure {
  lower: number | null;
  upper: number | null;
}

/** The proof of (x, row duals) on the original model, in double precision with rounding accounted for. */
export interface Verification {
  /** cᵀx + objectiveConstant at the point. */
  objective: number | null;
  enclosure: Enclosure;
  /** x's componentwise backward error: the largest relative change of one row's own data that x needs. */
  primalBackwardError: number | null;
  /** The row (or column bound) where it is attained. */
  worst: string | null;
  /** The enclosure's width relative to the objective's size. */
  width: number | null;
  objectiveSize: number | null;
  /** What the primal end adds for the rows x misses: Σ |yᵢ|·(row i's violation). */
  violationCharge: number | null;
  /** How the dual side was found: { Direct: {implied} }, { Repaired: {corrected, exact} }, { Unproven: {reason} } or 'Estimated'. */
  dualBound: unknown;
  /** The tolerance the measures were graded against (10·ε). */
  tolerance: number;
  /** 'Tolerance' (passes at the requested tolerance), 'Reduced' (at its square root) or 'Failed'. */
  accuracy: 'Tolerance' | 'Reduced' | 'Failed';
}

export interface LpResult {
  status: LpStatus;
  optimal: boolean;
  /** cᵀx + objectiveConstant, in the model's sense; null where there is no point to evaluate (an infeasible model decided by presolve, a failure). */
  objective: number | null;
  x: Float64Array;
  /** ∂objective/∂(row bound), in the model's sense. */
  rowDuals: Float64Array;
  /** c − Aᵀy. */
  reducedCosts: Float64Array;
  iterations: number;
  /** gpu and hybrid backends: iterations whose normal equations were factored on the GPU. */
  gpuIterations: number | null;
  /** cpu backend: normal matrices formed from reduced-precision products. */
  singleFactorizations: number | null;
  /** The backend that ran (auto's choice). */
  backend: 'gpu' | 'hybrid' | 'cpu';
  rows: number;
  columns: number;
  /** Rows and columns of the standard form the backend worked on. */
  standardFormSize: [number, number];
  /** Proven to hold the optimum (optimal, reduced accuracy, limits, failures); null for infeasible and unbounded models. */
  enclosure: Enclosure | null;
  verification: Verification | null;
  /** The verification in one line. */
  verdict: string | null;
  /** The infeasibility certificate and its check, for the infeasible statuses. */
  certificate: unknown | null;
  /** After a primal ray: the feasibility solve and whether it established, refuted or left unknown a feasible point. */
  feasibility: unknown | null;
  /** Why a non-optimal status was given. */
  detail: string;
  notes: string[];
  /** Whether x and the duals are the best iterate rather than the last (limits and failures). */
  bestIterate: boolean;
  /** Seconds by phase. */
  timings: {
    total: number; standardForm: number; setup: number; assemble: number; factor: number; solve: number; other: number;
    postsolve: number; feasibility: number; proof: number;
  };
  /** The whole iteration log. */
  log: string;
}

export interface DenseOptions {
  /** 'auto' (default): the GPU where there is one, else double precision in wasm. */
  backend?: DenseBackend;
  signal?: AbortSignal;
}

export interface CholeskyOptions extends DenseOptions {
  /** A Cholesky variant (SolverInfo.variants lists them); default 'triangle-pair', the paper's. */
  variant?: string;
}

export interface LstsqOptions extends DenseOptions {
  /** One weight per row (observation), ≥ 0: minimizes Σ (wₖ·(bₖ − (A·x)ₖ))². */
  weights?: Numbers;
}

/**
 * How a dense answer was obtained: 'mixed' (single precision on the GPU, refined in double
 * precision and proven by a double-precision check), 'double-fallback' (the GPU path could not
 * prove its answer: double precision on the CPU answered, and `reason` says why), 'double'
 * (the cpu backend, double precision throughout), 'single' (the gpu Cholesky factor, single
 * precision: `accuracy.backwardError` says how accurate).
 */
export type DenseKind = 'mixed' | 'double-fallback' | 'double' | 'single';

/**
 * The double-precision check of a gpu answer (null on the cpu backend). A measure that is not a
 * finite number is null.
 * - lstsq: `forwardError` bounds ‖x − x*‖∞/‖x‖∞ (x* the exact least-squares solution, from the
 *   normal equations' residual with every rounding accounted for); a 'mixed' answer has it
 *   ≤ `threshold` (1e-8). `backwardError` is a proven bound: x solves the problem exactly for
 *   W·A changed by at most that fraction (Frobenius norm). `contraction`: the refinement's rate.
 * - solve: `backwardError` is a proven bound on the normwise backward error in LINPACK's units,
 *   (‖b − A·x‖∞ + its rounding)/(‖A‖∞‖x‖∞·n·ε); a 'mixed' answer has it ≤ `threshold` (16).
 * - cholesky: `backwardError` = ‖C − L·Lᵀ‖_F/‖C‖_F computed in double precision (single
 *   precision keeps it a small multiple of n·6e-8).
 */
export interface DenseAccuracy {
  forwardError?: number | null;
  backwardError: number | null;
  threshold?: number | null;
  contraction?: number | null;
}

/**
 * `method` says what ran, in words (e.g. "gpu single-precision LU, refined to double precision");
 * `kind`, `fallback` and `reason` say it for programs; `accuracy` is the check's measures.
 * `measure`: lstsq's forward-error bound, solve's backward-error bound, the Cholesky factor's
 * backward error (0 on the cpu backend).
 */
export interface DenseResult {
  method: string;
  kind: DenseKind;
  /** Whether the GPU's answer was replaced by the CPU's double precision (kind 'double-fallback'). */
  fallback: boolean;
  reason: string | null;
  accuracy: DenseAccuracy | null;
  iterations: number;
  measure: number | null;
}
export interface CholeskyResult extends DenseResult { L: DenseMatrix & { data: Float64Array } }
export interface SolveResult extends DenseResult { x: Float64Array }

export interface SolverInfo {
  /** Whether a WebGL2 context with float render targets is in use. */
  gpu: boolean;
  /** Why not: 'no-webgl2' or 'no-float-targets' (null with a GPU). */
  code: ErrorCode | null;
  reason: string | null;
  renderer: string | null;
  maxTextureSize: number | null;
  /** GL_MAX_DRAW_BUFFERS: targets one pass may write (the 8×4 register tiles need 8). */
  maxDrawBuffers: number | null;
  /** The capability record, as [name, value] pairs. */
  lines: [string, string][];
  variants: string[];
  contextLost: boolean;
}

/**
 * `workers`: workers started so far (0 on the main thread; an abort by terminate starts another).
 * `wasmBytes`: the wasm module's memory (it only grows: the most any call has needed so far).
 */
export interface SolverStats { liveTextures: number; recordings: number; workers: number; wasmBytes: number }

export interface Pass {
  index: number;
  name: string;
  kernel: string;
  defines: string[];
  step: number | null;
  primitive: string;
  fragments: number | null;
  fragments_predicted: boolean;
  time_ms: number | null;
}

/** A run recorded pass by pass; frames are drawn in the solver's thread. */
export interface Recording {
  length: number;
  /** Whether the watched run's result equals the unwatched one's bit for bit. */
  bitIdentical: boolean;
  seconds: number;
  passes: Pass[];
  /** The picture after pass k, RGBA, width × height. */
  frame(k: number, width: number, height: number): Promise<Uint8ClampedArray>;
  release(): Promise<void>;
}

export interface WatchSpec {
  algorithm: 'cholesky' | 'assemble' | 'solve' | 'lu' | 'lsq' | 'lp';
  variant?: string;
  m: number;
  n?: number;
  packed?: boolean;
  direction?: 'forward' | 'backward' | 'both';
  seed?: number;
}

export interface SolverOptions {
  /** Run in a dedicated worker (default true) or on the calling thread. */
  worker?: boolean;
  /**
   * How an abort reaches a running LP solve in the worker: 'interrupt' (the solve stops at its
   * next iteration; needs a cross-origin isolated page), 'terminate' (the worker is ended and
   * restarted on the next call), 'auto' (default: interrupt where possible).
   */
  abort?: 'auto' | 'interrupt' | 'terminate';
  /** false: never make a WebGL2 context (every call runs the cpu paths). */
  webgl?: boolean;
  /** Pretend the context lacks these extensions (to try the fallback, e.g. 'EXT_color_buffer_float'). */
  disableExtensions?: string[];
  powerPreference?: 'default' | 'high-performance' | 'low-power';
  /**
   * Where the package's src/worker.js is served (default: where the bundler put it; Vite,
   * webpack 5 and Rollup bundle it on their own). Relative URLs are resolved against the page.
   */
  workerUrl?: string | URL;
  /** Where the package's wasm/glsolve_web_bg.wasm is served (default: where the bundler put it). */
  wasmUrl?: string | URL;
}

export declare class Solver {
  private constructor();
  /** 'interrupt' or 'terminate': how an abort stops a running LP solve. */
  readonly abortMode: 'interrupt' | 'terminate';
  readonly inWorker: boolean;
  info(): Promise<SolverInfo>;
  stats(): Promise<SolverStats>;
  solveLp(model: LpModel, options?: LpOptions): Promise<LpResult>;
  /** The lower factor L of C = L·Lᵀ (only C's lower triangle is read). */
  cholesky(c: DenseMatrix | number[][], options?: CholeskyOptions): Promise<CholeskyResult>;
  /** x with A·x = b (on the GPU: single-precision LU refined to double precision, or the CPU's LU where it cannot be proven). */
  solve(a: DenseMatrix | number[][], b: Numbers, options?: DenseOptions): Promise<SolveResult>;
  /** The x minimizing Σ (wₖ·(bₖ − (A·x)ₖ))² (on the GPU: checked to 1e-8, or the CPU's QR where it cannot be proven). */
  lstsq(a: DenseMatrix | number[][], b: Numbers, options?: LstsqOptions): Promise<SolveResult>;
  /** The papers' random dense LP: m rows, 4m columns, min 1ᵀx, A·x = b, x ≥ 0. */
  randomLp(m: number, options?: { seed?: number; format?: 'arrays' }): Promise<LpArrays>;
  randomLp(m: number, options: { seed?: number; format: 'mps' }): Promise<string>;
  /** The model of MPS text as arrays (A as triplets); rejects with 'parse' and the line. */
  readMps(text: string): Promise<LpArrays & { A: TripletMatrix }>;
  /** Records a run pass by pass (the page's viewer). */
  watch(spec: WatchSpec | { mps: string; variant?: string }): Promise<Recording>;
  /** Median seconds of `reps` runs of `spec` without the viewer, after a warm-up. */
  time(spec: WatchSpec, reps?: number): Promise<number>;
  /** Loses the context now, or once a later LP solve has logged `afterIterations` rows. */
  simulateContextLoss(options?: { afterIterations?: number }): Promise<null>;
  /** Frees textures, recordings, the context and the worker; later calls reject with 'disposed'. */
  dispose(): Promise<{ liveTextures: number | null; terminated: boolean }>;
}

/** Makes a solver and its context; resolves once it is ready. */
export declare function createSolver(options?: SolverOptions): Promise<Solver>;
