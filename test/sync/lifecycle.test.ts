/**
 * What real back offices do between two syncs (docs/sync.md): restore what they deleted, retire
 * staff and brokers, send rows no ledger can hold and mend them, move accounts between
 * customers, merge customers, exchange and hand on slugs. Each case is checked through the
 * public API and table by table against the source.
 */
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { Book } from "../support/book";
import { getJson } from "../support/worker";
import {
  accountBeforeCustomer,
  changeSource,
  dropSourceForeignKeys,
  expectInSync,
  insertSource,
  rejectedRows,
  restore,
  softDelete,
  sourceTime,
  synced,
  withSource,
} from "./helpers";

const HEAVY = 120_000;
const uncached = (env: Env) => ({ ...env, CACHE_TTL_SECONDS: "0" });
const served = async (env: Env, path: string) => getJson(uncached(env), path);
const historyIds = async (env: Env, slug: string) =>
  (await served(env, `/api/transactions/${slug}?per_page=100`)).body.data.map((t: { id: string }) => t.id).sort();

/** A customer with one account and trades stamped long before any overlap window. */
function accountWithHistory() {
  const book = new Book();
  const { customer, account, staff, broker } = book.simpleCustomer();
  const trades = [
    book.trade({ account_id: account.id, trade_date: "2024-01-02", type: "buy", quantity: 300, price: "10000", fee: "15.5" }),
    book.trade({ account_id: account.id, trade_date: "2024-02-02", type: "sell", quantity: 100, price: "12000" }),
    book.trade({ account_id: account.id, trade_date: "2024-03-02", type: "sell", quantity: 100, price: "9000" }),
  ];
  book.holding({ account_id: account.id, quantity: 100 });
  return { book, customer, account, staff, broker, trades };
}

describe("reversible soft deletes", () => {
  it.each(["accounts", "customers"] as const)(
    "restores what a restored %s owns, although the owned rows never changed",
    async (table) => {
      const { book, customer, account, trades } = accountWithHistory();
      const dbs = await withSource(book);
      await synced(dbs.env);
      const id = table === "accounts" ? account.id : customer.id;

      await softDelete(dbs.source, table, id, -1);
      expect(await synced(dbs.env)).toMatchObject({ synced_rows: 1 });
      if (table === "accounts") {
        expect(await historyIds(dbs.env, customer.slug)).toEqual([]);
        expect((await served(dbs.env, `/api/stats/${customer.slug}`)).body.data.transaction_count).toBe(0);
      } else {
        expect((await served(dbs.env, `/api/customers/${customer.slug}`)).status).toBe(404);
      }
      await expectInSync(dbs);

      await restore(dbs.source, table, id, 0);
      expect(await synced(dbs.env)).toMatchObject({ synced_rows: 1 });
      expect(await historyIds(dbs.env, customer.slug)).toEqual(trades.map((t) => t.id).sort());
      expect((await served(dbs.env, `/api/stats/${customer.slug}`)).body.data.transaction_count).toBe(3);
      await expectInSync(dbs);
    },
    HEAVY,
  );

  it(
    "keeps serving the customers of a retired staff member and the accounts at a retired broker",
    async () => {
      const { book, customer, account, staff, broker, trades } = accountWithHistory();
      const dbs = await withSource(book);
      await synced(dbs.env);

      await softDelete(dbs.source, "staff", staff.id, -1);
      await softDelete(dbs.source, "brokers", broker.id, -1);
      expect(await synced(dbs.env)).toMatchObject({ synced_rows: 2 });

      const profile = await served(dbs.env, `/api/customers/${customer.slug}`);
      expect(profile.status).toBe(200);
      expect(profile.body.data.staff).toEqual({ id: staff.id, name: staff.name, email: staff.email });
      expect(profile.body.data.accounts).toEqual([
        {
          id: account.id,
          customer_id: customer.id,
          broker_id: broker.id,
          account_no: account.account_no,
          broker: { id: broker.id, name: broker.name, code: broker.code },
        },
      ]);
      expect(await historyIds(dbs.env, customer.slug)).toEqual(trades.map((t) => t.id).sort());
      // The broker only leaves the list of supported brokers.
      expect((await served(dbs.env, "/api/brokers")).body.data).toEqual([]);
      await expectInSync(dbs);
    },
    HEAVY,
  );
});

