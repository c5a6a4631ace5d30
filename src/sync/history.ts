/** The run history (`sync_runs`): one row per run that got the lease, written at its start and end. */
import { sql } from "drizzle-orm";
import { syncRuns } from "../db/schema";
import { effect, type Statement } from "./database";
import { holdsLease } from "./lease";
import type { Mode, SyncReport, Trigger } from "./report";

export type Outcome = "complete" | "partial" | "failed";

/** Records the run as running, only if it holds the lease (sent in the batch that takes it). */
export function recordStart(runId: string, trigger: Trigger, mode: Mode): Statement<void> {
  return effect(
    sql`insert into ${syncRuns} (id, trigger, mode, started_at, outcome)
       select ${runId}, ${trigger}, ${mode}, now(), 'running' where ${holdsLease(runId)}`,
  );
}

/**
 * Runs still recorded as running when this one takes the lease died: theirs had expired (the
 * isolate was killed, or the process stopped) before they could record their end.
 */
export function recordDied(runId: string): Statement<void> {
  return effect(
    sql`update ${syncRuns} set outcome = 'died', error = 'the run stopped without recording its end; its lease expired'
       where ${syncRuns.outcome} = 'running' and ${syncRuns.id} <> ${runId} and ${holdsLease(runId)}`,
  );
}

export function recordEnd(report: SyncReport, outcome: Outcome, error: string | null): Statement<void> {
  const { run_id, synced_rows, derived_rows, rejected_rows, pending_rows, complete, ...details } = report;
  return effect(
    sql`update ${syncRuns} set finished_at = now(), outcome = ${outcome}, synced_rows = ${synced_rows},
         rejected_rows = ${rejected_rows}, pending_rows = ${pending_rows}, complete = ${complete}, error = ${error},
         details = ${JSON.stringify(details)}::jsonb, derived_rows = ${derived_rows}
       where ${syncRuns.id} = ${run_id}`,
  );
}
