/**
 * Total return (docs/corporate-actions.md): realized P&L by average cost + net dividends + the valuation's
 * unrealized P&L, rounded ONCE to 2 places, half away from zero. The first two are known when
 * the sync stores a customer's metrics; the unrealized P&L only when a request reads the latest
 * closes (src/db/queries/valuation.ts). So the stored metrics keep the first two as a *part*
 * precise enough that adding the unrealized P&L and rounding gives round(exact sum), and the
 * read rounds once (servedTotalReturn).
 *
 * Why 5 decimal places suffice, though the realized part is an exact rational that may not end
 * (a sell of 3 of 7 shares bought for 10 đồng realizes a multiple of 1/7):
 *
 * - the unrealized P&L U is a multiple of 10^-4 đồng: a sum of integer quantities times
 *   numeric(20,4) closes, less numeric(20,4) costs;
 * - rounding to 2 places changes value only at the points (k + 1/2) * 10^-2, all of them
 *   multiples of 10^-4, so it is constant on each open interval (m * 10^-4, (m + 1) * 10^-4);
 * - S + U lies in such an open interval exactly when S lies in the one shifted by U.
 *
 * So S may be replaced by any point of its interval: the stored part is S itself when S is a
 * multiple of 10^-4, otherwise the midpoint of the 10^-4 interval holding it, floor(S) + 1/2 in
 * units of 10^-4, which is 5 decimal places. A tie (S + U exactly on a half cent) can only
 * happen when S is on the grid, and then S is kept exactly, so a tie is never mis-rounded;
 * rounding S to 2 places before adding U (two roundings) would be off by 0.01 whenever S + U
 * and round(S) + U fall on different sides of a half cent.
 */
import { Decimal } from "./decimal";
import type { Fraction } from "./exact";
import { SCALE } from "./fixed";

/** The stored part's places: 10^-5 đồng, one more than the source's numeric(20,4). */
export const RETURN_PART_PLACES = 5;

/** floor(a / b), b > 0 (bigint `/` truncates toward zero). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b > a ? q - 1n : q;
}

/** The part (in 10^-5 đồng) of S = num / den in 10^-4 đồng: S on the grid, else its interval's midpoint. */
function partOf(num: bigint, den: bigint): bigint {
  const whole = floorDiv(num, den);
  return whole * 10n + (whole * den === num ? 0n : 5n);
}

/** The stored part of an exact S = f.num / f.den, in 10^-4 đồng (f.den > 0). */
export function returnPartExact(f: Fraction): Decimal {
  return Decimal.fromScaled(partOf(f.num, f.den), RETURN_PART_PLACES);
}

/**
 * The stored part of a fixed-scale sum (fixed.ts): `sum` is S * SCALE in 10^-4 đồng, within
 * `inexact` units of the exact value (strictly, when inexact > 0). Null when that interval
 * touches a multiple of 10^-4 other than inside it, so only the exact terms can settle it.
 */
export function decideReturnPart(sum: bigint, inexact: number): Decimal | null {
  if (inexact === 0) return Decimal.fromScaled(partOf(sum, SCALE), RETURN_PART_PLACES);
  const k = BigInt(inexact);
  // The exact value t lies in (sum - k, sum + k); the cell [m, m + 1) * SCALE holds sum - k.
  const m = floorDiv(sum - k, SCALE);
  if (sum + k > (m + 1n) * SCALE) return null;
  // m * SCALE <= sum - k < t < sum + k <= (m + 1) * SCALE: t is strictly inside the cell.
  return Decimal.fromScaled(m * 10n + 5n, RETURN_PART_PLACES);
}

/**
 * The served total return: the stored part plus the valuation's exact (unrounded) unrealized
 * P&L, rounded once to 2 places, half away from zero.
 */
export function servedTotalReturn(part: Decimal, unrealized: Decimal): Decimal {
  return part.plus(unrealized).rounded(2);
}
