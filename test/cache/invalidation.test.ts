/**
 * Invalidation after a sync: the changed customers' entries are dropped where the sync ran (their
 * version entries deleted), and purged everywhere by Cache-Tag when a zone id and API token are
 * configured, against a mock of the Cloudflare API. Other customers stay cached.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { BROKERS_SCOPE, CUSTOMERS_SCOPE, customerScope, entryKey, invalidate, PRICES_SCOPE, versionKey } from "../../src/cache";
import { getConfig } from "../../src/env";
import { addTrade, Book, twoCustomerBook, writeSource, writeTarget } from "../support/book";
import { changeSource } from "../sync/helpers";
import { cachedClient, withInvestor, type CacheClient } from "./helpers";

const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";
const TOKEN = "test-purge-token";
const PURGE_URL = `https://api.cloudflare.com/client/v4/zones/${ZONE}/purge_cache`;

interface Purge {
  url: string;
  method: string;
  authorization: string | null;
  contentType: string | null;
  body: { tags: string[] };
}

/**
 * Replaces `fetch` for the Cloudflare API only; everything else (the local database server is
 * reached by fetch too) goes to the real one. `status` is what the mock API answers.
 */
function mockCloudflareApi(status = 200) {
  const purges: Purge[] = [];
  const original = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (new URL(request.url).hostname !== "api.cloudflare.com") return original(input, init);
    purges.push({
      url: request.url,
      method: request.method,
      authorization: request.headers.get("Authorization"),
      contentType: request.headers.get("Content-Type"),
      body: await request.json(),
    });
    return Response.json({ success: status === 200, errors: [], messages: [], result: { id: ZONE } }, { status });
  });
  return purges;
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** Two customers in the source, synced into the target: A (an investor) and B (one trade). */
async function twoCustomersSynced(client: CacheClient) {
  const a = twoCustomerBook();
  await writeSource(client.dbs.source, a.book);
  await client.sync();
  return { a, b: a.other };
}

/** The key an answer is stored under: the current versions of its scopes, in the route's order (src/cache/serve.ts). */
async function storedEntryKey(origin: string, scopes: string[], resource: string) {
  const versions = await Promise.all(
    scopes.map(async (scope) => (await caches.default.match(versionKey(origin, scope)))!.text()),
  );
  return entryKey(origin, versions.join("."), resource);
}

describe("a sync that changes a customer", () => {
  it("makes that customer's next requests MISSes with the new data, while another customer stays a HIT", async () => {
    const client = await cachedClient();
    const { a, b } = await twoCustomersSynced(client);
    const aStats = `/api/stats/${a.customer.slug}`;
    const aBuys = `/api/transactions/${a.customer.slug}?type=buy`;
    const bStats = `/api/stats/${b.slug}`;
    const before = new Map<string, Awaited<ReturnType<CacheClient["get"]>>>();
    for (const path of [aStats, aBuys, bStats]) {
      before.set(path, await client.get(path));
      expect(await client.counted(path)).toMatchObject({ status: 200, cache: "HIT", trips: 0 });
    }
    expect(before.get(aStats)!.body.data.transaction_count).toBe(3);
    expect(before.get(aBuys)!.body.pagination.total).toBe(2);

    await addTrade(client.dbs.source, a.accounts.ssi.id);
    expect(await client.sync()).toMatchObject({ synced_rows: 1, changed_customers: 1 });

    const stats = await client.counted(aStats);
    expect(stats).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(stats.body.data.transaction_count).toBe(4);
    expect(stats.headers.get("ETag")).not.toBe(before.get(aStats)!.headers.get("ETag"));
    // The old tag no longer matches: a client revalidating gets the new answer.
    const revalidated = await client.get(aStats, { "If-None-Match": before.get(aStats)!.headers.get("ETag")! });
    expect(revalidated).toMatchObject({ status: 200, cache: "HIT" });
    expect(revalidated.text).toBe(stats.text);

    const buys = await client.counted(aBuys);
    expect(buys).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(buys.body.pagination.total).toBe(3);
    expect(buys.body.data[0]).toMatchObject({ trade_date: "2024-05-02", quantity: 10, price: 95000 });

    const other = await client.counted(bStats);
    expect(other).toMatchObject({ status: 200, cache: "HIT", trips: 0 });
    expect(other.text).toBe(before.get(bStats)!.text);
    expect(await client.counted(aStats)).toMatchObject({ cache: "HIT", trips: 0 });
  });

  it("drops the customer's corporate actions and stats when a sync changes a dividend, and only theirs", async () => {
    const client = await cachedClient();
    const a = twoCustomerBook();
    const dividend = a.book.corporateAction({
      account_id: a.accounts.ssi.id,
      type: "cash_dividend",
      ex_date: "2024-05-10",
      quantity: 100,
      gross_amount: "200000",
      tax: "10000",
    });
    await writeSource(client.dbs.source, a.book);
    await client.sync();
    const actions = `/api/corporate-actions/${a.customer.slug}?type=cash_dividend`;
    const stats = `/api/stats/${a.customer.slug}`;
    const theirs = `/api/corporate-actions/${a.other.slug}`;
    for (const path of [actions, stats, theirs]) {
      await client.expectServed(path, "MISS", 1);
      await client.expectServed(path, "HIT", 0);
    }

    await changeSource(client.dbs.source, "corporate_actions", dividend.id, { gross_amount: "300000", tax: "15000" });
    expect(await client.sync()).toMatchObject({ synced_rows: 1, changed_customers: 1 });

    const listed = await client.expectServed(actions, "MISS", 1);
    expect(listed.body.data).toMatchObject([{ id: dividend.id, gross_amount: 300000, tax: 15000, net_amount: 285000 }]);
    expect((await client.expectServed(stats, "MISS", 1)).body.data.dividends).toEqual({
      count: 1,
      gross: 300000,
      tax: 15000,
      net: 285000,
    });
    await client.expectServed(actions, "HIT", 0);
    await client.expectServed(theirs, "HIT", 0);
  });

  it("a sync that changes nothing keeps every entry", async () => {
    const client = await cachedClient();
    const { a, b } = await twoCustomersSynced(client);
    const paths = [`/api/portfolio/${a.customer.slug}`, `/api/customers/${b.slug}`];
    for (const path of paths) await client.get(path);
    expect(await client.sync()).toMatchObject({ synced_rows: 0, changed_customers: 0 });
    for (const path of paths) expect(await client.counted(path)).toMatchObject({ cache: "HIT", trips: 0 });
  });
});

