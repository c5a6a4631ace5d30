/**
 * The worst fall over a period (s, e] (docs/performance.md, "The worst fall"): on every point of the
 * period, whatever the chart's interval, I(s) = 1 and I(d) the product of 1 + r(u) over the
 * period's points u <= d; P(d) the largest I over s and those points; DD(d) = 1 - I(d) / P(d).
 * `max` is the largest DD, past 1 when a day's 1 + r is 0 or less; the trough is the earliest
 * point where DD is `max`, the peak the latest date on or before it where I was P. Decided on
 * exact values, the rate rounded once to 4 places.
 */
import { Decimal } from "./decimal";
import type { Fraction } from "./exact";
import { bitLength } from "./bigfloat";
import { ONE, div, roundScaled, sub } from "./rational";

export interface Drawdown {
  max: Decimal;
  peak_date: string | null;
  trough_date: string | null;
}

export const NO_DRAWDOWN: Drawdown = { max: Decimal.ZERO, peak_date: null, trough_date: null };

/**
 * A fraction's value as a double, from the top 60 bits of each side: the levels are long products
 * (thousands of digits over a long range), and multiplying them out for every comparison cost
 * most of a range=max read. NaN for 0 and for values near or past a double's range.
 */
function approxOf(f: Fraction): number {
  const sn = Math.max(0, bitLength(f.num) - 60);
  const sd = Math.max(0, bitLength(f.den) - 60);
  const value = (Number(f.num >> BigInt(sn)) / Number(f.den >> BigInt(sd))) * 2 ** (sn - sd);
  // Near a double's limits its precision goes: the exact comparison decides there.
  return Math.abs(value) > 1e-300 && Math.abs(value) < 1e300 ? value : Number.NaN;
}

/**
 * x < y decided by the doubles `ax`, `ay` when they lie clearly apart (each within 2^-58 of its
 * value, so a relative gap above 10^-9 cannot be an error of theirs), else by `exact`.
 */
const lessThan = (ax: number, ay: number, exact: () => boolean) =>
  Math.abs(ax - ay) > 1e-9 * Math.max(Math.abs(ax), Math.abs(ay)) ? ax < ay : exact();

/** A level with its double, and a level over the peak before it kept as the pair (no gcd per point). */
interface Level {
  at: Fraction;
  approx: number;
}
interface Fall {
  level: Level;
  peak: Level;
}

const below = (a: Level, b: Level) => lessThan(a.approx, b.approx, () => a.at.num * b.at.den < b.at.num * a.at.den);

/** x.level / x.peak < y.level / y.peak; peaks are positive (they start at 1 and only rise). */
const deeper = (x: Fall, y: Fall) =>
  lessThan(
    x.level.approx / x.peak.approx,
    y.level.approx / y.peak.approx,
    () =>
      x.level.at.num * x.peak.at.den * y.level.at.den * y.peak.at.num <
      y.level.at.num * y.peak.at.den * x.level.at.den * x.peak.at.num,
  );

const ONE_LEVEL: Level = { at: ONE, approx: 1 };

/** The drawdown of the levels I(d) of a period starting at `s`, ascending by date. */
export function drawdownOf(s: string, levels: readonly { date: string; level: Fraction }[]): Drawdown {
  let peak = ONE_LEVEL;
  let peakDate = s;
  // The lowest I / P so far (1 - DD), and where; only a DD above 0 counts.
  let lowest: Fall = { level: ONE_LEVEL, peak: ONE_LEVEL };
  let found: { peak: string; trough: string } | undefined;
  for (const { date, level: at } of levels) {
    const level = { at, approx: approxOf(at) };
    if (!below(level, peak)) {
      // A new peak, or the same height again: the peak is the latest date it was reached.
      peak = level;
      peakDate = date;
      continue;
    }
    const fall = { level, peak };
    if (deeper(fall, lowest)) {
      lowest = fall;
      found = { peak: peakDate, trough: date };
    }
  }
  if (!found) return NO_DRAWDOWN;
  const ratio = div(lowest.level.at, lowest.peak.at);
  return { max: Decimal.fromScaled(roundScaled(sub(ONE, ratio), 4), 4), peak_date: found.peak, trough_date: found.trough };
}
