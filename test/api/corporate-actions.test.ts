/**
 * GET /api/corporate-actions/:slug: what the customer's accounts received, through Hono's typed
 * client. The book: three accounts (two at SSI, one at VND), five served actions, of which two
 * share an ex_date (ids handed out in ascending order, so the id tie-break is known), and
 * actions that must never show: soft-deleted, set aside by the sync, in a soft-deleted account,
 * another customer's at the same broker.
 */
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { CorporateActionPage, DATE_MESSAGE } from "../../src/schemas";
import { apiClient, apiDatabases, badRequest, checked, historyPage, NOT_FOUND } from "../support/api";
import { Book, writeTarget } from "../support/book";
import { BAD_DATES, MALFORMED_SLUGS } from "./fixture";

function actionsFixture() {
  const book = new Book();
  const { ssi, vnd, staff, customer, ssiMain, vndMain } = book.twoBrokerCustomer();
  const ssiMargin = book.account({ customer_id: customer.id, broker_id: ssi.id, account_no: "0001" });
  const closed = book.account({
    customer_id: customer.id,
    broker_id: ssi.id,
    account_no: "0003",
    deleted_at: "2024-09-01T00:00:00Z",
  });
  const other = book.customer({ staff_id: staff.id, name: "Lê Thị Hoa" });
  const otherAccount = book.account({ customer_id: other.id, broker_id: ssi.id, account_no: "0009" });

  const vnm = { stock_code: "VNM", isin_code: "VN000000VNM8" };
  const ids = Array.from({ length: 5 }, () => crypto.randomUUID()).sort();
  // a1: 2,000 đồng a share on 100 FPT shares, 5% withheld.
  const a1 = book.corporateAction({
    id: ids[0],
    account_id: ssiMain.id,
    type: "cash_dividend",
    ex_date: "2024-05-10",
    pay_date: "2024-06-01",
    quantity: 100,
    gross_amount: "200000.0000",
    tax: "10000.0000",
  });
  // a2 shares an ex_date with a3, the HPG dividend (2024-06-20): id descending puts a3 first.
  const a2 = book.corporateAction({
    id: ids[1],
    account_id: ssiMargin.id,
    type: "share_dividend",
    ex_date: "2024-06-20",
    quantity: 15,
  });
  const a3 = book.hpgDividend({ id: ids[2], account_id: vndMain.id });
  const a4 = book.corporateAction({
    id: ids[3],
    account_id: vndMain.id,
    ...vnm,
    type: "share_dividend",
    ex_date: "2023-12-01",
    pay_date: "2023-12-20",
    quantity: 10,
  });
  const a5 = book.corporateAction({
    id: ids[4],
    account_id: ssiMain.id,
    type: "cash_dividend",
    ex_date: "2025-03-03",
    pay_date: "2025-04-04",
    quantity: 200,
    gross_amount: "9999999999999999.9999",
    tax: "0.0001",
  });
  // Never served: deleted in the source, set aside, in a closed account, another customer's.
  const unserved = [
    book.corporateAction({
      account_id: ssiMain.id,
      type: "cash_dividend",
      ex_date: "2024-05-11",
      quantity: 1,
      gross_amount: "1",
      deleted_at: "2024-06-01T00:00:00Z",
    }),
    book.corporateAction({ account_id: ssiMain.id, type: "share_dividend", ex_date: "2024-05-12", quantity: 5 }),
    book.corporateAction({ account_id: closed.id, type: "share_dividend", ex_date: "2024-05-13", quantity: 7 }),
    book.corporateAction({
      account_id: otherAccount.id,
      type: "cash_dividend",
      ex_date: "2024-05-10",
      quantity: 5,
      gross_amount: "10000",
    }),
  ];

  const broker = (b: typeof ssi) => ({ id: b.id, name: b.name, code: b.code });
  const account = (a: typeof ssiMain, b: typeof ssi) => ({ id: a.id, account_no: a.account_no, broker: broker(b) });
  const fpt = { stock_code: "FPT", isin_code: "VN000000FPT1" };
  const expected = {
    a5: {
      id: a5.id,
      type: "cash_dividend",
      ...fpt,
      ex_date: "2025-03-03",
      pay_date: "2025-04-04",
      quantity: 200,
      // What JSON.parse makes of them; the exact text is checked apart.
      gross_amount: Number("9999999999999999.9999"),
      tax: 0.0001,
      net_amount: Number("9999999999999999.9998"),
      account: account(ssiMain, ssi),
    },
    a3: {
      id: a3.id,
      type: "cash_dividend",
      stock_code: "HPG",
      isin_code: "VN000000HPG4",
      ex_date: "2024-06-20",
      pay_date: "2024-07-10",
      quantity: 333,
      gross_amount: 166500.5555,
      tax: 8325.0278,
      net_amount: 158175.5277,
      account: account(vndMain, vnd),
    },
    a2: {
      id: a2.id,
      type: "share_dividend",
      ...fpt,
      ex_date: "2024-06-20",
      pay_date: "2024-06-20",
      quantity: 15,
      gross_amount: 0,
      tax: 0,
      net_amount: 0,
      account: account(ssiMargin, ssi),
    },
    a1: {
      id: a1.id,
      type: "cash_dividend",
      ...fpt,
      ex_date: "2024-05-10",
      pay_date: "2024-06-01",
      quantity: 100,
      gross_amount: 200000,
      tax: 10000,
      net_amount: 190000,
      account: account(ssiMain, ssi),
    },
    a4: {
      id: a4.id,
      type: "share_dividend",
      ...vnm,
      ex_date: "2023-12-01",
      pay_date: "2023-12-20",
      quantity: 10,
      gross_amount: 0,
      tax: 0,
      net_amount: 0,
      account: account(vndMain, vnd),
    },
  };
  return { book, customer, other, accounts: { ssiMain, vndMain }, actions: { a1, a2, a3, a4, a5 }, unserved, expected };
}

