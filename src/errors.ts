/**
 * One error envelope for every failure: `{success:false, error:"<reason>", code:"<code>"}`, plus
 * `details` where its status has them (the 400's issues, the 409's lease) and `request_id` on
 * 5xx. `error` is the HTTP reason phrase, for people; `code` is what a program branches on,
 * stable across releases (ERROR_CODES, an enum in the OpenAPI document). Nothing internal (SQL,
 * stacks, secrets) reaches a client. Free of the Hono context, so every layer (database access,
 * sync, schemas) may raise these; src/error-handler.ts turns them into responses.
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

export function reasonFor(status: number): string {
  return REASONS[status] ?? "Error";
}

/**
 * Every `code` an error body can carry. Two 429s differ by cause, so by code: a client past the
 * lookup brake (src/rate-limit.ts) may still use the admin routes, and the reverse.
 */
export const ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "not_found",
  "method_not_allowed",
  "sync_running",
  "rate_limited_lookup",
  "rate_limited_admin_key",
  "internal",
  "source_unavailable",
  "database_unavailable",
  "misconfigured",
  "history_building",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The code a status means when the error does not name its own (the two 429s always do). */
const CODES: Record<number, ErrorCode> = {
  400: "bad_request",
  401: "unauthorized",
  404: "not_found",
  405: "method_not_allowed",
  409: "sync_running",
  500: "internal",
  502: "source_unavailable",
  503: "database_unavailable",
};

export function codeFor(status: number): ErrorCode {
  return CODES[status] ?? (status >= 500 ? "internal" : "bad_request");
}

export interface ErrorBody {
  success: false;
  error: string;
  code: ErrorCode;
  details?: unknown;
  request_id?: string;
}

/** An error we raise on purpose; its status, reason and code are what the client sees. */
export class AppError extends HTTPException {
  readonly details: unknown;
  readonly headers: Record<string, string>;
  readonly code: ErrorCode;
  constructor(
    status: ContentfulStatusCode,
    options: {
      message?: string;
      code?: ErrorCode;
      details?: unknown;
      cause?: unknown;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(status, { message: options.message ?? reasonFor(status), cause: options.cause });
    this.code = options.code ?? codeFor(status);
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

export const notFound = () => new AppError(404);

/**
 * True when an error means a database could not be reached or could not serve us (network,
 * proxy 5xx, timeouts, too many connections, shutdown), as opposed to a bug in our SQL.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (!(e instanceof Error)) break;
    if (e.name === "NeonDbError") {
      const code = (e as { code?: string }).code;
      // No SQLSTATE: the request itself failed (fetch error, HTTP 5xx). Otherwise the
      // connection (08), resource (53), operator intervention (57) and system (58) classes.
      return !code || /^(08|53|57|58)/.test(code);
    }
    if (e.name === "AbortError" || e.name === "TimeoutError") return true;
  }
  return false;
}

/**
 * True when a request was given up because it took longer than its timeout (its signal's
 * abort; the driver reports the failed fetch as a NeonDbError with the fetch's error, a
 * DOMException, as `sourceError`).
 */
export function isTimeout(err: unknown): boolean {
  type Link = { name?: unknown; cause?: unknown; sourceError?: unknown };
  for (let e = err as Link | undefined, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    if (e.name === "TimeoutError" || e.name === "AbortError") return true;
    e = (e.sourceError ?? e.cause) as Link | undefined;
  }
  return false;
}

export function errorBody(status: number, extra: Partial<ErrorBody> = {}): ErrorBody {
  return { success: false, error: reasonFor(status), code: codeFor(status), ...extra };
}

/** A log line's view of an error: its kind and SQLSTATE, never a connection string. */
export function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? ` <- ${describe(err.cause)}` : "";
  const code = (err as { code?: string }).code;
  return `${err.name}${code ? ` ${code}` : ""}: ${err.message.split("\n")[0]}${cause}`;
}
