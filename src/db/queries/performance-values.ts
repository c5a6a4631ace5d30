/**
 * The Worker's half of the performance read (src/db/queries/performance.ts): each point valued
 * with the position steps (src/db/queries/steps.ts) and the closes the statement sent, in total
 * and per stock code, with the flows of each code that day (docs/performance.md, "Per stock").
 */
import { Decimal } from "../../domain/decimal";
import type { Fraction } from "../../domain/exact";
import type { SeriesCode } from "../../domain/position-figures";
import { ZERO, add, fraction, integer } from "../../domain/rational";
import { parseUnits } from "../../domain/units";
import { type StepRow, type StepTuple, stepOf } from "./steps";

export type StoredClose = [stockCode: string, date: string, close: string];
/** A day's cash dividends of one code, net of tax, in 10^-4 đồng (decimal text). */
export type StoredDividend = [date: string, stockCode: string, net: string];

export type UnpricedPosition = [num: string, den: string, inexact: number, accountId: string, stockCode: string];

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

export interface RawPoint {
  date: string;
  /** Sum of shares × close over priced positions, exact. */
  priced: string;
  /**
   * Each position with shares and no close yet: its C in 10^-4 đồng as numerator and
   * denominator, how inexact the stored C is (0: exact), and the holding.
   */
  unpriced: UnpricedPosition[];
  invested: string;
  /** [numerator, denominator] in 10^-4 đồng of each position's sells that day. */
  withdrawn: [string, string][];
  dividends: string;
  /** The benchmark's latest close on or before the point. */
  close: string | null;
  /** The codes with shares at the point or an event on it, in no order. */
  codes: CodeDay[];
}

/** What valuePoints reads of the statement's row. */
export type StatementValues = {
  points: Omit<RawPoint, "priced" | "unpriced" | "close" | "codes">[];
  steps: StepTuple[];
  closes: StoredClose[];
  dividends_by_code: StoredDividend[];
};

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

/** Groups rows, in order, by a key. */
function groupBy<T>(rows: T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
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
function addStep(day: CodeDay, step: StepRow, date: string, close: string | undefined, unpriced: UnpricedPosition[]) {
  day.shares += step.shares;
  if (step.date === date) {
    day.event = true;
    day.invested += BigInt(step.invested);
    if (step.withdrawnNum !== "0") day.withdrawn.push([step.withdrawnNum, step.withdrawnDen]);
  }
  if (step.shares <= 0) return 0n;
  if (close === undefined) {
    unpriced.push([step.costNum, step.costDen, step.costInexact, step.accountId, step.stockCode]);
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
export function valuePoints<R extends StatementValues>(row: R, benchmark: string) {
  const { steps, closes, points, dividends_by_code, ...rest } = row;
  const closeOf = new Map([...groupBy(closes, ([code]) => code)].map(([code, rows]) => [code, carried(rows, (c) => c[1])]));
  const positions = [...groupBy(steps.map(stepOf), (s) => holdingKey(s.accountId, s.stockCode)).values()].map((rows) => ({
    code: rows[0]!.stockCode,
    stepOn: carried(rows, (s) => s.date),
  }));
  const paid = groupBy(dividends_by_code, ([date]) => date);
  const benchmarkOn = closeOf.get(benchmark);
  return {
    ...rest,
    points: points.map((point): RawPoint => {
      let priced = 0n;
      const unpriced: UnpricedPosition[] = [];
      const days = new Map<string, CodeDay>();
      for (const { code, stepOn } of positions) {
        const step = stepOn(point.date);
        if (!step || (step.shares <= 0 && step.date !== point.date)) continue;
        // Asked again for the same date (a code held in two accounts), a walk stays where it is.
        const close = closeOf.get(code)?.(point.date)?.[2];
        priced += addStep(dayOf(days, code), step, point.date, close, unpriced);
      }
      for (const [, code, net] of paid.get(point.date) ?? []) {
        const day = dayOf(days, code);
        day.event = true;
        day.dividends += parseUnits(net);
      }
      const close = benchmarkOn?.(point.date)?.[2] ?? null;
      return { ...point, priced: Decimal.fromScaled(priced, 4).toString(), unpriced, close, codes: [...days.values()] };
    }),
  };
}

/**
 * A valued point's codes as the figures read them (src/domain/position-figures.ts): MV_k is the
 * code's priced value plus the C of its positions with no close yet (exact by then: valued).
 */
export function seriesCodes(point: RawPoint): SeriesCode[] {
  const unpriced = new Map<string, Fraction>();
  for (const [num, den, , , code] of point.unpriced) {
    unpriced.set(code, add(unpriced.get(code) ?? ZERO, fraction(BigInt(num), BigInt(den))));
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
