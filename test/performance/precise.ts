/**
 * Fixed-point real arithmetic at 75 decimal places for the performance reference (docs/performance.md):
 * exp and ln of exact fractions, for the money-weighted return's f(y) = sum CF × (1 + y)^(-t/T)
 * and the annualized powers, which are irrational in general. Every operation truncates at
 * most a few units of 10^-75, so a value computed here is within 10^-70 (relative, for the sizes
 * the tests use) of the true one: far inside the 10^-50 × sum |CF| that the mwr's rule counts as 0.
 * Written apart from src/domain, for clarity, not speed.
 */
import { Fraction } from "../domain/fraction";

export const PLACES = 75n;
export const ONE = 10n ** PLACES;

/** A fraction as a fixed-point integer (value × 10^75, truncated toward zero). */
export const fixed = (f: Fraction): bigint => (f.num * ONE) / f.den;

export const mul = (a: bigint, b: bigint): bigint => (a * b) / ONE;

const bitLength = (n: bigint): number => (n < 0n ? -n : n).toString(2).length;

/** exp(x) for a fixed-point x (|x| up to a few thousand). */
export function exp(x: bigint): bigint {
  // Halve until |x| < 2^-10, sum the series, square back.
  let halvings = 0;
  let r = x;
  const small = ONE >> 10n;
  while ((r < 0n ? -r : r) > small) {
    r /= 2n;
    halvings++;
  }
  let sum = ONE;
  let term = ONE;
  for (let k = 1n; term !== 0n; k++) {
    term = mul(term, r) / k;
    sum += term;
  }
  // Squaring multiplies the relative error by 2 per step: carry extra digits while squaring.
  const GUARD = 10n ** 30n;
  let wide = sum * GUARD;
  for (let i = 0; i < halvings; i++) wide = (wide * wide) / (ONE * GUARD);
  return wide / GUARD;
}

/** atanh(u) = u + u^3/3 + u^5/5 + ..., |u| <= 1/3. */
function atanh(u: bigint): bigint {
  const u2 = mul(u, u);
  let power = u;
  let sum = 0n;
  for (let k = 1n; power !== 0n; k += 2n) {
    sum += power / k;
    power = mul(power, u2);
  }
  return sum;
}

const LN2 = 2n * atanh(ONE / 3n);

/** ln(p/q) for a positive fraction, however many digits it has. */
export function ln(f: Fraction): bigint {
  if (f.sign() <= 0) throw new RangeError("ln of a value <= 0");
  // f = w × 2^k with w in [1/2, 2).
  const k = bitLength(f.num) - bitLength(f.den);
  const w = k >= 0 ? new Fraction(f.num, f.den << BigInt(k)) : new Fraction(f.num << BigInt(-k), f.den);
  const wf = fixed(w);
  const u = ((wf - ONE) * ONE) / (wf + ONE);
  return 2n * atanh(u) + BigInt(k) * LN2;
}

/** A fixed-point value as a fraction (exact: it is a decimal). */
export const toFraction = (x: bigint): Fraction => new Fraction(x, ONE);
