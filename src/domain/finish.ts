/**
 * Turns an aggregate into the output figures, each rounded once (half away from zero) from its
 * exact value: integer sums directly, fixed-scale sums through decide() (fixed.ts). A figure
 * the fixed scale cannot decide is taken from `exact` when given; without it the result is
 * null, meaning only the individual deals can settle it.
 *
 * Money and the profit factor come out as Decimals, written with every digit: a sum of
 * numeric(20,4) amounts passes 2^53 long before it passes the schema's limits, and a profit
 * factor over a loss of 0.01 đồng can pass 10^21. The win rate (4 places in [0, 1]) and average
 * holding days (2 places, at most about 3.65 million days between 0001-01-01 and 9999-12-31)
 * stay JS numbers: both are below 10^15 units of their last place, so the double's shortest
 * text is exactly their decimal, without exponent.
 */
import type { Aggregate } from "./aggregate";
import { type DividendSums, NO_DIVIDENDS } from "./dividends";
import { Decimal } from "./decimal";
import type { ExactSums, Fraction } from "./exact";
import { SCALE, decide, decideRatio } from "./fixed";
import { type FixedSum, scaledTotal } from "./fixed-sum";
import type { TopDeal } from "./top";
import type { AnalyticsSummary, CustomerMetrics, Deal, Stats } from "./types";
import { decideReturnPart, returnPartExact } from "./total-return";
import { roundDiv, toNumber } from "./units";

class Undecided extends Error {}

export function finish(agg: Aggregate, exact?: ExactSums, dividends: DividendSums = NO_DIVIDENDS): CustomerMetrics | null {
  try {
    const realized = money(allPnl(agg), 1, exact, () => (exact as ExactSums).pnl("all"));
    const monthly = monthlyPnl(agg, exact);
    return {
      stats: stats(agg, exact, dividends, realized),
      analytics: {
        summary: summary(agg, exact, realized, monthly),
        top_wins: agg.topWins.map(toDeal),
        top_losses: agg.topLosses.map(toDeal),
      },
    };
  } catch (e) {
    if (e instanceof Undecided) return null;
    throw e;
  }
}

/** The figure the fixed scale decided, else the exact one (Undecided without `exact`). */
function settle(value: bigint | null, exact: ExactSums | undefined, fallback: () => bigint): bigint {
  if (value !== null) return value;
  if (!exact) throw new Undecided();
  return fallback();
}

/** Money: a sum in 10^-4 đồng x SCALE, over `count` (1 for a plain sum), to 2 places. */
function money(total: FixedSum, count: number, exact: ExactSums | undefined, whole: () => Fraction): Decimal {
  if (count === 0) return Decimal.ZERO;
  const div = SCALE * 100n * BigInt(count);
  return Decimal.fromScaled(
    settle(decide(scaledTotal(total), total.inexact, 1n, div), exact, () => {
      const f = whole();
      return roundDiv(f.num, f.den * 100n * BigInt(count));
    }),
    2,
  );
}

/** Average holding days: a sum of share-days x SCALE over `count` deals, to 2 places. */
function days(total: FixedSum, count: number, exact: ExactSums | undefined, kind: "win" | "loss"): number {
  if (count === 0) return 0;
  const n = BigInt(count);
  return toNumber(
    settle(decide(scaledTotal(total), total.inexact, 100n, SCALE * n), exact, () => {
      const f = (exact as ExactSums).days(kind);
      return roundDiv(f.num * 100n, f.den * n);
    }),
    2,
  );
}

/** The realized pnl of every deal, wins and losses together, as one fixed-scale sum. */
function allPnl(agg: Aggregate): FixedSum {
  return {
    whole: agg.winPnl.whole + agg.lossPnl.whole + BigInt(agg.winPnl.small) + BigInt(agg.lossPnl.small),
    small: 0,
    scaled: agg.winPnl.scaled + agg.lossPnl.scaled,
    inexact: agg.winPnl.inexact + agg.lossPnl.inexact,
  };
}

/** The realized pnl by month, in ascending month order. */
function monthlyPnl(agg: Aggregate, exact: ExactSums | undefined): Record<string, Decimal> {
  const monthly: Record<string, Decimal> = {};
  for (const month of [...agg.monthPnl.keys()].sort()) {
    monthly[month] = money(agg.monthPnl.get(month) as FixedSum, 1, exact, () => (exact as ExactSums).monthPnl(month));
  }
  return monthly;
}

