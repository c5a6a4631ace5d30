/**
 * Per-client brakes on things only an attacker does often: asking for slugs and account ids that
 * do not exist (enumeration), and sending wrong admin keys (brute force). Each counts failures
 * with its own Workers rate limiting binding (wrangler.toml); a client past the limit gets 429
 * from the routes that brake guards, and only those, for the rest of the period, whatever it asks
 * there: otherwise a 429 would still tell a hit from a miss, or a right key from a wrong one, and
 * the scan could go on at full speed. Other routes stay available to that client (NOT_FOUND_LIMITER, wrangler.toml), so
 * an office behind one NAT address with one stale link in a retry loop can still reach the rest.
 *
 * The binding counts per Cloudflare location and is eventually consistent (a brake, not an
 * accounting system). Its counter only moves on failures, so each isolate remembers which
 * clients are over the limit and refuses them before doing the work again.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./context";
import { BLOCK_MS, BRAKES, type BrakeName } from "./brakes";
import { AppError } from "./errors";

const MAX_REMEMBERED = 10_000;

/**
 * The client's address, as Cloudflare (and wrangler dev) writes it: the client cannot set
 * CF-Connecting-IP through Cloudflare. Nothing else is read: X-Forwarded-For is whatever the
 * client wrote, so trusting it would let one client count as many and never be braked. Without
 * the header (only off Cloudflare) every request is the one client "unknown".
 */
export function clientOf(req: { header(name: string): string | undefined }): string {
  return req.header("CF-Connecting-IP") ?? "unknown";
}

export function tooMany(brake: BrakeName): AppError {
  return new AppError(429, {
    code: BRAKES[brake].code,
    headers: { "Retry-After": String(BLOCK_MS / 1000), "RateLimit-Policy": BRAKES[brake].policy },
  });
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

  /**
   * Counts one failure of `client`; true when that put it over the limit (it is now blocked).
   * The limiter is always there: src/bindings.ts refuses every request of a Worker without it.
   */
  async failed(limiter: RateLimit, client: string): Promise<boolean> {
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
 * The 404 brake, for the routes that look something up by a value a stranger could guess: a
 * customer's slug, and an account id under it. A route gets it by being declared with
 * `lookupRoute` (src/routes/lookup.ts; the customer's page, /c/:slug, names it itself), never
 * from a list kept apart. Runs ahead of the edge cache: a blocked client must not get cached
 * hits either. Every answer of a braked route announces the policy.
 */
export const limitNotFound = createMiddleware<AppEnv>(async (c, next) => {
  const client = clientOf(c.req);
  if (notFound.isBlocked(client)) throw tooMany("lookup");

  await next();

  c.header("RateLimit-Policy", BRAKES.lookup.policy);
  if (c.res.status === 404 && (await notFound.failed(c.env.NOT_FOUND_LIMITER, client))) throw tooMany("lookup");
});
