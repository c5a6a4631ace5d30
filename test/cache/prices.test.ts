/**
 * A new close reaches every cached answer carrying a valuation after the sync (docs/sync.md, cache invalidation): the
 * sync deletes one version entry, the prices', however many customers hold the stock, and
 * purges its tag everywhere when a zone id and token are set. Answers without a valuation stay
 * cached.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Book, twoCustomerBook, writeSource } from "../support/book";
import { cachedClient, type CacheClient } from "./helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

/** Two customers holding FPT (the investor) or nothing, FPT closed at 120,000.50, synced. */
async function pricedAndSynced(client: CacheClient) {
  const book = twoCustomerBook();
  book.book.price({ stock_code: "FPT", trade_date: "2024-06-27", close_price: "120000.5000" });
  await writeSource(client.dbs.source, book.book);
  await client.sync();
  return book;
}

/** The back office books the next day's close. */
async function nextClose(client: CacheClient, close: string) {
  const more = new Book();
  more.price({ stock_code: "FPT", trade_date: "2024-06-28", close_price: close, updated_at: "2025-06-01T00:00:00Z" });
  await writeSource(client.dbs.source, more);
}

describe("a price day", () => {
  it("makes every answer carrying a valuation a MISS with the new close, and leaves the others cached", async () => {
    const client = await cachedClient();
    const { slug, other } = await pricedAndSynced(client);
    const valued = [`/api/aggregate/${slug}`, `/api/portfolio/${slug}`, `/api/stats/${slug}`, `/api/stats/${other.slug}`];
    const unvalued = [`/api/customers/${slug}`, `/api/transactions/${slug}`, `/api/analytics/${slug}`];
    for (const path of [...valued, ...unvalued]) {
      await client.get(path);
      expect(await client.counted(path), path).toMatchObject({ status: 200, cache: "HIT", trips: 0 });
    }
    const before = (await client.get(`/api/aggregate/${slug}`)).body.data;
    expect(before.stats.valuation).toMatchObject({ as_of: "2024-06-27", market_value: 12000050 });

    await nextClose(client, "125000.2500");
    expect(await client.sync()).toMatchObject({ synced_rows: 1, prices_changed: 1, changed_customers: 0 });

    for (const path of valued) expect(await client.counted(path), path).toMatchObject({ cache: "MISS", trips: 1 });
    for (const path of unvalued) expect(await client.counted(path), path).toMatchObject({ cache: "HIT", trips: 0 });
    const after = (await client.get(`/api/aggregate/${slug}`)).body.data;
    expect(after.portfolio[0]).toMatchObject({ stock_code: "FPT", market_price: 125000.25, price_date: "2024-06-28" });
    expect(after.stats.valuation).toMatchObject({ as_of: "2024-06-28", market_value: 12500025, unrealized_pnl: 2485025 });
    // The stored metrics did not move: a price is a valuation, not P&L. The total return, read
    // with the valuation, moves by the 12,500,025 - 12,000,050 the holding's value moved.
    const stored = (stats: typeof before.stats) => ({ ...stats, valuation: null, total_return: null });
    expect(stored(after.stats)).toEqual(stored(before.stats));
    expect(after.stats.total_return).toBe(before.stats.total_return + 499975);
    expect(after.analytics).toEqual(before.analytics);
    // And the new answers are cached again.
    for (const path of valued) expect(await client.counted(path), path).toMatchObject({ cache: "HIT", trips: 0 });
  });

  it("a sync that brings no new close keeps the valued answers cached", async () => {
    const client = await cachedClient();
    const { slug } = await pricedAndSynced(client);
    await client.get(`/api/portfolio/${slug}`);
    expect(await client.sync()).toMatchObject({ synced_rows: 0, prices_changed: 0 });
    expect(await client.counted(`/api/portfolio/${slug}`)).toMatchObject({ cache: "HIT", trips: 0 });
  });

  it("with a zone id and token, purges the one prices tag everywhere", async () => {
    const tags: string[][] = [];
    const original = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (new URL(request.url).hostname !== "api.cloudflare.com") return original(input, init);
      tags.push(((await request.json()) as { tags: string[] }).tags);
      return Response.json({ success: true, errors: [], messages: [], result: {} });
    });
    const client = await cachedClient({ CF_ZONE_ID: "023e105f4ecef8ad9ca31a8372d0c353", CF_API_TOKEN: "test-purge-token" });
    await pricedAndSynced(client);
    tags.length = 0;
    await nextClose(client, "125000");
    await client.sync();
    expect(tags).toEqual([["prices"]]);
  });
});
