/**
 * Response headers (ARCHITECTURE.md "The slug is the capability"): every response, success or failure of any kind, carries the
 * security headers; CORS follows CORS_ORIGINS (default "*"), and preflights are answered.
 */
import { describe, expect, it } from "vitest";
import { newSlug } from "../../src/domain/slug";
import { Client, newIp, type Reply } from "../support/worker";
import { withCustomer } from "./helpers";

function expectSecurityHeaders(reply: Reply, what: string) {
  const h = reply.headers;
  expect(
    {
      referrer: h.get("Referrer-Policy"),
      robots: h.get("X-Robots-Tag"),
      sniff: h.get("X-Content-Type-Options"),
      frames: h.get("X-Frame-Options"),
      csp: h.get("Content-Security-Policy"),
      hsts: h.get("Strict-Transport-Security"),
      resourcePolicy: h.get("Cross-Origin-Resource-Policy"),
      requestId: h.get("X-Request-Id"),
      others: OTHER_SECURITY_HEADERS.filter((name) => h.has(name)),
    },
    `${what} (${reply.status})`,
  ).toEqual({
    referrer: "no-referrer",
    robots: expect.stringMatching(/\bnoindex\b/),
    sniff: "nosniff",
    frames: "DENY",
    csp: expect.stringMatching(/^default-src 'none';.*frame-ancestors 'none'/),
    hsts: "max-age=63072000; includeSubDomains",
    resourcePolicy: "cross-origin",
    requestId: expect.any(String),
    others: [],
  });
}

/** Headers hono/secure-headers sends by default that this API never sent: none may appear. */
const OTHER_SECURITY_HEADERS = [
  "Cross-Origin-Embedder-Policy",
  "Cross-Origin-Opener-Policy",
  "Origin-Agent-Cluster",
  "X-DNS-Prefetch-Control",
  "X-Download-Options",
  "X-Permitted-Cross-Domain-Policies",
  "X-XSS-Protection",
  "X-Powered-By",
];

/**
 * `path` asked by a client just past the 404 limit (30 a minute). The limiter counts in fixed
 * one-minute windows, so a burst that straddles a window's end starts over: one more burst
 * cannot straddle it too.
 */
async function overTheLimit(scanner: Client, path: string, headers?: Record<string, string>) {
  let reply = await burstThen(scanner, path, headers);
  if (reply.status !== 429) reply = await burstThen(scanner, path, headers);
  return reply;
}

async function burstThen(scanner: Client, path: string, headers?: Record<string, string>) {
  for (let i = 0; i <= 30; i++) await scanner.get(`/api/stats/${newSlug()}`); // the 31st is over the limit
  return scanner.get(path, headers);
}

