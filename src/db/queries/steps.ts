/**
 * The one place the performance read takes its position steps from: how each holding (account,
 * stock code) stood at the end of each date of its ledger (src/domain/positions.ts), as the sync
 * stores them. Everything downstream (the statement's bounds and flows, valuePoints, the per-stock
 * figures) reads the columns below and the steps stepOf decodes (StoredStep,
 * src/domain/performance/valuation.ts), never the table, so the steps' storage can change beneath
 * them (docs/stored-state.md: the factor form of C) by changing this file alone.
 */
import { type SQL, sql } from "drizzle-orm";
import type { StoredStep } from "../../domain/performance/valuation";
import { holdingMetrics, positionSteps } from "../schema";

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

/**
 * A step as the statement sends it: the JSON array stepTuple builds, positional because a
 * customer's read sends thousands of them and keys would repeat in every one. stepOf alone reads
 * it by position.
 */
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

/** A StepTuple as the valuation reads it, by name. */
export const stepOf = (t: StepTuple): StoredStep => ({
  accountId: t[0],
  stockCode: t[1],
  date: t[2],
  shares: t[3],
  costNum: t[4],
  costDen: t[5],
  costInexact: t[6],
  invested: t[7],
  withdrawnNum: t[8],
  withdrawnDen: t[9],
});
