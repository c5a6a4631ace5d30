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
import { ONE, div, roundScaled, sub } from "./rational";

export interface Drawdown {
  max: Decimal;
  peak_date: string | null;
  trough_date: string | null;
}

export const NO_DRAWDOWN: Drawdown = { max: Decimal.ZERO, peak_date: null, trough_date: null };

/** a < b, exactly, for fractions with positive denominators. */
const below = (a: Fraction, b: Fraction) => a.num * b.den < b.num * a.den;

/** The drawdown of the levels I(d) of a period starting at `s`, ascending by date. */
export function drawdownOf(s: string, levels: readonly { date: string; level: Fraction }[]): Drawdown {
  let peak = ONE;
  let peakDate = s;
  // The lowest I / P so far (1 - DD), and where; only a DD above 0 counts.
  let lowest = ONE;
  let found: { peak: string; trough: string } | undefined;
  for (const { date, level } of levels) {
    if (!below(level, peak)) {
      // A new peak, or the same height again: the peak is the latest date it was reached.
      peak = level;
      peakDate = date;
      continue;
    }
    const ratio = div(level, peak);
    if (below(ratio, lowest)) {
      lowest = ratio;
      found = { peak: peakDate, trough: date };
    }
  }
  if (!found) return NO_DRAWDOWN;
  return { max: Decimal.fromScaled(roundScaled(sub(ONE, lowest), 4), 4), peak_date: found.peak, trough_date: found.trough };
}
