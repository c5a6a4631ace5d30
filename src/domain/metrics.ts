import { type Decimal, ZERO, div, divInt, fromInt, toNumber } from "./decimal";
import { type ExactDeal, matchFifo, parseTrade } from "./fifo";
import type { CustomerMetrics, Deal, TradeInput } from "./types";

const TOP_DEALS = 5;

/**
 * Stats and analytics for one customer's transactions in all accounts (DESIGN §6). Everything
 * is summed exactly; each output number is rounded once, at the end, half away from zero.
 */
export function computeMetrics(trades: readonly TradeInput[]): CustomerMetrics {
  const parsed = trades.map(parseTrade);

  let buyValue = ZERO;
  let sellValue = ZERO;
  let buyFee = ZERO;
  let sellFee = ZERO;
  let tax = ZERO;
  let from: string | null = null;
  let to: string | null = null;
  const months = new Map<string, number>();
  for (const t of parsed) {
    if (t.type === "buy") {
      buyValue += t.total_value;
      buyFee += t.fee;
    } else {
      sellValue += t.total_value;
      sellFee += t.fee;
    }
    tax += t.personal_tax;
    if (from === null || t.trade_date < from) from = t.trade_date;
    if (to === null || t.trade_date > to) to = t.trade_date;
    const month = t.trade_date.slice(0, 7);
    months.set(month, (months.get(month) ?? 0) + 1);
  }

  const { deals, unmatched_sell_quantity } = matchFifo(parsed);
  const wins = deals.filter((d) => d.realized_pnl > 0n);
  const losses = deals.filter((d) => d.realized_pnl < 0n);
  const winPnl = sum(wins, (d) => d.realized_pnl);
  const lossPnl = sum(losses, (d) => d.realized_pnl);
  const realizedPnl = toNumber(sum(deals, (d) => d.realized_pnl), 2);

  let profitFactor: number | null = 0;
  if (winPnl > 0n) profitFactor = lossPnl < 0n ? toNumber(div(winPnl, -lossPnl), 4) : null;

  return {
    stats: {
      total_buy_value: toNumber(buyValue, 2),
      total_sell_value: toNumber(sellValue, 2),
      total_buy_fee: toNumber(buyFee, 2),
      total_sell_fee: toNumber(sellFee, 2),
      total_tax: toNumber(tax, 2),
      realized_pnl: realizedPnl,
      transaction_count: trades.length,
      date_range: { from, to },
    },
    analytics: {
      summary: {
        total_deals: deals.length,
        win_deals: wins.length,
        loss_deals: losses.length,
        win_rate: toNumber(mean(fromInt(wins.length), deals.length), 4),
        avg_win_pnl: toNumber(mean(winPnl, wins.length), 2),
        avg_loss_pnl: toNumber(mean(lossPnl, losses.length), 2),
        profit_factor: profitFactor,
        avg_holding_days_win: toNumber(mean(sum(wins, (d) => d.holding_days), wins.length), 2),
        avg_holding_days_loss: toNumber(mean(sum(losses, (d) => d.holding_days), losses.length), 2),
        total_realized_pnl: realizedPnl,
        total_fee_tax: toNumber(buyFee + sellFee + tax, 2),
        // Month keys are not array indices, so the object keeps this ascending insertion order.
        monthly_trade_counts: Object.fromEntries([...months].sort(([a], [b]) => compare(a, b))),
        monthly_realized_pnl: monthlyPnl(deals),
        unmatched_sell_quantity,
      },
      top_wins: topDeals(wins, (a, b) => compare(b.realized_pnl, a.realized_pnl)),
      top_losses: topDeals(losses, (a, b) => compare(a.realized_pnl, b.realized_pnl)),
    },
  };
}

function sum(deals: readonly ExactDeal[], value: (deal: ExactDeal) => Decimal): Decimal {
  let total = ZERO;
  for (const deal of deals) total += value(deal);
  return total;
}

/** Summed exactly per month of the sell, each month rounded once. */
function monthlyPnl(deals: readonly ExactDeal[]): Record<string, number> {
  const months = new Map<string, Decimal>();
  for (const deal of deals) {
    const month = deal.sell_date.slice(0, 7);
    months.set(month, (months.get(month) ?? ZERO) + deal.realized_pnl);
  }
  return Object.fromEntries([...months].sort(([a], [b]) => compare(a, b)).map(([month, pnl]) => [month, toNumber(pnl, 2)]));
}

/** With nothing to average the result is 0 (DESIGN §6). */
function mean(total: Decimal, count: number): Decimal {
  return count === 0 ? ZERO : divInt(total, count);
}

/**
 * Ranks on exact pnl, then sell_date descending, then stock_code. The sell's id settles the
 * remaining ties (same pnl, day and code in two accounts), so input order never shows. One
 * pass keeping the best few in order: no sort of every deal.
 */
function topDeals(deals: readonly ExactDeal[], byPnl: (a: ExactDeal, b: ExactDeal) => number): Deal[] {
  const ranks = (a: ExactDeal, b: ExactDeal) =>
    byPnl(a, b) || compare(b.sell_date, a.sell_date) || compare(a.stock_code, b.stock_code) || compare(a.sell_id, b.sell_id);
  const top: ExactDeal[] = [];
  for (const deal of deals) {
    let at = top.length;
    while (at > 0 && ranks(deal, top[at - 1] as ExactDeal) < 0) at--;
    if (at === TOP_DEALS) continue;
    top.splice(at, 0, deal);
    if (top.length > TOP_DEALS) top.pop();
  }
  return top.map((d) => ({
    stock_code: d.stock_code,
    sell_date: d.sell_date,
    realized_pnl: toNumber(d.realized_pnl, 2),
    holding_days: toNumber(d.holding_days, 0),
    quantity_sold: d.quantity_sold,
  }));
}

function compare<T extends string | bigint>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