describe("security headers", () => {
  it("are on every response: 200, 304, 400, 401, 404, 405, 429, 500, 503, HEAD, OPTIONS, the docs page and its static asset", async () => {
    const { dbs, client, customer } = await withCustomer();
    const cases: Array<[string, number, () => Promise<Reply>]> = [
      ["profile", 200, () => client.get(`/api/customers/${customer.slug}`)],
      ["brokers", 200, () => client.get("/api/brokers")],
      ["openapi.json", 200, () => client.get("/api/openapi.json")],
      ["docs page", 200, () => client.get("/api/docs")],
      ["docs page's Scalar script, a static asset", 200, () => client.get("/api/docs/scalar.js")],
      ["HEAD profile", 200, () => client.send(`/api/customers/${customer.slug}`, { method: "HEAD" })],
      ["bad page", 400, () => client.get(`/api/transactions/${customer.slug}?page=0`)],
      ["sync without key", 401, () => client.send("/api/sync", { method: "POST" })],
      ["unknown slug", 404, () => client.from(newIp()).get(`/api/customers/${newSlug()}`)],
      ["unknown route", 404, () => client.from(newIp()).get("/nope")],
      ["method a path does not take", 405, () => client.send("/api/sync/status", { method: "POST" })],
      [
        "preflight",
        204,
        () =>
          client.send("/api/brokers", {
            method: "OPTIONS",
            headers: { Origin: "https://x.example", "Access-Control-Request-Method": "GET" },
          }),
      ],
      ["bare OPTIONS", 204, () => client.send("/api/customers/x", { method: "OPTIONS" })],
    ];
    for (const [what, status, send] of cases) {
      const reply = await send();
      expect(reply.status, what).toBe(status);
      expectSecurityHeaders(reply, what);
    }

    // 304: a cached answer revalidated.
    const first = await client.get(`/api/portfolio/${customer.slug}`);
    const etag = first.headers.get("ETag");
    expect(etag).toBeTruthy();
    const notModified = await client.get(`/api/portfolio/${customer.slug}`, { "If-None-Match": etag! });
    expect(notModified.status).toBe(304);
    expectSecurityHeaders(notModified, "304");

    // 429: a client over the 404 limit.
    const limited = await overTheLimit(client.from(newIp()), `/api/stats/${customer.slug}`);
    expect(limited.status).toBe(429);
    expectSecurityHeaders(limited, "429");

    // 500: a configuration error (nothing to do with the client).
    const broken = await new Client({ ...dbs.env, DATABASE_URL: "not a url" }).get("/api/brokers");
    expect(broken.status).toBe(500);
    expect(broken.body).toEqual({
      success: false,
      error: "Internal Server Error",
      code: "internal",
      request_id: broken.headers.get("X-Request-Id"),
    });
    expectSecurityHeaders(broken, "500");

    // 503: the database down.
    await dbs.fault("target", "error500");
    const down = await new Client({ ...dbs.env, CACHE_TTL_SECONDS: "0" }).get(`/api/customers/${customer.slug}`);
    expect(down.status).toBe(503);
    expectSecurityHeaders(down, "503");
    await dbs.recover("target");
  });

  it("give JSON the policy that allows nothing", async () => {
    const { client, customer } = await withCustomer();
    for (const path of [`/api/customers/${customer.slug}`, "/api/brokers", "/nope"]) {
      const reply = await client.get(path);
      expect(reply.headers.get("Content-Security-Policy"), path).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it("keep customer data out of shared caches and indexes", async () => {
    const { client, customer } = await withCustomer();
    const reply = await client.get(`/api/aggregate/${customer.slug}`);
    expect(reply.headers.get("Cache-Control")).toMatch(/^private\b/);
    expect(reply.headers.get("X-Robots-Tag")).toMatch(/noindex/);
    // The docs page runs scripts from this origin only; nothing else may load or frame it.
    const docs = await client.get("/api/docs");
    expect(docs.headers.get("Content-Security-Policy")).toMatch(
      /^default-src 'none'; script-src 'self'; .*; frame-ancestors 'none'$/,
    );
    expect(docs.headers.get("Content-Security-Policy")).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|https?:/);
  });
});

describe("X-Request-Id", () => {
  it("keeps a caller's id of 8 to 128 of A-Za-z0-9._- and replaces any other with a fresh one", async () => {
    const { client } = await withCustomer();
    const kept = ["abcdefgh", "frontend-req-0001", "trace.v2_0001-abc", "x".repeat(128)];
    const replaced = ["abcdefg", "x".repeat(129), "a=bcdefgh", "abc defgh", "../../etc/passwd", "abcdefgh!", "abc/defgh"];
    for (const id of kept) {
      const reply = await client.get("/api/brokers", { "X-Request-Id": id });
      expect(reply.headers.get("X-Request-Id"), id).toBe(id);
    }
    for (const id of replaced) {
      const reply = await client.get("/api/brokers", { "X-Request-Id": id });
      expect(reply.headers.get("X-Request-Id"), id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    const fresh = await client.get("/api/brokers");
    expect(fresh.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("CORS", () => {
  it("allows any origin by default (CORS_ORIGINS unset)", async () => {
    const { dbs, customer } = await withCustomer();
    const client = new Client({ ...dbs.env, CORS_ORIGINS: undefined });
    for (const origin of ["https://app.example", "https://anything.test", "null"]) {
      const reply = await client.get(`/api/customers/${customer.slug}`, { Origin: origin });
      expect(reply.status).toBe(200);
      expect(reply.headers.get("Access-Control-Allow-Origin"), origin).toBe("*");
      expect(reply.headers.get("Access-Control-Expose-Headers")).toMatch(/ETag/i);
    }
    // Errors carry it too, so a browser can read the envelope.
    const missing = await client.from(newIp()).get(`/api/customers/${newSlug()}`, { Origin: "https://app.example" });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("Access-Control-Allow-Origin")).toBe("*");
  });

  it("allows only the configured origins when CORS_ORIGINS lists them", async () => {
    const { dbs, customer } = await withCustomer();
    const client = new Client({ ...dbs.env, CORS_ORIGINS: "https://app.example, https://admin.example" });
    for (const origin of ["https://app.example", "https://admin.example"]) {
      const reply = await client.get(`/api/customers/${customer.slug}`, { Origin: origin });
      expect(reply.headers.get("Access-Control-Allow-Origin"), origin).toBe(origin);
      expect(reply.headers.get("Vary") ?? "", origin).toMatch(/Origin/i);
    }
    for (const origin of ["https://evil.example", "https://app.example.evil.test", "http://app.example", "null"]) {
      const reply = await client.get(`/api/customers/${customer.slug}`, { Origin: origin });
      expect(reply.status, origin).toBe(200); // CORS is the browser's to enforce: the answer is the same, unlabelled
      expect(reply.headers.get("Access-Control-Allow-Origin"), origin).toBeNull();
    }
  });

  it("answers a preflight with 204, the allowed methods and headers, without a database request", async () => {
    const { dbs } = await withCustomer();
    const client = new Client({ ...dbs.env, CORS_ORIGINS: "https://app.example" });
    const before = await dbs.targetRequests();
    const preflight = (origin: string) =>
      client.send(`/api/customers/${newSlug()}`, {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "if-none-match, x-request-id",
        },
      });
    const allowed = await preflight("https://app.example");
    expect(allowed.status).toBe(204);
    expect(allowed.text).toBe("");
    expect(allowed.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example");
    expect(allowed.headers.get("Access-Control-Allow-Methods")?.split(/,\s*/).sort()).toEqual(["GET", "OPTIONS", "POST"]);
    expect(allowed.headers.get("Access-Control-Allow-Headers")?.toLowerCase().split(/,\s*/).sort()).toEqual([
      "content-type",
      "if-none-match",
      "x-admin-key",
      "x-request-id",
    ]);
    expect(allowed.headers.get("Access-Control-Max-Age")).toBe("600");

    const refused = await preflight("https://evil.example");
    expect(refused.status).toBe(204);
    expect(refused.headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect(await dbs.targetRequests()).toBe(before);
  });

  it("lets a browser read Retry-After on a 429, and the cache and request headers on a 200", async () => {
    const { client, customer } = await withCustomer();
    const limited = await overTheLimit(client.from(newIp()), `/api/stats/${customer.slug}`, { Origin: "https://app.example" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBe("60");
    expect(limited.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(limited.headers.get("Access-Control-Expose-Headers")).toBe("ETag,X-Cache,X-Request-Id,Retry-After");
    const ok = await client.get(`/api/stats/${customer.slug}`, { Origin: "https://app.example" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Access-Control-Expose-Headers")).toBe("ETag,X-Cache,X-Request-Id,Retry-After");
  });
});
