/**
 * The performance read's points valued (docs/performance.md, "Per stock"): each position's step
 * in force at a point times its code's close in force, in total and per stock code, with the
 * flows of each code that day. The read statement (src/db/queries/performance.ts) sends the
 * steps, closes and dividends once each rather than per point, since valuing them in SQL cost
 * 3-8× reading them (docs/sync.md); src/db/queries/performance-row.ts decodes them into the
 * shapes below, and the figures are src/domain/performance.ts's.
 */
import { Decimal } from "../decimal";
import type { Fraction } from "../exact";
import type { SeriesCode } from "../position-figures";
import { ZERO, add, fraction, integer } from "../rational";
import { parseUnits } from "../units";

/**
 * One holding's (account, stock code) position at the end of a date of its ledger, as the sync
 * stores it (src/domain/positions.ts computes it). Money in 10^-4 đồng as decimal text (whole
 * numbers); C and a sell's proceeds are fractions, as numerator and denominator.
 */
export interface StoredStep {
  accountId: string;
  stockCode: string;
  date: string;
  /** The shares after every event of the date. */
  shares: number;
  /** C: the average cost of those shares. */
  costNum: string;
  costDen: string;
  /** C lies strictly within this many units of 10^-4 đồng / costDen of the exact C (0: exact). */
  costInexact: number;
  /** The buys' value + fee + tax that date. */
  invested: string;
  /** The sells' value - fee - tax, times the share of each that matched, that date. */
  withdrawnNum: string;
  withdrawnDen: string;
}

/** A code's live close on a date (the tie-break of two closes of one day already made), in đồng. */
export interface StoredClose {
  stockCode: string;
  date: string;
  close: string;
}

/** A day's cash dividends of one code, net of tax, in đồng (decimal text, 4 places). */
export interface StoredDividend {
  date: string;
  stockCode: string;
  net: string;
}

/**
 * A position with shares and no close yet at a point: its holding, and its C in 10^-4 đồng as
 * numerator and denominator with how inexact the stored C is (0: exact).
 */
export interface UnpricedPosition {
  accountId: string;
  stockCode: string;
  costNum: string;
  costDen: string;
  costInexact: number;
}

/** One code at one point: what its positions hold and what moved it that day. */
export interface CodeDay {
  code: string;
  /** Shares after the events dated on or before the point, all accounts. */
  shares: number;
  /** Shares × close over the code's priced positions, in 10^-4 đồng. */
  priced: bigint;
  /** A ledger event of the code is dated on the point: a trade, a share credit or a cash dividend. */
  event: boolean;
  /** In 10^-4 đồng. */
  invested: bigint;
  /** [numerator, denominator] in 10^-4 đồng of each position's sells that day. */
  withdrawn: [string, string][];
  dividends: bigint;
}

/** A point's money in and out, summed per day by the read statement. */
export interface PointFlows {
  date: string;
  /** In 10^-4 đồng. */
  invested: string;
  /** [numerator, denominator] in 10^-4 đồng of each position's sells that day. */
  withdrawn: [string, string][];
  /** In đồng. */
  dividends: string;
}

export interface ValuedPoint extends PointFlows {
  /** Sum of shares × close over priced positions, exact, in đồng. */
  priced: string;
  /** Each position with shares and no close yet. */
  unpriced: UnpricedPosition[];
  /** The benchmark's latest close on or before the point. */
  close: string | null;
  /** The codes with shares at the point or an event on it, in no order. */
  codes: CodeDay[];
}

/**
 * What valuePoints values: the points ascending, each position's steps and each code's closes
 * ascending by date within it (from the last one before the points' span), and each code's
 * dividends per point.
 */
export interface Valuation {
  points: PointFlows[];
  steps: StoredStep[];
  closes: StoredClose[];
  dividends: StoredDividend[];
}

export const holdingKey = (accountId: string, stockCode: string) => `${accountId} ${stockCode}`;

/**
 * Rows ascending by date, read in step with ascending dates: at each date, the last row dated
 * on or before it.
 */
function carried<T>(rows: T[], dateOf: (row: T) => string) {
  let next = 0;
  return (date: string): T | undefined => {
    while (next < rows.length && dateOf(rows[next]!) <= date) next++;
    return rows[next - 1];
  };
}

const emptyDay = (code: string): CodeDay => ({
  code,
  shares: 0,
  priced: 0n,
  event: false,
  invested: 0n,
  withdrawn: [],
  dividends: 0n,
});

/** The code's day in `days`, made when it is not there yet. */
function dayOf(days: Map<string, CodeDay>, code: string): CodeDay {
  let day = days.get(code);
  if (!day) days.set(code, (day = emptyDay(code)));
  return day;
}

