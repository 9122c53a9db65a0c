/**
 * Seeded pseudo-random number generator for resampling (bootstrap, permutation tests).
 *
 * Algorithm: xoshiro128** 1.1 (Blackman & Vigna, 2018) — 128-bit state, period 2^128 - 1,
 * passes BigCrush, and is cheap in JavaScript because it only needs 32-bit integer ops.
 * mulberry32 would be simpler but has a 32-bit state: its period of 2^32 draws is within reach
 * of one large resampling job (10,000 resamples of 500,000 values).
 *
 * Seeding: the seed (any safe integer) is split into its low and high 32-bit halves and
 * expanded into the four state words with a SplitMix-style generator (Weyl sequence +
 * murmur3 fmix32 finaliser), so neighbouring seeds (0, 1, 2, ...) give unrelated streams
 * and the state can never be all-zero.
 *
 * Determinism: the output sequence for a given seed depends only on this file; it is part of
 * the reproducibility contract of a run (same seed => same confidence intervals), so do not
 * change the algorithm or the seeding without treating it as a breaking change.
 */

export interface Rng {
  /** Next raw 32-bit output as an unsigned integer in [0, 2^32). */
  nextUint32(): number;
  /** Uniform double in [0, 1) with 53 random bits. */
  random(): number;
  /** Uniform integer in [0, n), unbiased (rejection sampling). 1 <= n <= 2^32. */
  int(n: number): number;
}

