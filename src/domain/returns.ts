/**
 * The annualized twr of docs/performance.md ("The rules, exactly"), rounded once, half away from
 * zero, to 4 places; and, re-exported, the money-weighted return, whose solver is ./mwr/.
 */
import { Decimal } from "./decimal";
import type { Fraction } from "./exact";
import { PLACES } from "./mwr/constants";
import { roundPower } from "./mwr/round";

export { type CashFlow, type Mwr, type MwrStatus, moneyWeightedReturn } from "./mwr";

/**
 * (1 + twr)^(365/days) - 1 from the exact `twr`, rounded to 4 places; null when 1 + twr <= 0
 * (`annualized.twr` in docs/performance.md). Called when days >= 365, but right for any days >= 1. `twr` must be
 * in lowest terms, den > 0, as src/domain/rational.ts gives it; then so is 1 + twr. Reducing it
 * here again ran Euclid on a product of a thousand days' values: most of a range=max read
 * (`rational` in docs/sync.md).
 */
export function annualizedTwr(twr: Fraction, days: number): Decimal | null {
  if (!Number.isSafeInteger(days) || days < 1) throw new RangeError(`days must be a positive whole number: ${days}`);
  const base = { num: twr.num + twr.den, den: twr.den };
  if (base.num <= 0n) return null;
  return Decimal.fromScaled(roundPower(base, 365, days), PLACES);
}