describe("rows no ledger can hold", () => {
  it(
    "sets each aside with its reason, applies the rest of the page, and takes it back once mended",
    async () => {
      const { book, customer, account } = accountWithHistory();
      const bad = {
        zero: book.trade({
          account_id: account.id,
          trade_date: "2024-04-01",
          type: "sell",
          quantity: 0,
          price: "1000",
          total_value: "0",
        }),
        negativeQuantity: book.trade({
          account_id: account.id,
          trade_date: "2024-04-01",
          type: "sell",
          quantity: -50,
          price: "1000",
          total_value: "50000",
        }),
        // A negative price would turn this sell into a loss of its whole cost, or a huge win.
        negativePrice: book.trade({
          account_id: account.id,
          trade_date: "2024-04-02",
          type: "sell",
          quantity: 10,
          price: "-12000",
          total_value: "120000",
        }),
        negativeValue: book.trade({
          account_id: account.id,
          trade_date: "2024-04-03",
          type: "sell",
          quantity: 10,
          price: "12000",
          total_value: "-120000",
          personal_tax: "120",
        }),
        negativeFee: book.trade({
          account_id: account.id,
          trade_date: "2024-04-04",
          type: "buy",
          quantity: 10,
          price: "9000",
          fee: "-0.0001",
        }),
        negativeTax: book.trade({
          account_id: account.id,
          trade_date: "2024-04-05",
          type: "sell",
          quantity: 10,
          price: "9000",
          personal_tax: "-90",
        }),
        lowercaseCode: book.trade({
          account_id: account.id,
          trade_date: "2024-04-06",
          type: "buy",
          quantity: 10,
          price: "9000",
          stock_code: "fpt",
        }),
      };
      const badHoldings = {
        quantity: book.holding({ account_id: account.id, stock_code: "HPG", quantity: -1 }),
        avgCost: book.holding({ account_id: account.id, stock_code: "VNM", avg_cost: "-1.0000" }),
        totalCost: book.holding({ account_id: account.id, stock_code: "MWG", total_cost: "-10.0000" }),
      };
      const badCustomer = book.customer({ staff_id: book.staff[0]!.id, slug: "not a slug!" });
      const dbs = await withSource(book);

      const first = await synced(dbs.env);
      expect(first).toMatchObject({ complete: true, rejected_rows: 11 });
      expect(first.streams.transactions).toMatchObject({ inserted: 3, rejected: 7 });
      const reasons = new Map([
        [bad.zero.id, "quantity is not positive"],
        [bad.negativeQuantity.id, "quantity is not positive"],
        [bad.negativePrice.id, "price is negative"],
        [bad.negativeValue.id, "total_value is negative"],
        [bad.negativeFee.id, "fee is negative"],
        [bad.negativeTax.id, "personal_tax is negative"],
        [bad.lowercaseCode.id, "stock_code is not 1 to 10 uppercase letters or digits"],
        [badHoldings.quantity.id, "quantity is negative"],
        [badHoldings.avgCost.id, "avg_cost is negative"],
        [badHoldings.totalCost.id, "total_cost is negative"],
        [badCustomer.id, "slug cannot be served (1 to 64 letters, digits, _ or -)"],
      ]);
      const streamOf = (id: string) =>
        id === badCustomer.id ? "customers" : Object.values(badHoldings).some((h) => h.id === id) ? "holdings" : "transactions";
      expect(await rejectedRows(dbs.target)).toEqual(
        [...reasons]
          .map(([id, reason]) => ({ stream: streamOf(id), id, reason }))
          .sort((a, b) => (a.stream + a.id < b.stream + b.id ? -1 : 1)),
      );
      // Never served, never in P&L.
      expect((await served(dbs.env, `/api/stats/${customer.slug}`)).body.data.transaction_count).toBe(3);
      await expectInSync(dbs);

      const at = await sourceTime(dbs.source, 0);
      await changeSource(dbs.source, "transactions", bad.zero.id, { quantity: 5, total_value: "5000" }, at);
      await changeSource(dbs.source, "transactions", bad.negativeQuantity.id, { quantity: 50 }, at);
      await changeSource(dbs.source, "transactions", bad.negativePrice.id, { price: "12000" }, at);
      await changeSource(dbs.source, "transactions", bad.negativeValue.id, { total_value: "120000" }, at);
      await changeSource(dbs.source, "transactions", bad.negativeFee.id, { fee: "0.0001" }, at);
      await changeSource(dbs.source, "transactions", bad.negativeTax.id, { personal_tax: "90" }, at);
      await changeSource(dbs.source, "transactions", bad.lowercaseCode.id, { stock_code: "FPT" }, at);
      await changeSource(dbs.source, "holdings", badHoldings.quantity.id, { quantity: 1 }, at);
      await changeSource(dbs.source, "holdings", badHoldings.avgCost.id, { avg_cost: "1.0000" }, at);
      await changeSource(dbs.source, "holdings", badHoldings.totalCost.id, { total_cost: "10.0000" }, at);
      await changeSource(dbs.source, "customers", badCustomer.id, { slug: "mended-slug-000000000000000001" }, at);

      const mended = await synced(dbs.env);
      expect(mended).toMatchObject({ rejected_rows: 0, synced_rows: 11 });
      expect(await rejectedRows(dbs.target)).toEqual([]);
      expect((await served(dbs.env, `/api/stats/${customer.slug}`)).body.data.transaction_count).toBe(10);
      expect((await served(dbs.env, "/api/customers/mended-slug-000000000000000001")).status).toBe(200);
      await expectInSync(dbs);
    },
    HEAVY,
  );
});