const TWO_32 = 4294967296;
const INV_TWO_32 = 1 / TWO_32;
const TWO_21 = 2097152;

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** murmur3 fmix32: a bijection on 32-bit words with good avalanche. */
function fmix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class Xoshiro128 implements Rng {
  // State lives in a typed array: plain object fields holding 32-bit values above 2^30 would
  // be boxed as heap numbers by V8 (Smis are 31-bit), making every step allocate.
  private readonly s = new Int32Array(4);

  constructor(seed = 0) {
    if (!Number.isSafeInteger(seed)) {
      throw new RangeError(`rng: seed must be a safe integer (got ${String(seed)})`);
    }
    const lo = seed >>> 0; // ToUint32 of the (possibly negative) integer: low 32 bits, two's complement
    const hi = Math.floor(seed / TWO_32) >>> 0;
    // Weyl sequence over the golden-ratio increment, started from a mix of both halves.
    let x = (lo ^ fmix32(hi ^ 0x5bd1e995)) >>> 0;
    const next = (): number => {
      x = (x + 0x9e3779b9) >>> 0;
      return fmix32(x);
    };
    // Consecutive Weyl values are distinct and fmix32 is a bijection, so at most one of the
    // four words can be zero: the all-zero state (a fixed point) is unreachable.
    this.setState([next(), next(), next(), next()]);
  }

  /** Generator with an explicit state (used to check against the reference C implementation). */
  static fromState(state: readonly [number, number, number, number]): Xoshiro128 {
    const r = new Xoshiro128(0);
    r.setState(state);
    return r;
  }

  private setState(state: readonly [number, number, number, number]): void {
    const [a, b, c, d] = state.map((w) => w >>> 0) as [number, number, number, number];
    if ((a | b | c | d) === 0) throw new RangeError('rng: xoshiro128** state must not be all zero');
    this.s[0] = a;
    this.s[1] = b;
    this.s[2] = c;
    this.s[3] = d;
  }

  nextUint32(): number {
    const s = this.s;
    const s0 = s[0];
    const s1 = s[1];
    const s2 = s[2] ^ s0;
    const s3 = s[3] ^ s1;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    s[0] = s0 ^ s3;
    s[1] = s1 ^ s2;
    s[2] = s2 ^ (s1 << 9);
    s[3] = rotl(s3, 11);
    return result;
  }

  random(): number {
    // 27 high bits + 26 high bits = 53 bits, the full mantissa of a double in [0, 1).
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /**
   * Adds 1 to counts[int(n)] `draws` times, n = counts.length: exactly the draws of that many
   * int(n) calls, in order, leaving the generator where they would. The bootstrap's hot loop
   * (clusterBootstrap.ts): the state stays in locals instead of being read and written back per
   * draw, about 3× faster than calling int().
   */
  addDraws(counts: Float64Array, draws: number): void {
    const n = counts.length;
    if (!(n >= 1 && n <= TWO_21)) {
      for (let i = 0; i < draws; i++) counts[this.int(n)] += 1;
      return;
    }
    const st = this.s;
    let s0 = st[0];
    let s1 = st[1];
    let s2 = st[2];
    let s3 = st[3];
    const threshold = TWO_32 % n;
    for (let i = 0; i < draws; i++) {
      let hi: number;
      for (;;) {
        // nextUint32, inlined on the local state.
        const x = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
        const t2 = s2 ^ s0;
        const t3 = s3 ^ s1;
        s2 = t2 ^ (s1 << 9);
        s0 ^= t3;
        s1 ^= t2;
        s3 = rotl(t3, 11);
        const m = x * n;
        hi = Math.floor(m * INV_TWO_32);
        if (m - hi * TWO_32 >= threshold) break;
      }
      counts[hi] += 1;
    }
    st[0] = s0;
    st[1] = s1;
    st[2] = s2;
    st[3] = s3;
  }

  /**
   * addDraws for counts kept in half-bytes: adds 1 to the `nibble` (0: low four bits, 1: high
   * four) of bytes[offset + int(n)], `draws` times, exactly those draws, leaving the generator
   * where they would. Returns false once a count would pass 15 (that count, and maybe its
   * neighbour's, is then wrong: the caller drops the whole block). A 2,000-question run's
   * 10,000 replicates are 10 MB of these (parallelBootstrap.ts draws them ahead in a worker),
   * against 160 MB as doubles. The generator step is addDraws' loop written again on purpose:
   * sharing it (one loop filling a buffer of ints that each caller then counts) measured 9–30%
   * slower on both hot paths, and rng.test.ts checks that the two count the very same draws.
   */
  addDrawsToNibbles(bytes: Uint8Array, offset: number, n: number, nibble: 0 | 1, draws: number): boolean {
    if (!(n >= 1 && n <= TWO_21) || offset < 0 || offset + n > bytes.length) throw new RangeError(`rng.addDrawsToNibbles: ${n} counts at ${offset} of ${bytes.length} bytes`);
    const shift = nibble * 4;
    const one = 1 << shift;
    const st = this.s;
    let s0 = st[0];
    let s1 = st[1];
    let s2 = st[2];
    let s3 = st[3];
    const threshold = TWO_32 % n;
    let fits = true;
    for (let i = 0; i < draws; i++) {
      let hi: number;
      for (;;) {
        const x = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
        const t2 = s2 ^ s0;
        const t3 = s3 ^ s1;
        s2 = t2 ^ (s1 << 9);
        s0 ^= t3;
        s1 ^= t2;
        s3 = rotl(t3, 11);
        const m = x * n;
        hi = Math.floor(m * INV_TWO_32);
        if (m - hi * TWO_32 >= threshold) break;
      }
      const at = offset + hi;
      // Past 15 the nibble wraps to 0 (carrying into the high one, or out of the byte).
      const v = (bytes[at] + one) & 255;
      if (((v >> shift) & 15) === 0) fits = false;
      bytes[at] = v;
    }
    st[0] = s0;
    st[1] = s1;
    st[2] = s2;
    st[3] = s3;
    return fits;
  }

  int(n: number): number {
    if (!(n >= 1 && n <= TWO_32 && Number.isInteger(n))) {
      throw new RangeError(`rng.int: n must be an integer in [1, 2^32] (got ${String(n)})`);
    }
    if (n <= TWO_21) {
      // Lemire's multiply-shift with rejection (2019), done in doubles: x * n < 2^53 is exact.
      // floor(x n / 2^32) is uniform once the low part l = x n mod 2^32 is rejected below
      // 2^32 mod n; that rejection test is only needed when l < n, which is rare.
      let m = this.nextUint32() * n;
      let hi = Math.floor(m * INV_TWO_32);
      let l = m - hi * TWO_32;
      if (l < n) {
        const threshold = TWO_32 % n;
        while (l < threshold) {
          m = this.nextUint32() * n;
          hi = Math.floor(m * INV_TWO_32);
          l = m - hi * TWO_32;
        }
      }
      return hi;
    }
    // Large n: reject the top partial block of [0, 2^32) so every residue is equally likely.
    const limit = TWO_32 - (TWO_32 % n);
    let x = this.nextUint32();
    while (x >= limit) x = this.nextUint32();
    return x % n;
  }
}

/** Convenience constructor: `createRng(seed)` is `new Xoshiro128(seed)`. */
export function createRng(seed = 0): Rng {
  return new Xoshiro128(seed);
}
