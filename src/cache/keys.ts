/**
 * Who owns a cached answer (its scope) and where it lives. A scope is a customer or the shared
 * broker list; each key also carries the scope's current *version* (see serve.ts).
 */

/** The scope of everything addressed by one customer's slug; also its Cache-Tag. */
export const customerScope = (slug: string) => `customer:${slug}`;
/**
 * The scope every customer's answers also belong to: one version (one tag) that serves them
 * all, so a sync that made more customers stale than the Cache API calls an invocation may
 * spend drops them all with one delete (invalidate.ts), and each answers one MISS.
 */
export const CUSTOMERS_SCOPE = "customers";
export const isCustomerScope = (scope: string) => scope.startsWith("customer:");
/** The scope of the broker list, which no customer owns. */
export const BROKERS_SCOPE = "brokers";
/**
 * The scope of the closing prices, which every answer carrying a valuation also depends on:
 * a price day drops all of them with one delete (one purge by tag), whoever holds what.
 */
export const PRICES_SCOPE = "prices";

export const cacheTag = (scope: string) => scope.replace(/[^A-Za-z0-9:_-]/g, "_");

/** Where a scope's version lives, and where its answers live under one version. */
export const versionKey = (origin: string, scope: string) => `${origin}/__cache/version/${encodeURIComponent(scope)}`;
export const entryKey = (origin: string, version: string, resource: string) => `${origin}/__cache/${version}${resource}`;

/**
 * The resource a request names: its path, plus the query *as the route validated it*, sorted.
 * Defaults, canonical case and "the first of repeated values" are the schema's decisions, so
 * two URLs that validate to the same query share one entry and two that differ never do, with
 * no list of parameters kept here. Parameters the schema does not name never reach it.
 */
export function resourceKey(path: string, query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams();
  for (const name of Object.keys(query ?? {}).sort()) {
    const value = query![name];
    if (value === undefined) continue;
    params.append(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
