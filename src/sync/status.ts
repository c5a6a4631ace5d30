/**
 * What an operator needs to see (GET /api/sync/status, DESIGN §7): the last runs and how they
 * ended (a run still "running" whose lease has expired died), each stream's lag behind the
 * source's clock, a reconciliation under way, held rows and rejected rows with their reasons.
 * One target transaction and one source request; a source that cannot be read leaves the lag
 * unknown rather than failing the page.
 */
import { getTableName } from "drizzle-orm";
import type { Sql } from "../db/client";
import { syncRuns } from "../db/schema";
import { Budget } from "./budget";
import { cursorPositions, isoMicros, sourceClock } from "./cursor";
import { int, manyRows, sourceDatabase, targetDatabase, text, textOrNull } from "./database";
import { countHeld, countRejected, listHeld, listRejected, type ListedRow } from "./held";
import { currentLease } from "./lease";
import { loadProgress } from "./reconcile";
import { STREAMS, type StreamName } from "./streams";
import type { SyncConfig } from "./run";

/** How many runs, held rows and rejected rows the status lists. */
const LISTED = 50;
const RUNS = getTableName(syncRuns);

export interface RunSummary {
  id: string;
  trigger: string;
  mode: string;
  outcome: "running" | "complete" | "partial" | "failed" | "died";
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  synced_rows: number;
  rejected_rows: number;
  pending_rows: number;
  error: string | null;
}

export interface SyncStatus {
  lease: { held: boolean; expires_at: string | null };
  source_clock: string | null;
  streams: { stream: StreamName; cursor: string | null; lag_seconds: number | null }[];
  runs: RunSummary[];
  reconciliation: { under_way: boolean; tables: { stream: StreamName; after_id: string | null }[] };
  held: { count: number; rows: ListedRow[] };
  rejected: { count: number; rows: ListedRow[] };
}

const lastRuns = (target: Sql) =>
  manyRows(
    target.query(
      `select r.id, r.trigger, r.mode,
         case when r.outcome = 'running' and not exists (
           select from sync_lease l where l.holder = r.id and l.expires_at >= now()) then 'died' else r.outcome end as outcome,
         ${isoMicros("r.started_at")} as started_at, ${isoMicros("r.finished_at")} as finished_at,
         (extract(epoch from r.finished_at - r.started_at) * 1000)::int as duration_ms,
         r.synced_rows, r.rejected_rows, r.pending_rows, r.error
       from ${RUNS} r order by r.started_at desc limit $1`,
      [LISTED],
    ),
    (r): RunSummary => ({
      id: text(r.id),
      trigger: text(r.trigger),
      mode: text(r.mode),
      outcome: text(r.outcome) as RunSummary["outcome"],
      started_at: text(r.started_at),
      finished_at: textOrNull(r.finished_at),
      duration_ms: r.duration_ms === null ? null : int(r.duration_ms),
      synced_rows: int(r.synced_rows),
      rejected_rows: int(r.rejected_rows),
      pending_rows: int(r.pending_rows),
      error: textOrNull(r.error),
    }),
  );

export async function readStatus(config: SyncConfig): Promise<SyncStatus> {
  const budget = new Budget();
  const target = targetDatabase(config.DATABASE_URL, budget);
  const source = config.SOURCE_DATABASE_URL ? sourceDatabase(config.SOURCE_DATABASE_URL, budget) : null;
  const clock = source
    ? source.run([sourceClock(source.sql)]).then(
        ([now]) => now,
        () => null,
      )
    : Promise.resolve(null);
  const { sql } = target;
  const [[lease, cursors, runs, progress, heldCount, held, rejectedCount, rejected], now] = await Promise.all([
    target.run([
      currentLease(sql),
      cursorPositions(sql),
      lastRuns(sql),
      loadProgress(sql),
      countHeld(sql),
      listHeld(sql, LISTED),
      countRejected(sql),
      listRejected(sql, LISTED),
    ]),
    clock,
  ]);
  const cursorOf = new Map(cursors.map((c) => [c.stream, c.at]));
  return {
    lease: { held: lease.length > 0, expires_at: lease[0]?.expiresAt ?? null },
    source_clock: now,
    streams: STREAMS.map(({ name }) => {
      const cursor = cursorOf.get(name) ?? null;
      const lag = now && cursor ? Math.max(0, Math.round((Date.parse(now) - Date.parse(cursor)) / 1000)) : null;
      return { stream: name, cursor, lag_seconds: lag };
    }),
    runs,
    reconciliation: { under_way: progress.length > 0, tables: progress.map((p) => ({ stream: p.stream, after_id: p.after })) },
    held: { count: heldCount, rows: held },
    rejected: { count: rejectedCount, rows: rejected },
  };
}
