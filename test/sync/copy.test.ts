/** What a sync copies: everything at first, then exactly what changed, deletes included. */
import { describe, expect, it } from "vitest";
import { Book } from "../support/book";
import { getJson } from "../support/worker";
import { changeSource, countRows, expectInSync, sampleBook, softDelete, synced, withSource } from "./helpers";

describe("POST /api/sync", () => {
  it("copies everything at first, after which the target equals the source", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    const report = await synced(dbs.env);
    expect(report).toMatchObject({ complete: true, mode: "delta", synced_rows: countRows(book) });
    expect(report.streams.transactions).toMatchObject({ inserted: 4, updated: 0, deleted: 0, rejected: 0 });
    expect(report).toMatchObject({ rejected_rows: 0, pending_rows: 0 });
    expect(report.changed_customers).toBe(2);
    await expectInSync(dbs);
  });

  it("reports 0 rows when nothing changed since the last run", async () => {
    const dbs = await withSource(sampleBook());
    await synced(dbs.env);
    const again = await synced(dbs.env);
    expect(again).toMatchObject({ complete: true, synced_rows: 0, changed_customers: 0, metrics_recomputed: 0 });
  });

  it("brings an update, an insert and a soft delete, counting each row", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    await synced(dbs.env);

    await changeSource(dbs.source, "customers", book.customers[0]!.id, { name: "Trần Văn Minh (VIP)" });
    let report = await synced(dbs.env);
    expect(report.synced_rows).toBe(1);
    expect(report.streams.customers.updated).toBe(1);
    await expectInSync(dbs);

    const added = new Book();
    added.trade({
      account_id: book.accounts[0]!.id,
      trade_date: "2024-04-01",
      type: "buy",
      quantity: 10,
      price: "90000",
      updated_at: "2025-06-02T00:00:00Z",
    });
    await dbs.source.query("insert into transactions select * from jsonb_populate_recordset(null::transactions, $1::jsonb)", [
      JSON.stringify(added.transactions),
    ]);
    report = await synced(dbs.env);
    expect(report.synced_rows).toBe(1);
    expect(report.streams.transactions.inserted).toBe(1);
    await expectInSync(dbs);

    await softDelete(dbs.source, "holdings", book.holdings[0]!.id, "2025-06-03T00:00:00Z");
    report = await synced(dbs.env);
    expect(report.synced_rows).toBe(1);
    expect(report.streams.holdings.deleted).toBe(1);
    await expectInSync(dbs);
  });

  it("hides a soft-deleted customer with everything it owns, keeping the rows as tombstones", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const customer = book.customers[0]!;

    await softDelete(dbs.source, "customers", customer.id);
    const report = await synced(dbs.env);
    // Only the customer's row changed; what it owns stays in the target, unserved.
    expect(report).toMatchObject({ synced_rows: 1, changed_customers: 1 });
    expect(report.streams.customers.deleted).toBe(1);
    for (const endpoint of ["customers", "portfolio", "transactions", "stats", "analytics", "aggregate"]) {
      expect((await getJson(dbs.env, `/api/${endpoint}/${customer.slug}`)).status, endpoint).toBe(404);
    }
    expect((await getJson(dbs.env, `/api/transactions/${customer.slug}/${book.accounts[0]!.id}`)).status).toBe(404);
    await expectInSync(dbs);
  });

  it("moves an account's trades to its new customer", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const [from, to] = book.customers;
    const account = book.accounts[0]!;

    await changeSource(dbs.source, "accounts", account.id, { customer_id: to!.id });
    const report = await synced(dbs.env);
    // The account changed in the source; its two trades only follow it.
    expect(report).toMatchObject({ synced_rows: 1, derived_rows: 2 });
    await expectInSync(dbs);
    const stats = await dbs.target.query(
      "select customer_id, (stats->>'transaction_count')::int as trades from customer_metrics order by trades",
    );
    expect(stats).toEqual([
      { customer_id: from!.id, trades: 1 },
      { customer_id: to!.id, trades: 3 },
    ]);
  });

  it("removes a row deleted outright in the source only in full mode", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const trade = book.transactions[0]!;
    await dbs.source.query("delete from transactions where id = $1", [trade.id]);

    expect((await synced(dbs.env)).synced_rows).toBe(0);
    expect(await dbs.target.query("select id from transactions where id = $1", [trade.id])).toHaveLength(1);

    const full = await synced(dbs.env, "full");
    expect(full).toMatchObject({ mode: "full", complete: true, synced_rows: 1 });
    expect(full.streams.transactions.deleted).toBe(1);
    await expectInSync(dbs);
    expect((await synced(dbs.env, "full")).synced_rows).toBe(0);
  });
});
