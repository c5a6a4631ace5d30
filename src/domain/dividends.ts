/**
 * Cash dividends (docs/corporate-actions.md): income, never trading P&L. A customer's are summed exactly over
 * every served cash dividend, whatever its pay_date, and rounded once at output.
 */
import { parseUnits } from "./units";

/** One cash dividend as the sums need it: money as decimal strings, like TradeInput's. */
export interface DividendInput {
  gross_amount: string;
  tax: string;
}

/** Exact sums of a customer's cash dividends, in 10^-4 đồng. */
export interface DividendSums {
  count: number;
  gross: bigint;
  tax: bigint;
}

export const NO_DIVIDENDS: DividendSums = { count: 0, gross: 0n, tax: 0n };

export function sumDividends(dividends: readonly DividendInput[]): DividendSums {
  let gross = 0n;
  let tax = 0n;
  for (const d of dividends) {
    gross += parseUnits(d.gross_amount);
    tax += parseUnits(d.tax);
  }
  return { count: dividends.length, gross, tax };
}
