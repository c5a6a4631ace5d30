/**
 * How a portfolio has done over a period (s, e]: every figure of GET /api/performance/{slug}
 * (docs/performance.md), from the values and flows of its points as the read statement returns
 * them (src/db/queries/performance.ts). Exact throughout: values and flows are fractions of
 * 10^-4 đồng, the time-weighted return is the exact product of the day returns, and each figure is
 * rounded once at output (money 2 places, rates 4, half away from zero). The money-weighted
 * return and the annualized figures are irrational in general: mwr/ (the solver) and returns.ts place them.
 */
import { Decimal } from "./decimal";
import type { Fraction } from "./exact";
import { dateOf, dayNumber } from "./parse";
import { ONE, ZERO, add, div, fraction, integer, isZero, mul, roundScaled, sub } from "./rational";
import { type CashFlow, type Mwr, annualizedTwr, moneyWeightedReturn } from "./returns";
import { NO_DRAWDOWN, drawdownOf } from "./drawdown";
import { positionsAt, positionsOver } from "./position-figures";
import type { Interval, PerformanceFigures, PerformancePoint, Series, SeriesPoint } from "./performance/shapes";

export type { Interval, PerformanceFigures, PerformancePoint, Series, SeriesPoint };

/** Decimal text with at most 4 places (numeric sums of money and of shares × close) in 10^-4 đồng. */
function units(text: string): bigint {
  const negative = text.startsWith("-");
  const [whole = "0", part = ""] = (negative ? text.slice(1) : text).split(".");
  if (part.length > 4 || !/^\d+$/.test(whole + part || "0")) throw new SyntaxError(`Not an amount of 10^-4 units: ${text}`);
  const value = BigInt(whole + part.padEnd(4, "0"));
  return negative ? -value : value;
}

const sumPairs = (pairs: readonly (readonly [string, string])[]): Fraction =>
  pairs.reduce<Fraction>((sum, [num, den]) => add(sum, fraction(BigInt(num), BigInt(den))), ZERO);

/** Money in 10^-4 đồng to đồng, rounded once to 2 places. */
const money = (f: Fraction) => Decimal.fromScaled(roundScaled(fraction(f.num, f.den * 10_000n), 2), 2);
const rate = (f: Fraction) => Decimal.fromScaled(roundScaled(f, 4), 4);
const closeOf = (text: string | null) => (text === null ? null : Decimal.parse(text));
/** end / start - 1 of two closes; null without both. */
const growth = (start: string | null, end: string | null) =>
  start === null || end === null ? null : sub(fraction(units(end), units(start)), ONE);

const days = (from: string, to: string) => dayNumber(to) - dayNumber(from);

/** The day before `date`, as text: Postgres gave `date`, so its year is 0001 or later. */
const dayBefore = (date: string): string => dateOf(dayNumber(date) - 1);

/** The default spacing of the chart by the period's length in days. */
const defaultInterval = (length: number): Interval => (length <= 400 ? "day" : length <= 1461 ? "week" : "month");

/** The bucket a date falls in for an interval: Monday-to-Sunday weeks, calendar months. */
function bucketOf(date: string, interval: Interval): string | number {
  if (interval === "month") return date.slice(0, 7);
  // Day 0 (1970-01-01) was a Thursday: +3 makes weeks start on Mondays.
  return interval === "week" ? Math.floor((dayNumber(date) + 3) / 7) : date;
}

const value = (p: SeriesPoint): Fraction => add(integer(units(p.priced)), sumPairs(p.unpriced));

/** The figures of `series`. */
export function performanceFigures(series: Series): PerformanceFigures {
  if (series.asOf === null || series.firstPoint === null) return noDataFigures(series);
  const byDate = new Map(series.points.map((p) => [p.date, p]));
  const common: CommonFigures = {
    as_of: series.asOf,
    dividends_receivable: money(integer(units(series.receivable))),
    holdings_mismatch: series.mismatch,
  };
  const floor = dayBefore(series.firstPoint);
  const e = series.end;
  const clampedStart = series.start !== null && series.start < floor;
  const s = clampedStart ? floor : series.start;
  if (e === null || s === null || s >= e) return emptyRangeFigures(series, byDate, common, e);
  return periodFigures(series, byDate, common, s, e, clampedStart);
}

/** The figures every answer with data shares. */
interface CommonFigures {
  as_of: string;
  dividends_receivable: Decimal;
  holdings_mismatch: number;
}

/** The range as asked. */
const askedOf = (series: Series) => ({ range: series.range, from: series.from, to: series.to });

