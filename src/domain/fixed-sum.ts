/**
 * A fixed-scale sum as terms arrive (FixedSum): integers and exact fractions added, or taken
 * back, one at a time, with the count of inexact terms fixed.ts needs to decide the rounding.
 * Apart from fixed.ts, which states the scale and proves the rounding, because this is the
 * adding the hot path does per deal, with its own representation (a double for small integers)
 * that every holding's aggregate, merge and output read.
 */
import { SCALE } from "./fixed";

/**
 * A fixed-scale sum (fixed.ts), worth (whole + small) * SCALE + scaled units of SCALE, and
 * within `inexact` units of the exact sum. Integer terms (most deals) go to `whole` unscaled,
 * and those below 2^52 in magnitude to the double `small` first (addInteger), so they cost one
 * float addition and no bigint at all.
 */
export interface FixedSum {
  whole: bigint;
  /** An exact integer, |small| < 2^52. */
  small: number;
  scaled: bigint;
  inexact: number;
}

export function fixedSum(): FixedSum {
  return { whole: 0n, small: 0, scaled: 0n, inexact: 0 };
}

/** The sum in units of SCALE. */
export function scaledTotal(s: FixedSum): bigint {
  return (s.whole + BigInt(s.small)) * SCALE + s.scaled;
}

const HALF = 2 ** 52;

/**
 * Adds the integer x (|x| < 2^53, exact) to `total`. Both |small| and an added |x| are kept below
 * 2^52, so their sum is below 2^53 and exact; a sum reaching 2^52 moves to the bigint.
 */
export function addInteger(total: FixedSum, x: number): void {
  if (x >= HALF || x <= -HALF) {
    total.whole += BigInt(x);
    return;
  }
  const sum = total.small + x;
  if (sum >= HALF || sum <= -HALF) {
    total.whole += BigInt(sum);
    total.small = 0;
  } else total.small = sum;
}

/** Adds the fraction num/den (den > 0) to `total`. */
export function addFraction(total: FixedSum, num: bigint, den: bigint): void {
  if (den === 1n) {
    total.whole += num;
    return;
  }
  const scaled = num * SCALE;
  const q = scaled / den;
  total.scaled += q;
  if (q * den !== scaled) total.inexact++;
}

/**
 * Adds a term already in units of SCALE and within `inexact` units of its exact value; both
 * negated, it takes back out exactly a term added before.
 */
export function addScaled(total: FixedSum, scaled: bigint, inexact: number): void {
  total.scaled += scaled;
  total.inexact += inexact;
}

/** Adds the sum `b` into `a`. */
export function addSum(a: FixedSum, b: FixedSum): void {
  a.whole += b.whole;
  addInteger(a, b.small);
  a.scaled += b.scaled;
  a.inexact += b.inexact;
}
