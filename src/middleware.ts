/**
 * Cross-cutting middleware: request ids, configuration, per-request database clients and the
 * headers every response carries.
 */
import { createMiddleware } from "hono/factory";
import { cors } from "hono/cors";
import { requestId as honoRequestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./context";
import { createDb } from "./db/client";
import { getConfig } from "./env";

/** What docs/api.md promises to keep: 8 to 128 of `A-Za-z0-9._-`. */
const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/**
 * hono/request-id with that rule (REQUEST_ID). Its own check keeps any id of up to `limitLength` word
 * characters, `-` and `=` (so "abc" and "a=b" would pass, "trace.1234" would not), so it is told to
 * read no header (`headerName: ""`) and the generator applies our rule to the caller's id instead.
 */
const assignRequestId = honoRequestId({
  headerName: "",
  generator: (c) => {
    const incoming = c.req.header("X-Request-Id");
    return incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  },
});

/**
 * Keeps a caller's X-Request-Id when it looks sane, so logs line up across hops. The header is
 * echoed after the handler, as the last word: a response built by hand (a cached one) keeps it.
 */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  await assignRequestId(c, next);
  c.header("X-Request-Id", c.get("requestId"));
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

/**
 * hono/secure-headers set to exactly the headers this API has always sent (its defaults differ):
 * HSTS for two years, frames refused outright (DENY, not SAMEORIGIN), and a
 * Cross-Origin-Resource-Policy of cross-origin, since browsers on other origins read this API
 * (CORS_ORIGINS). The headers Hono adds by default that this API never sent are off.
 * `overwrite: false` lets a page that needs more than the JSON policy (the API reference, the
 * customer's page) keep the Content-Security-Policy it set itself.
 */
const standardHeaders = secureHeaders({
  overwrite: false,
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  crossOriginResourcePolicy: "cross-origin",
  referrerPolicy: "no-referrer",
  strictTransportSecurity: "max-age=63072000; includeSubDomains",
  xContentTypeOptions: "nosniff",
  xFrameOptions: "DENY",
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});

/** Customer data is reached by unguessable links: keep them out of referrers and indexes. */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await standardHeaders(c, next);
  // Not one of hono/secure-headers' headers.
  c.header("X-Robots-Tag", "noindex, nofollow");
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
