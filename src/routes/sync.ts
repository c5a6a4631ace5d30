import { OpenAPIHono, createRoute, z } from "@hono/zod-openapi";
import type { AppEnv } from "../context";
import { SyncQuery, errorResponses, invalidInput, jsonResponse } from "../schemas";
import { ADMIN_ERRORS, adminOnly } from "./admin";
import { syncAndInvalidate } from "../sync/worker";

const count = z.number().int().min(0);

const StreamReport = z
  .strictObject({
    inserted: count,
    updated: count,
    deleted: count.openapi({ description: "Including the rows removed below a deleted parent" }),
    orphans: count.openapi({ description: "Live rows skipped because a parent is not in the target yet; retried while inside the overlap window" }),
    pages: count,
  })
  .openapi("SyncStreamReport");

const SyncResponse = z
  .strictObject({
    success: z.literal(true),
    data: z.strictObject({
      run_id: z.uuid(),
      mode: z.enum(["delta", "full"]),
      complete: z.boolean().openapi({ description: "False when the run stopped at its budget; the next run continues" }),
      synced_rows: count.openapi({ description: "Rows of the six synced tables inserted, updated or deleted in the target" }),
      duration_ms: count,
      metrics_ms: count.openapi({ description: "Of duration_ms, the time spent recomputing stored metrics" }),
      streams: z.strictObject({
        brokers: StreamReport,
        staff: StreamReport,
        customers: StreamReport,
        accounts: StreamReport,
        holdings: StreamReport,
        transactions: StreamReport,
      }),
      metrics_recomputed: count,
      changed_customers: count.openapi({ description: "Customers whose cached responses were invalidated" }),
    }),
  })
  .openapi("SyncResponse");

const route = createRoute({
  method: "post",
  operationId: "runSync",
  path: "/sync",
  ...adminOnly,
  summary: "Copy what changed in the back office into the serving database",
  description:
    "Runs the delta sync now (the Cron Trigger runs it on a schedule). `mode=full` also removes rows the back office deleted outright.",
  request: { query: SyncQuery },
  responses: {
    200: jsonResponse("The run and what it changed", SyncResponse),
    ...invalidInput({ path: "mode", message: "must be delta or full" }),
    ...errorResponses(...ADMIN_ERRORS, 409, 502, 503),
  },
});

export const sync = new OpenAPIHono<AppEnv>().openapi(route, async (c) => {
  const report = await syncAndInvalidate(c.get("config"), {
    trigger: "manual",
    mode: c.req.valid("query").mode,
    origin: new URL(c.req.url).origin,
  });
  return c.json({ success: true as const, data: report }, 200);
});
