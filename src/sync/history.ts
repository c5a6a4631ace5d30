/** The run history (`sync_runs`): one row per run that got the lease, written at its start and end. */
import type { Sql } from "../db/client";
import type { Query } from "./database";
import type { Mode, SyncReport, Trigger } from "./report";

export type Outcome = "complete" | "partial" | "failed";

/** Records the run as running, only if it holds the lease (sent in the batch that takes it). */
export function recordStart(target: Sql, runId: string, trigger: Trigger, mode: Mode): Query {
  return target.query(
    `insert into sync_runs (id, trigger, mode, started_at, outcome)
     select $1, $2, $3, now(), 'running' where exists (select 1 from sync_lease where holder = $1)`,
    [runId, trigger, mode],
  );
}

export function recordEnd(target: Sql, report: SyncReport, outcome: Outcome, error: string | null): Query {
  const { run_id, synced_rows, complete, ...details } = report;
  return target.query(
    `update sync_runs set finished_at = now(), outcome = $2, synced_rows = $3, complete = $4, error = $5, details = $6::jsonb
     where id = $1`,
    [run_id, outcome, synced_rows, complete, error, JSON.stringify(details)],
  );
}
