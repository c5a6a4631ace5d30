/**
 * A customer's valuation (DESIGN §6.1), added up at read time from the served holdings and
 * latest_prices, inside the read's one statement: a price day changes one row per stock, never
 * anything stored per customer, and every answer carrying a valuation reads the closes as they
 * are now. Sums are exact (numeric) and rounded once, half away from zero, to 2 places; money
 * travels as text (`::text`) so that no digit is lost (src/db/exact-json.ts).
 */
import { sql } from "drizzle-orm";
import { holdings, latestPrices } from "../schema";
import { holdingMarketValue, servedHoldingsWithPrices } from "./shapes";
import type { Stats } from "../../domain/types";
import type { ServedStats, Valuation } from "./types";

const priced = sql`${latestPrices.stockCode} is not null`;

/** The customer's valuation object, its money as text (decoded by the reader); needs `customers` in scope. */
export const valuationJson = sql<unknown>`(
  select json_build_object(
    'as_of', max(${latestPrices.tradeDate}),
    'cost', round(coalesce(sum(${holdings.totalCost}), 0), 2)::text,
    'priced_cost', round(coalesce(sum(${holdings.totalCost}) filter (where ${priced}), 0), 2)::text,
    'market_value', round(coalesce(sum(${holdingMarketValue}), 0), 2)::text,
    'unrealized_pnl', round(coalesce(sum(${holdingMarketValue} - ${holdings.totalCost}), 0), 2)::text,
    'priced_holdings', count(*) filter (where ${priced}),
    'unpriced_holdings', count(*) filter (where not ${priced}))
  ${servedHoldingsWithPrices}
)`;

/**
 * The stored stats as served, beside their valuation. `total_return` (DESIGN §6.1) needs the
 * unrealized P&L, known only at read time: the stored figure is `realized_pnl_average_cost` +
 * `dividends.net` rounded once from their exact parts, and the valuation's `unrealized_pnl`,
 * itself rounded once from exact sums, is added here. Two roundings, so the served figure may
 * differ by 0.01 đồng from one rounding of the three exact parts.
 */
export function servedStats(stats: Stats, valuation: Valuation): ServedStats {
  return { ...stats, total_return: stats.total_return.plus(valuation.unrealized_pnl), valuation };
}
