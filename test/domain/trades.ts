import type { TradeInput } from "../../src/domain";

export const ACCOUNT_A = "0a000000-0000-4000-8000-00000000000a";
export const ACCOUNT_B = "0b000000-0000-4000-8000-00000000000b";

type Extra = Partial<Pick<TradeInput, "account_id" | "stock_code" | "fee" | "personal_tax">>;

/** A uuid that sorts by n, so tests control the id tie-break. */
export function tradeId(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
}

/**
 * Builds one test's trades. Ids count up in creation order; account A, stock "X" and zero fee
 * and tax unless given.
 */
export function tradeFactory() {
  let n = 0;
  const make =
    (type: TradeInput["type"]) =>
    (trade_date: string, quantity: number, total_value: string, extra: Extra = {}): TradeInput => ({
      id: tradeId(++n),
      account_id: ACCOUNT_A,
      stock_code: "X",
      trade_date,
      type,
      quantity,
      total_value,
      fee: "0.0000",
      personal_tax: "0.0000",
      ...extra,
    });
  return { buy: make("buy"), sell: make("sell") };
}

/** Trades grouped by holding, keyed `account_id|stock_code`, each group in the order given. */
export function byHolding<T extends Pick<TradeInput, "account_id" | "stock_code">>(trades: readonly T[]): Map<string, T[]> {
  const holdings = new Map<string, T[]>();
  for (const t of trades) {
    const key = `${t.account_id}|${t.stock_code}`;
    holdings.set(key, [...(holdings.get(key) ?? []), t]);
  }
  return holdings;
}
