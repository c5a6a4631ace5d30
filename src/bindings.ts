/**
 * The bindings the Worker cannot run safely without, checked on every request, cron run and
 * queue batch. Each fails closed: without NOT_FOUND_LIMITER slugs could be enumerated at full
 * speed, without ADMIN_KEY_LIMITER the admin key guessed online, and without SYNC_QUEUE a run
 * that stops at its budget would silently not hand on. A binding misnamed at deploy is a
 * configuration error, so every route answers 500 (`internal`) and logs which binding is
 * missing, except the liveness check, which answers 503 naming it (src/routes/health.ts), so a
 * deploy check sees why.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./context";
import type { Env } from "./env";
import { AppError } from "./errors";

/** Each required binding, and the method a binding of the right kind has. */
const REQUIRED = { NOT_FOUND_LIMITER: "limit", ADMIN_KEY_LIMITER: "limit", SYNC_QUEUE: "send" } as const;

export type RequiredBinding = keyof typeof REQUIRED;
export const REQUIRED_BINDINGS = Object.keys(REQUIRED) as RequiredBinding[];

/** The required bindings `env` lacks (or has as something else: a var of the same name), in a fixed order. */
export function missingBindings(env: Partial<Env>): RequiredBinding[] {
  return REQUIRED_BINDINGS.filter((name) => {
    const binding = env[name] as unknown as Record<string, unknown> | undefined;
    return typeof binding?.[REQUIRED[name]] !== "function";
  });
}

export class MissingBindingError extends Error {
  override name = "MissingBindingError";
  constructor(readonly missing: RequiredBinding[]) {
    super(`missing bindings: ${missing.join(", ")}`);
  }
}

/** The liveness route's path, the one route that answers without the bindings. */
export const LIVENESS_PATH = "/api/health/live";

/** Refuses the request (500, logged with the names by src/error-handler.ts) when a binding is missing. */
export const requireBindings = createMiddleware<AppEnv>(async (c, next) => {
  const missing = missingBindings(c.env);
  if (missing.length && c.req.path !== LIVENESS_PATH) {
    throw new AppError(500, { cause: new MissingBindingError(missing) });
  }
  await next();
});
