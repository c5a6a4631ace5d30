/**
 * What the performance statement (src/db/queries/performance.ts) sends to value its points, as it
 * travels, and its decoding, once, into the named fields the valuation reads
 * (src/domain/performance/valuation.ts). Steps, closes and each code's dividends travel as JSON
 * arrays rather than objects: a customer's read sends thousands of them, and keys would repeat in
 * every one. Nothing but this file and stepOf (src/db/queries/steps.ts) reads them by position.
 */
import {
  type PointFlows,
  type StoredClose,
  type StoredDividend,
  type ValuedPoint,
  valuePoints,
} from "../../domain/performance/valuation";
import { type StepTuple, stepOf } from "./steps";

/** A code's close on a date, as the statement's `closes` sends it. */
export type CloseTuple = [stockCode: string, date: string, close: string];
/** A day's cash dividends of one code, net of tax, in đồng, as `dividends_by_code` sends them. */
export type DividendTuple = [date: string, stockCode: string, net: string];

/**
 * The statement's columns that value its points (valuePoints), as they travel. A type alias, not
 * an interface: db.execute<T> needs T to have an index signature, which only an alias has implicitly.
 */
export type StatementValues = {
  points: PointFlows[];
  steps: StepTuple[];
  closes: CloseTuple[];
  dividends_by_code: DividendTuple[];
};

/** `row` with its points valued with its steps, closes and dividends, which it then no longer carries. */
export function valueRow<R extends StatementValues>(
  row: R,
  benchmark: string,
): Omit<R, keyof StatementValues> & { points: ValuedPoint[] } {
  const { points, steps, closes, dividends_by_code, ...rest } = row;
  const valuation = {
    points,
    steps: steps.map(stepOf),
    closes: closes.map(([stockCode, date, close]): StoredClose => ({ stockCode, date, close })),
    dividends: dividends_by_code.map(([date, stockCode, net]): StoredDividend => ({ date, stockCode, net })),
  };
  return { ...rest, points: valuePoints(valuation, benchmark) };
}
