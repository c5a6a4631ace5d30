/**
 * Closing prices as the reads value the holdings with them (docs/valuation.md): each stock's
 * latest close, and the codes whose latest close may have changed, both kept by src/sync/prices.ts
 * from the closes the target copies (`stock_prices`, src/db/schema/copies.ts).
 */
import { date, pgTable, text } from "drizzle-orm/pg-core";
import { money } from "../contract";

/**
 * The close every holding of a stock is valued at: the live close with the latest trade date.
 * The sync keeps it in step set-based from the codes whose closes changed (prices_pending), so
 * a price day costs one pass over the day's closes; reads join it by stock code, in their one
 * statement, instead of anything being stored per customer.
 */
export const latestPrices = pgTable("latest_prices", {
  stockCode: text("stock_code").primaryKey(),
  tradeDate: date("trade_date", { mode: "string" }).notNull(),
  closePrice: money("close_price").notNull(),
});

/**
 * Stock codes whose latest close may have changed, written with the price rows that changed it
 * (in the same transaction), and emptied when latest_prices is brought up to date.
 */
export const pricesPending = pgTable("prices_pending", {
  stockCode: text("stock_code").primaryKey(),
});
