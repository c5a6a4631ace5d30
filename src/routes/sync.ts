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

const count = z.number().int().min(0);
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
    pages: count,
  })
  .openapi("SyncStreamReport");

const SyncData = z.strictObject({
  run_id: z.uuid(),
  mode: z.enum(["delta", "full"]),
  complete: z.boolean().openapi({ description: "False when the run stopped at its budget; the next run continues" }),
  synced_rows: count.openapi({ description: "Rows of the synced tables inserted, updated or deleted in the target" }),
  rejected_rows: count.openapi({ description: "Rows this run set aside as no ledger can hold them" }),
  pending_rows: count.openapi({ description: "Rows held after the run because a parent is not in the target yet" }),
  duration_ms: count,
  metrics_ms: count.openapi({ description: "Of duration_ms, the time spent recomputing stored metrics" }),
  streams: perStream(StreamReport),
  reconciliation: z
    .strictObject({ compared_ranges: count, repaired_ranges: count, done: z.boolean() })
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

const ListedRow = z.strictObject({ stream: streamName, id: z.uuid(), reason: z.string() });
const Listed = z.strictObject({ count, rows: z.array(ListedRow) });

const StatusData = z.strictObject({
  lease: z.strictObject({ held: z.boolean(), expires_at: instant.nullable() }),
  source_clock: instant.nullable().openapi({ description: "The source's clock now; null when it cannot be read" }),
  streams: z.array(
    z.strictObject({
      stream: streamName,
      cursor: instant.nullable(),
      lag_seconds: count.nullable().openapi({ description: "Source clock minus the stream's cursor" }),
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
      rejected_rows: count,
      pending_rows: count,
      error: z.string().nullable(),
    }),
  ),
  reconciliation: z.strictObject({
    under_way: z.boolean(),
    tables: z.array(z.strictObject({ stream: streamName, after_id: z.uuid().nullable() })),
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
    "The last runs and how they ended (a run whose lease expired while running is shown as died), each stream's lag behind the back office's clock, a reconciliation under way, and the rows held for a missing parent or set aside as no ledger can hold them.",
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
