/**
 * Every operation of the API, with what the suites need to know about it. The cache, security,
 * outage and fuzz suites iterate this list rather than keeping their own, and
 * test/node/openapi.test.ts fails when it and the OpenAPI document disagree: a new endpoint is
 * added here once, or the suites refuse to pass.
 */

export interface Endpoint {
  method: "get" | "post";
  /** As the OpenAPI document writes it: /api/customers/{slug}. */
  path: string;
  /** Who may call it. */
  access: "public" | "admin";
  /** Its 200s are kept in the edge cache. */
  cached: boolean;
  /** The databases a request reaches. */
  reads: ReadonlyArray<"target" | "source">;
  /** The document's operationId: what generated clients call it. */
  operationId: string;
}

export const ENDPOINTS: readonly Endpoint[] = [
  {
    method: "get",
    path: "/api/customers/{slug}",
    access: "public",
    cached: true,
    reads: ["target"],
    operationId: "getCustomer",
  },
  {
    method: "get",
    path: "/api/portfolio/{slug}",
    access: "public",
    cached: true,
    reads: ["target"],
    operationId: "getPortfolio",
  },
  {
    method: "get",
    path: "/api/transactions/{slug}",
    access: "public",
    cached: true,
    reads: ["target"],
    operationId: "listTransactions",
  },
  {
    method: "get",
    path: "/api/transactions/{slug}/{accountId}",
    access: "public",
    cached: true,
    reads: ["target"],
    operationId: "listAccountTransactions",
  },
  {
    method: "get",
    path: "/api/stats/{slug}",
    access: "public",
    cached: true,
    reads: ["target"],
    operationId: "getStats",
  },
  {
    method: "get",
    path: "/api/analytics/{slug}",
    access: "public",
    cached: true,
    reads: ["target"],
    operationId: "getAnalytics",
  },
  {
    method: "get",
    path: "/api/aggregate/{slug}",
    access: "public",
    cached: true,
    reads: ["target"],
    operationId: "getAggregate",
  },
  {
    method: "get",
    path: "/api/corporate-actions/{slug}",
    access: "public",
    cached: true,
    reads: ["target"],
    operationId: "listCorporateActions",
  },
  {
    method: "get",
    path: "/api/performance/{slug}",
    access: "public",
    cached: true,
    reads: ["target"],
    operationId: "getPerformance",
  },
  {
    method: "get",
    path: "/api/brokers",
    access: "public",
    cached: true,
    reads: ["target"],
    operationId: "listBrokers",
  },
  {
    method: "post",
    path: "/api/sync",
    access: "admin",
    cached: false,
    reads: ["target", "source"],
    operationId: "runSync",
  },
  {
    method: "get",
    path: "/api/sync/status",
    access: "admin",
    cached: false,
    reads: ["target", "source"],
    operationId: "getSyncStatus",
  },
  { method: "get", path: "/api/health", access: "public", cached: false, reads: ["target"], operationId: "getHealth" },
  { method: "get", path: "/api/health/live", access: "public", cached: false, reads: [], operationId: "getLiveness" },
  { method: "get", path: "/api/health/db", access: "public", cached: false, reads: ["target"], operationId: "getDatabaseHealth" },
  { method: "get", path: "/api/docs", access: "public", cached: false, reads: [], operationId: "getApiReference" },
  { method: "get", path: "/api/openapi.json", access: "public", cached: false, reads: [], operationId: "getOpenApiDocument" },
];

/** The public GETs. */
export const PUBLIC_GETS = ENDPOINTS.filter((e) => e.access === "public" && e.method === "get");
/** The public GETs whose answers are cached: one customer's data and the broker list. */
export const CACHED = ENDPOINTS.filter((e) => e.cached);
/** The endpoints addressed by a customer's slug. */
export const BY_SLUG = ENDPOINTS.filter((e) => e.path.includes("{slug}"));

/** The endpoint's path with its parameters filled in. */
export function pathOf(endpoint: Endpoint, values: { slug?: string; accountId?: string } = {}): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name as keyof typeof values];
    if (value === undefined) throw new Error(`${endpoint.path} needs ${name}`);
    return value;
  });
}

/** Concrete paths of these endpoints for one customer and account. */
export const pathsOf = (endpoints: readonly Endpoint[], values: { slug: string; accountId: string }) =>
  endpoints.map((e) => pathOf(e, values));

/** The first segment after /api/ of each endpoint: "customers", "sync", "openapi.json"... */
export const routeWords = (endpoints: readonly Endpoint[]) => [...new Set(endpoints.map((e) => e.path.split("/")[2]!))];
