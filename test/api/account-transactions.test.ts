/**
 * GET /api/transactions/:slug/:accountId, the trade history of one account, through Hono's typed client. The fixture's SSI main
 * account holds t3 and t1; its VND account t5, t4 and t2.
 */
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { DATE_MESSAGE, TransactionPage } from "../../src/schemas";
import { apiClient, badRequest, checked, historyPage, NOT_FOUND } from "../support/api";
import { BAD_DATES, EDGE_DATES, MALFORMED_SLUGS, withInvestor } from "./fixture";

async function accountHistory(env: Env, slug: string, accountId: string, query: Record<string, string> = {}) {
  return checked(
    await apiClient(env).api.transactions[":slug"][":accountId"].$get({ param: { slug, accountId }, query }),
    TransactionPage,
  );
}

const page = historyPage;

describe("GET /api/transactions/:slug/:accountId", () => {
  it("returns only that account's trades, newest first", async () => {
    const { env, customer, accounts, expected } = await withInvestor();
    const { t2, t4, t5 } = expected.trades;
    expect(await accountHistory(env, customer.slug, accounts.vndMain.id)).toEqual({
      status: 200,
      body: page([t5, t4, t2], { total: 3 }),
    });
    const ssi = await accountHistory(env, customer.slug, accounts.ssiMain.id);
    expect(ssi.body).toEqual(page([expected.trades.t3, expected.trades.t1], { total: 2 }));
  });

  it("accepts the account id in upper case", async () => {
    const { env, customer, accounts } = await withInvestor();
    const { status, body } = await accountHistory(env, customer.slug, accounts.vndMain.id.toUpperCase());
    expect(status).toBe(200);
    expect(body).toMatchObject({ pagination: { total: 3 } });
  });

  it("takes the same filters, alone and combined", async () => {
    const { env, customer, accounts, expected } = await withInvestor();
    const cases = [
      ["type", { type: "buy" }, ["t4", "t2"]],
      ["stock_code in lowercase", { stock_code: "hpg" }, ["t5", "t2"]],
      ["a date range", { start_date: "2024-02-20", end_date: "2024-03-01" }, ["t5", "t4"]],
      ["stock_code, type and start_date", { stock_code: "HPG", type: "sell", start_date: "2024-03-01" }, ["t5"]],
      ["the account's own broker", { broker: "vnd" }, ["t5", "t4", "t2"]],
      ["another broker", { broker: "SSI" }, []],
    ] as const;
    for (const [name, query, names] of cases) {
      const data = names.map((trade) => expected.trades[trade]);
      expect((await accountHistory(env, customer.slug, accounts.vndMain.id, query)).body, name).toEqual(
        page(data, { total: data.length }),
      );
    }
  });

  it("pages, with a page past the end empty and the true total", async () => {
    const { env, customer, accounts, expected } = await withInvestor();
    const id = accounts.vndMain.id;
    expect((await accountHistory(env, customer.slug, id, { per_page: "2" })).body).toEqual(
      page([expected.trades.t5, expected.trades.t4], { per_page: 2, total: 3 }),
    );
    expect((await accountHistory(env, customer.slug, id, { per_page: "2", page: "2" })).body).toEqual(
      page([expected.trades.t2], { page: 2, per_page: 2, total: 3 }),
    );
    expect((await accountHistory(env, customer.slug, id, { per_page: "2", page: "3" })).body).toEqual(
      page([], { page: 3, per_page: 2, total: 3 }),
    );
    expect((await accountHistory(env, customer.slug, id, { per_page: "100" })).body).toMatchObject({
      pagination: { per_page: 100, total: 3 },
    });
  });

  it("answers 404 for another customer's account", async () => {
    const { env, customer, otherAccount } = await withInvestor();
    expect(await accountHistory(env, customer.slug, otherAccount.id)).toEqual({ status: 404, body: NOT_FOUND });
  });

  it("answers 404 for the right account under another customer's slug", async () => {
    const { env, other, accounts } = await withInvestor();
    expect(await accountHistory(env, other.slug, accounts.vndMain.id)).toEqual({ status: 404, body: NOT_FOUND });
  });

  it("answers 404 for an unknown account", async () => {
    const { env, customer } = await withInvestor();
    expect(await accountHistory(env, customer.slug, crypto.randomUUID())).toEqual({ status: 404, body: NOT_FOUND });
  });

  it("answers 404 for a string that cannot be an account id", async () => {
    const { env, customer } = await withInvestor();
    const malformed = [
      "not-a-uuid",
      "123",
      "6f1c2a4e-8d3b-4c7a-9e21-5b0d7f3a9c1",
      "6f1c2a4e8d3b4c7a9e215b0d7f3a9c10",
      "zf1c2a4e-8d3b-4c7a-9e21-5b0d7f3a9c10",
    ];
    for (const accountId of malformed) {
      expect(await accountHistory(env, customer.slug, accountId), accountId).toEqual({ status: 404, body: NOT_FOUND });
    }
  });

  it("answers 404 for an unknown slug", async () => {
    const { env, accounts } = await withInvestor();
    expect(await accountHistory(env, "unknownslugaaaaaaaaaaaaaaaa", accounts.vndMain.id)).toEqual({
      status: 404,
      body: NOT_FOUND,
    });
  });

  it("answers 404 for a string that cannot be a slug", async () => {
    const { env, accounts } = await withInvestor();
    for (const slug of MALFORMED_SLUGS) {
      expect(await accountHistory(env, slug, accounts.vndMain.id), slug).toEqual({ status: 404, body: NOT_FOUND });
    }
  });

  it("answers 400 with details for each invalid parameter", async () => {
    const { env, customer, accounts } = await withInvestor();
    const cases: Array<[Record<string, string>, string[]]> = [
      [{ page: "0" }, ["page"]],
      [{ per_page: "101" }, ["per_page"]],
      [{ per_page: "abc" }, ["per_page"]],
      [{ type: "hold" }, ["type"]],
      [{ stock_code: "TOOLONGCODE" }, ["stock_code"]],
      [{ broker: "s-s-i" }, ["broker"]],
      [{ end_date: "2024-02-30" }, ["end_date"]],
      [{ start_date: "2024-03-02", end_date: "2024-03-01" }, ["start_date"]],
    ];
    for (const [query, paths] of cases) {
      const result = await accountHistory(env, customer.slug, accounts.vndMain.id, query);
      expect(result, JSON.stringify(query)).toEqual({ status: 400, body: badRequest(...paths) });
    }
  });

  it("takes dates from 0001-01-01 to 9999-12-31 and answers any other, year 0000 included, with 400", async () => {
    const { env, customer, accounts, expected } = await withInvestor();
    const { t2, t4, t5 } = expected.trades;
    for (const date of BAD_DATES) {
      for (const path of ["start_date", "end_date"]) {
        expect(await accountHistory(env, customer.slug, accounts.vndMain.id, { [path]: date }), `${path}=${date}`).toEqual({
          status: 400,
          body: { success: false, error: "Bad Request", code: "bad_request", details: [{ path, message: DATE_MESSAGE }] },
        });
      }
    }
    for (const date of EDGE_DATES) {
      const early = date < "2024-01-05";
      expect(await accountHistory(env, customer.slug, accounts.vndMain.id, { start_date: date }), date).toEqual({
        status: 200,
        body: early ? page([t5, t4, t2], { total: 3 }) : page([], { total: 0 }),
      });
    }
  });

  it("costs exactly one database round trip, found or not", async () => {
    const { dbs, customer, accounts, otherAccount } = await withInvestor();
    expect(
      await dbs.targetTrips(() =>
        accountHistory(dbs.env, customer.slug, accounts.vndMain.id, { type: "buy", page: "2", per_page: "1" }),
      ),
    ).toBe(1);
    expect(await dbs.targetTrips(() => accountHistory(dbs.env, customer.slug, otherAccount.id))).toBe(1);
  });

  it("costs a malformed account id or slug the same one round trip as an unknown one", async () => {
    const { dbs, customer, accounts } = await withInvestor();
    expect(await dbs.targetTrips(() => accountHistory(dbs.env, customer.slug, "not-a-uuid"))).toBe(1);
    expect(await dbs.targetTrips(() => accountHistory(dbs.env, customer.slug, crypto.randomUUID()))).toBe(1);
    expect(await dbs.targetTrips(() => accountHistory(dbs.env, "bad!slug", accounts.vndMain.id))).toBe(1);
  });
});
