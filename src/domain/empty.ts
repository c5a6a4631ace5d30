import { Decimal } from "./decimal";
import type { CustomerMetrics } from "./types";

/**
 * The metrics of a customer without trades, which is also what a customer reads before the
 * sync has computed and stored their metrics: zeros, no date range, no deals (docs/pnl.md).
 * Equal to `computeMetrics([])`, written out so a reader sees the shape.
 */
export const EMPTY_METRICS: CustomerMetrics = {
  stats: {
    total_buy_value: Decimal.ZERO,
    total_sell_value: Decimal.ZERO,
    total_buy_fee: Decimal.ZERO,
    total_sell_fee: Decimal.ZERO,
    total_tax: Decimal.ZERO,
    realized_pnl: Decimal.ZERO,
    realized_pnl_average_cost: Decimal.ZERO,
    transaction_count: 0,
    date_range: { from: null, to: null },
    dividends: { count: 0, gross: Decimal.ZERO, tax: Decimal.ZERO, net: Decimal.ZERO },
    total_return: Decimal.ZERO,
  },
  analytics: {
    summary: {
      total_deals: 0,
      win_deals: 0,
      loss_deals: 0,
      win_rate: 0,
      avg_win_pnl: Decimal.ZERO,
      avg_loss_pnl: Decimal.ZERO,
      profit_factor: Decimal.ZERO,
      avg_holding_days_win: 0,
      avg_holding_days_loss: 0,
      total_realized_pnl: Decimal.ZERO,
      total_fee_tax: Decimal.ZERO,
      monthly_trade_counts: {},
      monthly_realized_pnl: {},
      unmatched_sell_quantity: 0,
    },
    top_wins: [],
    top_losses: [],
  },
};
