/**
 * The admin key (the ADMIN_API_KEY secret, src/env.ts): `X-Admin-Key` must equal ADMIN_API_KEY. Both are hashed with
 * SHA-256 first, so the constant-time comparison always sees two 32-byte values and the
 * comparison time says nothing about the key's length. With no key configured every admin call
 * is refused. The key is never logged.
 *
 * Wrong keys are braked per client (ADMIN_KEY_LIMITER, src/rate-limit.ts): past the limit, a
 * client's admin calls get 429 before its key is even compared, so guessing cannot go faster
 * than the limit, and a right key sent late does not tell the guesser it was right.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./context";
import { isLocalHost } from "./db/client";
import type { Config } from "./env";
import { AppError } from "./errors";
import { log } from "./log";
import { BRAKES } from "./brakes";
import { Brake, clientOf, tooMany } from "./rate-limit";

/** `openssl rand -base64 32` makes 44 characters; anything under 32 is within reach of guessing offline. */
export const MIN_ADMIN_KEY_LENGTH = 32;

const encoder = new TextEncoder();
const wrongKeys = new Brake("admin");

async function sha256(value: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", encoder.encode(value));
}

async function isAdminKey(provided: string | undefined, expected: string | undefined): Promise<boolean> {
  if (!expected || !provided) return false;
  const [a, b] = await Promise.all([sha256(provided), sha256(expected)]);
  return crypto.subtle.timingSafeEqual(a, b);
}

/**
 * The admin key `npm start` ships in .dev.vars.example (README.md, docs/api.md), which local
 * tooling sends. It is weak on purpose and only ever meets this machine.
 */
export const LOCAL_ADMIN_KEY = "dev-admin-key";

/**
 * True when the configured key is the shipped local key and the request came to a local host
 * (wrangler dev on 127.0.0.1 or localhost): the weakness is known and harmless there, so each
 * use does not warn. The same key on any other host is a deployment that kept it, and warns.
 */
export function isShippedLocalKey(config: Pick<Config, "ADMIN_API_KEY">, url: string): boolean {
  return config.ADMIN_API_KEY === LOCAL_ADMIN_KEY && isLocalHost(new URL(url).hostname);
}

/**
 * Why the configured admin key is weak, or null when it is not (or none is configured, which
 * refuses every admin call). For operators: the sync status shows it, and each use logs it.
 */
export function adminKeyWeakness(config: Pick<Config, "ADMIN_API_KEY">): string | null {
  const key = config.ADMIN_API_KEY;
  if (key === undefined) return null;
  const length = [...key].length;
  if (length < MIN_ADMIN_KEY_LENGTH) {
    return `ADMIN_API_KEY has ${length} characters, fewer than ${MIN_ADMIN_KEY_LENGTH}; make one with: openssl rand -base64 32`;
  }
  return null;
}

export const requireAdminKey = createMiddleware<AppEnv>(async (c, next) => {
  const client = clientOf(c.req);
  const requestId = c.get("requestId");
  if (wrongKeys.isBlocked(client)) {
    log("warn", "admin_key_throttled", { request_id: requestId, client });
    throw tooMany("admin_key");
  }

  const config = c.get("config");
  const provided = c.req.header("X-Admin-Key");
  if (!(await isAdminKey(provided, config.ADMIN_API_KEY))) {
    const over = await wrongKeys.failed(c.env.ADMIN_KEY_LIMITER, client);
    log("warn", over ? "admin_key_throttled" : "admin_key_rejected", {
      request_id: requestId,
      client,
      reason: config.ADMIN_API_KEY === undefined ? "no_key_configured" : provided ? "wrong_key" : "missing_key",
    });
    throw over ? tooMany("admin_key") : new AppError(401, { headers: { "RateLimit-Policy": BRAKES.admin_key.policy } });
  }

  // GET /api/sync/status still says the key is weak, whatever the host: it is asked for there.
  const weakness = isShippedLocalKey(config, c.req.url) ? null : adminKeyWeakness(config);
  if (weakness) log("warn", "weak_admin_key", { request_id: requestId, detail: weakness });
  await next();
  // Every answer of a braked route announces its policy (src/rate-limit.ts BRAKES).
  c.header("RateLimit-Policy", BRAKES.admin_key.policy);
});
