/** Paging and resuming: keyset cursors, the overlap window, interrupted runs and orphans. */
import { describe, expect, it } from "vitest";
import { Book, writeSource } from "../support/book";
import { getJson } from "../support/worker";
import {
  accountBeforeCustomer,
  countRows,
  dropSourceForeignKeys,
  expectInSync,
  insertSource,
  runWith,
  sampleBook,
  sourceTime,
  synced,
  withSource,
} from "./helpers";

describe("the sync's cursors", () => {
  it("copies every row when rows sharing one updated_at straddle page boundaries", async () => {
    const book = new Book();
    const { account } = book.simpleCustomer();
    for (let day = 1; day <= 7; day++) {
      book.trade({
        account_id: account.id,
        trade_date: `2024-01-0${day}`,
        type: "buy",
        quantity: day,
        price: "1000",
        updated_at: "2025-03-01T00:00:00.123456Z",
      });
    }
    const dbs = await withSource(book);
    const { report } = await runWith(dbs.env, { pageRows: 3 });
    expect(report.streams.transactions).toMatchObject({ inserted: 7, pages: 3 });
    expect(report.complete).toBe(true);
    await expectInSync(dbs);
  });

  it("bounds a page by bytes as well as rows", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    const { report } = await runWith(dbs.env, { pageBytes: 1 });
    // One row per page: the first row of a page always fits.
    expect(report.streams.transactions.pages).toBe(4);
    await expectInSync(dbs);
  });

  it.each([
    { overlap: "300", copied: 1, outcome: "copies" },
    { overlap: "0", copied: 0, outcome: "without an overlap window, misses" },
  ])("$outcome a row committed late, stamped behind the cursor", async ({ overlap, copied }) => {
    const book = new Book();
    const { account } = book.simpleCustomer();
    book.trade({ account_id: account.id, trade_date: "2024-05-01", type: "buy", quantity: 1, price: "1000" });
    const dbs = await withSource(new Book(), { SYNC_OVERLAP_SECONDS: overlap });
    const recent = await sourceTime(dbs.source, -60);
    for (const table of ["brokers", "staff", "customers", "accounts", "transactions"] as const) {
      for (const row of book[table]) row.updated_at = recent;
    }
    await writeSource(dbs.source, book);
    expect((await synced(dbs.env)).synced_rows).toBe(5);

    // A trade whose transaction began two minutes ago, behind the cursor, and only committed now.
    const late = new Book();
    late.trade({
      account_id: account.id,
      trade_date: "2024-05-02",
      type: "buy",
      quantity: 1,
      price: "1000",
      updated_at: await sourceTime(dbs.source, -120),
    });
    await writeSource(dbs.source, late);
    const report = await synced(dbs.env);
    expect(report.synced_rows).toBe(copied);
    if (copied) await expectInSync(dbs);
  });

  it.each([1, 2, 3, 5, 8, 12])("resumes a run stopped after %i steps and ends equal to the source", async (steps) => {
    const book = sampleBook();
    const dbs = await withSource(book);
    const stopped = await runWith(dbs.env, { pageRows: 2, stopAfterSteps: steps });
    expect(stopped.report.complete).toBe(false);

    const resumed = await runWith(dbs.env, { pageRows: 2 });
    expect(resumed.report.complete).toBe(true);
    // Each row was written exactly once over the two runs.
    expect(stopped.report.synced_rows + resumed.report.synced_rows).toBe(countRows(book));
    await expectInSync(dbs);
    const [{ metrics }] = (await dbs.target`select count(*)::int as metrics from customer_metrics`) as [{ metrics: number }];
    expect(metrics).toBe(book.customers.length);
  });

  it("chains runs through a backlog younger than the overlap, reading each page once, and re-reads the pass once caught up", async () => {
    const book = new Book();
    const { account } = book.simpleCustomer();
    for (let i = 0; i < 40; i++) {
      book.trade({ account_id: account.id, trade_date: "2024-05-01", type: "buy", quantity: i + 1, price: "1000" });
    }
    const dbs = await withSource(new Book(), { SYNC_OVERLAP_SECONDS: "300" });
    const recent = await sourceTime(dbs.source, -60);
    for (const table of ["brokers", "staff", "customers", "accounts", "transactions"] as const) {
      for (const row of book[table]) row.updated_at = recent;
    }
    await writeSource(dbs.source, book);
    const tradePages = (runs: { report: { streams: { transactions: { pages: number } } } }[]) =>
      runs.reduce((pages, { report }) => pages + report.streams.transactions.pages, 0);

    // Five steps go to the small streams, three to pages of two trades.
    const first = await runWith(dbs.env, { pageRows: 2, stopAfterSteps: 8 });
    // A trade committed late, stamped behind the cursor the first run left.
    const late = new Book();
    late.trade({ account_id: account.id, trade_date: "2024-05-02", type: "sell", quantity: 1, price: "1200" });
    late.transactions[0]!.updated_at = await sourceTime(dbs.source, -120);
    await writeSource(dbs.source, late);
    const second = await runWith(dbs.env, { pageRows: 2, stopAfterSteps: 8 });
    const third = await runWith(dbs.env, { pageRows: 2 });
    expect([first, second, third].map((r) => r.report.complete)).toEqual([false, false, true]);
    // 40 trades in pages of two: each page read once.
    expect(tradePages([first, second, third])).toBe(20);
    expect(countRows(book)).toBe(first.report.synced_rows + second.report.synced_rows + third.report.synced_rows);

    // Caught up, the next run re-reads the pass's overlap windows once and finds the late trade.
    const recheck = await runWith(dbs.env, { pageRows: 2 });
    expect(recheck.report.synced_rows).toBe(1);
    expect(tradePages([recheck])).toBe(21);
    await expectInSync(dbs);
  });

  it("stops within its subrequest budget, and the next run continues", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    const before = (await dbs.targetRequests()) + (await dbs.sourceRequests());
    const stopped = await runWith(dbs.env, { pageRows: 2, maxSubrequests: 12 });
    expect(stopped.report.complete).toBe(false);
    expect((await dbs.targetRequests()) + (await dbs.sourceRequests()) - before).toBeLessThanOrEqual(12);

    const resumed = await runWith(dbs.env, { pageRows: 2 });
    expect(resumed.report.complete).toBe(true);
    expect(stopped.report.synced_rows + resumed.report.synced_rows).toBe(countRows(book));
    await expectInSync(dbs);
  });

  it("holds a child whose parent arrives after the overlap window, and serves it once the parent comes", async () => {
    const book = new Book();
    const { staff, broker } = book.simpleCustomer();
    const dbs = await withSource(new Book());
    await dropSourceForeignKeys(dbs.source);
    const recent = await sourceTime(dbs.source, -30);
    for (const t of [...book.brokers, ...book.staff, ...book.customers, ...book.accounts]) t.updated_at = recent;
    await writeSource(dbs.source, book);
    await synced(dbs.env);

    // The parent is stamped far behind the overlap window: as if its commit was missed. Its
    // account and trade arrive first, and wait.
    const late = new Book();
    const customer = late.customer({ staff_id: staff.id, updated_at: await sourceTime(dbs.source, -3600) });
    const account = late.account({
      customer_id: customer.id,
      broker_id: broker.id,
      updated_at: await sourceTime(dbs.source, -10),
    });
    const trade = late.trade({
      account_id: account.id,
      trade_date: "2024-06-03",
      type: "buy",
      quantity: 10,
      price: "1000",
      updated_at: await sourceTime(dbs.source, -10),
    });
    late.customers.length = 0;
    await writeSource(dbs.source, late);
    const held = await synced(dbs.env);
    expect(held).toMatchObject({ complete: true, synced_rows: 2, pending_rows: 1 });

    // Hours later the customer is committed, stamped long before: the cursor is far past it.
    await insertSource(dbs.source, "customers", [customer]);
    const stillHeld = await synced(dbs.env);
    expect(stillHeld).toMatchObject({ synced_rows: 0, pending_rows: 1 });
    const full = await synced(dbs.env, "full");
    expect(full).toMatchObject({ complete: true, synced_rows: 1, pending_rows: 0 });
    expect(full.streams.customers.inserted).toBe(1);
    const { body } = await getJson(dbs.env, `/api/transactions/${customer.slug}`);
    expect(body.data.map((t: { id: string }) => t.id)).toEqual([trade.id]);
    await expectInSync(dbs);
  }, 120_000);

  it("holds a child whose parent is committed later, however late, and serves it once the parent's change is read", async () => {
    const book = new Book();
    const { staff, broker } = book.simpleCustomer();
    const dbs = await withSource(book);
    await synced(dbs.env);

    const { customer, account } = await accountBeforeCustomer(dbs.source, { staff, broker }, -10);
    expect(await synced(dbs.env)).toMatchObject({ synced_rows: 1, pending_rows: 1 });
    expect((await getJson(dbs.env, `/api/customers/${customer.slug}`)).status).toBe(404);

    await insertSource(dbs.source, "customers", [{ ...customer, updated_at: await sourceTime(dbs.source, 0) }]);
    const arrived = await synced(dbs.env);
    expect(arrived).toMatchObject({ synced_rows: 1, pending_rows: 0 });
    const { body } = await getJson(dbs.env, `/api/customers/${customer.slug}`);
    expect(body.data.accounts.map((a: { id: string }) => a.id)).toEqual([account.id]);
    await expectInSync(dbs);
  });
});