/** The benchmark's figures before any close is known. */
const noBenchmark = (series: Series) => ({ code: series.benchmark, start_close: null, end_close: null, return: null });

/** The figures of a period in which nothing moved. */
const flatFigures = () => ({
  clamped: false,
  invested: Decimal.ZERO,
  withdrawn: Decimal.ZERO,
  dividends: Decimal.ZERO,
  pnl: Decimal.ZERO,
  twr: Decimal.ZERO,
  mwr: { rate: null, status: "no_period" as const },
  annualized: null,
});

/** The unpriced positions' value and count at `date` (none without a point there). */
function unpricedAt(byDate: ReadonlyMap<string, SeriesPoint>, date: string | null) {
  const point = date === null ? undefined : byDate.get(date);
  return { value: point ? sumPairs(point.unpriced) : ZERO, count: point?.unpriced.length ?? 0 };
}

/** No data at all (no as-of date or no first point): every figure zero or null. */
function noDataFigures(series: Series): PerformanceFigures {
  const zero = Decimal.ZERO;
  return {
    ...askedOf(series),
    ...flatFigures(),
    interval: "day",
    start_date: null,
    end_date: null,
    as_of: null,
    start_value: zero,
    end_value: zero,
    net_invested: zero,
    benchmark: noBenchmark(series),
    unpriced_value: zero,
    unpriced_positions: 0,
    dividends_receivable: zero,
    holdings_mismatch: series.mismatch,
    drawdown: NO_DRAWDOWN,
    positions: [],
    points: [],
  };
}

/** An empty range: nothing happened in it; both values are the one at its end. */
function emptyRangeFigures(
  series: Series,
  byDate: ReadonlyMap<string, SeriesPoint>,
  common: CommonFigures,
  e: string | null,
): PerformanceFigures {
  const at = e ?? series.to ?? common.as_of;
  const point = e === null ? undefined : byDate.get(e);
  const mv = point ? money(value(point)) : Decimal.ZERO;
  const unpriced = unpricedAt(byDate, e);
  return {
    ...askedOf(series),
    ...flatFigures(),
    ...common,
    interval: "day",
    start_date: at,
    end_date: at,
    start_value: mv,
    end_value: mv,
    net_invested: mv,
    benchmark: {
      ...noBenchmark(series),
      start_close: closeOf(series.endClose),
      end_close: closeOf(series.endClose),
      return: series.endClose === null ? null : Decimal.ZERO,
    },
    unpriced_value: money(unpriced.value),
    unpriced_positions: unpriced.count,
    drawdown: NO_DRAWDOWN,
    positions: point ? positionsAt(point.codes, value(point)) : [],
    points: [],
  };
}

/** The figures of a period (s, e] with s < e. */
function periodFigures(
  series: Series,
  byDate: ReadonlyMap<string, SeriesPoint>,
  common: CommonFigures,
  s: string,
  e: string,
  clampedStart: boolean,
): PerformanceFigures {
  const anchor = series.anchor === null ? undefined : byDate.get(series.anchor);
  const startValue = anchor ? value(anchor) : ZERO;
  // For `max` and a clamped range the period starts before the first point: its close there.
  const startClose = series.range === "max" || clampedStart ? series.firstClose : series.startClose;
  const length = days(s, e);
  const interval = series.interval ?? defaultInterval(length);
  const inRange = series.points.filter((p) => p.date > s);
  const walk = walkPeriod(inRange, s, startValue, startClose, interval);
  const { invested, withdrawn, dividends, end } = walk;
  const netInvested = sub(add(startValue, invested), add(withdrawn, dividends));
  const twr = sub(walk.linked, ONE);
  const mwr = moneyWeighted(s, e, startValue, end, walk.flows, length);
  const unpriced = unpricedAt(byDate, e);
  const benchmarkGrowth = growth(startClose, series.endClose);
  return {
    ...askedOf(series),
    ...common,
    interval,
    start_date: s,
    end_date: e,
    clamped: clampedStart && series.range !== "max",
    start_value: money(startValue),
    end_value: money(end),
    invested: money(invested),
    withdrawn: money(withdrawn),
    dividends: money(dividends),
    net_invested: money(netInvested),
    pnl: money(sub(end, netInvested)),
    twr: rate(twr),
    mwr: { rate: mwr.rate, status: mwr.status },
    annualized: length >= 365 ? { twr: annualizedTwr(twr, length), mwr: mwr.annualized } : null,
    benchmark: {
      ...noBenchmark(series),
      start_close: closeOf(startClose),
      end_close: closeOf(series.endClose),
      return: benchmarkGrowth === null ? null : rate(benchmarkGrowth),
    },
    unpriced_value: money(unpriced.value),
    unpriced_positions: unpriced.count,
    drawdown: drawdownOf(s, walk.levels),
    positions: positionsOver(
      anchor?.codes,
      inRange.map((p) => p.codes),
      end,
    ),
    points: walk.points,
  };
}

