/**
 * Slows slug enumeration: a client whose 404s exceed the NOT_FOUND_LIMITER binding's limit gets
 * 429 for every request for the rest of the period, not only for its misses; otherwise a 429
 * would still tell a miss from a hit and the scan could go on at full speed.
 *
 * The binding counts per Cloudflare location and is eventually consistent (it is a brake, not
 * an accounting system). Its own counter is only moved by 404s, so the isolate remembers which
 * clients are over the limit.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./context";
import { AppError } from "./errors";

/** The binding's period (wrangler.toml `simple.period`). */
const BLOCK_MS = 60_000;
const MAX_REMEMBERED = 10_000;
const blockedUntil = new Map<string, number>();

function clientOf(headers: { header(name: string): string | undefined }): string {
  return headers.header("CF-Connecting-IP") ?? headers.header("X-Forwarded-For")?.split(",")[0]?.trim() ?? "unknown";
}

function isBlocked(client: string, now: number): boolean {
  const until = blockedUntil.get(client);
  if (until === undefined) return false;
  if (until > now) return true;
  blockedUntil.delete(client);
  return false;
}

/** Remembers a client as over the limit; expired entries are swept once the map grows. */
function block(client: string, now: number): void {
  if (blockedUntil.size >= MAX_REMEMBERED) {
    for (const [key, until] of blockedUntil) if (until <= now) blockedUntil.delete(key);
  }
  blockedUntil.set(client, now + BLOCK_MS);
}

export const limitNotFound = createMiddleware<AppEnv>(async (c, next) => {
  const limiter = c.env.NOT_FOUND_LIMITER;
  if (!limiter) return next();
  const client = clientOf(c.req);
  if (isBlocked(client, Date.now())) throw tooMany();

  await next();

  if (c.res.status !== 404) return;
  const { success } = await limiter.limit({ key: `404:${client}` });
  if (!success) {
    block(client, Date.now());
    throw tooMany();
  }
});

function tooMany(): AppError {
  return new AppError(429, { headers: { "Retry-After": String(BLOCK_MS / 1000) } });
}
