/**
 * Sums of exact rationals in a fixed scale, and the proof that rounds them once, correctly.
 *
 * A deal's pnl (in 10^-4 đồng) and holding days are exact fractions n/d. Adding fractions
 * exactly makes denominators grow with the book, so sums are kept in a fixed scale instead:
 * each term is stored as trunc(n * SCALE / d), and a term whose division leaves a remainder is
 * counted as inexact. Truncation moves an inexact term by less than one unit of the scale and
 * an exact one not at all, so a sum of terms with k inexact ones lies strictly within k units
 * of the exact sum: the exact value t satisfies |t - sum| < k. Rounding (half away from zero)
 * is monotone, so when sum - k and sum + k round to the same output, t rounds to it too; with
 * k = 0 the sum is exact and a half-way tie is decided exactly. Otherwise the figure is
 * undecided and only the individual deals can settle it (exact.ts).
 *
 * SCALE = 10^16 * lcm(1..32): any fraction whose reduced denominator divides it is exact, which
 * covers every split of a lot or sell of up to 3,200 shares in whole đồng (denominators
 * of q/100 with q <= 32), so realistic books are mostly exact; the 10^16 keeps an inexact term's
 * error below 10^-20 đồng, so undecided figures only occur at (near-)ties.
 */
import { gcd, roundDiv } from "./units";

function lcmUpTo(n: number): bigint {
  let l = 1n;
  for (let i = 2n; i <= BigInt(n); i++) l = (l / gcd(l, i)) * i;
  return l;
}

export const SCALE = 10n ** 16n * lcmUpTo(32);

/**
 * round((t * mul) / div) for every t with |t - sum| < inexact, or null when those do not all
 * round alike. div > 0, mul > 0.
 */
export function decide(sum: bigint, inexact: number, mul: bigint, div: bigint): bigint | null {
  if (inexact === 0) return roundDiv(sum * mul, div);
  const k = BigInt(inexact);
  const low = roundDiv((sum - k) * mul, div);
  return low === roundDiv((sum + k) * mul, div) ? low : null;
}

/**
 * round(10^4 * w / l), the profit factor, for exact w within `wInexact` of `w` and l within
 * `lInexact` of `l` (both true values positive), or null when the interval's ends round apart.
 */
export function decideRatio(w: bigint, wInexact: number, l: bigint, lInexact: number): bigint | null {
  if (wInexact === 0 && lInexact === 0) return roundDiv(w * 10_000n, l);
  const wLow = w - BigInt(wInexact);
  const lLow = l - BigInt(lInexact);
  if (lLow <= 0n) return null;
  // The ratio grows with w and falls with l; w > 0, so its lowest end is at w >= 0.
  const low = roundDiv((wLow > 0n ? wLow : 0n) * 10_000n, l + BigInt(lInexact));
  return low === roundDiv((w + BigInt(wInexact)) * 10_000n, lLow) ? low : null;
}
