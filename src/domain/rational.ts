/**
 * Exact rational arithmetic on `Fraction`s (exact.ts) for the performance figures
 * (performance.ts): values of positions, flows and returns are quotients of money, so they are
 * kept as fractions, reduced, and rounded once at output.
 */
import type { Fraction } from "./exact";
import { abs, gcd, roundDiv } from "./units";

export const ZERO: Fraction = { num: 0n, den: 1n };
export const ONE: Fraction = { num: 1n, den: 1n };

export const integer = (n: bigint): Fraction => ({ num: n, den: 1n });

/** num / den in lowest terms, den > 0; den must not be 0. */
export function fraction(num: bigint, den: bigint): Fraction {
  if (den < 0n) [num, den] = [-num, -den];
  const g = gcd(abs(num), den);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
}

/*
 * Sums and products reduce as they go (Knuth, TAOCP 4.5.1): for reduced operands, gcds are taken
 * of the denominators' common part and across the operands, never of the full result. A running
 * total (a customer's withdrawals, each a fraction over a position's C) grows a long denominator;
 * reducing each full sum ran Euclid on it at every point: 2/3 of a range=max read of the 1M
 * bench's 100,000-trade customer (`rational` in docs/sync.md). Any operands give the
 * exact value; reduced ones (as `fraction` makes) give it reduced.
 */

/** a + b. */
export function add(a: Fraction, b: Fraction): Fraction {
  if (a.den === b.den) return fraction(a.num + b.num, a.den);
  const g = gcd(a.den, b.den);
  if (g === 1n) return { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
  const t = a.num * (b.den / g) + b.num * (a.den / g);
  if (t === 0n) return ZERO;
  const h = gcd(abs(t), g);
  return { num: t / h, den: (a.den / g) * (b.den / h) };
}
export const sub = (a: Fraction, b: Fraction): Fraction => add(a, { num: -b.num, den: b.den });
/** a × b. */
export function mul(a: Fraction, b: Fraction): Fraction {
  if (a.num === 0n || b.num === 0n) return ZERO;
  const g = gcd(abs(a.num), b.den);
  const h = gcd(abs(b.num), a.den);
  return { num: (a.num / g) * (b.num / h), den: (a.den / h) * (b.den / g) };
}
/** a / b; b must not be 0. */
export const div = (a: Fraction, b: Fraction): Fraction =>
  mul(a, b.num < 0n ? { num: -b.den, den: -b.num } : { num: b.den, den: b.num });
export const isZero = (a: Fraction): boolean => a.num === 0n;
export const sign = (a: Fraction): number => (a.num > 0n ? 1 : a.num < 0n ? -1 : 0);

/** a rounded half away from zero to `places` decimals, as an integer scaled by 10^places. */
export const roundScaled = (a: Fraction, places: number): bigint => roundDiv(a.num * 10n ** BigInt(places), a.den);