describe("moves and renames", () => {
  it.each([
    { order: "the move first", moveOffset: -2, deleteOffset: -1 },
    { order: "the delete first", moveOffset: -1, deleteOffset: -2 },
  ])(
    "merges a customer into another between two syncs ($order)",
    async ({ moveOffset, deleteOffset }) => {
      const { book, customer: merged, account, trades } = accountWithHistory();
      const survivor = book.customer({ staff_id: book.staff[0]!.id, name: "Phạm Quốc Bảo" });
      const dbs = await withSource(book);
      await synced(dbs.env);

      await changeSource(dbs.source, "accounts", account.id, { customer_id: survivor.id }, moveOffset);
      await softDelete(dbs.source, "customers", merged.id, deleteOffset);
      await synced(dbs.env);

      expect((await served(dbs.env, `/api/customers/${merged.slug}`)).status).toBe(404);
      expect(await historyIds(dbs.env, survivor.slug)).toEqual(trades.map((t) => t.id).sort());
      await expectInSync(dbs);
    },
    HEAVY,
  );

  it(
    "never serves a moved account under its previous owner when the new owner is deleted too",
    async () => {
      const { book, customer: previous, account } = accountWithHistory();
      const next = book.customer({ staff_id: book.staff[0]!.id });
      const dbs = await withSource(book);
      await synced(dbs.env);

      await changeSource(dbs.source, "accounts", account.id, { customer_id: next.id }, -2);
      await softDelete(dbs.source, "customers", next.id, -1);
      await synced(dbs.env);

      const profile = await served(dbs.env, `/api/customers/${previous.slug}`);
      expect(profile.body.data.accounts).toEqual([]);
      expect(await historyIds(dbs.env, previous.slug)).toEqual([]);
      expect((await served(dbs.env, `/api/transactions/${previous.slug}/${account.id}`)).status).toBe(404);
      expect((await served(dbs.env, `/api/customers/${next.slug}`)).status).toBe(404);
      await expectInSync(dbs);
    },
    HEAVY,
  );

  it.each([{ pageRows: 10_000 }, { pageRows: 1 }])(
    "applies two customers exchanging slugs (pages of $pageRows rows)",
    async ({ pageRows }) => {
      const book = new Book();
      const { customer: a, staff } = book.simpleCustomer();
      const b = book.customer({ staff_id: staff.id, name: "Đỗ Minh Châu" });
      const dbs = await withSource(book);
      await synced(dbs.env);

      // As a back office does it under its unique index: A steps aside, B takes A's slug, A takes B's.
      await changeSource(dbs.source, "customers", a.id, { slug: "slug-in-transit-0000000000001" }, -3);
      await changeSource(dbs.source, "customers", b.id, { slug: a.slug }, -2);
      await changeSource(dbs.source, "customers", a.id, { slug: b.slug }, -1);
      const { runSync } = await import("../../src/sync/run");
      const { getConfig } = await import("../../src/env");
      const { report } = await runSync(getConfig(dbs.env), { trigger: "manual", mode: "delta", limits: { pageRows } });
      expect(report.complete).toBe(true);

      expect((await served(dbs.env, `/api/customers/${a.slug}`)).body.data.id).toBe(b.id);
      expect((await served(dbs.env, `/api/customers/${b.slug}`)).body.data.id).toBe(a.id);
      expect(await synced(dbs.env)).toMatchObject({ synced_rows: 0 });
      await expectInSync(dbs);
    },
    HEAVY,
  );

  it(
    "hands a slug on from a customer the back office deleted outright",
    async () => {
      const book = new Book();
      const { customer: gone, staff } = book.simpleCustomer();
      const heir = book.customer({ staff_id: staff.id });
      const dbs = await withSource(book);
      await dropSourceForeignKeys(dbs.source);
      await synced(dbs.env);

      await dbs.source.query("delete from customers where id = $1", [gone.id]);
      await changeSource(dbs.source, "customers", heir.id, { slug: gone.slug }, 0);
      const report = await synced(dbs.env);
      expect(report.complete).toBe(true);
      expect((await served(dbs.env, `/api/customers/${gone.slug}`)).body.data.id).toBe(heir.id);

      // Only a full run can know the first customer is gone for good.
      expect((await synced(dbs.env, "full")).streams.customers.deleted).toBe(1);
      await expectInSync(dbs);
    },
    HEAVY,
  );

  it(
    "serves a late customer's account once a full run brings the customer",
    async () => {
      const { book, staff, broker } = accountWithHistory();
      const dbs = await withSource(book);
      await synced(dbs.env);
      const { customer } = await accountBeforeCustomer(dbs.source, { staff, broker }, 0, "2020-01-01T00:00:00.000000Z");
      expect(await synced(dbs.env)).toMatchObject({ pending_rows: 1 });
      await insertSource(dbs.source, "customers", [customer]);
      expect(await synced(dbs.env, "full")).toMatchObject({ pending_rows: 0 });
      expect((await served(dbs.env, `/api/customers/${customer.slug}`)).body.data.accounts).toHaveLength(1);
      await expectInSync(dbs);
    },
    HEAVY,
  );
});
