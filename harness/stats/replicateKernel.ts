// The cluster bootstrap's per-replicate arithmetic in WebAssembly SIMD: a replicate's
// multiplicities read from the shared draws, and their dot products with every column's sums
// (and counts), for replicatesOf in clusterBootstrap.ts. The JavaScript dot() there computed one
// column at a time at about a nanosecond per question; the kernel (source: replicateDots.wat
// beside this file) computes four columns per pass over the multiplicities, with dot()'s four
// partial sums per column, so every replicate, and every interval, is bit for bit the same.
//
// WebAssembly reads only its own memory, so a kernel holds copies of the columns: its memory is
// [c: k float64][vectors: n × k float64][out: n float64][row: k bytes], with views for
// JavaScript (c is where the multiplicities are, for the latency walk that follows). A job too
// large for one memory (or a runtime without SIMD) keeps the JavaScript loops.

/** replicateDots.wat compiled by wabt 1.0.39 (the test recompiles the source and compares). */
export const REPLICATE_DOTS_WASM =
  'AGFzbQEAAAABHQNgBnt7f39/fwF8YAV/f39/fwBgB39/f39/f38AAg8BA2VudgZtZW1vcnkCAAADBAMAAQIHFAIEZG90cwABCXJlcGxpY2F0ZQACCuUGA0sBAXwgAP0hACEGAkADQCAEIAVPDQEgBiACIARqKwMAIAMgBGorAwCioCEGIARBCGohBAwACwsgBiAA/SEBoCAB/SEAIAH9IQGgoAvQBQIGfwp7IAFBA3QhBSAFIQcgAUF8cUEDdCEGAkADQCADQQRJDQH9DAAAAAAAAAAAAAAAAAAAAAAhDf0MAAAAAAAAAAAAAAAAAAAAACEO/QwAAAAAAAAAAAAAAAAAAAAAIQ/9DAAAAAAAAAAAAAAAAAAAAAAhEP0MAAAAAAAAAAAAAAAAAAAAACER/QwAAAAAAAAAAAAAAAAAAAAAIRL9DAAAAAAAAAAAAAAAAAAAAAAhE/0MAAAAAAAAAAAAAAAAAAAAACEUQQAhCAJAA0AgCCAGTw0BIAAgCGr9AAMAIQsgACAIav0AAxAhDCACIAhqIQogDSALIAr9AAMA/fIB/fABIQ0gDiAMIAr9AAMQ/fIB/fABIQ4gCiAFaiEKIA8gCyAK/QADAP3yAf3wASEPIBAgDCAK/QADEP3yAf3wASEQIAogBWohCiARIAsgCv0AAwD98gH98AEhESASIAwgCv0AAxD98gH98AEhEiAKIAVqIQogEyALIAr9AAMA/fIB/fABIRMgFCAMIAr9AAMQ/fIB/fABIRQgCEEgaiEIDAALCyACIQkgBCANIA4gACAJIAggBxAAOQMAIAkgBWohCSAEIA8gECAAIAkgCCAHEAA5AwggCSAFaiEJIAQgESASIAAgCSAIIAcQADkDECAJIAVqIQkgBCATIBQgACAJIAggBxAAOQMYIAkgBWohAiAEQSBqIQQgA0EEayEDDAALCwJAA0AgA0UNAf0MAAAAAAAAAAAAAAAAAAAAACEN/QwAAAAAAAAAAAAAAAAAAAAAIQ5BACEIAkADQCAIIAZPDQEgAiAIaiEKIA0gACAIav0AAwAgCv0AAwD98gH98AEhDSAOIAAgCGr9AAMQIAr9AAMQ/fIB/fABIQ4gCEEgaiEIDAALCyAEIA0gDiAAIAIgCCAHEAA5AwAgAiAFaiECIARBCGohBCADQQFrIQMMAAsLC0UBAn8gAiEIAkADQCAHIANPDQEgCCAAIAdqLQAAIAF2QQ9xuDkDACAHQQFqIQcgCEEIaiEIDAALCyACIAMgBCAFIAYQAQs=';

const PAGE = 65_536;
/** The largest memory a kernel takes (k = 100,000 questions with 100 columns is 80 MB). */
const MAX_BYTES = 1 << 30;

let compiled: WebAssembly.Module | null | undefined;

/** The compiled kernel, or null where WebAssembly SIMD is unavailable. */
function kernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Buffer.from(REPLICATE_DOTS_WASM, 'base64'));
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** Whether replicates are computed by the kernel here (else by clusterBootstrap.ts's JavaScript loops). */
export const kernelAvailable = (): boolean => kernelModule() !== null;

interface Exports {
  replicate(row: number, shift: number, c: number, k: number, vecs: number, nvec: number, out: number): void;
  dots(c: number, k: number, vecs: number, nvec: number, out: number): void;
}

const align16 = (n: number): number => Math.ceil(n / 16) * 16;

export class ReplicateKernel {
  /** The replicate's multiplicities (filled by fromDraws, or by the caller before dots()). */
  readonly c: Float64Array;
  /** out[i] = Σ_j c_j · vectors[i]_j, after fromDraws or dots. */
  readonly out: Float64Array;
  private readonly row: Uint8Array;
  private readonly rowAt: number;
  private readonly vecsAt: number;
  private readonly outAt: number;
  private rowLoaded = -1;

  private constructor(
    private readonly fns: Exports,
    memory: WebAssembly.Memory,
    private readonly k: number,
    private readonly n: number,
    vectors: readonly Float64Array[],
  ) {
    const buf = memory.buffer;
    this.vecsAt = align16(8 * k);
    this.outAt = this.vecsAt + 8 * k * n;
    this.rowAt = align16(this.outAt + 8 * n);
    this.c = new Float64Array(buf, 0, k);
    vectors.forEach((v, i) => new Float64Array(buf, this.vecsAt + 8 * k * i, k).set(v));
    this.out = new Float64Array(buf, this.outAt, n);
    this.row = new Uint8Array(buf, this.rowAt, k);
  }

  /** A kernel for k questions and these vectors (each of k values), or null: then use JavaScript. */
  static create(k: number, vectors: readonly Float64Array[]): ReplicateKernel | null {
    const mod = kernelModule();
    const bytes = align16(align16(8 * k) + 8 * k * vectors.length + 8 * vectors.length) + k;
    if (!mod || k < 1 || bytes > MAX_BYTES) return null;
    try {
      const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) });
      const instance = new WebAssembly.Instance(mod, { env: { memory } });
      return new ReplicateKernel(instance.exports as unknown as Exports, memory, k, vectors.length, vectors);
    } catch {
      return null;
    }
  }

  /** Replicate r's multiplicities from `draws` (drawMultiplicities' layout) into c, then dots(). */
  fromDraws(draws: Uint8Array, r: number): void {
    const row = r >> 1;
    if (row !== this.rowLoaded) {
      this.row.set(draws.subarray(row * this.k, row * this.k + this.k));
      this.rowLoaded = row;
    }
    this.fns.replicate(this.rowAt, (r & 1) * 4, 0, this.k, this.vecsAt, this.n, this.outAt);
  }

  /** out from the multiplicities now in c. */
  dots(): void {
    this.fns.dots(0, this.k, this.vecsAt, this.n, this.outAt);
  }
}