type Name = "a1" | "a2" | "a3" | "a4" | "a5";

async function withActions() {
  const dbs = await apiDatabases();
  const fixture = actionsFixture();
  await writeTarget(dbs.target, fixture.book);
  // The sync sets aside what no ledger can hold; here the second unserved action, as if it had.
  await dbs.target`update corporate_actions set rejected = 'a share credit with cash' where id = ${fixture.unserved[1]!.id}`;
  return { dbs, env: dbs.env, ...fixture };
}

async function list(env: Env, slug: string, query: Record<string, string | string[]> = {}) {
  return checked(await apiClient(env).api["corporate-actions"][":slug"].$get({ param: { slug }, query }), CorporateActionPage);
}

/** The expected page of these actions, in this order. */
const pageOf = (
  expected: Record<Name, unknown>,
  names: Name[],
  pagination: { page?: number; per_page?: number; total?: number } = {},
) =>
  historyPage(
    names.map((n) => expected[n]),
    { total: names.length, ...pagination },
  );

describe("GET /api/corporate-actions/:slug", () => {
  it("lists every served action of every account, newest ex_date first, id descending on equal dates, every digit kept", async () => {
    const { env, customer, expected } = await withActions();
    const res = await list(env, customer.slug);
    expect(res).toEqual({ status: 200, body: pageOf(expected, ["a5", "a3", "a2", "a1", "a4"]) });
  });

  it("writes amounts with their exact digits on the wire", async () => {
    const { env, customer } = await withActions();
    const res = await apiClient(env).api["corporate-actions"][":slug"].$get({ param: { slug: customer.slug }, query: {} });
    const text = await res.text();
    expect(text).toContain('"gross_amount":9999999999999999.9999,"tax":0.0001,"net_amount":9999999999999999.9998');
    expect(text).toContain('"gross_amount":166500.5555,"tax":8325.0278,"net_amount":158175.5277');
  });

  it("answers a customer without actions with an empty page", async () => {
    const { dbs, env } = await withActions();
    const book = new Book();
    const { customer } = book.simpleCustomer();
    await writeTarget(dbs.target, book);
    expect(await list(env, customer.slug)).toEqual({ status: 200, body: historyPage([], { total: 0 }) });
  });

  describe("filters, alone and combined", () => {
    const cases: Array<[string, Record<string, string>, Name[]]> = [
      ["type cash_dividend", { type: "cash_dividend" }, ["a5", "a3", "a1"]],
      ["type share_dividend", { type: "share_dividend" }, ["a2", "a4"]],
      ["stock_code", { stock_code: "FPT" }, ["a5", "a2", "a1"]],
      ["stock_code in lowercase", { stock_code: "hpg" }, ["a3"]],
      ["broker", { broker: "SSI" }, ["a5", "a2", "a1"]],
      ["broker in mixed case", { broker: "vNd" }, ["a3", "a4"]],
      ["a broker nobody knows", { broker: "XYZ" }, []],
      ["start_date on ex_date, inclusive", { start_date: "2024-06-20" }, ["a5", "a3", "a2"]],
      ["end_date on ex_date, inclusive", { end_date: "2024-06-20" }, ["a3", "a2", "a1", "a4"]],
      ["a pay_date is not an ex_date", { start_date: "2024-06-01", end_date: "2024-06-01" }, []],
      ["one day", { start_date: "2024-05-10", end_date: "2024-05-10" }, ["a1"]],
      ["broker and type", { broker: "ssi", type: "cash_dividend" }, ["a5", "a1"]],
      [
        "all five",
        { broker: "SSI", stock_code: "fpt", type: "share_dividend", start_date: "2024-01-01", end_date: "2024-12-31" },
        ["a2"],
      ],
    ];

    it("for each case, total counting every match", async () => {
      const { env, customer, expected } = await withActions();
      for (const [name, query, names] of cases) {
        expect(await list(env, customer.slug, query), name).toEqual({ status: 200, body: pageOf(expected, names) });
      }
    });

    it("never shows another customer's actions, even at the same broker on the same day", async () => {
      const { env, other } = await withActions();
      const { body } = await list(env, other.slug);
      expect(body).toMatchObject({ pagination: { total: 1 }, data: [{ ex_date: "2024-05-10", gross_amount: 10000 }] });
    });
  });

  describe("pagination", () => {
    it("pages through with per_page (10 by default), total on every page, a page past the end empty", async () => {
      const { env, customer, expected } = await withActions();
      expect((await list(env, customer.slug, { per_page: "2" })).body).toEqual(
        pageOf(expected, ["a5", "a3"], { per_page: 2, total: 5 }),
      );
      expect((await list(env, customer.slug, { per_page: "2", page: "2" })).body).toEqual(
        pageOf(expected, ["a2", "a1"], { page: 2, per_page: 2, total: 5 }),
      );
      expect((await list(env, customer.slug, { per_page: "2", page: "3" })).body).toEqual(
        pageOf(expected, ["a4"], { page: 3, per_page: 2, total: 5 }),
      );
      expect(await list(env, customer.slug, { per_page: "2", page: "4" })).toEqual({
        status: 200,
        body: historyPage([], { page: 4, per_page: 2, total: 5 }),
      });
      expect((await list(env, customer.slug, { type: "cash_dividend", per_page: "1", page: "3" })).body).toEqual(
        pageOf(expected, ["a1"], { page: 3, per_page: 1, total: 3 }),
      );
    });

    it("ignores unknown parameters and takes the first of a repeated one", async () => {
      const { env, customer, expected } = await withActions();
      expect((await list(env, customer.slug, { sort: "asc", type: ["share_dividend", "x"] })).body).toEqual(
        pageOf(expected, ["a2", "a4"]),
      );
    });
  });

  describe("invalid parameters get 400 with details", () => {
    const cases: Array<[Record<string, string>, string[]]> = [
      [{ page: "0" }, ["page"]],
      [{ page: "1.5" }, ["page"]],
      [{ per_page: "101" }, ["per_page"]],
      [{ per_page: "abc" }, ["per_page"]],
      [{ type: "buy" }, ["type"]],
      [{ type: "dividend" }, ["type"]],
      [{ type: "CASH_DIVIDEND" }, ["type"]],
      [{ type: "" }, ["type"]],
      [{ stock_code: "ABCDEFGHIJK" }, ["stock_code"]],
      [{ stock_code: "F-P" }, ["stock_code"]],
      [{ broker: "ssi'--" }, ["broker"]],
      [{ start_date: "2024-02-30" }, ["start_date"]],
      [{ end_date: "2024-1-5" }, ["end_date"]],
      [{ start_date: "2024-03-02", end_date: "2024-03-01" }, ["start_date"]],
      [{ page: "0", per_page: "101", type: "share", start_date: "2024-02-30" }, ["page", "per_page", "type", "start_date"]],
    ];

    it("for each case, naming every parameter at fault", async () => {
      const { env, customer } = await withActions();
      for (const [query, paths] of cases) {
        expect(await list(env, customer.slug, query), JSON.stringify(query)).toEqual({ status: 400, body: badRequest(...paths) });
      }
    });

    it("says what is wrong in words, dates from 0001-01-01 to 9999-12-31", async () => {
      const { env, customer } = await withActions();
      expect((await list(env, customer.slug, { type: "bonus", start_date: "2024-03-02", end_date: "2024-03-01" })).body).toEqual({
        success: false,
        error: "Bad Request",
        code: "bad_request",
        details: [
          { path: "type", message: "must be cash_dividend or share_dividend" },
          { path: "start_date", message: "must not be after end_date" },
        ],
      });
      for (const date of BAD_DATES) {
        expect(await list(env, customer.slug, { end_date: date }), date).toEqual({
          status: 400,
          body: {
            success: false,
            error: "Bad Request",
            code: "bad_request",
            details: [{ path: "end_date", message: DATE_MESSAGE }],
          },
        });
      }
    });
  });

  describe("what is served", () => {
    it("drops an action soft-deleted since, and every action of an account soft-deleted since", async () => {
      const { dbs, env, customer, accounts, actions, expected } = await withActions();
      await dbs.target`update corporate_actions set deleted_at = now() where id = ${actions.a3.id}`;
      expect((await list(env, customer.slug)).body).toEqual(pageOf(expected, ["a5", "a2", "a1", "a4"]));
      await dbs.target`update accounts set deleted_at = now() where id = ${accounts.ssiMain.id}`;
      expect((await list(env, customer.slug)).body).toEqual(pageOf(expected, ["a2", "a4"]));
      expect((await list(env, customer.slug, { broker: "SSI" })).body).toEqual(pageOf(expected, ["a2"]));
    });

    it("answers 404 for an unknown or soft-deleted customer and for what cannot be a slug", async () => {
      const { dbs, env, customer } = await withActions();
      expect(await list(env, "unknownslugaaaaaaaaaaaaaaaa")).toEqual({ status: 404, body: NOT_FOUND });
      for (const slug of MALFORMED_SLUGS) expect(await list(env, slug), slug).toEqual({ status: 404, body: NOT_FOUND });
      await dbs.target`update customers set deleted_at = now() where id = ${customer.id}`;
      expect(await list(env, customer.slug)).toEqual({ status: 404, body: NOT_FOUND });
    });
  });

  it("costs exactly one database round trip, filtered and paged, found or not, and none when invalid", async () => {
    const { dbs, customer } = await withActions();
    const query = { broker: "ssi", stock_code: "fpt", type: "cash_dividend", start_date: "2024-01-01", page: "2", per_page: "1" };
    expect(await dbs.targetTrips(() => list(dbs.env, customer.slug, query))).toBe(1);
    expect(await dbs.targetTrips(() => list(dbs.env, "unknownslugaaaaaaaaaaaaaaaa"))).toBe(1);
    expect(await dbs.targetTrips(() => list(dbs.env, customer.slug, { type: "buy" }))).toBe(0);
  });
});
