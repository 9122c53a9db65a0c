// Small vector helpers shared by embedders and the chunk index.

export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`vector dimensions differ: ${a.length} vs ${b.length}`);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

export function norm(a: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * a[i];
  return Math.sqrt(s);
}

/** Scales `a` to unit length in place and returns it; a zero vector stays zero. */
export function l2normalize(a: Float32Array): Float32Array {
  const n = norm(a);
  if (n > 0) for (let i = 0; i < a.length; i++) a[i] /= n;
  return a;
}

/**
 * Cosine similarity: the dot product of the two vectors after normalising them (embedders already
 * return unit vectors). A zero vector has similarity 0 with everything. Clamped to [-1, 1] against
 * rounding.
 */
export function cosine(a: Float32Array, b: Float32Array): number {
  const d = dot(a, b);
  if (d === 0) return 0;
  const na = norm(a);
  const nb = norm(b);
  if (na === 0 || nb === 0) return 0;
  return Math.max(-1, Math.min(1, d / (na * nb)));
}
