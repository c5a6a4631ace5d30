/**
 * Slug enumeration (ARCHITECTURE.md "The slug is the capability"): slugs too random to guess, repeated 404s from one client
 * throttled by the NOT_FOUND_LIMITER binding (wrangler.toml: 30 per 60 s) on the routes that look
 * slugs and accounts up, and only there, and a 404 that does not tell a malformed slug from an
 * unknown one, by its body or by what it costs.
 */
import { describe, expect, it } from "vitest";
import { generateDemoBook } from "../../scripts/demo/generate";
import { app } from "../../src/app";
import { newSlug, SLUG_RANDOM_BYTES } from "../../src/domain/slug";
import { limitNotFound } from "../../src/rate-limit";
import { Book } from "../support/book";
import { BY_SLUG, pathOf } from "../support/endpoints";
import { newIp } from "../support/worker";
import { clearOfWindowEnd, withCustomer } from "./helpers";

/** The endpoints a slug alone addresses, as path builders. */
const SLUG_PATHS = BY_SLUG.filter((e) => !e.path.includes("{accountId}")).map((e) => (slug: string) => pathOf(e, { slug }));

const TOO_MANY = { success: false, error: "Too Many Requests", code: "rate_limited_lookup" };
const NOT_FOUND = { success: false, error: "Not Found", code: "not_found" };
/** The binding's `simple.limit` in wrangler.toml. */
const LIMIT = 30;
/** What every answer of a lookup route announces (draft-ietf-httpapi-ratelimit-headers). */
const POLICY = `"unknown-lookups";q=${LIMIT};w=60`;

/** Strings that cannot be slugs, as they would appear in a path (already encoded). */
const MALFORMED = [
  "bad!slug",
  encodeURIComponent("bad slug"),
  "bad.slug",
  "a".repeat(65),
  "a".repeat(10_000),
  encodeURIComponent("âbc"),
  encodeURIComponent("'; drop table customers; --"),
  encodeURIComponent("' or 1=1 --"),
  "%E0%A4%A",
  "%00",
  encodeURIComponent('{"$ne":null}'),
];

