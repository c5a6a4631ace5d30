import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../context";
import { adminKeyWeakness } from "../auth";
import { AppError } from "../errors";
import { SyncQuery, errorResponses, invalidInput, jsonResponse } from "../schemas";
import { LeaseHeldError, RulesNewerError, SourceUnavailableError, TargetUnavailableError } from "../sync/errors";
import { readStatus } from "../sync/status";
import { StatusData, SyncData } from "../sync/schemas";
import { adminRoute } from "./admin";
import { syncAndInvalidate } from "../sync/worker";

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
  // This Worker is an older release than the one that upgraded the target: a deploy to finish.
  // The reason is in the run's history and the log (the 503 body carries none).
  if (err instanceof RulesNewerError) return new AppError(503, { code: "misconfigured", cause: err });
  return err;
}

const runRoute = adminRoute({
  method: "post",
  operationId: "runSync",
  path: "/sync",
  summary: "Copy what changed in the back office into the serving database",
  description:
    "Runs the delta sync now (the Cron Trigger runs it on a schedule). `mode=full` also compares source and target range by range and repairs every difference.",
  request: { query: SyncQuery },
  responses: {
    200: jsonResponse("The run and what it changed", SyncResponse),
    ...invalidInput({ path: "mode", message: "must be delta or full" }),
    ...errorResponses(409, 502, 503),
  },
});

const statusRoute = adminRoute({
  method: "get",
  operationId: "getSyncStatus",
  path: "/sync/status",
  summary: "How the sync stands: last runs, lag, held and rejected rows",
  description:
    "The last runs and how they ended (a run whose lease expired while running is shown as died), each stream's lag (how long the oldest change not applied yet has waited), the scheduled reconciliation (one under way, the last complete one with what it repaired, whether one is overdue), and the rows held for a missing parent or set aside as no ledger can hold them, with their ages.",
  responses: {
    200: jsonResponse(
      "The sync's state",
      z.strictObject({ success: z.literal(true), data: StatusData }).openapi("SyncStatusResponse"),
    ),
    ...errorResponses(503),
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
