/**
 * What an operator needs to see (GET /api/sync/status, docs/sync.md): the last runs and how they
 * ended (a run still "running" whose lease has expired died), each stream's lag, the
 * reconciliation (its schedule, one under way, the last complete one and whether one is
 * overdue), held rows (those waiting for a late parent, and orphans apart) and rejected rows
 * with their reasons and ages. One target transaction,
 * then one source request; a source that cannot be read leaves the lag unknown, with the
 * reason, rather than failing the page.
 *
 * Lag is how long the oldest change not yet applied has waited: the source clock minus the
 * `updated_at` of the first source row past the stream's cursor, 0 when there is none. It does
 * not grow while nothing changes. Held and rejected rows are behind the cursor (applied, just
 * not served), so they are not in it: they are listed with their own ages.
 */
import { sql } from "drizzle-orm";
import type { Config } from "../env";
import { newestFirst } from "../db/order";
import { reconciliations, syncRuns } from "../db/schema";
import { Budget } from "./budget";
import { cursorPositions, firstUnapplied, isoMicros, type Key } from "./cursor";
import { int, manyRows, sourceDatabase, targetDatabase, text, textOrNull } from "./database";
import { SyncError } from "./errors";
import { listHeld, listOrphans, listRejected, summarizeHeld, summarizeOrphans, summarizeRejected } from "./held";
import { currentLease, holdsLiveLease } from "./lease";
import { loadProgress } from "./reconcile";
import { nextFire, parseCron } from "../cron";
import type { ReconciliationStatus, Repaired, RunSummary, StreamStatus, SyncStatus } from "./schemas";
import { STREAMS, type StreamName } from "./streams";
import type { SyncConfig } from "./run";

/** How many runs, held rows and rejected rows the status lists. */
const LISTED = 50;
/**
 * How long after its scheduled time a reconciliation may take to complete before it is overdue:
 * cron delays, a delta backlog served first, and the chained runs of a large repair, with room to
 * spare (`RECONCILE_GRACE_MS` in docs/sync.md).
 */
export const RECONCILE_GRACE_MS = 2 * 3_600_000;

/** Runs are never pruned: each read below takes its rows from sync_runs_started_idx in order. */
export const lastRuns = () =>
  manyRows(
    sql`select r.id, r.trigger, r.mode,
         case when r.outcome = 'running' and not ${holdsLiveLease(sql`r.id`)} then 'died' else r.outcome end as outcome,
         ${isoMicros(sql`r.started_at`)} as started_at, ${isoMicros(sql`r.finished_at`)} as finished_at,
         (extract(epoch from r.finished_at - r.started_at) * 1000)::int as duration_ms,
         r.synced_rows, r.derived_rows, r.rejected_rows, r.pending_rows, r.error
       from ${syncRuns} r order by ${newestFirst(sql`r.started_at`)} limit ${LISTED}`,
    (r): RunSummary => ({
      id: text(r.id),
      trigger: text(r.trigger),
      mode: text(r.mode),
      outcome: text(r.outcome) as RunSummary["outcome"],
      started_at: text(r.started_at),
      finished_at: textOrNull(r.finished_at),
      duration_ms: r.duration_ms === null ? null : int(r.duration_ms),
      synced_rows: int(r.synced_rows),
      derived_rows: int(r.derived_rows),
      rejected_rows: int(r.rejected_rows),
      pending_rows: int(r.pending_rows),
      error: textOrNull(r.error),
    }),
  );

/** The last complete reconciliation, the one under way (its start), and the first run ever (when none completed). */
export const reconciliationHistory = () =>
  manyRows(
    sql`select 'complete' as kind, trigger, ${isoMicros(sql`started_at`)} as started_at, ${isoMicros(sql`finished_at`)} as finished_at,
         (extract(epoch from finished_at - started_at) * 1000)::int as duration_ms, runs, compared_ranges, repaired_ranges,
         repaired::text as repaired
       from (select * from ${reconciliations} where finished_at is not null order by ${newestFirst(sql`finished_at`)} limit 1) done
       union all
       select 'open', trigger, ${isoMicros(sql`started_at`)}, null, null, runs, compared_ranges, repaired_ranges, null
       from (select * from ${reconciliations} where finished_at is null order by started_at desc limit 1) open
       union all
       select 'first_run', trigger, ${isoMicros(sql`started_at`)}, null, null, 0, 0, 0, null
       -- The index's order read backwards (newestFirst, src/db/order.ts), so one row is read.
       from (select * from ${syncRuns} order by started_at nulls first limit 1) first`,
    (r) => ({
      kind: text(r.kind) as "complete" | "open" | "first_run",
      trigger: text(r.trigger),
      startedAt: text(r.started_at),
      finishedAt: textOrNull(r.finished_at),
      durationMs: r.duration_ms === null ? null : int(r.duration_ms),
      runs: int(r.runs),
      comparedRanges: int(r.compared_ranges),
      repairedRanges: int(r.repaired_ranges),
      repaired: r.repaired === null ? null : (JSON.parse(text(r.repaired)) as Partial<Record<StreamName, Repaired>>),
    }),
  );

