/** The stored metrics follow the trades, and the cached answers follow the sync. */
import { describe, expect, it } from "vitest";
import { computeMetrics } from "../../src/domain";
import { newSlug } from "../../src/domain/slug";
import { getJson } from "../support/worker";
import { addTrade, changeSource, runWith, sampleBook, softDelete, synced, withSource } from "./helpers";

describe("cached answers after a sync", () => {
  it("are dropped for a customer deleted or given a new slug", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const [renamed, deleted] = book.customers;
    for (const c of [renamed!, deleted!]) expect((await getJson(dbs.env, `/api/customers/${c.slug}`)).status).toBe(200);

    const slug = newSlug();
    await changeSource(dbs.source, "customers", renamed!.id, { slug });
    await softDelete(dbs.source, "customers", deleted!.id);
    expect((await synced(dbs.env)).changed_customers).toBe(3);

    expect((await getJson(dbs.env, `/api/customers/${renamed!.slug}`)).status).toBe(404);
    expect((await getJson(dbs.env, `/api/customers/${slug}`)).status).toBe(200);
    expect((await getJson(dbs.env, `/api/customers/${deleted!.slug}`)).status).toBe(404);
  });
});

describe("stored metrics after a sync", () => {
  it("change when a trade arrives, and the cached stats are invalidated", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const customer = book.customers[0]!;
    const path = `/api/stats/${customer.slug}`;

    const first = await getJson(dbs.env, path);
    expect(first.body.data.transaction_count).toBe(3);
    expect((await getJson(dbs.env, path)).headers.get("X-Cache")).toBe("HIT");

    const added = await addTrade(dbs.source, book.accounts[0]!.id);
    const report = await synced(dbs.env);
    // Only the holding the trade belongs to is recomputed; the customer's other holding is merged as stored.
    expect(report).toMatchObject({ synced_rows: 1, holdings_recomputed: 1, metrics_recomputed: 1, changed_customers: 1 });

    const after = await getJson(dbs.env, path);
    expect(after.headers.get("X-Cache")).toBe("MISS");
    const trades = [...book.transactions.filter((t) => t.account_id !== book.accounts[2]!.id), ...[added]];
    expect(after.body.data).toEqual(computeMetrics(trades).stats);
  });

  it("are recomputed in batches bounded by trades, each holding whole", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    const { report } = await runWith(dbs.env, { metricsTrades: 1 });
    expect(report).toMatchObject({ complete: true, holdings_recomputed: 3, metrics_recomputed: 2 });
    const stored = await dbs.target`select customer_id, stats from customer_metrics`;
    const expected = book.customers.map((c) => {
      const accounts = new Set(book.accounts.filter((a) => a.customer_id === c.id).map((a) => a.id));
      return { customer_id: c.id, stats: computeMetrics(book.transactions.filter((t) => accounts.has(t.account_id))).stats };
    });
    expect(stored).toEqual(expect.arrayContaining(expected));
    expect(await dbs.target`select * from metrics_pending`).toEqual([]);
    expect(await dbs.target`select * from holdings_pending`).toEqual([]);
  });

  it("keep a moved account's holdings as they are and merge them into the new owner", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const [from, to] = book.customers;
    await changeSource(dbs.source, "accounts", book.accounts[0]!.id, { customer_id: to!.id });
    const report = await synced(dbs.env);
    expect(report).toMatchObject({ holdings_recomputed: 0, metrics_recomputed: 2 });
    const tradesOf = (customer: string) => {
      const accounts = new Set(
        book.accounts.filter((a) => (a.id === book.accounts[0]!.id ? to!.id : a.customer_id) === customer).map((a) => a.id),
      );
      return book.transactions.filter((t) => accounts.has(t.account_id));
    };
    for (const c of [from!, to!]) {
      const [stored] = await dbs.target`select stats, analytics from customer_metrics where customer_id = ${c.id}`;
      expect(stored).toEqual(computeMetrics(tradesOf(c.id)));
    }
  });
});
