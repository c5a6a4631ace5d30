/**
 * Dropping a scope's cached answers after a sync. The Cache API is per data centre, so the
 * local delete reaches the data centre where the sync ran; a zone id and API token add a purge
 * by Cache-Tag everywhere.
 */
import type { Config } from "../env";
import { cacheTag, versionKey } from "./keys";

export interface InvalidationResult {
  local: number;
  purged: boolean;
}

/**
 * Drops the cached answers of these scopes: locally by deleting their version entries,
 * everywhere by Cache-Tag when a zone id and token are set.
 */
export async function invalidate(
  scopes: string[],
  options: { config: Config; origin?: string; fetcher?: typeof fetch },
): Promise<InvalidationResult> {
  let local = 0;
  if (options.origin && scopes.length) {
    const cache = caches.default;
    const deleted = await Promise.all(scopes.map((s) => cache.delete(versionKey(options.origin!, s))));
    local = deleted.filter(Boolean).length;
  }
  const purged = await purgeByTag(scopes.map(cacheTag), options.config, options.fetcher ?? fetch);
  return { local, purged };
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
