import type { CustomerMetrics } from "./types";

/**
 * The metrics of a customer without trades, which is also what a customer reads before the
 * sync has computed and stored their metrics: zeros, no date range, no deals (DESIGN §6).
 * Equal to `computeMetrics([])`, written out so a reader sees the shape.
 */
export const EMPTY_METRICS: CustomerMetrics = {
  stats: {
    total_buy_value: 0,
    total_sell_value: 0,
    total_buy_fee: 0,
    total_sell_fee: 0,
    total_tax: 0,
    realized_pnl: 0,
    realized_pnl_average_cost: 0,
    transaction_count: 0,
    date_range: { from: null, to: null },
    dividends: { count: 0, gross: 0, tax: 0, net: 0 },
    total_return: 0,
  },
  analytics: {
    summary: {
      total_deals: 0,
      win_deals: 0,
      loss_deals: 0,
      win_rate: 0,
      avg_win_pnl: 0,
      avg_loss_pnl: 0,
      profit_factor: 0,
      avg_holding_days_win: 0,
      avg_holding_days_loss: 0,
      total_realized_pnl: 0,
      total_fee_tax: 0,
      monthly_trade_counts: {},
      monthly_realized_pnl: {},
      unmatched_sell_quantity: 0,
    },
    top_wins: [],
    top_losses: [],
  },
};