describe("the global purge by Cache-Tag", () => {
  it("with a zone id and token, a sync POSTs the changed customers' tags to the Cloudflare API", async () => {
    const purges = mockCloudflareApi();
    const client = await cachedClient({ CF_ZONE_ID: ZONE, CF_API_TOKEN: TOKEN });
    const { a, b } = await twoCustomersSynced(client);
    // The first sync changed everyone: both customers and the broker list.
    expect(purges).toHaveLength(1);
    expect([...purges[0]!.body.tags].sort()).toEqual(
      [customerScope(a.customer.slug), customerScope(b.slug), BROKERS_SCOPE].sort(),
    );

    await client.get(`/api/stats/${a.customer.slug}`);
    await client.get(`/api/stats/${b.slug}`);
    purges.length = 0;
    await addTrade(client.dbs.source, a.accounts.ssi.id);
    await client.sync();

    expect(purges).toEqual([
      {
        url: PURGE_URL,
        method: "POST",
        authorization: `Bearer ${TOKEN}`,
        contentType: "application/json",
        body: { tags: [`customer:${a.customer.slug}`] },
      },
    ]);
    // The local delete happened as well.
    expect(await client.counted(`/api/stats/${a.customer.slug}`)).toMatchObject({ cache: "MISS", trips: 1 });
    expect(await client.counted(`/api/stats/${b.slug}`)).toMatchObject({ cache: "HIT", trips: 0 });
  });

  it("tags each stored answer with its customer, so the purge reaches it", async () => {
    const { client, slug } = await withInvestor();
    await client.get(`/api/customers/${slug}`);
    const stored = await caches.default.match(
      await storedEntryKey(client.origin, [customerScope(slug), CUSTOMERS_SCOPE], `/api/customers/${slug}`),
    );
    expect(stored!.headers.get("Cache-Tag")).toBe(`customer:${slug},customers`);
  });

  it("tags an answer carrying a valuation with its customer and the prices, and keys it by both versions", async () => {
    const { client, slug } = await withInvestor();
    await client.get(`/api/portfolio/${slug}`);
    const scopes = [customerScope(slug), CUSTOMERS_SCOPE, PRICES_SCOPE];
    const stored = await caches.default.match(await storedEntryKey(client.origin, scopes, `/api/portfolio/${slug}`));
    expect(stored!.headers.get("Cache-Tag")).toBe(`customer:${slug},customers,prices`);
  });

  // One test per configuration: each runs two syncs, and four in one test outlasted its timeout
  // on a busy machine.
  it.each([
    ["neither", {}],
    ["only a zone id", { CF_ZONE_ID: ZONE }],
    ["only a token", { CF_API_TOKEN: TOKEN }],
    ["blank ones", { CF_ZONE_ID: " ", CF_API_TOKEN: " " }],
  ])("without a zone id and token (%s), no call is made", async (_, overrides) => {
    const purges = mockCloudflareApi();
    const client = await cachedClient(overrides);
    const { a } = await twoCustomersSynced(client);
    await client.get(`/api/stats/${a.customer.slug}`);
    await addTrade(client.dbs.source, a.accounts.ssi.id);
    expect(await client.sync()).toMatchObject({ changed_customers: 1 });
    expect(await client.counted(`/api/stats/${a.customer.slug}`)).toMatchObject({ cache: "MISS" });
    expect(purges).toEqual([]);
  });

  it("a failed purge is logged and does not fail the sync; the local delete still happens", async () => {
    const purges = mockCloudflareApi(500);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const client = await cachedClient({ CF_ZONE_ID: ZONE, CF_API_TOKEN: TOKEN });
    const { a } = await twoCustomersSynced(client);
    await client.get(`/api/stats/${a.customer.slug}`);
    await addTrade(client.dbs.source, a.accounts.ssi.id);
    expect(await client.sync()).toMatchObject({ changed_customers: 1 });
    expect(purges).toHaveLength(2);
    expect(await client.counted(`/api/stats/${a.customer.slug}`)).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    const logged = errors.mock.calls.map(([line]) => JSON.parse(String(line)));
    expect(logged).toContainEqual(expect.objectContaining({ level: "error", event: "cache_invalidation_failed", scopes: 1 }));
    expect(JSON.stringify(logged)).not.toContain(TOKEN);
  });
});

