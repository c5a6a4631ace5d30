/**
 * Invalidation within the platform's limits (src/cache/invalidate.ts): a sync that makes 5,000
 * customers stale spends at most 50 Cache API calls, counted by a wrapper around the cache, and
 * still no customer is served an answer from before it where it ran; a step that fails does not
 * keep the next from running.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { CACHE_CALLS_PER_INVALIDATION, CUSTOMERS_SCOPE, customerScope, versionKey } from "../../src/cache";
import { Book, twoCustomerBook, writeSource } from "../support/book";
import { addTrade } from "../sync/helpers";
import { cachedClient, countCacheCalls } from "./helpers";

const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";
const TOKEN = "test-purge-token";

afterEach(() => {
  vi.restoreAllMocks();
});

/** The tags each call to the Cloudflare API purged; other fetches pass through. */
function recordPurges() {
  const purges: string[][] = [];
  const original = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (new URL(request.url).hostname !== "api.cloudflare.com") return original(input, init);
    purges.push(((await request.json()) as { tags: string[] }).tags);
    return Response.json({ success: true, errors: [], messages: [], result: { id: ZONE } });
  });
  return purges;
}

const CUSTOMERS = 5_000;

describe("a sync that makes 5,000 customers stale", () => {
  it("spends at most 50 Cache API calls per run and serves none of them an answer from before it", async () => {
    const purges = recordPurges();
    const client = await cachedClient({ CF_ZONE_ID: ZONE, CF_API_TOKEN: TOKEN });
    const book = new Book();
    const staff = book.staffMember();
    const customers = Array.from({ length: CUSTOMERS }, (_, i) => book.customer({ staff_id: staff.id, name: `Customer ${i}` }));
    await writeSource(client.dbs.source, book);
    while (!(await client.sync()).complete);
    // Every 250th customer answers from the cache, as a busy day leaves them.
    const sample = customers.filter((_, i) => i % 250 === 0);
    for (const c of sample) {
      await client.expectServed(`/api/customers/${c.slug}`, "MISS", 1);
      await client.expectServed(`/api/customers/${c.slug}`, "HIT", 0);
    }

    await client.dbs.source.query(`update customers set name = name || ' (renamed)', updated_at = clock_timestamp()`);
    const calls = countCacheCalls();
    purges.length = 0;
    let changed = 0;
    // Runs chain at their budget; each is one invocation with its own allowance.
    for (let run = 0; run < 20; run++) {
      calls.reset();
      const report = await client.sync();
      expect(calls.total(), `run ${run}`).toBeLessThanOrEqual(CACHE_CALLS_PER_INVALIDATION);
      changed += report.changed_customers;
      if (report.complete) break;
    }
    expect(changed).toBe(CUSTOMERS);
    expect(purges.length).toBeGreaterThan(0);
    for (const tags of purges) expect(tags.length).toBeLessThanOrEqual(100);
    expect(purges.flat()).toContain(CUSTOMERS_SCOPE);

    vi.restoreAllMocks();
    for (const [i, c] of sample.entries()) {
      const reply = await client.expectServed(`/api/customers/${c.slug}`, "MISS", 1);
      expect(reply.body.data.name).toBe(`Customer ${i * 250} (renamed)`);
    }
  }, 600_000);
});

describe("a step of the invalidation that fails", () => {
  it("does not keep the purge from running, and the customer's answer goes with the shared version", async () => {
    const purges = recordPurges();
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const client = await cachedClient({ CF_ZONE_ID: ZONE, CF_API_TOKEN: TOKEN });
    const a = twoCustomerBook();
    await writeSource(client.dbs.source, a.book);
    await client.sync();
    const stats = `/api/stats/${a.customer.slug}`;
    await client.expectServed(stats, "MISS", 1);
    await client.expectServed(stats, "HIT", 0);

    // Deleting the customer's own version throws; everything else works.
    const own = versionKey(client.origin, customerScope(a.customer.slug));
    countCacheCalls({ failDelete: (key) => key === own });
    purges.length = 0;
    await addTrade(client.dbs.source, a.accounts.ssi.id);
    expect(await client.sync()).toMatchObject({ changed_customers: 1 });

    expect(purges).toEqual([[customerScope(a.customer.slug)]]);
    const logged = errors.mock.calls.map(([line]) => JSON.parse(String(line)));
    expect(logged).toContainEqual(
      expect.objectContaining({ level: "error", event: "cache_invalidation_failed", step: "delete", scopes: 1 }),
    );
    vi.restoreAllMocks();
    const fresh = await client.expectServed(stats, "MISS", 1);
    expect(fresh.body.data.transaction_count).toBe(4);
  }, 120_000);
});
