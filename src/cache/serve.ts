/**
 * The per-customer edge cache on the Workers Cache API (docs/api.md; invalidation: docs/sync.md), declared per route with
 * `cached(scope, handler)`.
 *
 * It wraps the handler, not the route's middleware: @hono/zod-openapi runs a route's middleware
 * before its validators, and the key is built from the validated query (keys.ts). A request the
 * validators refuse never reaches the cache.
 *
 * Each key carries the scope's cache *version*, itself a tiny cache entry: invalidating a
 * customer after a sync is one delete of that entry (the next stored answer mints a fresh
 * version, and every older entry becomes unreachable and ages out), which works for keys we
 * could never enumerate, such as every filter combination of the trade history.
 *
 * An answer may depend on more than one scope: one carrying a valuation (portfolio, stats,
 * aggregate, the page) depends on its customer and on the closing prices, and its key carries
 * both versions. A price day then costs one delete (one purge by tag everywhere) however many
 * customers hold the stocks, where deleting each holder's version would take a Cache API call
 * per customer, past the Worker's 1,000 per request; the prices version is read from the Cache
 * API beside the customer's, so a HIT still costs no database request.
 *
 * Entries are stored longer than the TTL: a fresh entry (younger than the TTL) is a HIT; an older
 * one is only served when the database fails (stale-if-error). An answer that says something of
 * the day it was made (the customer's page calls its latest session "today") names the instant
 * it stops being true (`until`): its entry is never served after it, stale or not, and no client
 * is told to keep it longer.
 */
import type { Context, Input, TypedResponse } from "hono";
import type { AppEnv } from "../context";
import { isDatabaseUnavailable } from "../errors";
import { BROKERS_SCOPE, CUSTOMERS_SCOPE, cacheTag, customerScope, entryKey, PRICES_SCOPE, resourceKey, versionKey } from "./keys";

/** How long past its TTL an entry may still be served while the database is down. */
export const STALE_IF_ERROR_SECONDS = 3600;
const VERSION_TTL_SECONDS = 86_400;
const STORED_AT = "X-Cache-Stored-At";
/** The instant (ms) past which an entry is never served (`until`); absent: the TTL alone decides. */
const SERVED_UNTIL = "X-Cache-Served-Until";
/** Headers that belong to the representation, so a HIT carries them as the MISS did. */
const REPRESENTATION_HEADERS = ["Content-Type", "Content-Language", "Content-Security-Policy"];

/** What answers the cache did not produce carry: nobody may store them. */
export const NOT_STORED = "private, no-store";

/** Any route's context: the wrapper reads only what every route has. */
type AnyContext = Context<AppEnv, string, Input>;

/** Whose answers a route gives, from its request: every scope whose change makes them stale. */
export type Scope = (c: AnyContext) => string | readonly string[];

/**
 * A route's handler as its route declares it. Its context is its own route's, narrower than
 * AnyContext, so the parameter is declared as a method's, which TypeScript compares bivariantly.
 * It answers a TypedResponse: the type-level view of the Response that c.json() and c.html() make.
 */
type Handler = { handle(c: AnyContext, ...rest: unknown[]): Answer | Promise<Answer> }["handle"];
type Answer = Response | TypedResponse;

/** What a request's answer is stored under within its scope. */
export type Resource = (c: AnyContext) => string;

/** For an answer made at instant `made` (ms), the instant it stops being true. */
export type Until = (made: number) => number;

/** The path plus the query as the route validated it: what every JSON route is keyed by. */
const validatedResource: Resource = (c) =>
  resourceKey(new URL(c.req.url).pathname, c.req.valid("query" as never) as Record<string, unknown> | undefined);

/**
 * Makes a GET route's 200s cacheable under `scope`: `.openapi(route, cached(forCustomer)(handler))`.
 * The handler keeps its type, so the route's typed client and response checks are unchanged;
 * its answers are stored and served by the rules in the module comment. A route that validates
 * its query itself (the customer's page) names its own `resource`, and one whose answer holds
 * only until some instant (the page's "today") names it with `until`.
 */
export function cached(scope: Scope, resource: Resource = validatedResource, until?: Until) {
  return <H extends Handler>(handler: H): H =>
    (async (c: AnyContext, ...rest: unknown[]) =>
      serve(c, [scope(c)].flat(), resource, until, async () => (await handler(c, ...rest)) as Response)) as H;
}

