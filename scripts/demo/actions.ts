/**
 * The demo's corporate calendar (docs/corporate-actions.md):
 * a yearly cash dividend for most tickers, a few stock dividends and one bonus issue.
 * Fixed by ticker and year, with no random draw, so the demo stays reproducible from its seed and
 * the calendar is the same for every customer, as an issuer's is. Customers receive what their
 * positions are entitled to (generate.ts).
 */
import { TICKERS } from "./market";

export interface CorporateEvent {
  ticker: number;
  /** Trading-day indexes of the ex-rights date and of the payment. */
  exDay: number;
  payDay: number;
  /** Cash: đồng per share (5% withheld); shares: new shares per 100 held, rounded down per account. */
  kind: { cash: number } | { per100: number };
}

/** Personal income tax withheld on cash dividends: 5%, so a dividend of whole hundreds of đồng taxes whole đồng. */
export const DIVIDEND_TAX_PERCENT = 5n;

/** The first trading day on or after `date`, or -1 past the last one. */
function dayOnOrAfter(days: readonly string[], date: string): number {
  let lo = 0;
  let hi = days.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (days[mid]! < date) lo = mid + 1;
    else hi = mid;
  }
  return lo < days.length ? lo : -1;
}

/** Every event with its ex-date within `days`, in ex-date order (then ticker). */
export function corporateCalendar(days: readonly string[]): CorporateEvent[] {
  const events: CorporateEvent[] = [];
  const first = Number(days[0]!.slice(0, 4));
  const last = Number(days[days.length - 1]!.slice(0, 4));
  const at = (ticker: number, date: string, kind: CorporateEvent["kind"]) => {
    const exDay = dayOnOrAfter(days, date);
    if (exDay < 0) return;
    events.push({ ticker, exDay, payDay: Math.min(exDay + 15, days.length - 1), kind });
  };
  for (let year = first; year <= last; year++) {
    TICKERS.forEach((_, i) => {
      const month = String(5 + (i % 4)).padStart(2, "0");
      const day = String(10 + (i % 15)).padStart(2, "0");
      // Two tickers in three pay a cash dividend each summer: 500 to 2,000 đồng a share.
      if (i % 3 !== 2) at(i, `${year}-${month}-${day}`, { cash: 500 + 100 * (i % 16) });
      // Stock dividends of 10 and 15 per 100 in the autumns of 2022 and 2024.
      if (i % 5 === 1 && (year === 2022 || year === 2024)) at(i, `${year}-09-${day}`, { per100: year === 2022 ? 10 : 15 });
    });
    // One bonus issue: 20 new shares per 100 held.
    if (year === 2023) at(1, "2023-11-20", { per100: 20 });
  }
  return events.sort((a, b) => a.exDay - b.exDay || a.ticker - b.ticker);
}

/**
 * Spreads `quantity` credited shares over lots with `remaining` shares as the service does
 * (docs/corporate-actions.md): floor(q * r / R) each,
 * then one each to the largest remainders, ties to the earlier lot. Returns each lot's share.
 */
export function spreadCredit(remaining: readonly number[], quantity: number): number[] {
  const total = remaining.reduce((s, r) => s + r, 0);
  const parts = remaining.map((r) => Math.floor((quantity * r) / total));
  let left = quantity - parts.reduce((s, p) => s + p, 0);
  const order = remaining.map((r, i) => [(quantity * r) % total, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left === 0) break;
    parts[i]!++;
    left--;
  }
  return parts;
}