type History = Awaited<ReturnType<ReturnType<typeof reconciliationHistory>["decode"]>>;

/** The reconciliation as an operator sees it; `now` decides whether one is overdue. */
export function reconciliationStatus(
  schedule: string,
  history: History,
  progress: { stream: StreamName; after: string | null }[],
  now: Date,
): ReconciliationStatus {
  const done = history.find((h) => h.kind === "complete");
  const open = history.find((h) => h.kind === "open");
  const first = history.find((h) => h.kind === "first_run");
  // Due at the schedule's first time after the last complete one ended, or after the first sync
  // (a new deployment is not overdue before its first night).
  const since = done?.finishedAt ?? first?.startedAt;
  const fires = since ? nextFire(parseCron(schedule), new Date(since)) : null;
  const dueBy = fires ? new Date(fires.getTime() + RECONCILE_GRACE_MS) : null;
  return {
    schedule,
    under_way: progress.length > 0,
    started_at: progress.length > 0 ? (open?.startedAt ?? null) : null,
    tables: progress.map((p) => ({ stream: p.stream, after_id: p.after })),
    last_complete: done
      ? {
          trigger: done.trigger,
          started_at: done.startedAt,
          finished_at: done.finishedAt!,
          duration_ms: done.durationMs!,
          runs: done.runs,
          compared_ranges: done.comparedRanges,
          repaired_ranges: done.repairedRanges,
          repaired: STREAMS.map(({ name }) => ({
            stream: name,
            ...(done.repaired?.[name] ?? { inserted: 0, updated: 0, deleted: 0 }),
          })),
        }
      : null,
    due_by: dueBy ? dueBy.toISOString() : null,
    overdue: dueBy !== null && now.getTime() > dueBy.getTime(),
  };
}

type StatusConfig = SyncConfig & Pick<Config, "SYNC_RECONCILE_CRON" | "DATABASE_TIMEOUT_MS">;

/** Each stream's lag, from the source; unknown (with the reason) when it cannot be read. */
async function streamLags(config: StatusConfig, budget: Budget, cursors: Map<StreamName, Key>) {
  const names = STREAMS.map((s) => s.name);
  const unknown = (reason: string, source: "unavailable" | "not_configured") => ({
    source,
    now: null,
    streams: names.map(
      (stream): StreamStatus => ({
        stream,
        cursor: cursors.get(stream)?.updatedAt ?? null,
        oldest_unapplied_at: null,
        lag_seconds: null,
        caught_up: null,
        lag_unknown_reason: reason,
      }),
    ),
  });
  if (!config.SOURCE_DATABASE_URL) return unknown("SOURCE_DATABASE_URL is not configured", "not_configured");
  const source = sourceDatabase(config.SOURCE_DATABASE_URL, budget);
  let rows: { stream: StreamName; firstAt: string | null; now: string; lag: number }[];
  try {
    [rows] = await source.run([firstUnapplied(STREAMS, (s) => cursors.get(s))]);
  } catch (err) {
    // The engine's own words (never the driver's, which may name the database).
    return unknown(err instanceof SyncError ? err.message : "the source database could not be read", "unavailable");
  }
  const byStream = new Map(rows.map((r) => [r.stream, r]));
  return {
    source: "ok" as const,
    now: rows[0]?.now ?? null,
    streams: names.map((stream): StreamStatus => {
      const r = byStream.get(stream)!;
      return {
        stream,
        cursor: cursors.get(stream)?.updatedAt ?? null,
        oldest_unapplied_at: r.firstAt,
        lag_seconds: r.lag,
        caught_up: r.firstAt === null,
        lag_unknown_reason: null,
      };
    }),
  };
}

export async function readStatus(config: StatusConfig): Promise<SyncStatus> {
  // An operator's request: it waits on either database as long as any API request does, not
  // as long as a sync's statement may take, so a hanging back office answers within the deadline.
  const budget = new Budget({ requestTimeoutMs: config.DATABASE_TIMEOUT_MS });
  const target = targetDatabase(config.DATABASE_URL, budget);
  const [lease, cursors, runs, progress, history, heldSummary, held, orphanSummary, orphans, rejectedSummary, rejected] =
    await target.run([
      currentLease(),
      cursorPositions(),
      lastRuns(),
      loadProgress(),
      reconciliationHistory(),
      summarizeHeld(),
      listHeld(LISTED),
      summarizeOrphans(),
      listOrphans(LISTED),
      summarizeRejected(),
      listRejected(LISTED),
    ]);
  const lags = await streamLags(config, budget, new Map(cursors.map((c) => [c.stream, c.key])));
  return {
    lease: { held: lease.length > 0, expires_at: lease[0]?.expiresAt ?? null },
    source: lags.source,
    source_clock: lags.now,
    streams: lags.streams,
    runs,
    reconciliation: reconciliationStatus(config.SYNC_RECONCILE_CRON, history, progress, new Date()),
    held: { ...heldSummary, rows: held },
    orphans: { ...orphanSummary, rows: orphans },
    rejected: { ...rejectedSummary, rows: rejected },
  };
}
