/**
 * Input checks shared by the stats functions. Bad inputs here are usually a bug or a
 * malformed record upstream, so the messages name the function, the argument and the index.
 */

/** Throws if any element of `values` is not a finite number (NaN, ±Infinity, non-number). */
export function assertFiniteArray(values: ArrayLike<number>, fn: string, name: string): void {
  if (values == null || typeof values.length !== 'number') {
    throw new TypeError(`${fn}: ${name} must be an array of numbers`);
  }
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new RangeError(`${fn}: ${name}[${i}] must be a finite number (got ${String(v)})`);
    }
  }
}

/** Throws unless `a` and `b` are finite arrays of the same length: one value per pair. */
export function assertPairedFinite(a: ArrayLike<number>, b: ArrayLike<number>, fn: string): void {
  assertFiniteArray(a, fn, 'a');
  assertFiniteArray(b, fn, 'b');
  if (a.length !== b.length) {
    throw new RangeError(`${fn}: a and b must be paired (same length), got ${a.length} and ${b.length}`);
  }
}

export function assertPositiveInt(value: number, fn: string, name: string): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${fn}: ${name} must be a positive integer (got ${String(value)})`);
  }
}

export function assertNonNegativeInt(value: number, fn: string, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${fn}: ${name} must be a non-negative integer (got ${String(value)})`);
  }
}

/** alpha is the two-sided error rate of an interval: strictly between 0 and 1. */
export function assertAlpha(alpha: number, fn: string): void {
  if (typeof alpha !== 'number' || !(alpha > 0 && alpha < 1)) {
    throw new RangeError(`${fn}: alpha must be in (0, 1) (got ${String(alpha)})`);
  }
}
