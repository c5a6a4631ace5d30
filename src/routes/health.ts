import { OpenAPIHono, createRoute, z } from "@hono/zod-openapi";
import type { AppEnv } from "../context";
import { createSql, type Sql } from "../db/client";
import { DATABASE_ERRORS, SERVER_ERRORS, errorResponses, jsonResponse } from "../schemas";

type Reachability = "ok" | "unavailable" | "not_configured";

async function ping(sql: Sql | undefined): Promise<Reachability> {
  if (!sql) return "not_configured";
  try {
    await sql`select 1`;
    return "ok";
  } catch {
    return "unavailable";
  }
}

const reachability = z.enum(["ok", "unavailable", "not_configured"]);
const healthBody = z.object({
  success: z.boolean(),
  error: z.string().optional(),
  data: z.object({ status: z.enum(["ok", "degraded"]), databases: z.object({ target: reachability, source: reachability }) }),
});

const route = createRoute({
  method: "get",
  operationId: "getHealth",
  path: "/health",
  tags: ["Operations"],
  summary: "Liveness and database reachability",
  description: "Pings both databases; 503 only when the target, which serves every read, does not answer.",
  responses: {
    200: jsonResponse("The target database answers", healthBody),
    503: jsonResponse("The target database does not answer", healthBody),
    ...errorResponses(...SERVER_ERRORS),
  },
});

const liveBody = z.object({ success: z.literal(true), data: z.object({ status: z.literal("ok") }) });

/** Liveness without I/O: also the benchmarks' floor for "the Worker itself". */
const liveRoute = createRoute({
  method: "get",
  operationId: "getLiveness",
  path: "/health/live",
  tags: ["Operations"],
  summary: "Liveness, without touching a database",
  description: "Answers as soon as the Worker runs.",
  responses: { 200: jsonResponse("The Worker runs", liveBody), ...errorResponses(...SERVER_ERRORS) },
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
  .openapi(liveRoute, (c) => c.json({ success: true as const, data: { status: "ok" as const } }, 200))
  .openapi(databaseRoute, async (c) => {
    await c.get("sql")`select 1`;
    return c.json({ success: true as const, data: { status: "ok" as const } }, 200);
  })
  .openapi(route, async (c) => {
    const config = c.get("config");
    const source = config.SOURCE_DATABASE_URL;
    const sourceSql = source ? createSql(source, { deadlineMs: config.DATABASE_TIMEOUT_MS }) : undefined;
    const [target, sourceStatus] = await Promise.all([ping(c.get("sql")), ping(sourceSql)]);
    const ok = target === "ok";
    const data = {
      status: ok && sourceStatus !== "unavailable" ? ("ok" as const) : ("degraded" as const),
      databases: { target, source: sourceStatus },
    };
    return ok ? c.json({ success: true, data }, 200) : c.json({ success: false, error: "Service Unavailable", data }, 503);
  });
