/**
 * Cross-cutting middleware: request ids, configuration, per-request database clients and the
 * headers every response carries.
 */
import { createMiddleware } from "hono/factory";
import { cors } from "hono/cors";
import type { AppEnv } from "./context";
import { createDb } from "./db/client";
import { getConfig } from "./env";

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Keeps a caller's X-Request-Id when it looks sane, so logs line up across hops. */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header("X-Request-Id");
  const id = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  c.set("requestId", id);
  await next();
  c.header("X-Request-Id", id);
});

export const config = createMiddleware<AppEnv>(async (c, next) => {
  c.set("config", getConfig(c.env));
  await next();
});

/**
 * Per-request database clients: an HTTP client is cheap and Worker env is per invocation. The
 * client's deadline (DATABASE_TIMEOUT_MS) turns a database that hangs into a 503 in bounded time.
 */
export const database = createMiddleware<AppEnv>(async (c, next) => {
  const config = c.get("config");
  const { db, sql } = createDb(config.DATABASE_URL, { deadlineMs: config.DATABASE_TIMEOUT_MS });
  c.set("db", db);
  c.set("sql", sql);
  await next();
});

/** Customer data is reached by unguessable links: keep them out of referrers and indexes. */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.header("Referrer-Policy", "no-referrer");
  c.header("X-Robots-Tag", "noindex, nofollow");
  c.header("X-Content-Type-Options", "nosniff");
  c.header("X-Frame-Options", "DENY");
  // JSON needs no policy beyond "nothing"; a page that needs more (the API reference) sets its own.
  if (!c.res.headers.has("Content-Security-Policy")) {
    c.header("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  }
  c.header("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  c.header("Cross-Origin-Resource-Policy", "cross-origin");
});

export const corsFromConfig = createMiddleware<AppEnv>(async (c, next) => {
  const origins = c.get("config").CORS_ORIGINS;
  const handler = cors({
    origin: origins.includes("*") ? "*" : origins,
    allowMethods: ["GET", "POST", "OPTIONS"],
    allowHeaders: ["Content-Type", "If-None-Match", "X-Admin-Key", "X-Request-Id"],
    exposeHeaders: ["ETag", "X-Cache", "X-Request-Id", "Retry-After"],
    maxAge: 600,
  });
  return handler(c, next);
});
