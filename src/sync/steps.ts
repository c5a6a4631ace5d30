/**
 * A holding's position steps as `position_steps` stores them (src/db/schema/metrics.ts), and how a batch
 * lays them: only the steps that differ from those stored go and come, so an old sell's fee edit
 * rewrites its own date's step, not every later one. Used by the holdings step
 * (src/sync/holdings.ts) and, for the same columns, by the differential check
 * (scripts/bench/differential.ts).
 */
import { sql } from "drizzle-orm";
import { positionSteps } from "../db/schema";
import type { PositionStep } from "../domain/positions";
import { effect, type Statement } from "./database";
import { listedByHolding } from "./months";

/** One step in the columns `position_steps` stores, numbers as decimal text where they may pass 2^53. */
export interface StepRow {
  account_id: string;
  stock_code: string;
  date: string;
  traded: boolean;
  shares: number;
  cost_num: string;
  cost_den: string;
  cost_inexact: number;
  invested: string;
  withdrawn_num: string;
  withdrawn_den: string;
}

/** Holding (account, stock code)'s walked `step` as the row stored. */
export const stepRow = (accountId: string, stockCode: string, step: PositionStep): StepRow => ({
  account_id: accountId,
  stock_code: stockCode,
  date: step.date,
  traded: step.traded,
  shares: step.shares,
  cost_num: step.cost.num.toString(),
  cost_den: step.cost.den.toString(),
  cost_inexact: step.inexact,
  invested: step.invested.toString(),
  withdrawn_num: step.withdrawn.num.toString(),
  withdrawn_den: step.withdrawn.den.toString(),
});

/** A holding whose steps are laid again: those dated after `after` (its resume point) and on or after `from`. */
export interface RelaidSteps {
  accountId: string;
  stockCode: string;
  after: string | null;
  from: string | null;
}

/** SQL: the steps of JSON `rows` as the relation `r`. */
const ROWS = (rows: string) =>
  sql`json_to_recordset(${rows}::json) as r(account_id uuid, stock_code text, date date, traded boolean, shares bigint,
    cost_num numeric, cost_den numeric, cost_inexact int, invested numeric, withdrawn_num numeric, withdrawn_den numeric)`;

/**
 * Makes `rows` the stored steps of `holdings` over the dates each lays again. Driven by the batch's
 * rows, each probing the table's key; a date a holding no longer has is found against its own list
 * of dates (NOT EXISTS over the batch's JSON let the planner cross every stored step with every new
 * one: the 1M bench's 1% random edits wrote holdings for 18.0 s against 10.2 s).
 */
export function replaceSteps(holdings: readonly RelaidSteps[], rows: readonly StepRow[]): Statement<void>[] {
  const json = JSON.stringify(rows);
  const datesOf = listedByHolding(rows, (s) => s.date);
  const relaid = JSON.stringify(
    holdings.map((h) => ({
      account_id: h.accountId,
      stock_code: h.stockCode,
      after: h.after,
      from: h.from,
      dates: datesOf(h.accountId, h.stockCode),
    })),
  );
  return [
    effect(
      sql`delete from ${positionSteps} s using ${ROWS(json)}
       where s.account_id = r.account_id and s.stock_code = r.stock_code and s.date = r.date
         and (r.traded, r.shares, r.cost_num, r.cost_den, r.cost_inexact, r.invested, r.withdrawn_num, r.withdrawn_den)
           is distinct from (s.traded, s.shares, s.cost_num, s.cost_den, s.cost_inexact, s.invested, s.withdrawn_num, s.withdrawn_den)`,
    ),
    effect(
      sql`delete from ${positionSteps} s
       using json_to_recordset(${relaid}::json) as k(account_id uuid, stock_code text, after date, "from" date, dates date[])
       where s.account_id = k.account_id and s.stock_code = k.stock_code and s.date > coalesce(k.after, '-infinity'::date)
         and s.date >= coalesce(k."from", '-infinity'::date) and not (s.date = any(k.dates))`,
    ),
    effect(
      sql`insert into ${positionSteps} (account_id, stock_code, date, traded, shares, cost_num, cost_den, cost_inexact, invested, withdrawn_num, withdrawn_den)
       select * from ${ROWS(json)} on conflict (account_id, stock_code, date) do nothing`,
    ),
  ];
}
