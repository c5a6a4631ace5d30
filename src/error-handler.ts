/**
 * The app's onError: every thrown error becomes the one envelope of src/errors.ts, and every
 * 5xx is logged here, once, with its request id (the id the body gives the client to quote).
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { NOT_STORED } from "./cache";
import type { AppEnv } from "./context";
import { AppError, codeFor, describe, type ErrorBody, isDatabaseUnavailable, reasonFor } from "./errors";
import { log } from "./log";

interface Answer {
  status: ContentfulStatusCode;
  body: ErrorBody;
  headers?: Record<string, string>;
  /** The log event of a 5xx: `database_unavailable` and `unhandled` keep the names they shipped with. */
  event: string;
}

function answerTo(err: Error): Answer {
  if (err instanceof AppError) {
    const body: ErrorBody = { success: false, error: err.message, code: err.code };
    if (err.details !== undefined) body.details = err.details;
    return { status: err.status, body, headers: err.headers, event: "server_error" };
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    return { status, body: { success: false, error: reasonFor(status), code: codeFor(status) }, event: "server_error" };
  }
  if (isDatabaseUnavailable(err)) {
    return {
      status: 503,
      body: { success: false, error: reasonFor(503), code: "database_unavailable" },
      event: "database_unavailable",
    };
  }
  return { status: 500, body: { success: false, error: reasonFor(500), code: "internal" }, event: "unhandled" };
}

export function onError(err: Error, c: Context<AppEnv>): Response {
  const requestId = c.get("requestId");
  // An error speaks of this request only; no cache, ours or another, may keep it.
  c.header("Cache-Control", NOT_STORED);
  const { status, body, headers, event } = answerTo(err);
  if (status >= 500) {
    body.request_id = requestId;
    log("error", event, { request_id: requestId, status, code: body.code, error: describe(err) });
  }
  return c.json(body, status, headers);
}
