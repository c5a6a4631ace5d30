/**
 * Exact rational arithmetic on `Fraction`s (exact.ts) for the performance figures
 * (performance.ts): values of positions, flows and returns are quotients of money, so they are
 * kept as fractions, reduced, and rounded once at output.
 */
import type { Fraction } from "./exact";
import { gcd, roundDiv } from "./units";

export const ZERO: Fraction = { num: 0n, den: 1n };
export const ONE: Fraction = { num: 1n, den: 1n };

export const integer = (n: bigint): Fraction => ({ num: n, den: 1n });

/** num / den in lowest terms, den > 0; den must not be 0. */
export function fraction(num: bigint, den: bigint): Fraction {
  if (den < 0n) [num, den] = [-num, -den];
  const g = gcd(num < 0n ? -num : num, den);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
}

export const add = (a: Fraction, b: Fraction): Fraction =>
  a.den === b.den ? fraction(a.num + b.num, a.den) : fraction(a.num * b.den + b.num * a.den, a.den * b.den);
export const sub = (a: Fraction, b: Fraction): Fraction => add(a, { num: -b.num, den: b.den });
export const mul = (a: Fraction, b: Fraction): Fraction => fraction(a.num * b.num, a.den * b.den);
/** a / b; b must not be 0. */
export const div = (a: Fraction, b: Fraction): Fraction => fraction(a.num * b.den, a.den * b.num);
export const isZero = (a: Fraction): boolean => a.num === 0n;
export const sign = (a: Fraction): number => (a.num > 0n ? 1 : a.num < 0n ? -1 : 0);

/** a rounded half away from zero to `places` decimals, as an integer scaled by 10^places. */
export const roundScaled = (a: Fraction, places: number): bigint => roundDiv(a.num * 10n ** BigInt(places), a.den);
