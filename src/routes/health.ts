/**
 * Health checks that cost a stranger nothing: the Worker itself, and one `select 1` on the
 * target, which serves every read. The source (the back office) is never reached from here:
 * whether it answers is the admin's to see, in the sync status (src/sync/status.ts).
 */
import { OpenAPIHono, createRoute, z } from "@hono/zod-openapi";
import type { AppEnv } from "../context";
import { missingBindings, REQUIRED_BINDINGS } from "../bindings";
import type { Sql } from "../db/client";
import { codeFor, reasonFor } from "../errors";
import { log } from "../log";
import { DATABASE_ERRORS, ErrorCode, SERVER_ERRORS, errorResponses, jsonResponse } from "../schemas";

type Reachability = "ok" | "unavailable";

async function ping(sql: Sql): Promise<Reachability> {
  try {
    await sql`select 1`;
    return "ok";
  } catch {
    return "unavailable";
  }
}

const reachability = z.enum(["ok", "unavailable"]);
const healthData = z.strictObject({ status: z.enum(["ok", "degraded"]), databases: z.strictObject({ target: reachability }) });
const healthBody = z.strictObject({ success: z.literal(true), data: healthData }).openapi("HealthResponse");
const unhealthyBody = z
  .strictObject({
    success: z.literal(false),
    error: z.string().openapi({ example: "Service Unavailable" }),
    code: ErrorCode,
    data: healthData,
  })
  .openapi("UnhealthyResponse");

const route = createRoute({
  method: "get",
  operationId: "getHealth",
  path: "/health",
  tags: ["Operations"],
  summary: "Liveness and the serving database's reachability",
  description:
    "Pings the target database, which serves every read; 503 when it does not answer. The back office is not reached from here (the sync status shows it, to an admin).",
  responses: {
    200: jsonResponse("The target database answers", healthBody),
    503: jsonResponse("The target database does not answer", unhealthyBody),
    ...errorResponses(...SERVER_ERRORS),
  },
});

const liveBody = z.object({ success: z.literal(true), data: z.object({ status: z.literal("ok") }) });
const misconfiguredBody = z
  .strictObject({
    success: z.literal(false),
    error: z.string().openapi({ example: "Service Unavailable" }),
    code: z.literal("misconfigured"),
    details: z.strictObject({
      missing_bindings: z.array(z.enum(REQUIRED_BINDINGS)).openapi({ description: "The bindings the Worker lacks" }),
    }),
  })
  .openapi("MisconfiguredResponse");

/** Liveness without I/O: also the benchmarks' floor for "the Worker itself". */
const liveRoute = createRoute({
  method: "get",
  operationId: "getLiveness",
  path: "/health/live",
  tags: ["Operations"],
  summary: "Liveness, without touching a database",
  description:
    "Answers as soon as the Worker runs; 503 naming the bindings it lacks when it was deployed without one it needs (every other route then answers 500).",
  responses: {
    200: jsonResponse("The Worker runs", liveBody),
    503: jsonResponse("The Worker lacks a binding it needs, and serves nothing else", misconfiguredBody),
    ...errorResponses(...SERVER_ERRORS),
  },
});
/** One `select 1` on the target: the benchmarks' floor for "one round trip through the driver". */
const databaseRoute = createRoute({
  method: "get",
  operationId: "getDatabaseHealth",
  path: "/health/db",
  tags: ["Operations"],
  summary: "One round trip to the target database",
  description: "Runs `select 1` on the target database.",
  responses: {
    200: jsonResponse("The target database answered", liveBody),
    ...errorResponses(...DATABASE_ERRORS),
  },
});

export const health = new OpenAPIHono<AppEnv>()
  .openapi(liveRoute, (c) => {
    const missing = missingBindings(c.env);
    if (missing.length) {
      // Answered here, not by src/error-handler.ts, so logged here: every 5xx is, once.
      log("error", "bindings_missing", { request_id: c.get("requestId"), status: 503, missing });
      return c.json(
        {
          success: false as const,
          error: reasonFor(503),
          code: "misconfigured" as const,
          details: { missing_bindings: missing },
        },
        503,
      );
    }
    return c.json({ success: true as const, data: { status: "ok" as const } }, 200);
  })
  .openapi(databaseRoute, async (c) => {
    await c.get("sql")`select 1`;
    return c.json({ success: true as const, data: { status: "ok" as const } }, 200);
  })
  .openapi(route, async (c) => {
    const target = await ping(c.get("sql"));
    if (target === "ok") return c.json({ success: true as const, data: { status: "ok" as const, databases: { target } } }, 200);
    log("error", "database_unavailable", { request_id: c.get("requestId"), status: 503, code: codeFor(503) });
    return c.json(
      {
        success: false as const,
        error: reasonFor(503),
        code: codeFor(503),
        data: { status: "degraded" as const, databases: { target } },
      },
      503,
    );
  });
