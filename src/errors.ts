/**
 * One error envelope for every failure: `{success:false, error:"<reason>"}`, plus `details`
 * on 400 and `request_id` on 500. Nothing internal (SQL, stacks, secrets) reaches a client.
 * Free of the Hono context, so every layer (database access, sync, schemas) may raise these;
 * src/error-handler.ts turns them into responses.
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

export interface ErrorBody {
  success: false;
  error: string;
  details?: unknown;
  request_id?: string;
}

/** An error we raise on purpose; its status and reason are what the client sees. */
export class AppError extends HTTPException {
  readonly details: unknown;
  readonly headers: Record<string, string>;
  constructor(
    status: ContentfulStatusCode,
    options: { message?: string; details?: unknown; cause?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(status, { message: options.message ?? reasonFor(status), cause: options.cause });
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

export function errorBody(status: number, extra: Partial<ErrorBody> = {}): ErrorBody {
  return { success: false, error: reasonFor(status), ...extra };
}

/** A log line's view of an error: its kind and SQLSTATE, never a connection string. */
export function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? ` <- ${describe(err.cause)}` : "";
  const code = (err as { code?: string }).code;
  return `${err.name}${code ? ` ${code}` : ""}: ${err.message.split("\n")[0]}${cause}`;
}
