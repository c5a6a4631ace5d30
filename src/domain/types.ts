/**
 * The shapes the P&L engine takes and returns. Inputs carry money as decimal strings, exactly
 * as Postgres `numeric` arrives over the wire, so nothing is rounded through a float on the
 * way in; outputs are the Stats and Analytics of src/schemas/resources.ts, money (and the profit factor) as Decimals,
 * which the API writes with every digit (decimal.ts).
 */
import type { Decimal } from "./decimal";

/** One transaction as the engine needs it (a row of the target `transactions` table). */
export interface TradeInput {
  id: string;
  account_id: string;
  trade_date: string; // YYYY-MM-DD
  stock_code: string;
  type: "buy" | "sell";
  quantity: number;
  total_value: string; // decimal string, VND
  fee: string;
  personal_tax: string;
}

/**
 * A share credit (docs/corporate-actions.md: stock dividend, bonus shares, split): `quantity` shares received
 * without payment by one account in one stock, from `ex_date`. A row of the target
 * `corporate_actions` table of type `share_dividend`.
 */
export interface CreditInput {
  id: string;
  account_id: string;
  stock_code: string;
  ex_date: string; // YYYY-MM-DD
  quantity: number;
}

export interface Stats {
  total_buy_value: Decimal;
  total_sell_value: Decimal;
  total_buy_fee: Decimal;
  total_sell_fee: Decimal;
  total_tax: Decimal;
  realized_pnl: Decimal;
  /** Realized P&L by moving average cost per holding, as Vietnamese brokers print it (docs/corporate-actions.md). */
  realized_pnl_average_cost: Decimal;
  transaction_count: number;
  date_range: { from: string | null; to: string | null };
  /** Cash dividends received (docs/corporate-actions.md): income, in no trading figure. net = gross - tax. */
  dividends: { count: number; gross: Decimal; tax: Decimal; net: Decimal };
  /**
   * As stored: realized_pnl_average_cost + dividends.net as the part of total-return.ts (up to
   * 5 places, not rounded to 2). Served as that part plus the valuation's exact unrealized P&L,
   * rounded once (src/db/queries/valuation.ts, docs/valuation.md).
   */
  total_return: Decimal;
}

export interface Deal {
  stock_code: string;
  sell_date: string;
  realized_pnl: Decimal;
  holding_days: number;
  quantity_sold: number;
}

export interface AnalyticsSummary {
  total_deals: number;
  win_deals: number;
  loss_deals: number;
  win_rate: number;
  avg_win_pnl: Decimal;
  avg_loss_pnl: Decimal;
  profit_factor: Decimal | null;
  avg_holding_days_win: number;
  avg_holding_days_loss: number;
  total_realized_pnl: Decimal;
  total_fee_tax: Decimal;
  monthly_trade_counts: Record<string, number>;
  /** Sum of deal pnl by YYYY-MM of the sell's date, ascending; months without a deal absent. */
  monthly_realized_pnl: Record<string, Decimal>;
  /** Sold shares with no open lot to match (history before the data began, bonus shares). */
  unmatched_sell_quantity: number;
}

export interface Analytics {
  summary: AnalyticsSummary;
  top_wins: Deal[];
  top_losses: Deal[];
}

export interface CustomerMetrics {
  stats: Stats;
  analytics: Analytics;
}
