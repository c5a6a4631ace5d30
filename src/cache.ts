/**
 * The per-slug edge cache (DESIGN.md §8), on the Workers Cache API.
 *
 * Keys are normalised from the path and the parameters the endpoint knows, so parameter order,
 * unknown parameters and spelled-out defaults do not make new entries. Each key also carries the
 * customer's cache *version*, itself a tiny cache entry: invalidating a customer after a sync is
 * one delete of that entry (the next stored answer mints a fresh version, and every older entry
 * becomes unreachable and ages out), which works for keys we could never enumerate, such as
 * every filter combination of the trade history. The Cache API is per data centre, so that delete
 * reaches the data centre where the sync ran; a zone id and API token add a purge by Cache-Tag
 * everywhere.
 *
 * Entries are stored longer than the TTL: a fresh entry (younger than the TTL) is a HIT; an older
 * one is only served when the database fails (stale-if-error).
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./context";
import type { Config } from "./env";
import { isDatabaseUnavailable } from "./errors";
import { filterParams, pageLanguage } from "./page/query";

/** How long past its TTL an entry may still be served while the database is down. */
export const STALE_IF_ERROR_SECONDS = 3600;
const VERSION_TTL_SECONDS = 86_400;
const STORED_AT = "X-Cache-Stored-At";

/** Query parameters each cached endpoint understands, with their defaults and canonical case. */
const HISTORY_PARAMS: Record<string, { default?: string; normalise?: (v: string) => string }> = {
  page: { default: "1" },
  per_page: { default: "10" },
  broker: { normalise: (v) => v.toLowerCase() },
  stock_code: { normalise: (v) => v.toUpperCase() },
  type: {},
  start_date: {},
  end_date: {},
};

const SLUG_RESOURCES = /^\/api\/(customers|portfolio|transactions|stats|analytics|aggregate)\/([^/]+)(\/[^/]+)?$/;
const CUSTOMER_PAGE = /^\/c\/([^/]+)$/;

export interface CacheTarget {
  /** Whose entries these are: a customer's slug, or "brokers" for the shared list. */
  scope: string;
  /** Normalised path and query. */
  resource: string;
}

/**
 * Which cache scope and normalised resource a GET belongs to, or null when it is not cached.
 * The customer's page shares the customer's scope, keyed by its language and its history
 * filters normalised as the API's (an empty form field is no filter there).
 */
export function cacheTarget(url: URL, acceptLanguage?: string | null): CacheTarget | null {
  if (url.pathname === "/api/brokers") return { scope: "brokers", resource: "/api/brokers" };
  const page = CUSTOMER_PAGE.exec(url.pathname);
  if (page) {
    const lang = pageLanguage(url.searchParams, acceptLanguage);
    return { scope: `customer:${page[1]}`, resource: `${url.pathname}/${lang}${normaliseQuery(filterParams(url.searchParams))}` };
  }
  const match = SLUG_RESOURCES.exec(url.pathname);
  if (!match) return null;
  const [, resource, slug, account] = match;
  if (account && resource !== "transactions") return null;
  const query = resource === "transactions" ? normaliseQuery(url.searchParams) : "";
  return { scope: `customer:${slug}`, resource: `${url.pathname}${query}` };
}

function normaliseQuery(params: URLSearchParams): string {
  const kept: string[] = [];
  for (const name of Object.keys(HISTORY_PARAMS).sort()) {
    const raw = params.get(name); // the first value wins, as in validation
    if (raw === null) continue;
    const rule = HISTORY_PARAMS[name]!;
    const value = rule.normalise ? rule.normalise(raw) : raw;
    if (value === rule.default) continue;
    kept.push(`${name}=${encodeURIComponent(value)}`);
  }
  return kept.length ? `?${kept.join("&")}` : "";
}

export const cacheTag = (scope: string) => scope.replace(/[^A-Za-z0-9:_-]/g, "_");

/** Where a scope's version lives, and where its responses live under one version. */
export const versionKey = (origin: string, scope: string) => `${origin}/__cache/version/${encodeURIComponent(scope)}`;
export const entryKey = (origin: string, version: string, resource: string) => `${origin}/__cache/${version}${resource}`;

/** The scope's current version, if it has one (it is minted with the scope's first stored entry). */
async function storedVersion(cache: Cache, origin: string, scope: string): Promise<string | undefined> {
  return (await cache.match(versionKey(origin, scope)))?.text();
}