describe("the 404 limiter", () => {
  it("answers 429 with the error envelope and Retry-After once one client's 404s pass the limit, then to every lookup it makes", async () => {
    const { customer, account, client } = await withCustomer();
    await clearOfWindowEnd();
    for (let i = 0; i < LIMIT; i++) {
      expect((await client.get(`/api/customers/${newSlug()}`)).status, `404 number ${i + 1}`).toBe(404);
    }
    const over = await client.get(`/api/customers/${newSlug()}`);
    expect(over.status).toBe(429);
    expect(over.body).toEqual(TOO_MANY);
    expect(over.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(over.headers.get("Retry-After")).toBe("60");

    // From now on a hit looks like a miss on every route that looks a slug or an account up.
    const lookups = [...SLUG_PATHS.map((path) => path(customer.slug)), `/api/transactions/${customer.slug}/${account.id}`];
    for (const path of lookups) {
      const reply = await client.get(path);
      expect({ status: reply.status, body: reply.body, retryAfter: reply.headers.get("Retry-After") }, path).toEqual({
        status: 429,
        body: TOO_MANY,
        retryAfter: "60",
      });
    }

    // Another client is not affected.
    const other = client.from(newIp());
    expect((await other.get(`/api/customers/${customer.slug}`)).status).toBe(200);
    expect((await other.get(`/api/customers/${newSlug()}`)).status).toBe(404);
  });

  it("answers a person on the customer's page with a 429 page in their language, and the API with JSON", async () => {
    const { dbs, customer, client } = await withCustomer();
    await clearOfWindowEnd();
    for (let i = 0; i < LIMIT; i++) {
      const miss = await client.get(`/c/${newSlug()}`);
      expect({ status: miss.status, type: miss.headers.get("Content-Type") }, `404 number ${i + 1}`).toEqual({
        status: 404,
        type: "text/html; charset=UTF-8",
      });
    }
    const policy = (await client.from(newIp()).get(`/c/${customer.slug}`)).headers.get("Content-Security-Policy");
    expect(policy).toMatch(/^default-src 'none'; style-src 'sha256-/);
    const cases: Array<[string, Record<string, string>, "vi" | "en", string, string]> = [
      [`/c/${newSlug()}`, {}, "vi", "Quá nhiều yêu cầu", "Vui lòng thử lại sau 60 giây."],
      [`/c/${customer.slug}`, {}, "vi", "Quá nhiều yêu cầu", "Vui lòng thử lại sau 60 giây."],
      [`/c/${customer.slug}?lang=en`, {}, "en", "Too many requests", "Please try again in 60 seconds."],
      [`/c/${customer.slug}`, { "Accept-Language": "en-GB,en;q=0.9,vi;q=0.5" }, "en", "Too many requests", "60 seconds"],
      [`/c/${customer.slug}?lang=vi`, { "Accept-Language": "en" }, "vi", "Quá nhiều yêu cầu", "60 giây"],
    ];
    for (const [path, headers, lang, title, text] of cases) {
      const reply = await client.get(path, headers);
      expect(
        {
          status: reply.status,
          type: reply.headers.get("Content-Type"),
          retryAfter: reply.headers.get("Retry-After"),
          cacheControl: reply.headers.get("Cache-Control"),
          language: reply.headers.get("Content-Language"),
          policy: reply.headers.get("Content-Security-Policy"),
          frames: reply.headers.get("X-Frame-Options"),
          robots: reply.headers.get("X-Robots-Tag"),
        },
        path,
      ).toEqual({
        status: 429,
        type: "text/html; charset=UTF-8",
        retryAfter: "60",
        cacheControl: "private, no-store",
        language: lang,
        policy,
        frames: "DENY",
        robots: "noindex, nofollow",
      });
      expect(reply.text.startsWith(`<!doctype html><html lang="${lang}">`), path).toBe(true);
      expect(reply.text, path).toContain(`<h1>${title}</h1>`);
      expect(reply.text, path).toContain(text);
      expect(reply.text, path).not.toContain(customer.name); // a hit still looks like a miss
    }
    // The API keeps its JSON 429 for the same client.
    const api = await client.get(`/api/customers/${customer.slug}`);
    expect({ status: api.status, body: api.body, retryAfter: api.headers.get("Retry-After") }).toEqual({
      status: 429,
      body: TOO_MANY,
      retryAfter: "60",
    });
    expect(await dbs.targetTrips(() => client.get(`/c/${customer.slug}`))).toBe(0);
  });

  it("leaves an office behind one NAT address its other routes while a stale link retries in a loop", async () => {
    const { customer, client } = await withCustomer();
    await clearOfWindowEnd();
    const stale = `/api/aggregate/${newSlug()}`;
    const retries = [];
    for (let i = 0; i < LIMIT + 10; i++) retries.push(await client.get(stale));
    expect(retries.filter((r) => r.status === 404).length).toBe(LIMIT);
    expect(retries.filter((r) => r.status === 429).length).toBe(10);

    // The same address: everything that is not a lookup answers as usual.
    const sync = await client.send("/api/sync", { method: "POST", headers: { "X-Admin-Key": client.env.ADMIN_API_KEY! } });
    expect(sync.status, sync.text).toBe(200);
    const others: Array<[string, number]> = [
      ["/api/brokers", 200],
      ["/api/health", 200],
      ["/api/health/live", 200],
      ["/api/openapi.json", 200],
      ["/api/docs", 200],
      ["/nope", 404],
    ];
    for (const [path, status] of others) {
      const reply = await client.get(path);
      expect({ path, status: reply.status, retryAfter: reply.headers.get("Retry-After") }).toEqual({
        path,
        status,
        retryAfter: null,
      });
    }
    // The lookups stay braked for the period, its own customer's included: that is what stops a scan.
    expect((await client.get(`/api/customers/${customer.slug}`)).status).toBe(429);
  });

  it("counts only lookups: unknown routes and a client reading its own data many times are never throttled", async () => {
    const { customer, client } = await withCustomer();
    for (let i = 0; i < LIMIT + 10; i++) {
      expect((await client.get(`/api/${i % 2 ? "portfolio" : "stats"}/${customer.slug}`)).status).toBe(200);
      expect((await client.get(`/api/no-such-route-${i}`)).status).toBe(404);
    }
    expect((await client.get(`/api/customers/${customer.slug}`)).status).toBe(200);
  });

  it("counts 404s per CF-Connecting-IP alone: an X-Forwarded-For the client writes does not make it another client", async () => {
    const { customer, client } = await withCustomer();
    await clearOfWindowEnd();
    const ip = newIp();
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      // A fresh forged address on every request, as a scanner dodging the brake would send.
      const req = new Request(`${client.origin}/api/stats/${newSlug()}`, {
        headers: { "CF-Connecting-IP": ip, "X-Forwarded-For": `${newIp()}, 10.0.0.1` },
      });
      statuses.push((await client.sendAsIs(req)).status);
    }
    expect(statuses.slice(0, LIMIT)).toEqual(new Array(LIMIT).fill(404));
    expect(statuses[LIMIT]).toBe(429);
    expect((await client.from(ip).get(`/api/portfolio/${customer.slug}`)).status).toBe(429);
    expect((await client.from(ip).get("/api/health/live")).status).toBe(200);
  });
});

describe("every route that looks a slug or an account up", () => {
  /** The app's own routes with a `:slug` or `:accountId`, found in its router, not in a list kept by hand. */
  const lookups = () => {
    const byRoute = new Map<string, unknown[]>();
    for (const route of app.routes) {
      if (route.method === "ALL" || !/:(slug|accountId)\b/.test(route.path)) continue;
      const key = `${route.method} ${route.path}`;
      // A router mounted with its own error handler (the page's) has each handler wrapped; Hono
      // keeps the one it wraps under "__COMPOSED_HANDLER".
      const handler = (route.handler as { __COMPOSED_HANDLER?: unknown }).__COMPOSED_HANDLER ?? route.handler;
      byRoute.set(key, [...(byRoute.get(key) ?? []), handler]);
    }
    return byRoute;
  };

  it("carries the 404 brake in its own declaration", () => {
    const found = lookups();
    // The document's lookups and the customer's page, at least: a new one joins by being declared.
    const expected = [...BY_SLUG.map((e) => `GET ${e.path.replace(/\{(\w+)\}/g, ":$1")}`), "GET /c/:slug"];
    expect([...found.keys()]).toEqual(expect.arrayContaining(expected));
    for (const [route, handlers] of found) expect(handlers, route).toContain(limitNotFound);
  });

  it("answers 429 with the brake's code and policy once the client is over the limit, and announces the policy before", async () => {
    const { customer, account, client } = await withCustomer();
    const paths = [...lookups().keys()].map((route) =>
      route.slice("GET ".length).replace(":slug", customer.slug).replace(":accountId", account.id),
    );
    for (const path of paths) {
      const hit = await client.get(path);
      expect({ status: hit.status, policy: hit.headers.get("RateLimit-Policy") }, path).toEqual({ status: 200, policy: POLICY });
      const miss = await client.from(newIp()).get(path.replace(customer.slug, newSlug()));
      expect({ status: miss.status, policy: miss.headers.get("RateLimit-Policy") }, path).toEqual({
        status: 404,
        policy: POLICY,
      });
    }
    await clearOfWindowEnd();
    // The limit's worth of misses, and one more: the one the binding refuses, which blocks the client.
    for (let i = 0; i <= LIMIT; i++) await client.get(`/api/customers/${newSlug()}`);
    for (const path of paths) {
      const reply = await client.get(path);
      expect(
        { status: reply.status, code: reply.body?.code ?? "page", policy: reply.headers.get("RateLimit-Policy") },
        path,
      ).toEqual({
        status: 429,
        code: path.startsWith("/c/") ? "page" : "rate_limited_lookup",
        policy: POLICY,
      });
    }
    // Routes without a lookup announce no brake.
    expect((await client.get("/api/brokers")).headers.get("RateLimit-Policy")).toBeNull();
  });
});

describe("a 404 does not tell a malformed slug from an unknown one", () => {
  it("answers both with byte-identical bodies and the same headers", async () => {
    const { client, account } = await withCustomer();
    const strip = (headers: Headers) => [...headers].filter(([name]) => name !== "x-request-id");
    const paths = BY_SLUG.map((e) => (slug: string) => pathOf(e, { slug, accountId: account.id }));
    for (const path of paths) {
      // A fresh client address per request keeps the limiter out of this comparison.
      const unknown = await client.from(newIp()).get(path(newSlug()));
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(NOT_FOUND);
      for (const slug of MALFORMED) {
        const malformed = await client.from(newIp()).get(path(slug));
        expect(malformed.status, path(slug).slice(0, 80)).toBe(404);
        expect(malformed.text, path(slug).slice(0, 80)).toBe(unknown.text);
        expect(strip(malformed.headers), path(slug).slice(0, 80)).toEqual(strip(unknown.headers));
      }
    }
  });

  it("costs both exactly one target database request, on every endpoint that takes a slug", async () => {
    const { dbs, client, customer, account } = await withCustomer();
    const once = (path: string) => dbs.targetTrips(() => client.from(newIp()).get(path));
    for (const path of SLUG_PATHS) {
      expect(await once(path(newSlug())), path("<unknown>")).toBe(1);
      for (const slug of MALFORMED) expect(await once(path(slug)), path(slug).slice(0, 80)).toBe(1);
    }
    // The account of GET /api/transactions/:slug/:accountId: malformed, unknown, and someone else's cost the same.
    const accountPath = (slug: string, accountId: string) =>
      pathOf(BY_SLUG.find((e) => e.path.includes("{accountId}"))!, { slug, accountId });
    expect(await once(accountPath(customer.slug, crypto.randomUUID()))).toBe(1);
    for (const id of ["not-a-uuid", "123", "'; drop table accounts; --", "%E0%A4%A", "x".repeat(5000)]) {
      expect(await once(accountPath(customer.slug, encodeURIComponent(id))), id.slice(0, 40)).toBe(1);
    }
    expect(await once(accountPath("bad!slug", account.id))).toBe(1);
    expect(await once(accountPath(newSlug(), "not-a-uuid"))).toBe(1);
  });

  it("still finds the customer when the slug is well formed, and a valid query still fails validation first", async () => {
    const { dbs, client, customer } = await withCustomer();
    expect((await client.get(`/api/customers/${customer.slug}`)).status).toBe(200);
    // Query validation happens before any lookup, for any slug: 400, no database request.
    for (const slug of [customer.slug, newSlug(), "bad!slug"]) {
      const trips = await dbs.targetTrips(async () => {
        const reply = await client.from(newIp()).get(`/api/transactions/${slug}?page=0`);
        expect(reply.status, slug).toBe(400);
      });
      expect(trips, slug).toBe(0);
    }
  });
});

describe("slugs", () => {
  const FORMAT = /^[a-z2-7]{25}[aeimquy4]$/; // 26 base32 characters; the last carries 3 bits

  it("carry 128 random bits: 26 base32 characters, all distinct, every bit varying", () => {
    expect(SLUG_RANDOM_BYTES * 8).toBeGreaterThanOrEqual(128);
    const slugs = Array.from({ length: 4096 }, () => newSlug());
    for (const slug of slugs) expect(slug).toMatch(FORMAT);
    expect(new Set(slugs).size).toBe(slugs.length);

    // Decode each slug back to its 128 bits: every bit must be set in roughly half of them, which a
    // counter, a timestamp or a short random part would not do.
    const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
    const ones = new Array<number>(130).fill(0);
    for (const slug of slugs) {
      const bits = [...slug].map((ch) => ALPHABET.indexOf(ch).toString(2).padStart(5, "0")).join("");
      for (let i = 0; i < 128; i++) if (bits[i] === "1") ones[i]!++;
      expect(bits.slice(128)).toBe("00"); // padding
    }
    for (let i = 0; i < 128; i++) {
      expect(ones[i]! / slugs.length, `bit ${i}`).toBeGreaterThan(0.4);
      expect(ones[i]! / slugs.length, `bit ${i}`).toBeLessThan(0.6);
    }
  });

  it("are minted the same way by the test book and the demo data", () => {
    const book = new Book();
    const staff = book.staffMember();
    const testSlugs = Array.from({ length: 50 }, () => book.customer({ staff_id: staff.id }).slug);
    const demoSlugs = generateDemoBook({ seed: 1, customers: 50, tradesPerCustomer: [1, 2] }).customers.map((c) => c.slug);
    for (const slug of [...testSlugs, ...demoSlugs]) expect(slug).toMatch(FORMAT);
    expect(new Set([...testSlugs, ...demoSlugs]).size).toBe(100);
  });
});
