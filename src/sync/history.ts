/** The run history (`sync_runs`): one row per run that got the lease, written at its start and end. */
import { getTableName } from "drizzle-orm";
import type { Sql } from "../db/client";
import { syncLease, syncRuns } from "../db/schema";
import { effect, type Statement } from "./database";
import type { Mode, SyncReport, Trigger } from "./report";

export type Outcome = "complete" | "partial" | "failed";

const RUNS = getTableName(syncRuns);
const LEASE = getTableName(syncLease);

/** Records the run as running, only if it holds the lease (sent in the batch that takes it). */
export function recordStart(target: Sql, runId: string, trigger: Trigger, mode: Mode): Statement<void> {
  return effect(
    target.query(
      `insert into ${RUNS} (id, trigger, mode, started_at, outcome)
       select $1, $2, $3, now(), 'running' where exists (select 1 from ${LEASE} where holder = $1)`,
      [runId, trigger, mode],
    ),
  );
}

/**
 * Runs still recorded as running when this one takes the lease died: theirs had expired (the
 * isolate was killed, or the process stopped) before they could record their end.
 */
export function recordDied(target: Sql, runId: string): Statement<void> {
  return effect(
    target.query(
      `update ${RUNS} set outcome = 'died', error = 'the run stopped without recording its end; its lease expired'
       where outcome = 'running' and id <> $1 and exists (select 1 from ${LEASE} where holder = $1)`,
      [runId],
    ),
  );
}

export function recordEnd(target: Sql, report: SyncReport, outcome: Outcome, error: string | null): Statement<void> {
  const { run_id, synced_rows, derived_rows, rejected_rows, pending_rows, complete, ...details } = report;
  return effect(
    target.query(
      `update ${RUNS} set finished_at = now(), outcome = $2, synced_rows = $3, rejected_rows = $4, pending_rows = $5,
         complete = $6, error = $7, details = $8::jsonb, derived_rows = $9
       where id = $1`,
      [run_id, outcome, synced_rows, rejected_rows, pending_rows, complete, error, JSON.stringify(details), derived_rows],
    ),
  );
}
