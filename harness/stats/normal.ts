/**
 * Inverse of the standard normal CDF (quantile function), used for the z of Wilson intervals.
 *
 * Algorithm AS 241 (Wichura 1988, "The percentage points of the normal distribution",
 * Applied Statistics 37(3):477-484), the PPND16 variant: three rational approximations
 * (central region |p - 0.5| <= 0.425, and two tail regions in r = sqrt(-log(min(p, 1-p))))
 * with about 16 significant digits — the same method as R's qnorm. Chosen over Acklam's
 * algorithm because it needs no refinement step (and therefore no accurate erfc) to reach
 * full double precision.
 */

// Central region: p close to 1/2.
const A = [
  3.387132872796366608, 133.14166789178437745, 1971.5909503065514427, 13731.693765509461125,
  45921.953931549871457, 67265.770927008700853, 33430.575583588128105, 2509.0809287301226727,
];
const B = [
  1, 42.313330701600911252, 687.1870074920579083, 5394.1960214247511077, 21213.794301586595867,
  39307.89580009271061, 28729.085735721942674, 5226.495278852854561,
];
// Intermediate tail: 1.6 <= r <= 5.
const C = [
  1.42343711074968357734, 4.6303378461565452959, 5.7694972214606914055, 3.64784832476320460504,
  1.27045825245236838258, 0.24178072517745061177, 0.0227238449892691845833, 7.7454501427834140764e-4,
];
const D = [
  1, 2.05319162663775882187, 1.6763848301838038494, 0.68976733498510000455, 0.14810397642748007459,
  0.0151986665636164571966, 5.475938084995344946e-4, 1.05075007164441684324e-9,
];
// Far tail: r > 5 (p below about 1e-11).
const E = [
  6.6579046435011037772, 5.4637849111641143699, 1.7848265399172913358, 0.29656057182850489123,
  0.026532189526576123093, 0.0012426609473880784386, 2.71155556874348757815e-5, 2.01033439929228813265e-7,
];
const F = [
  1, 0.59983220655588793769, 0.13692988092273580531, 0.0148753612908506148525, 7.868691311456132591e-4,
  1.8463183175100546818e-5, 1.4215117583164458887e-7, 2.04426310338993978564e-15,
];

/** Horner evaluation of sum coef[i] x^i. */
function poly(coef: readonly number[], x: number): number {
  let s = 0;
  for (let i = coef.length - 1; i >= 0; i--) s = s * x + coef[i];
  return s;
}

/**
 * z such that P(Z <= z) = p for a standard normal Z. p = 0 -> -Infinity, p = 1 -> Infinity;
 * throws for p outside [0, 1] or NaN.
 */
export function normalQuantile(p: number): number {
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) {
    throw new RangeError(`normalQuantile: p must be in [0, 1] (got ${String(p)})`);
  }
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (q * poly(A, r)) / poly(B, r);
  }
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  let z: number;
  if (r <= 5) {
    r -= 1.6;
    z = poly(C, r) / poly(D, r);
  } else {
    r -= 5;
    z = poly(E, r) / poly(F, r);
  }
  return q < 0 ? -z : z;
}