function stats(agg: Aggregate, exact: ExactSums | undefined, dividends: DividendSums, realized: Decimal): Stats {
  return {
    total_buy_value: cents(agg.buyValue),
    total_sell_value: cents(agg.sellValue),
    total_buy_fee: cents(agg.buyFee),
    total_sell_fee: cents(agg.sellFee),
    total_tax: cents(agg.tax),
    realized_pnl: realized,
    realized_pnl_average_cost: money(agg.averagePnl, 1, exact, () => (exact as ExactSums).averageCost()),
    transaction_count: agg.transactions,
    date_range: { from: agg.from, to: agg.to },
    dividends: {
      count: dividends.count,
      gross: cents(dividends.gross),
      tax: cents(dividends.tax),
      net: cents(dividends.gross - dividends.tax),
    },
    // The stored part of total_return, kept precise enough to be rounded once at read time
    // with the valuation's unrealized P&L added (total-return.ts).
    total_return: returnPart(agg.averagePnl, dividends.gross - dividends.tax, exact),
  };
}

function summary(
  agg: Aggregate,
  exact: ExactSums | undefined,
  realized: Decimal,
  monthly: Record<string, Decimal>,
): AnalyticsSummary {
  return {
    total_deals: agg.deals,
    win_deals: agg.wins,
    loss_deals: agg.losses,
    win_rate: agg.deals === 0 ? 0 : toNumber(roundDiv(BigInt(agg.wins) * 10_000n, BigInt(agg.deals)), 4),
    avg_win_pnl: money(agg.winPnl, agg.wins, exact, () => (exact as ExactSums).pnl("win")),
    avg_loss_pnl: money(agg.lossPnl, agg.losses, exact, () => (exact as ExactSums).pnl("loss")),
    profit_factor: agg.wins === 0 ? Decimal.ZERO : agg.losses === 0 ? null : Decimal.fromScaled(profitFactor(agg, exact), 4),
    avg_holding_days_win: days(agg.winDays, agg.wins, exact, "win"),
    avg_holding_days_loss: days(agg.lossDays, agg.losses, exact, "loss"),
    total_realized_pnl: realized,
    total_fee_tax: cents(agg.buyFee + agg.sellFee + agg.tax),
    // Month keys are not array indices, so objects keep this ascending insertion order.
    monthly_trade_counts: Object.fromEntries([...agg.monthTrades].sort(([a], [b]) => (a < b ? -1 : 1))),
    monthly_realized_pnl: monthly,
    unmatched_sell_quantity: agg.unmatched,
  };
}

/**
 * realized_pnl_average_cost + net dividends (10^-4 đồng), exact, as the part total-return.ts
 * stores; from the fixed-scale sum when it decides, else from the exact terms.
 */
function returnPart(averagePnl: FixedSum, netDividends: bigint, exact: ExactSums | undefined): Decimal {
  const part = decideReturnPart(scaledTotal(averagePnl) + netDividends * SCALE, averagePnl.inexact);
  if (part) return part;
  if (!exact) throw new Undecided();
  const f = exact.averageCost();
  return returnPartExact({ num: f.num + netDividends * f.den, den: f.den });
}

function profitFactor(agg: Aggregate, exact: ExactSums | undefined): bigint {
  const fast = decideRatio(scaledTotal(agg.winPnl), agg.winPnl.inexact, -scaledTotal(agg.lossPnl), agg.lossPnl.inexact);
  return settle(fast, exact, () => {
    const w = (exact as ExactSums).pnl("win");
    const l = (exact as ExactSums).pnl("loss");
    return roundDiv(w.num * l.den * 10_000n, w.den * -l.num);
  });
}

/** 10^-4 đồng to đồng rounded to 2 places. */
function cents(units: bigint): Decimal {
  return Decimal.fromScaled(roundDiv(units, 100n), 2);
}

function toDeal(d: TopDeal): Deal {
  // The float quotient may round up to the next integer; the remainder puts it right.
  let whole = Math.floor(d.shareDays / d.matched);
  let rest = d.shareDays - whole * d.matched;
  if (rest < 0) {
    whole--;
    rest += d.matched;
  }
  return {
    stock_code: d.stock_code,
    sell_date: d.sell_date,
    realized_pnl: Decimal.fromScaled(roundDiv(d.num, d.den * 100n), 2),
    holding_days: 2 * rest >= d.matched ? whole + 1 : whole,
    quantity_sold: d.matched,
  };
}