/** Whether an entry may be served at all now: not past its `until`. */
const servable = (entry: Response, now: number) => {
  const until = entry.headers.get(SERVED_UNTIL);
  return until === null || now < Number(until);
};

async function serve(
  c: AnyContext,
  scopes: readonly string[],
  resourceOf: Resource,
  until: Until | undefined,
  answer: () => Promise<Response>,
): Promise<Response> {
  const ttl = c.get("config").CACHE_TTL_SECONDS;
  if (ttl === 0) {
    const res = await answer();
    res.headers.set("Cache-Control", NOT_STORED);
    return res;
  }

  const origin = new URL(c.req.url).origin;
  const resource = resourceOf(c);
  const cache = caches.default;
  const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p.catch(() => undefined));
  const versions = await Promise.all(scopes.map((scope) => storedVersion(cache, origin, scope)));
  const ifNoneMatch = c.req.header("If-None-Match");

  const known = versions.every((v) => v !== undefined);
  const matched = known ? await cache.match(entryKey(origin, versions.join("."), resource)) : undefined;
  const made = Date.now();
  const entry = matched && servable(matched, made) ? matched : undefined;
  if (entry && made - Number(entry.headers.get(STORED_AT)) < ttl * 1000) return forClient(entry, "HIT", ttl, ifNoneMatch);

  let res: Response;
  try {
    res = await answer();
  } catch (error) {
    if (entry && isDatabaseUnavailable(error)) return forClient(entry, "STALE", ttl, ifNoneMatch);
    throw error;
  }
  if (res.status !== 200) {
    res.headers.set("Cache-Control", NOT_STORED);
    return res;
  }

  const body = await res.arrayBuffer();
  const headers = new Headers({
    ETag: await etagOf(body),
    [STORED_AT]: String(Date.now()),
    "Cache-Tag": scopes.map(cacheTag).join(","),
    "Cache-Control": `max-age=${ttl + STALE_IF_ERROR_SECONDS}`,
  });
  // From when the answer was asked for, before it was made: never later than what it says holds.
  if (until) headers.set(SERVED_UNTIL, String(until(made)));
  for (const name of REPRESENTATION_HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const stored = new Response(body, { status: 200, headers });
  const current = versions.map((version, i) => {
    if (version) return version;
    const minted = crypto.randomUUID();
    waitUntil(cache.put(versionKey(origin, scopes[i]!), versionEntry(minted, scopes[i]!)));
    return minted;
  });
  waitUntil(cache.put(entryKey(origin, current.join("."), resource), stored.clone()));
  return forClient(stored, "MISS", ttl, ifNoneMatch);
}

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
  const now = Date.now();
  const ageSeconds = Math.max(0, Math.floor((now - Number(stored.headers.get(STORED_AT) ?? now)) / 1000));
  const until = stored.headers.get(SERVED_UNTIL);
  const left = until === null ? Number.POSITIVE_INFINITY : Math.floor((Number(until) - now) / 1000);
  const etag = stored.headers.get("ETag") ?? "";
  const headers = new Headers({
    ETag: etag,
    "Cache-Control": `private, max-age=${Math.max(0, Math.min(ttl - ageSeconds, left))}`,
    Age: String(ageSeconds),
    "X-Cache": status,
  });
  if (etagMatches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  for (const name of REPRESENTATION_HEADERS) {
    const value = stored.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(stored.body, { status: stored.status, headers });
}

/**
 * For routes addressed by a customer's slug: everything under it is that customer's, and every
 * customer's at once (CUSTOMERS_SCOPE, what a sync that changed very many drops).
 */
export const forCustomer: Scope = (c) => [customerScope(c.req.param("slug") ?? ""), CUSTOMERS_SCOPE];
/** For a customer's answers that carry a valuation: stale when the customer or the closes change. */
export const forValuedCustomer: Scope = (c) => [customerScope(c.req.param("slug") ?? ""), CUSTOMERS_SCOPE, PRICES_SCOPE];
/** For the broker list, which no customer owns. */
export const forBrokers: Scope = () => BROKERS_SCOPE;
