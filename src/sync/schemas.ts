/**
 * What the sync answers, declared once: the run report (POST /api/sync, and the history row
 * that keeps it) and the status (GET /api/sync/status), as zod schemas that document the API
 * (src/routes/sync.ts) and give the engine its types (src/sync/report.ts, status.ts, held.ts).
 */
import { z } from "@hono/zod-openapi";
import { STREAMS, type StreamName } from "./streams";

const count = z.number().int().min(0).openapi({ format: "int64" });
const instant = z.string().openapi({ example: "2026-11-23T05:20:00.123456Z" });
const streamName = z.enum(STREAMS.map((s) => s.name) as [StreamName, ...StreamName[]]);
const perStream = <T extends z.ZodType>(schema: T) =>
  z.strictObject(Object.fromEntries(STREAMS.map((s) => [s.name, schema])) as Record<StreamName, T>);

const StreamReport = z
  .strictObject({
    inserted: count,
    updated: count,
    deleted: count.openapi({ description: "Rows newly soft-deleted, or removed because the source no longer has them" }),
    rejected: count.openapi({ description: "Rows set aside because no ledger can hold them (never served)" }),
    derived: count.openapi({
      description: "Rows of this table changed only because another row changed (a moved account's trades); not in synced_rows",
    }),
    pages: count.openapi({ description: "Transactions committed: delta pages and reconciliation repairs" }),
  })
  .openapi("SyncStreamReport");

export const SyncData = z.strictObject({
  run_id: z.uuid(),
  mode: z.enum(["delta", "full"]),
  complete: z.boolean().openapi({ description: "False when the run stopped at its budget; the next run continues" }),
  synced_rows: count.openapi({
    description:
      "Rows of the synced tables inserted, updated or deleted in the target because their source row changed or a reconciliation repaired them",
  }),
  derived_rows: count.openapi({
    description: "Rows changed only because another row changed (a moved account's trades following it), counted apart",
  }),
  rejected_rows: count.openapi({ description: "Rows this run set aside as no ledger can hold them" }),
  pending_rows: count.openapi({
    description: "Rows held after the run because a parent is not in the target yet, orphans apart",
  }),
  orphan_rows: count.openapi({
    description:
      "Held rows whose parent a complete reconciliation found absent from the source (deleted outright, or never written); applied if it ever comes",
  }),
  duration_ms: count,
  metrics_ms: count.openapi({ description: "Of duration_ms, the time spent recomputing stored metrics" }),
  streams: perStream(StreamReport),
  reconciliation: z
    .strictObject({
      compared_ranges: count.openapi({ description: "Id ranges whose checksums were compared in both databases" }),
      repaired_ranges: count.openapi({ description: "Ranges that differed and were repaired row by row" }),
      repaired_rows: count.openapi({ description: "Rows the repairs inserted, updated or deleted (part of synced_rows)" }),
      done: z.boolean().openapi({ description: "True when this run compared the last table: the reconciliation is complete" }),
    })
    .nullable()
    .openapi({ description: "Present when the run compared source and target (mode=full, or one under way)" }),
  holdings_recomputed: count.openapi({ description: "Holdings whose partial metrics were recomputed from their trades" }),
  metrics_recomputed: count.openapi({ description: "Customers whose stored metrics were merged again" }),
  changed_customers: count.openapi({ description: "Customers whose cached responses were invalidated" }),
  prices_changed: count.openapi({
    description:
      "Stock codes with a close changed at any date; every cached answer carrying a valuation or a performance series was invalidated with one delete",
  }),
});

const ListedRow = z.strictObject({
  stream: streamName,
  id: z.uuid(),
  reason: z.string(),
  age_seconds: count.openapi({
    description:
      "For a held row, how long it has been held; for a rejected row, how long ago its version was stamped in the source",
  }),
});
const OrphanRow = ListedRow.extend({
  parent: z
    .strictObject({ stream: streamName, id: z.uuid() })
    .openapi({ description: "The parent the row lacks: the source has no row of that table with that id" }),
});
const Listed = z.strictObject({
  count,
  oldest_age_seconds: count.nullable().openapi({ description: "Age of the oldest row; null when there is none" }),
  rows: z.array(ListedRow),
});
const Repaired = z.strictObject({ stream: streamName, inserted: count, updated: count, deleted: count });