/** What the walk over a period's points gathers. */
interface PeriodWalk {
  /** The product of 1 + r(d) over the period. */
  linked: Fraction;
  invested: Fraction;
  withdrawn: Fraction;
  dividends: Fraction;
  /** MV(e): the last point's value (the start value without one). */
  end: Fraction;
  flows: { date: string; amount: Fraction }[];
  levels: { date: string; level: Fraction }[];
  points: PerformancePoint[];
}

/** The day returns chained, the flows summed and the chart's points, over the points in (s, e]. */
function walkPeriod(
  inRange: readonly SeriesPoint[],
  s: string,
  startValue: Fraction,
  startClose: string | null,
  interval: Interval,
): PeriodWalk {
  const zero = Decimal.ZERO;
  let previous = startValue;
  // The running product of 1 + r(d), reduced as it goes (mul): the day's values mostly cancel
  // (MV(d) over MV(d') of the next day), so it stays short, where the plain product of every
  // day's numerators and denominators grew by each, and reducing it once at the end cost most of
  // a range=max read (`rational` in docs/sync.md).
  let linked = ONE;
  let invested = ZERO;
  let withdrawn = ZERO;
  let dividends = ZERO;
  const flows: { date: string; amount: Fraction }[] = [];
  const levels: { date: string; level: Fraction }[] = [];
  const points: PerformancePoint[] = [
    {
      date: s,
      value: money(startValue),
      net_invested: money(startValue),
      pnl: zero,
      twr: zero,
      benchmark: startClose === null ? null : zero,
    },
  ];
  let end = startValue;
  for (let i = 0; i < inRange.length; i++) {
    const point = inRange[i]!;
    const mv = value(point);
    const paidIn = integer(BigInt(point.invested));
    const sold = sumPairs(point.withdrawn);
    const dividend = integer(units(point.dividends));
    const paidOut = add(sold, dividend);
    // r(d) = (MV(d) + Out(d)) / (MV(d') + In(d)) - 1: buys at the start of the day, sells and dividends at its end.
    const base = add(previous, paidIn);
    if (!isZero(base)) {
      linked = mul(linked, div(add(mv, paidOut), base));
    }
    invested = add(invested, paidIn);
    withdrawn = add(withdrawn, sold);
    dividends = add(dividends, dividend);
    if (!isZero(paidIn)) flows.push({ date: point.date, amount: { num: -paidIn.num, den: paidIn.den } });
    if (!isZero(paidOut)) flows.push({ date: point.date, amount: paidOut });
    previous = mv;
    end = mv;
    levels.push({ date: point.date, level: linked });
    const next = inRange[i + 1];
    if (interval === "day" || !next || bucketOf(next.date, interval) !== bucketOf(point.date, interval)) {
      const netInvested = sub(add(startValue, invested), add(withdrawn, dividends));
      points.push({
        date: point.date,
        value: money(mv),
        net_invested: money(netInvested),
        pnl: money(sub(mv, netInvested)),
        twr: rate(sub(linked, ONE)),
        benchmark: startClose === null ? null : rate(growth(startClose, point.close)!),
      });
    }
  }
  return { linked, invested, withdrawn, dividends, end, flows, levels, points };
}

/**
 * The money-weighted return's flows: -MV(s) at s, each In and Out apart, +MV(e) at e. Time counts
 * from s, or, when nothing was held at s, from the first day money moved.
 */
function moneyWeighted(
  s: string,
  e: string,
  startValue: Fraction,
  endValue: Fraction,
  flows: readonly { date: string; amount: Fraction }[],
  length: number,
): Mwr {
  const origin = isZero(startValue) ? flows[0]?.date : s;
  const noPeriod: Mwr = { rate: null, status: "no_period", annualized: null };
  if (origin === undefined) return noPeriod;
  const T = days(origin, e);
  if (T === 0) return noPeriod;
  const cashFlows: CashFlow[] = [
    { t: 0, amount: { num: -startValue.num, den: startValue.den } },
    ...flows.map((f) => ({ t: days(origin, f.date), amount: f.amount })),
    { t: T, amount: endValue },
  ];
  return moneyWeightedReturn(cashFlows, T, length);
}
