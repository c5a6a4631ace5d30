/**
 * The reference: docs/pnl.md and docs/corporate-actions.md
 * read literally with exact fractions, one deal object per sell
 * and one Fraction per figure, rounded once at the end. Slow and obvious, so the engine can be
 * checked against it on any book.
 */
import type { CreditInput, CustomerMetrics, Deal, DividendInput, TradeInput } from "../../src/domain";
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

/**
 * A trade or a share credit, in the one order docs/corporate-actions.md gives them.
 */
type Event = { kind: "trade"; date: string; trade: TradeInput } | { kind: "credit"; date: string; credit: CreditInput };

/** By date; on one date credits first, then buys, then sells; then id. */
function events(trades: readonly TradeInput[], credits: readonly CreditInput[]): Event[] {
  const rank = (e: Event) => (e.kind === "credit" ? 0 : e.trade.type === "buy" ? 1 : 2);
  const id = (e: Event) => (e.kind === "credit" ? e.credit.id : e.trade.id);
  return [
    ...trades.map((trade): Event => ({ kind: "trade", date: trade.trade_date, trade })),
    ...credits.map((credit): Event => ({ kind: "credit", date: credit.ex_date, credit })),
  ].sort((a, b) => a.date.localeCompare(b.date) || rank(a) - rank(b) || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
}

type Lot = { date: string; left: number; unitCost: Fraction };

/**
 * A credit of q shares over the open lots: floor(q * r_i / R) each, then one share each to the
 * largest remainders, the earlier lot first; a lot's remaining cost stays, spread over more
 * shares. With no lot open, a lot of q shares at zero cost.
 */
function spread(open: Lot[], credit: CreditInput): void {
  if (credit.quantity <= 0) return;
  const q = BigInt(credit.quantity);
  const total = open.reduce((n, lot) => n + BigInt(lot.left), 0n);
  if (total === 0n) {
    open.push({ date: credit.ex_date, left: credit.quantity, unitCost: ZERO });
    return;
  }
  const shares = open.map((lot) => (q * BigInt(lot.left)) / total);
  const remainders = open.map((lot) => (q * BigInt(lot.left)) % total);
  let left = q - shares.reduce((a, b) => a + b, 0n);
  const order = open
    .map((_, i) => i)
    .sort((a, b) => (remainders[a] === remainders[b] ? a - b : remainders[a]! > remainders[b]! ? -1 : 1));
  for (const i of order) {
    if (left === 0n) break;
    shares[i]! += 1n;
    left--;
  }
  open.forEach((lot, i) => {
    const added = Number(shares[i]);
    lot.unitCost = lot.unitCost.mul(new Fraction(BigInt(lot.left), BigInt(lot.left + added)));
    lot.left += added;
  });
}

/** FIFO per (account, stock): every lot is a unit cost and a number of shares left. */
export function referenceDeals(
  trades: readonly TradeInput[],
  credits: readonly CreditInput[] = [],
): { deals: ReferenceDeal[]; unmatched: number } {
  const lots = new Map<string, Lot[]>();
  const deals: ReferenceDeal[] = [];
  let unmatched = 0;
  for (const e of events(trades, credits)) {
    if (e.kind === "credit") {
      const key = `${e.credit.account_id}|${e.credit.stock_code}`;
      const open = lots.get(key) ?? [];
      lots.set(key, open);
      spread(open, e.credit);
      continue;
    }
    const t = e.trade;
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

/**
 * Realized P&L by moving average cost (docs/corporate-actions.md):
 * per (account, stock) shares Q and cost C; a buy adds shares and cost, a credit
 * shares only, a sell of q matches m = min(q, Q) and adds net * m / q - C * m / Q.
 */
export function referenceAverageCost(trades: readonly TradeInput[], credits: readonly CreditInput[] = []): Fraction {
  const held = new Map<string, { shares: bigint; cost: Fraction }>();
  let total = ZERO;
  for (const e of events(trades, credits)) {
    const item = e.kind === "credit" ? e.credit : e.trade;
    if (item.quantity <= 0) continue;
    const key = `${item.account_id}|${item.stock_code}`;
    const h = held.get(key) ?? { shares: 0n, cost: ZERO };
    held.set(key, h);
    const q = BigInt(item.quantity);
    if (e.kind === "credit") {
      h.shares += q;
    } else if (e.trade.type === "buy") {
      h.shares += q;
      h.cost = h.cost.add(money(e.trade.total_value)).add(money(e.trade.fee)).add(money(e.trade.personal_tax));
    } else {
      const m = q < h.shares ? q : h.shares;
      if (m === 0n) continue;
      const out = h.cost.mul(new Fraction(m, h.shares));
      const net = money(e.trade.total_value).sub(money(e.trade.fee)).sub(money(e.trade.personal_tax));
      total = total.add(net.mul(new Fraction(m, q))).sub(out);
      h.cost = h.cost.sub(out);
      h.shares -= m;
    }
  }
  return total;
}

/**
 * The stored part of total_return (src/domain/total-return.ts), restated: the exact value when
 * it is a whole number of 10^-4 đồng, else the midpoint of the 10^-4 step that holds it.
 */
export function referenceReturnPart(exact: Fraction): Decimal {
  const units = exact.mul(new Fraction(10_000n));
  let floor = units.num / units.den;
  if (floor * units.den > units.num) floor -= 1n;
  const step = new Fraction(floor, 10_000n);
  const part = step.compare(exact) === 0 ? step : step.add(new Fraction(1n, 20_000n));
  return part.toRoundedDecimal(5);
}

/**
 * What GET /api/stats serves as total_return: realized P&L by average cost + net dividends +
 * the unrealized P&L (`unrealized`, in 10^-4 đồng), all exact, rounded once to 2 places.
 */
export function referenceTotalReturn(
  trades: readonly TradeInput[],
  credits: readonly CreditInput[],
  dividends: readonly DividendInput[],
  unrealized: bigint,
): Decimal {
  const net = dividends.reduce((a, d) => a.add(money(d.gross_amount)).sub(money(d.tax)), ZERO);
  return referenceAverageCost(trades, credits).add(net).add(new Fraction(unrealized, 10_000n)).toRoundedDecimal(2);
}

export function referenceMetrics(
  trades: readonly TradeInput[],
  credits: readonly CreditInput[] = [],
  dividends: readonly DividendInput[] = [],
): CustomerMetrics {
  const { deals, unmatched } = referenceDeals(trades, credits);
  const averageCost = referenceAverageCost(trades, credits);
  const gross = dividends.reduce((a, d) => a.add(money(d.gross_amount)), ZERO);
  const tax = dividends.reduce((a, d) => a.add(money(d.tax)), ZERO);
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
      realized_pnl_average_cost: averageCost.toRoundedDecimal(2),
      transaction_count: trades.length,
      date_range: { from: dates[0] ?? null, to: dates[dates.length - 1] ?? null },
      dividends: {
        count: dividends.length,
        gross: gross.toRoundedDecimal(2),
        tax: tax.toRoundedDecimal(2),
        net: gross.sub(tax).toRoundedDecimal(2),
      },
      // The stored part, without the valuation's unrealized P&L (added as read, then rounded once).
      total_return: referenceReturnPart(averageCost.add(gross).sub(tax)),
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