const versionEntry = (version: string, scope: string) =>
  new Response(version, { headers: { "Cache-Control": `max-age=${VERSION_TTL_SECONDS}`, "Cache-Tag": cacheTag(scope) } });

async function etagOf(body: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  const hex = [...digest.slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `"${hex}"`;
}

function etagMatches(ifNoneMatch: string | undefined, etag: string | null): boolean {
  if (!ifNoneMatch || !etag) return false;
  return ifNoneMatch.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === etag || tag === "*";
  });
}

/**
 * What a client sees. Only the representation's own headers come from the entry (Hono then adds
 * this request's CORS and security headers), never what the Cache API or the request that stored
 * it added. `private` keeps one customer's data out of shared caches other than ours, and max-age
 * never promises more freshness than the entry has left.
 */
function forClient(stored: Response, status: "HIT" | "MISS" | "STALE", ttl: number, ifNoneMatch?: string): Response {
  const ageSeconds = Math.max(0, Math.floor((Date.now() - Number(stored.headers.get(STORED_AT) ?? Date.now())) / 1000));
  const etag = stored.headers.get("ETag") ?? "";
  const headers = new Headers({
    ETag: etag,
    "Cache-Control": `private, max-age=${Math.max(0, ttl - ageSeconds)}`,
    Age: String(ageSeconds),
    "X-Cache": status,
  });
  if (etagMatches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  headers.set("Content-Type", stored.headers.get("Content-Type") ?? "application/json");
  return new Response(stored.body, { status: stored.status, headers });
}

/** What answers the cache did not produce carry: nobody may store them. */
const NOT_STORED = "private, no-store";

/** Serves cached public GETs and stores fresh 200s; see the module comment. */
export const edgeCache = createMiddleware<AppEnv>(async (c, next) => {
  const ttl = c.get("config").CACHE_TTL_SECONDS;
  const target = c.req.method === "GET" ? cacheTarget(new URL(c.req.url), c.req.header("Accept-Language")) : null;
  if (!target) return next();
  if (ttl === 0) {
    await next();
    c.header("Cache-Control", NOT_STORED);
    return;
  }

  const origin = new URL(c.req.url).origin;
  const cache = caches.default;
  const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p.catch(() => undefined));
  const version = await storedVersion(cache, origin, target.scope);
  const key = version && entryKey(origin, version, target.resource);
  const ifNoneMatch = c.req.header("If-None-Match");

  const cached = key ? await cache.match(key) : undefined;
  const fresh = cached && Date.now() - Number(cached.headers.get(STORED_AT)) < ttl * 1000;
  if (cached && fresh) return forClient(cached, "HIT", ttl, ifNoneMatch);

  // Hono's next() does not throw: onError has already turned a failure into c.res, and c.error says why.
  await next();

  if (c.error && cached && isDatabaseUnavailable(c.error)) {
    c.res = forClient(cached, "STALE", ttl, ifNoneMatch);
    return;
  }
  if (c.res.status !== 200) {
    c.header("Cache-Control", NOT_STORED);
    return;
  }

  const body = await c.res.arrayBuffer();
  const stored = new Response(body, {
    status: 200,
    headers: {
      "Content-Type": c.res.headers.get("Content-Type") ?? "application/json",
      ETag: await etagOf(body),
      [STORED_AT]: String(Date.now()),
      "Cache-Tag": cacheTag(target.scope),
      "Cache-Control": `max-age=${ttl + STALE_IF_ERROR_SECONDS}`,
    },
  });
  const current = version ?? crypto.randomUUID();
  if (!version) waitUntil(cache.put(versionKey(origin, target.scope), versionEntry(current, target.scope)));
  waitUntil(cache.put(entryKey(origin, current, target.resource), stored.clone()));
  // Hono keeps the headers already on c.res (CORS) and takes the rest from this response.
  c.res = forClient(stored, "MISS", ttl, ifNoneMatch);
});

export interface InvalidationResult {
  local: number;
  purged: boolean;
}

/**
 * Drops the cached responses of these customers (and the broker list when asked): locally by
 * deleting their version entries, everywhere by Cache-Tag when a zone id and token are set.
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

export const customerScope = (slug: string) => `customer:${slug}`;
export const BROKERS_SCOPE = "brokers";
