/**
 * What the stored metrics read of a trade and of a share credit, as one compact JSON array per
 * row built in the target, and parsed back into the domain's inputs (src/domain): the holdings
 * step reads a holding's own (src/sync/holdings.ts), the customers step a customer's served ones
 * when a figure needs the exact path (src/sync/customers.ts), and the performance read a
 * holding's when an unpriced position's stored C is inexact (src/db/queries/performance.ts).
 * Money travels as exact decimal text.
 */
import { type SQL, sql } from "drizzle-orm";
import type { CreditInput, TradeInput } from "../domain";

/** SQL: trade `t` as one JSON array. */
export const TRADE_TUPLE = sql`json_build_array(t.id, t.account_id, t.trade_date, t.stock_code, t.type, t.quantity,
  t.total_value::text, t.fee::text, t.personal_tax::text)`;
type TradeTuple = [string, string, string, string, "buy" | "sell", number, string, string, string];

export function parseTrades(json: string): TradeInput[] {
  return (JSON.parse(json) as TradeTuple[]).map(
    ([id, account_id, trade_date, stock_code, type, quantity, total_value, fee, personal_tax]) => ({
      id,
      account_id,
      trade_date,
      stock_code,
      type,
      quantity,
      total_value,
      fee,
      personal_tax,
    }),
  );
}

/** SQL: share credit `c` (a corporate action) as one JSON array: what FIFO needs of it. */
export const creditTuple = (c: string): SQL =>
  sql`json_build_array(${sql.identifier(c)}.id, ${sql.identifier(c)}.account_id, ${sql.identifier(c)}.stock_code,
    ${sql.identifier(c)}.ex_date, ${sql.identifier(c)}.quantity)`;
type CreditTuple = [string, string, string, string, number];

export function parseCredits(json: string): CreditInput[] {
  return (JSON.parse(json) as CreditTuple[]).map(([id, account_id, stock_code, ex_date, quantity]) => ({
    id,
    account_id,
    stock_code,
    ex_date,
    quantity,
  }));
}
