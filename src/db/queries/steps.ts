/**
 * The one place the performance read takes its position steps from: how each holding (account,
 * stock code) stood at the end of each date of its ledger (src/domain/positions.ts), as the sync
 * stores them. Everything downstream (the statement's bounds and flows, valuePoints, the per-stock
 * figures) reads the columns and the row below, never the table, so the steps' storage can change
 * beneath them (docs/stored-state.md: the factor form of C) by changing this file alone.
 */
import { type SQL, sql } from "drizzle-orm";
import { holdingMetrics, positionSteps } from "../schema";

/**
 * One step as the Worker reads it. Money in 10^-4 đồng as decimal text (whole numbers); C and a
 * sell's proceeds are fractions, as numerator and denominator.
 */
export interface StepRow {
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

/**
 * SQL: the steps of the accounts `accounts` selects (a query of their ids), one row per holding
 * and date, with the columns account_id, stock_code, date, traded (a trade is dated there, not only
 * a share credit), shares, cost_num, cost_den, cost_inexact, invested, withdrawn_num, withdrawn_den.
 */
export const stepsOf = (accounts: SQL) => sql`
  select s.account_id, s.stock_code, s.date, s.traded, s.shares, s.cost_num, s.cost_den, s.cost_inexact,
    s.invested, s.withdrawn_num, s.withdrawn_den
  from ${positionSteps} s where s.account_id in (${accounts})`;

/**
 * SQL, a boolean: one of those accounts has a holding with a partial and no steps, a target
 * upgraded from before position steps whose sync has not reached it yet (src/sync/rules.ts
 * queues them all).
 */
export const stepsBuilding = (accounts: SQL) => sql`exists (
  select from ${holdingMetrics} m where m.account_id in (${accounts})
    and not exists (select from ${positionSteps} s where s.account_id = m.account_id and s.stock_code = m.stock_code))`;

/** A step as the statement sends it: the JSON array stepTuple builds. */
export type StepTuple = [
  accountId: string,
  stockCode: string,
  date: string,
  shares: number,
  costNum: string,
  costDen: string,
  costInexact: number,
  invested: string,
  withdrawnNum: string,
  withdrawnDen: string,
];

/** SQL: the row `s` (of stepsOf's columns) as a StepTuple. */
export const stepTuple = (s: SQL) => sql`json_build_array(${s}.account_id, ${s}.stock_code, ${s}.date, ${s}.shares,
  ${s}.cost_num::text, ${s}.cost_den::text, ${s}.cost_inexact, ${s}.invested::text, ${s}.withdrawn_num::text, ${s}.withdrawn_den::text)`;

export const stepOf = ([
  accountId,
  stockCode,
  date,
  shares,
  costNum,
  costDen,
  costInexact,
  invested,
  withdrawnNum,
  withdrawnDen,
]: StepTuple): StepRow => ({
  accountId,
  stockCode,
  date,
  shares,
  costNum,
  costDen,
  costInexact,
  invested,
  withdrawnNum,
  withdrawnDen,
});
