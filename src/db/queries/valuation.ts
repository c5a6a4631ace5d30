/**
 * A customer's valuation (docs/valuation.md), added up at read time from the served holdings and
 * latest_prices, inside the read's one statement: a price day changes one row per stock, never
 * anything stored per customer, and every answer carrying a valuation reads the closes as they
 * are now. Sums are exact (numeric) and rounded once, half away from zero, to 2 places; money
 * travels as text (`::text`) so that no digit is lost (src/db/exact-json.ts).
 */
import { sql } from "drizzle-orm";
import { holdings, latestPrices } from "../schema";
import { holdingMarketValue, servedHoldingsWithPrices } from "./shapes";
import { Decimal } from "../../domain/decimal";
import { servedTotalReturn } from "../../domain/total-return";
import type { Stats } from "../../domain/types";
import { Stats as StatsSchema } from "../../schemas";
import { decodeExact } from "../exact-json";
import type { ServedStats, Valuation } from "./types";

const priced = sql`${latestPrices.stockCode} is not null`;

/**
 * The unrealized P&L before rounding (a multiple of 10^-4 đồng), which total_return is rounded
 * from; read beside the valuation and never served.
 */
const UNREALIZED_EXACT = "unrealized_exact";

/** The customer's valuation object, its money as text (decoded by the reader); needs `customers` in scope. */
export const valuationJson = sql<unknown>`(
  select json_build_object(
    'as_of', max(${latestPrices.tradeDate}),
    'cost', round(coalesce(sum(${holdings.totalCost}), 0), 2)::text,
    'priced_cost', round(coalesce(sum(${holdings.totalCost}) filter (where ${priced}), 0), 2)::text,
    'market_value', round(coalesce(sum(${holdingMarketValue}), 0), 2)::text,
    'unrealized_pnl', round(coalesce(sum(${holdingMarketValue} - ${holdings.totalCost}), 0), 2)::text,
    ${sql.raw(`'${UNREALIZED_EXACT}'`)}, coalesce(sum(${holdingMarketValue} - ${holdings.totalCost}), 0)::text,
    'priced_holdings', count(*) filter (where ${priced}),
    'unpriced_holdings', count(*) filter (where not ${priced}))
  ${servedHoldingsWithPrices}
)`;

/** The valuation as the statement returns it: its money as text, and the unrounded unrealized P&L. */
type ValuationJson = Record<string, unknown> & { [UNREALIZED_EXACT]: string };

/**
 * The stored stats as served, beside their valuation. `total_return` (docs/corporate-actions.md) needs the
 * unrealized P&L, known only at read time: the stored figure is the part of
 * src/domain/total-return.ts (`realized_pnl_average_cost` + `dividends.net`, exact enough), and
 * the valuation's exact unrealized P&L is added here before the one rounding.
 */
export function servedStats(stats: Stats, json: unknown): ServedStats {
  const { [UNREALIZED_EXACT]: unrealized, ...fields } = json as ValuationJson;
  const valuation: Valuation = decodeExact(StatsSchema.shape.valuation, fields);
  return { ...stats, total_return: servedTotalReturn(stats.total_return, Decimal.parse(unrealized)), valuation };
}
