/**
 * The shapes the P&L engine takes and returns. Inputs carry money as decimal strings, exactly
 * as Postgres `numeric` arrives over the wire, so nothing is rounded through a float on the
 * way in; outputs are the spec's Stats and Analytics with JSON numbers.
 */

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

export interface Stats {
  total_buy_value: number;
  total_sell_value: number;
  total_buy_fee: number;
  total_sell_fee: number;
  total_tax: number;
  realized_pnl: number;
  transaction_count: number;
  date_range: { from: string | null; to: string | null };
}

export interface Deal {
  stock_code: string;
  sell_date: string;
  realized_pnl: number;
  holding_days: number;
  quantity_sold: number;
}

export interface AnalyticsSummary {
  total_deals: number;
  win_deals: number;
  loss_deals: number;
  win_rate: number;
  avg_win_pnl: number;
  avg_loss_pnl: number;
  profit_factor: number | null;
  avg_holding_days_win: number;
  avg_holding_days_loss: number;
  total_realized_pnl: number;
  total_fee_tax: number;
  monthly_trade_counts: Record<string, number>;
  /** Realized P&L of the deals closed in each YYYY-MM month of their sell, ascending. */
  monthly_realized_pnl: Record<string, number>;
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