export const StatusData = z.strictObject({
  lease: z.strictObject({ held: z.boolean(), expires_at: instant.nullable() }),
  source: z.enum(["ok", "unavailable", "not_configured"]).openapi({
    description:
      "Whether the back office answered this status's read: the only place its reachability is shown (the public health check never reaches it)",
  }),
  source_clock: instant.nullable().openapi({ description: "The source's clock now; null when it cannot be read" }),
  streams: z.array(
    z.strictObject({
      stream: streamName,
      cursor: instant.nullable(),
      oldest_unapplied_at: instant
        .nullable()
        .openapi({ description: "updated_at of the first source row past the cursor: the oldest change not applied yet" }),
      lag_seconds: count.nullable().openapi({
        description:
          "How long the oldest change not applied yet has waited (source clock minus oldest_unapplied_at); 0 when there is none; null when the source cannot be read",
      }),
      caught_up: z
        .boolean()
        .nullable()
        .openapi({ description: "True when no source row is past the cursor; null when the source cannot be read" }),
      lag_unknown_reason: z.string().nullable().openapi({ description: "Why lag_seconds is null" }),
    }),
  ),
  runs: z.array(
    z.strictObject({
      id: z.uuid(),
      trigger: z.string(),
      mode: z.string(),
      outcome: z.enum(["running", "complete", "partial", "failed", "died"]),
      started_at: instant,
      finished_at: instant.nullable(),
      duration_ms: count.nullable(),
      synced_rows: count,
      derived_rows: count,
      rejected_rows: count,
      pending_rows: count,
      error: z.string().nullable(),
    }),
  ),
  reconciliation: z.strictObject({
    schedule: z
      .string()
      .openapi({ description: "The Cron Trigger (UTC) that runs it: SYNC_RECONCILE_CRON", example: "0 19 * * *" }),
    under_way: z.boolean(),
    started_at: instant.nullable().openapi({ description: "When the reconciliation under way was asked for" }),
    tables: z.array(z.strictObject({ stream: streamName, after_id: z.uuid().nullable() })),
    last_complete: z
      .strictObject({
        trigger: z.string(),
        started_at: instant,
        finished_at: instant,
        duration_ms: count,
        runs: count,
        compared_ranges: count,
        repaired_ranges: count,
        repaired: z.array(Repaired).openapi({ description: "Rows it inserted, updated and deleted, per table" }),
      })
      .nullable(),
    due_by: instant.nullable().openapi({
      description:
        "When the next complete reconciliation should have ended: the schedule's next time after the last one ended (or after the first sync), plus two hours",
    }),
    overdue: z.boolean().openapi({ description: "True when due_by has passed with no complete reconciliation" }),
  }),
  held: Listed.openapi({ description: "Rows waiting for a parent that is not in the target yet, orphans apart" }),
  orphans: Listed.extend({ rows: z.array(OrphanRow) }).openapi({
    description:
      "Held rows still held when a reconciliation completed: their parent is not in the source at all. Each is applied if its parent ever comes",
  }),
  rejected: Listed.openapi({ description: "Rows set aside as no ledger can hold them, with the reason" }),
  admin_key: z.strictObject({
    weak: z.boolean().openapi({ description: "True when ADMIN_API_KEY is shorter than 32 characters" }),
    advice: z.string().nullable().openapi({ description: "How to make a strong key, when it is weak" }),
  }),
});

export type SyncReport = z.output<typeof SyncData>;
export type Mode = SyncReport["mode"];
export type StreamReport = SyncReport["streams"][StreamName];
export type ReconciliationReport = NonNullable<SyncReport["reconciliation"]>;

/** The status as the engine reads it; the route adds the admin key's advice. */
export type SyncStatus = Omit<z.output<typeof StatusData>, "admin_key">;
export type RunSummary = SyncStatus["runs"][number];
export type StreamStatus = SyncStatus["streams"][number];
export type ReconciliationStatus = SyncStatus["reconciliation"];
export type CompletedReconciliation = NonNullable<ReconciliationStatus["last_complete"]>;
/** Rows a reconciliation's repairs wrote in one table. */
export type Repaired = Omit<CompletedReconciliation["repaired"][number], "stream">;
/** A held or rejected row as the status lists it. */
export type ListedRow = SyncStatus["held"]["rows"][number];
/** An orphan held row as the status lists it, with the parent it lacks. */
export type OrphanRow = SyncStatus["orphans"]["rows"][number];
export type Summary = Omit<SyncStatus["held"], "rows">;
