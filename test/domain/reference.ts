/**
 * The reference: DESIGN §6 read literally with exact fractions, one deal object per sell and
 * one Fraction per figure, rounded once at the end. Slow and obvious, so the engine can be
 * checked against it on any book.
 */
import type { CustomerMetrics, Deal, TradeInput } from "../../src/domain";
import { Decimal } from "../../src/domain/decimal";
import { Fraction, money } from "./fraction";

export interface ReferenceDeal {
  sell: TradeInput;
  matched: number;
  pnl: Fraction;
  days: Fraction;
}

const ZERO = new Fraction(0n);

function daysBetween(from: string, to: string): bigint {
  return BigInt((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** FIFO per (account, stock): every lot is a unit cost and a number of shares left. */
export function referenceDeals(trades: readonly TradeInput[]): { deals: ReferenceDeal[]; unmatched: number } {
  const sorted = [...trades].sort(
    (a, b) =>
      a.trade_date.localeCompare(b.trade_date) ||
      (a.type === b.type ? 0 : a.type === "buy" ? -1 : 1) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const lots = new Map<string, { date: string; left: number; unitCost: Fraction }[]>();
  const deals: ReferenceDeal[] = [];
  let unmatched = 0;
  for (const t of sorted) {
    if (t.quantity <= 0) continue;
    const key = `${t.account_id}|${t.stock_code}`;
    const open = lots.get(key) ?? [];
    lots.set(key, open);
    if (t.type === "buy") {
      const cost = money(t.total_value).add(money(t.fee)).add(money(t.personal_tax));
      open.push({ date: t.trade_date, left: t.quantity, unitCost: cost.div(new Fraction(BigInt(t.quantity))) });
      continue;
    }
    let wanted = t.quantity;
    let cost = ZERO;
    let shareDays = 0n;
    while (wanted > 0 && open.length > 0) {
      const lot = open[0]!;
      const take = Math.min(wanted, lot.left);
      cost = cost.add(lot.unitCost.mul(new Fraction(BigInt(take))));
      shareDays += BigInt(take) * daysBetween(lot.date, t.trade_date);
      lot.left -= take;
      wanted -= take;
      if (lot.left === 0) open.shift();
    }
    unmatched += wanted;
    const matched = t.quantity - wanted;
    if (matched === 0) continue;
    const net = money(t.total_value).sub(money(t.fee)).sub(money(t.personal_tax));
    const proceeds = net.mul(new Fraction(BigInt(matched), BigInt(t.quantity)));
    deals.push({ sell: t, matched, pnl: proceeds.sub(cost), days: new Fraction(shareDays, BigInt(matched)) });
  }
  return { deals, unmatched };
}

export function referenceMetrics(trades: readonly TradeInput[]): CustomerMetrics {
  const { deals, unmatched } = referenceDeals(trades);
  const sum = (values: Fraction[]) => values.reduce((a, b) => a.add(b), ZERO);
  const mean = (values: Fraction[]) => (values.length === 0 ? ZERO : sum(values).div(new Fraction(BigInt(values.length))));
  const total = (pick: (t: TradeInput) => string, keep: (t: TradeInput) => boolean) =>
    sum(trades.filter(keep).map((t) => money(pick(t)))).toRoundedDecimal(2);
  const all = () => true;
  const buys = (t: TradeInput) => t.type === "buy";
  const sells = (t: TradeInput) => t.type === "sell";

  const wins = deals.filter((d) => d.pnl.sign() > 0);
  const losses = deals.filter((d) => d.pnl.sign() < 0);
  const winSum = sum(wins.map((d) => d.pnl));
  const lossSum = sum(losses.map((d) => d.pnl));
  const realized = sum(deals.map((d) => d.pnl)).toRoundedDecimal(2);
  const dates = trades.map((t) => t.trade_date).sort();
  const monthsOf = (list: string[]) => [...new Set(list.map((d) => d.slice(0, 7)))].sort();

  const byRank = (direction: number) => (a: ReferenceDeal, b: ReferenceDeal) =>
    direction * a.pnl.compare(b.pnl) ||
    b.sell.trade_date.localeCompare(a.sell.trade_date) ||
    (a.sell.stock_code < b.sell.stock_code ? -1 : a.sell.stock_code > b.sell.stock_code ? 1 : 0) ||
    (a.sell.id < b.sell.id ? -1 : 1);
  const shown = (d: ReferenceDeal): Deal => ({
    stock_code: d.sell.stock_code,
    sell_date: d.sell.trade_date,
    realized_pnl: d.pnl.toRoundedDecimal(2),
    holding_days: d.days.toRoundedNumber(0),
    quantity_sold: d.matched,
  });

  return {
    stats: {
      total_buy_value: total((t) => t.total_value, buys),
      total_sell_value: total((t) => t.total_value, sells),
      total_buy_fee: total((t) => t.fee, buys),
      total_sell_fee: total((t) => t.fee, sells),
      total_tax: total((t) => t.personal_tax, all),
      realized_pnl: realized,
      transaction_count: trades.length,
      date_range: { from: dates[0] ?? null, to: dates[dates.length - 1] ?? null },
    },
    analytics: {
      summary: {
        total_deals: deals.length,
        win_deals: wins.length,
        loss_deals: losses.length,
        win_rate: deals.length === 0 ? 0 : new Fraction(BigInt(wins.length), BigInt(deals.length)).toRoundedNumber(4),
        avg_win_pnl: mean(wins.map((d) => d.pnl)).toRoundedDecimal(2),
        avg_loss_pnl: mean(losses.map((d) => d.pnl)).toRoundedDecimal(2),
        profit_factor:
          wins.length === 0
            ? Decimal.ZERO
            : losses.length === 0
              ? null
              : winSum.div(lossSum).mul(new Fraction(-1n)).toRoundedDecimal(4),
        avg_holding_days_win: mean(wins.map((d) => d.days)).toRoundedNumber(2),
        avg_holding_days_loss: mean(losses.map((d) => d.days)).toRoundedNumber(2),
        total_realized_pnl: realized,
        total_fee_tax: sum(trades.flatMap((t) => [money(t.fee), money(t.personal_tax)])).toRoundedDecimal(2),
        monthly_trade_counts: Object.fromEntries(
          monthsOf(dates).map((m) => [m, trades.filter((t) => t.trade_date.startsWith(m)).length]),
        ),
        monthly_realized_pnl: Object.fromEntries(
          monthsOf(deals.map((d) => d.sell.trade_date)).map((m) => [
            m,
            sum(deals.filter((d) => d.sell.trade_date.startsWith(m)).map((d) => d.pnl)).toRoundedDecimal(2),
          ]),
        ),
        unmatched_sell_quantity: unmatched,
      },
      top_wins: [...wins].sort(byRank(-1)).slice(0, 5).map(shown),
      top_losses: [...losses].sort(byRank(1)).slice(0, 5).map(shown),
    },
  };
}
