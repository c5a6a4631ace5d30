import { OpenAPIHono, createRoute, z } from "@hono/zod-openapi";
import type { AppEnv } from "../context";
import { adminKeyWeakness } from "../auth";
import { AppError } from "../errors";
import { SyncQuery, errorResponses, invalidInput, jsonResponse } from "../schemas";
import { LeaseHeldError, SourceUnavailableError, TargetUnavailableError } from "../sync/errors";
import type { SyncReport } from "../sync/report";
import { readStatus, type SyncStatus } from "../sync/status";
import { STREAMS, type StreamName } from "../sync/streams";
import { ADMIN_ERRORS, adminOnly } from "./admin";
import { syncAndInvalidate } from "../sync/worker";

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
    pages: count,
  })
  .openapi("SyncStreamReport");

const SyncData = z.strictObject({
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
  pending_rows: count.openapi({ description: "Rows held after the run because a parent is not in the target yet" }),
  duration_ms: count,
  metrics_ms: count.openapi({ description: "Of duration_ms, the time spent recomputing stored metrics" }),
  streams: perStream(StreamReport),
  reconciliation: z
    .strictObject({
      compared_ranges: count,
      repaired_ranges: count,
      repaired_rows: count.openapi({ description: "Rows the repairs inserted, updated or deleted (part of synced_rows)" }),
      done: z.boolean().openapi({ description: "True when this run compared the last table: the reconciliation is complete" }),
    })
    .nullable()
    .openapi({ description: "Present when the run compared source and target (mode=full, or one under way)" }),
  holdings_recomputed: count,
  metrics_recomputed: count,
  changed_customers: count.openapi({ description: "Customers whose cached responses were invalidated" }),
  prices_changed: count.openapi({
    description:
      "Stock codes whose latest close changed; every cached answer carrying a valuation was invalidated with one delete",
  }),
});

// The engine's report and the documented body are one shape: the compiler holds them together.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const reportMatchesSchema: Same<z.infer<typeof SyncData>, SyncReport> = true;
void reportMatchesSchema;

const SyncResponse = z.strictObject({ success: z.literal(true), data: SyncData }).openapi("SyncResponse");

/** What the engine's errors mean to an admin caller. */
function toHttpError(err: unknown): unknown {
  if (err instanceof LeaseHeldError) {
    return new AppError(409, {
      details: { reason: err.message, retry_after_seconds: err.retryAfterSeconds },
      headers: { "Retry-After": String(err.retryAfterSeconds) },
      cause: err,
    });
  }
  if (err instanceof SourceUnavailableError) return new AppError(502, { cause: err });
  if (err instanceof TargetUnavailableError) return new AppError(503, { cause: err });
  return err;
}

const runRoute = createRoute({
  method: "post",
  operationId: "runSync",
  path: "/sync",
  ...adminOnly,
  summary: "Copy what changed in the back office into the serving database",
  description:
    "Runs the delta sync now (the Cron Trigger runs it on a schedule). `mode=full` also compares source and target range by range and repairs every difference.",
  request: { query: SyncQuery },
  responses: {
    200: jsonResponse("The run and what it changed", SyncResponse),
    ...invalidInput({ path: "mode", message: "must be delta or full" }),
    ...errorResponses(...ADMIN_ERRORS, 409, 502, 503),
  },
});

const ListedRow = z.strictObject({
  stream: streamName,
  id: z.uuid(),
  reason: z.string(),
  age_seconds: count.openapi({ description: "How long ago the row's version was stamped in the source" }),
});
const Listed = z.strictObject({
  count,
  oldest_age_seconds: count.nullable().openapi({ description: "Age of the oldest row; null when there is none" }),
  rows: z.array(ListedRow),
});
const Repaired = z.strictObject({ stream: streamName, inserted: count, updated: count, deleted: count });

const StatusData = z.strictObject({
  lease: z.strictObject({ held: z.boolean(), expires_at: instant.nullable() }),
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
  held: Listed.openapi({ description: "Rows waiting for a parent that is not in the target yet" }),
  rejected: Listed.openapi({ description: "Rows set aside as no ledger can hold them, with the reason" }),
  admin_key: z.strictObject({
    weak: z.boolean().openapi({ description: "True when ADMIN_API_KEY is shorter than 32 characters" }),
    advice: z.string().nullable().openapi({ description: "How to make a strong key, when it is weak" }),
  }),
});

const statusMatchesSchema: Same<Omit<z.infer<typeof StatusData>, "admin_key">, SyncStatus> = true;
void statusMatchesSchema;

const statusRoute = createRoute({
  method: "get",
  operationId: "getSyncStatus",
  path: "/sync/status",
  ...adminOnly,
  summary: "How the sync stands: last runs, lag, held and rejected rows",
  description:
    "The last runs and how they ended (a run whose lease expired while running is shown as died), each stream's lag (how long the oldest change not applied yet has waited), the scheduled reconciliation (one under way, the last complete one with what it repaired, whether one is overdue), and the rows held for a missing parent or set aside as no ledger can hold them, with their ages.",
  responses: {
    200: jsonResponse(
      "The sync's state",
      z.strictObject({ success: z.literal(true), data: StatusData }).openapi("SyncStatusResponse"),
    ),
    ...errorResponses(...ADMIN_ERRORS, 503),
  },
});

export const sync = new OpenAPIHono<AppEnv>()
  .openapi(runRoute, async (c) => {
    try {
      const report = await syncAndInvalidate(c.get("config"), {
        trigger: "manual",
        mode: c.req.valid("query").mode,
        origin: new URL(c.req.url).origin,
        queue: c.env.SYNC_QUEUE,
      });
      return c.json({ success: true as const, data: report }, 200);
    } catch (err) {
      throw toHttpError(err);
    }
  })
  .openapi(statusRoute, async (c) => {
    const config = c.get("config");
    try {
      const status = await readStatus(config);
      const advice = adminKeyWeakness(config);
      return c.json({ success: true as const, data: { ...status, admin_key: { weak: advice !== null, advice } } }, 200);
    } catch (err) {
      throw toHttpError(err);
    }
  });