describe("invalidate()", () => {
  it("deletes the scope's version, so its old entries become unreachable, and leaves other scopes alone", async () => {
    const { client, slug, customer } = await withInvestor();
    const other = new Book();
    const { customer: neighbour } = other.simpleCustomer({ customer: { staff_id: customer.staff_id } });
    await writeTarget(client.dbs.target, other);
    const mine = `/api/customers/${slug}`;
    const theirs = `/api/customers/${neighbour.slug}`;
    await client.get(mine);
    await client.get(theirs);

    const key = versionKey(client.origin, customerScope(slug));
    const oldVersion = await (await caches.default.match(key))!.text();
    const oldEntry = await storedEntryKey(client.origin, [customerScope(slug), CUSTOMERS_SCOPE], mine);
    expect(await caches.default.match(oldEntry)).toBeDefined();

    const config = getConfig(client.env);
    expect(await invalidate([customerScope(slug)], { config, origin: client.origin })).toEqual({
      local: 1,
      purged: false,
      failures: [],
    });
    expect(await caches.default.match(key)).toBeUndefined();

    const miss = await client.counted(mine);
    expect(miss).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    const newVersion = await (await caches.default.match(key))!.text();
    expect(newVersion).not.toBe(oldVersion);
    // The old entry may still sit in the cache until it ages out, but no key leads to it.
    expect(await caches.default.match(oldEntry)).toBeDefined();
    expect(await client.counted(mine)).toMatchObject({ cache: "HIT", trips: 0 });
    expect(await client.counted(theirs)).toMatchObject({ cache: "HIT", trips: 0 });

    // A scope with nothing cached has nothing to delete; a second call finds nothing either.
    expect(await invalidate([customerScope("nobody")], { config, origin: client.origin })).toEqual({
      local: 0,
      purged: false,
      failures: [],
    });
    expect(await invalidate([], { config, origin: client.origin })).toEqual({ local: 0, purged: false, failures: [] });
  });

  it("purges at most 100 tags per call through the given fetcher, and reports a refusal", async () => {
    const { client } = await withInvestor();
    const config = { ...getConfig(client.env), CF_ZONE_ID: ZONE, CF_API_TOKEN: TOKEN };
    // Scopes that are not customers' are each dropped: 150 customers would be dropped as one.
    const scopes = Array.from({ length: 150 }, (_, i) => `scope${i}`);
    const calls: Array<{ url: string; tags: string[] }> = [];
    const fetcher = (async (url: string, init: RequestInit) => {
      calls.push({ url, tags: JSON.parse(String(init.body)).tags });
      return new Response("{}", { status: 200 });
    }) as unknown as typeof fetch;

    expect(await invalidate(scopes, { config, fetcher })).toEqual({ local: 0, purged: true, failures: [] });
    expect(calls.map((c) => c.url)).toEqual([PURGE_URL, PURGE_URL]);
    expect(calls.map((c) => c.tags.length)).toEqual([100, 50]);
    expect(calls.flatMap((c) => c.tags)).toEqual(scopes);

    const refusing = (async () => new Response("{}", { status: 403 })) as unknown as typeof fetch;
    const refused = await invalidate(scopes, { config, fetcher: refusing });
    expect(refused).toMatchObject({ purged: false, failures: [{ step: "purge" }] });
    expect(String(refused.failures[0]!.error)).toContain("cache purge failed with HTTP 403");
  });
});
