/** The app's onError: every thrown error becomes the one envelope of src/errors.ts. */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { NOT_STORED } from "./cache";
import type { AppEnv } from "./context";
import { AppError, describe, errorBody, type ErrorBody, isDatabaseUnavailable } from "./errors";
import { log } from "./log";

export function onError(err: Error, c: Context<AppEnv>): Response {
  const requestId = c.get("requestId");
  // An error speaks of this request only; no cache, ours or another, may keep it.
  c.header("Cache-Control", NOT_STORED);
  if (err instanceof AppError) {
    const body: ErrorBody = { success: false, error: err.message };
    if (err.details !== undefined) body.details = err.details;
    if (err.status >= 500) body.request_id = requestId;
    return c.json(body, err.status, err.headers);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    return c.json(errorBody(status, status >= 500 ? { request_id: requestId } : {}), status);
  }
  if (isDatabaseUnavailable(err)) {
    log("error", "database_unavailable", { request_id: requestId, error: describe(err) });
    return c.json(errorBody(503, { request_id: requestId }), 503);
  }
  log("error", "unhandled", { request_id: requestId, error: describe(err) });
  return c.json(errorBody(500, { request_id: requestId }), 500);
}
