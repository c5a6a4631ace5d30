/**
 * Dropping a scope's cached answers after a sync. The Cache API is per data centre, so the
 * local delete reaches the data centre where the sync ran; a zone id and API token add a purge
 * by Cache-Tag everywhere.
 *
 * Within the platform's limits: a Worker invocation may make 1,000 Cache API calls, and a sync
 * may change any number of customers. Up to CUSTOMERS_ONE_BY_ONE customers lose their own
 * versions; beyond that, the one version every customer's answers also carry (CUSTOMERS_SCOPE,
 * keys.ts) is deleted instead, and its one tag purged: every customer answers one MISS here,
 * which costs less than a stale answer and stays within CACHE_CALLS_PER_INVALIDATION calls
 * whatever the number. The purge likewise sends one request of at most 100 tags.
 *
 * Each step runs whatever the other did: a delete that fails falls back to the shared version,
 * and the purge runs after a failed delete; what failed is returned for the caller to log.
 */
import type { Config } from "../env";
import { CUSTOMERS_SCOPE, cacheTag, isCustomerScope, versionKey } from "./keys";

/** At most this many Cache API calls per invalidation, however many scopes are stale. */
export const CACHE_CALLS_PER_INVALIDATION = 50;
/**
 * Customers whose versions are deleted one by one; more make the shared version go. Leaves room
 * under CACHE_CALLS_PER_INVALIDATION for the broker and prices versions and the fallback.
 */
const CUSTOMERS_ONE_BY_ONE = 40;

export interface InvalidationResult {
  /** Version entries deleted in this data centre. */
  local: number;
  purged: boolean;
  /** Each step that failed, with its error: the others ran all the same. */
  failures: { step: "delete" | "purge"; error: unknown }[];
}

/**
 * Drops the cached answers of these scopes: locally by deleting their version entries (or the
 * one all customers share, when they are many), everywhere by Cache-Tag when a zone id and
 * token are set. Never throws.
 */
export async function invalidate(
  scopes: string[],
  options: { config: Config; origin?: string; fetcher?: typeof fetch; cache?: Cache },
): Promise<InvalidationResult> {
  const result: InvalidationResult = { local: 0, purged: false, failures: [] };
  const customers = scopes.filter(isCustomerScope);
  const dropped =
    customers.length > CUSTOMERS_ONE_BY_ONE ? [...scopes.filter((s) => !isCustomerScope(s)), CUSTOMERS_SCOPE] : scopes;
  if (options.origin && dropped.length) {
    const origin = options.origin;
    const cache = options.cache ?? caches.default;
    const deleted = await Promise.allSettled(dropped.map((s) => cache.delete(versionKey(origin, s))));
    result.local = deleted.filter((d) => d.status === "fulfilled" && d.value).length;
    const failed = deleted.flatMap((d) => (d.status === "rejected" ? [d.reason] : []));
    if (failed.length) {
      result.failures.push({ step: "delete", error: failed[0] });
      // A customer whose version could not go: the shared one goes instead, one more call.
      const missed = dropped.filter((s, i) => deleted[i]!.status === "rejected" && isCustomerScope(s));
      if (missed.length && !dropped.includes(CUSTOMERS_SCOPE)) {
        await cache.delete(versionKey(origin, CUSTOMERS_SCOPE)).then(
          (gone) => void (result.local += gone ? 1 : 0),
          (error: unknown) => void result.failures.push({ step: "delete", error }),
        );
      }
    }
  }
  try {
    result.purged = await purgeByTag(dropped.map(cacheTag), options.config, options.fetcher ?? fetch);
  } catch (error) {
    result.failures.push({ step: "purge", error });
  }
  return result;
}

/** At most 100 tags per purge call (the Cloudflare API's per-request limit). */
const TAGS_PER_PURGE = 100;

async function purgeByTag(tags: string[], config: Config, fetcher: typeof fetch): Promise<boolean> {
  if (!config.CF_ZONE_ID || !config.CF_API_TOKEN || tags.length === 0) return false;
  for (let i = 0; i < tags.length; i += TAGS_PER_PURGE) {
    const res = await fetcher(`https://api.cloudflare.com/client/v4/zones/${config.CF_ZONE_ID}/purge_cache`, {
      method: "POST",
      headers: { Authorization: `Bearer ${config.CF_API_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ tags: tags.slice(i, i + TAGS_PER_PURGE) }),
    });
    if (!res.ok) throw new Error(`cache purge failed with HTTP ${res.status}`);
  }
  return true;
}
