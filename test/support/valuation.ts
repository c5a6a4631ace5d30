/**
 * The valuation of docs/valuation.md, restated simply for the tests: the latest live, acceptable close
 * of each stock by scanning every close, and each figure in exact integer ten-thousandths of a
 * đồng (BigInt), rounded once, half away from zero, to 2 places. Figures come out as the JSON
 * number the API's exact decimal text parses to.
 */
import type { StockPriceRow } from "../../src/db/source";

const STOCK_CODE = /^[A-Z0-9]{1,10}$/;
const SCALE = 4;

/** A decimal string as an integer number of 10^-4. */
export function scaled(decimal: string): bigint {
  const negative = decimal.startsWith("-");
  const [whole, fraction = ""] = decimal.replace(/^[-+]/, "").split(".");
  const value = BigInt(whole! + fraction.padEnd(SCALE, "0").slice(0, SCALE));
  return negative ? -value : value;
}

/** An integer number of 10^-4, rounded half away from zero to 2 places, as the API's JSON number. */
export function money(tenThousandths: bigint): number {
  const negative = tenThousandths < 0n;
  const magnitude = negative ? -tenThousandths : tenThousandths;
  const cents = (magnitude + 50n) / 100n;
  const text = `${negative && cents > 0n ? "-" : ""}${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
  return Number(text);
}

export interface Close {
  trade_date: string;
  close_price: string;
}

/** Each stock's latest close: live, positive, a code the API can serve; the newer change wins a tie. */
export function latestCloses(prices: readonly StockPriceRow[]): Map<string, Close> {
  const latest = new Map<string, StockPriceRow>();
  for (const p of prices) {
    if (p.deleted_at !== null || scaled(p.close_price) <= 0n || !STOCK_CODE.test(p.stock_code)) continue;
    const held = latest.get(p.stock_code);
    const newer =
      !held ||
      p.trade_date > held.trade_date ||
      (p.trade_date === held.trade_date &&
        (p.updated_at > held.updated_at || (p.updated_at === held.updated_at && p.id > held.id)));
    if (newer) latest.set(p.stock_code, p);
  }
  return latest;
}

interface Valued {
  stock_code: string;
  quantity: number;
  total_cost: string;
}

/** A holding's four valuation fields (all null without a close). */
export function holdingValuation(h: Valued, closes: Map<string, Close>) {
  const close = closes.get(h.stock_code);
  if (!close) return { market_price: null, price_date: null, market_value: null, unrealized_pnl: null };
  const value = BigInt(h.quantity) * scaled(close.close_price);
  return {
    market_price: Number(close.close_price),
    price_date: close.trade_date,
    market_value: money(value),
    unrealized_pnl: money(value - scaled(h.total_cost)),
  };
}

/** The unrealized P&L of the priced holdings before rounding, in 10^-4 đồng: what total_return is rounded with. */
export function unrealizedUnits(holdings: readonly Valued[], closes: Map<string, Close>): bigint {
  let total = 0n;
  for (const h of holdings) {
    const close = closes.get(h.stock_code);
    if (close) total += BigInt(h.quantity) * scaled(close.close_price) - scaled(h.total_cost);
  }
  return total;
}

/** Stats' `valuation` over a customer's served holdings. */
export function valuationOf(holdings: readonly Valued[], closes: Map<string, Close>) {
  let cost = 0n;
  let pricedCost = 0n;
  let value = 0n;
  let priced = 0;
  let asOf: string | null = null;
  for (const h of holdings) {
    cost += scaled(h.total_cost);
    const close = closes.get(h.stock_code);
    if (!close) continue;
    priced++;
    pricedCost += scaled(h.total_cost);
    value += BigInt(h.quantity) * scaled(close.close_price);
    if (asOf === null || close.trade_date > asOf) asOf = close.trade_date;
  }
  return {
    as_of: asOf,
    cost: money(cost),
    priced_cost: money(pricedCost),
    market_value: money(value),
    unrealized_pnl: money(value - pricedCost),
    priced_holdings: priced,
    unpriced_holdings: holdings.length - priced,
  };
}
