/**
 * Per-client brakes on things only an attacker does often: asking for slugs and account ids that
 * do not exist (enumeration), and sending wrong admin keys (brute force). Each counts failures
 * with its own Workers rate limiting binding (wrangler.toml); a client past the limit gets 429
 * from the routes that brake guards, and only those, for the rest of the period, whatever it asks
 * there: otherwise a 429 would still tell a hit from a miss, or a right key from a wrong one, and
 * the scan could go on at full speed. Other routes stay available to that client (README.md "Configuration"), so
 * an office behind one NAT address with one stale link in a retry loop can still reach the rest.
 *
 * The binding counts per Cloudflare location and is eventually consistent (a brake, not an
 * accounting system). Its counter only moves on failures, so each isolate remembers which
 * clients are over the limit and refuses them before doing the work again.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./context";
import { AppError } from "./errors";

/** Both bindings' period (wrangler.toml `simple.period`). */
const BLOCK_MS = 60_000;
const MAX_REMEMBERED = 10_000;

export function clientOf(req: { header(name: string): string | undefined }): string {
  return req.header("CF-Connecting-IP") ?? req.header("X-Forwarded-For")?.split(",")[0]?.trim() ?? "unknown";
}

export function tooMany(): AppError {
  return new AppError(429, { headers: { "Retry-After": String(BLOCK_MS / 1000) } });
}

/** The clients one binding found over its limit, remembered by this isolate until the period ends. */
export class Brake {
  private readonly blockedUntil = new Map<string, number>();

  constructor(private readonly name: string) {}

  isBlocked(client: string, now = Date.now()): boolean {
    const until = this.blockedUntil.get(client);
    if (until === undefined) return false;
    if (until > now) return true;
    this.blockedUntil.delete(client);
    return false;
  }

  /** Counts one failure of `client`; true when that put it over the limit (it is now blocked). */
  async failed(limiter: RateLimit | undefined, client: string): Promise<boolean> {
    if (!limiter) return false;
    const { success } = await limiter.limit({ key: `${this.name}:${client}` });
    if (success) return false;
    this.block(client, Date.now());
    return true;
  }

  /** Expired entries are swept once the map grows, so a scan from many addresses cannot fill memory. */
  private block(client: string, now: number): void {
    if (this.blockedUntil.size >= MAX_REMEMBERED) {
      for (const [key, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(key);
    }
    this.blockedUntil.set(client, now + BLOCK_MS);
  }
}

const notFound = new Brake("404");

/**
 * The API routes that look something up by a value a stranger could guess: a customer's slug,
 * and an account id under it. The customer's page, /c/:slug, is one too: its router puts the same
 * brake on it (src/routes/page.tsx), so its 429 is a page. Nothing else is braked by 404s (an
 * unknown route reveals nothing).
 */
export const LOOKUP_ROUTES = [
  "/api/customers/:slug",
  "/api/portfolio/:slug",
  "/api/transactions/:slug",
  "/api/transactions/:slug/:accountId",
  "/api/stats/:slug",
  "/api/analytics/:slug",
  "/api/aggregate/:slug",
  "/api/corporate-actions/:slug",
  "/api/performance/:slug",
] as const;

/** For LOOKUP_ROUTES, ahead of the edge cache: a blocked client must not get cached hits either. */
export const limitNotFound = createMiddleware<AppEnv>(async (c, next) => {
  const limiter = c.env.NOT_FOUND_LIMITER;
  if (!limiter) return next();
  const client = clientOf(c.req);
  if (notFound.isBlocked(client)) throw tooMany();

  await next();

  if (c.res.status === 404 && (await notFound.failed(limiter, client))) throw tooMany();
});