/** Adds one position's step in force at `date` (its latest on or before it) to the code's day. */
function addStep(day: CodeDay, step: StoredStep, date: string, close: string | undefined, unpriced: UnpricedPosition[]) {
  day.shares += step.shares;
  if (step.date === date) {
    day.event = true;
    day.invested += BigInt(step.invested);
    if (step.withdrawnNum !== "0") day.withdrawn.push([step.withdrawnNum, step.withdrawnDen]);
  }
  if (step.shares <= 0) return 0n;
  if (close === undefined) {
    const { accountId, stockCode, costNum, costDen, costInexact } = step;
    unpriced.push({ accountId, stockCode, costNum, costDen, costInexact });
    return 0n;
  }
  const value = BigInt(step.shares) * parseUnits(close);
  day.priced += value;
  return value;
}

/**
 * Values each point: each position's step in force (its latest on or before the point) times its
 * code's close in force, exactly in 10^-4 đồng; a position with shares and no close yet is listed
 * unpriced with its C; and the benchmark's close in force. Per code, the same values and that
 * day's flows. The points ascend, so each position and code is one forward pass.
 */
export function valuePoints({ points, steps, closes, dividends }: Valuation, benchmark: string): ValuedPoint[] {
  const closeOf = new Map(
    [...Map.groupBy(closes, (c) => c.stockCode)].map(([code, rows]) => [code, carried(rows, (c) => c.date)]),
  );
  const positions = [...Map.groupBy(steps, (s) => holdingKey(s.accountId, s.stockCode)).values()].map((rows) => ({
    code: rows[0]!.stockCode,
    stepOn: carried(rows, (s) => s.date),
  }));
  const paid = Map.groupBy(dividends, (d) => d.date);
  const benchmarkOn = closeOf.get(benchmark);
  return points.map((point): ValuedPoint => {
    let priced = 0n;
    const unpriced: UnpricedPosition[] = [];
    const days = new Map<string, CodeDay>();
    for (const { code, stepOn } of positions) {
      const step = stepOn(point.date);
      if (!step || (step.shares <= 0 && step.date !== point.date)) continue;
      // Asked again for the same date (a code held in two accounts), a walk stays where it is.
      const close = closeOf.get(code)?.(point.date)?.close;
      priced += addStep(dayOf(days, code), step, point.date, close, unpriced);
    }
    for (const { stockCode, net } of paid.get(point.date) ?? []) {
      const day = dayOf(days, stockCode);
      day.event = true;
      day.dividends += parseUnits(net);
    }
    const close = benchmarkOn?.(point.date)?.close ?? null;
    return { ...point, priced: Decimal.fromScaled(priced, 4).toString(), unpriced, close, codes: [...days.values()] };
  });
}

/** A holding whose stored C is inexact at some valued points, with those points' dates. */
export interface InexactHolding {
  accountId: string;
  stockCode: string;
  dates: string[];
}

/**
 * The holdings an unpriced position of `points` values at an inexact stored C: the sync keeps C
 * exactly only while its denominator stays under 10^40 (src/domain/positions.ts), so these need
 * their ledgers walked exactly (exactCosts) at those dates before the figures read them.
 */
export function inexactHoldings(points: readonly ValuedPoint[]): InexactHolding[] {
  const holdings = new Map<string, InexactHolding>();
  for (const point of points) {
    for (const { costInexact, accountId, stockCode } of point.unpriced) {
      if (!costInexact) continue;
      const key = holdingKey(accountId, stockCode);
      const holding = holdings.get(key) ?? { accountId, stockCode, dates: [] };
      holding.dates.push(point.date);
      holdings.set(key, holding);
    }
  }
  return [...holdings.values()];
}

/**
 * `points` with each inexact unpriced position's C replaced by the exact one: `exact` holds, per
 * holding (holdingKey) of inexactHoldings, the exact C at each of its dates.
 */
export function withExactCosts(
  points: readonly ValuedPoint[],
  exact: ReadonlyMap<string, ReadonlyMap<string, Fraction>>,
): ValuedPoint[] {
  return points.map((point) => ({
    ...point,
    unpriced: point.unpriced.map((position): UnpricedPosition => {
      if (!position.costInexact) return position;
      const cost = exact.get(holdingKey(position.accountId, position.stockCode))!.get(point.date)!;
      return { ...position, costNum: cost.num.toString(), costDen: cost.den.toString(), costInexact: 0 };
    }),
  }));
}

/**
 * A valued point's codes as the figures read them (src/domain/position-figures.ts): MV_k is the
 * code's priced value plus the C of its positions with no close yet (exact by then: valued).
 */
export function seriesCodes(point: ValuedPoint): SeriesCode[] {
  const unpriced = new Map<string, Fraction>();
  for (const { stockCode, costNum, costDen } of point.unpriced) {
    unpriced.set(stockCode, add(unpriced.get(stockCode) ?? ZERO, fraction(BigInt(costNum), BigInt(costDen))));
  }
  return point.codes.map((day) => ({
    code: day.code,
    shares: day.shares,
    value: add(integer(day.priced), unpriced.get(day.code) ?? ZERO),
    event: day.event,
    invested: day.invested,
    withdrawn: day.withdrawn.reduce<Fraction>((sum, [num, den]) => add(sum, fraction(BigInt(num), BigInt(den))), ZERO),
    dividends: day.dividends,
  }));
}
