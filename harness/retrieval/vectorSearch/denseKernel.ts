// The exact dense scan's hot loop in WebAssembly SIMD. A JavaScript dot product over a
// Float32Array costs about two element-times per element (a bounds check, a float32 → float64
// conversion, a multiply and an add each, one element at a time), so the scan ran at about twice
// the time of one pass over the vectors. The SIMD kernel (source: denseDot.wat beside this file)
// keeps the same eight partial sums as dot8 in stores.ts, bit for bit (its step and speed: see
// the .wat file), so a chunk's score does not depend on which path computed it.
//
// WebAssembly reads only its own memory, so the vectors live in it: a WasmMatrix is a
// WebAssembly.Memory laid out as [query: dim float64][scores: BLOCK_ROWS float64][rows: capacity
// × dim float32], with Float32Array / Float64Array views over it for JavaScript. wasm32 memory
// ends at 4 GiB; a matrix that does not fit (or a runtime without SIMD) keeps the JavaScript scan.

/** denseDot.wat compiled by wabt 1.0.39 (the test recompiles the source and compares). */
export const DENSE_DOT_WASM =
  'AGFzbQEAAAABCQFgBX9/f39/AAIPAQNlbnYGbWVtb3J5AgAAAwIBAAcKAQZzY29yZXMAAAraBAHXBAMEfwR7AXwgASACQXhxQQN0aiEHIAEgAkEDdGohCAJAA0AgBSADTw0B/QwAAAAAAAAAAAAAAAAAAAAAIQn9DAAAAAAAAAAAAAAAAAAAAAAhCv0MAAAAAAAAAAAAAAAAAAAAACEL/QwAAAAAAAAAAAAAAAAAAAAAIQwgASEGAkADQCAGQYABaiAHSw0BIAkgAP1dAgD9XyAG/QADAP3yAf3wASEJIAogAP1dAgj9XyAG/QADEP3yAf3wASEKIAsgAP1dAhD9XyAG/QADIP3yAf3wASELIAwgAP1dAhj9XyAG/QADMP3yAf3wASEMIAkgAP1dAiD9XyAG/QADQP3yAf3wASEJIAogAP1dAij9XyAG/QADUP3yAf3wASEKIAsgAP1dAjD9XyAG/QADYP3yAf3wASELIAwgAP1dAjj9XyAG/QADcP3yAf3wASEMIABBwABqIQAgBkGAAWohBgwACwsCQANAIAYgB08NASAJIAD9XQIA/V8gBv0AAwD98gH98AEhCSAKIAD9XQII/V8gBv0AAxD98gH98AEhCiALIAD9XQIQ/V8gBv0AAyD98gH98AEhCyAMIAD9XQIY/V8gBv0AAzD98gH98AEhDCAAQSBqIQAgBkHAAGohBgwACwsgCf0hACENAkADQCAGIAhPDQEgDSAAKgIAuyAGKwMAoqAhDSAAQQRqIQAgBkEIaiEGDAALCyAEIA0gCf0hAaAgCv0hACAK/SEBoKAgC/0hACAL/SEBoCAM/SEAIAz9IQGgoKA5AwAgBEEIaiEEIAVBAWohBQwACwsL';

/** Rows scored per kernel call (their 8 KB of scores stay in L1 until the top-k reads them). */
export const BLOCK_ROWS = 1024;

const PAGE = 65_536;
const MAX_PAGES = 65_536; // 4 GiB, the wasm32 limit

let compiled: WebAssembly.Module | null | undefined;

/** The compiled kernel, or null where WebAssembly SIMD is unavailable. */
function kernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Buffer.from(DENSE_DOT_WASM, 'base64'));
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

type ScoresFn = (p: number, query: number, dim: number, rows: number, out: number) => void;

export class WasmMatrix {
  /** Rows (capacity × dim float32), query (dim float64) and scores (BLOCK_ROWS float64) views. */
  data!: Float32Array;
  query!: Float64Array;
  scores!: Float64Array;
  private readonly rowsAt: number;

  private constructor(
    private readonly memory: WebAssembly.Memory,
    private readonly kernel: ScoresFn,
    readonly dim: number,
    private capacity: number,
  ) {
    this.rowsAt = align16(8 * dim + 8 * BLOCK_ROWS);
    this.view();
  }

  /** A matrix with room for `capacity` rows, or null when it cannot be had (then use plain arrays). */
  static create(dim: number, capacity: number): WasmMatrix | null {
    const mod = kernelModule();
    const pages = pagesFor(dim, capacity);
    if (!mod || pages > MAX_PAGES) return null;
    try {
      const memory = new WebAssembly.Memory({ initial: pages });
      const instance = new WebAssembly.Instance(mod, { env: { memory } });
      return new WasmMatrix(memory, instance.exports.scores as ScoresFn, dim, capacity);
    } catch {
      return null; // out of memory for one contiguous block
    }
  }

  /** Bytes held (the whole memory). */
  get bytes(): number {
    return this.memory.buffer.byteLength;
  }

  /** Grows to `capacity` rows, keeping the rows; false when the memory cannot grow that far. */
  grow(capacity: number): boolean {
    const pages = pagesFor(this.dim, capacity);
    const have = this.memory.buffer.byteLength / PAGE;
    if (pages > MAX_PAGES) return false;
    try {
      if (pages > have) this.memory.grow(pages - have);
    } catch {
      return false;
    }
    this.capacity = capacity;
    this.view(); // growing detaches the old buffer and every view over it
    return true;
  }

  /** scores[0 .. rows) = dot(row first + r, query) for r < rows ≤ BLOCK_ROWS (query set beforehand). */
  score(first: number, rows: number): void {
    this.kernel(this.rowsAt + first * this.dim * 4, 0, this.dim, rows, 8 * this.dim);
  }

  private view(): void {
    const buf = this.memory.buffer;
    this.query = new Float64Array(buf, 0, this.dim);
    this.scores = new Float64Array(buf, 8 * this.dim, BLOCK_ROWS);
    this.data = new Float32Array(buf, this.rowsAt, this.capacity * this.dim);
  }
}

function align16(n: number): number {
  return Math.ceil(n / 16) * 16;
}

function pagesFor(dim: number, capacity: number): number {
  return Math.ceil((align16(8 * dim + 8 * BLOCK_ROWS) + 4 * dim * capacity) / PAGE);
}
