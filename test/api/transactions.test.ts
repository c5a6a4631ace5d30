/**
 * GET /api/transactions/:slug, the trade history of all accounts, through Hono's typed client as a frontend calls it.
 * Fixture trades newest first: t6 t5 (2024-03-01), t4, t3, t2 t1 (2024-01-05).
 */
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { DATE_MESSAGE, TransactionPage } from "../../src/schemas";
import { apiClient, badRequest, checked, historyPage, NOT_FOUND } from "../support/api";
import { BAD_DATES, EDGE_DATES, MALFORMED_SLUGS, withInvestor } from "./fixture";

async function history(env: Env, slug: string, query: Record<string, string | string[]> = {}) {
  return checked(await apiClient(env).api.transactions[":slug"].$get({ param: { slug }, query }), TransactionPage);
}

const page = historyPage;

describe("GET /api/transactions/:slug", () => {
  it("returns every trade of every account, newest first, id descending on equal dates", async () => {
    const { env, customer, expected } = await withInvestor();
    const { t1, t2, t3, t4, t5, t6 } = expected.trades;
    expect(await history(env, customer.slug)).toEqual({ status: 200, body: page([t6, t5, t4, t3, t2, t1], { total: 6 }) });
  });

  describe("filters, alone and combined", () => {
    const cases: Array<[string, Record<string, string>, Array<"t1" | "t2" | "t3" | "t4" | "t5" | "t6">]> = [
      ["broker", { broker: "SSI" }, ["t6", "t3", "t1"]],
      ["broker in lowercase", { broker: "ssi" }, ["t6", "t3", "t1"]],
      ["broker in mixed case", { broker: "vNd" }, ["t5", "t4", "t2"]],
      ["a broker the customer has no account at", { broker: "HSC" }, []],
      ["a broker nobody knows", { broker: "XYZ" }, []],
      ["stock_code", { stock_code: "HPG" }, ["t5", "t2"]],
      ["stock_code in lowercase", { stock_code: "fpt" }, ["t6", "t3", "t1"]],
      ["type sell", { type: "sell" }, ["t5", "t3"]],
      ["type buy", { type: "buy" }, ["t6", "t4", "t2", "t1"]],
      ["start_date, inclusive", { start_date: "2024-02-10" }, ["t6", "t5", "t4", "t3"]],
      ["end_date, inclusive", { end_date: "2024-02-10" }, ["t3", "t2", "t1"]],
      ["start_date equal to end_date", { start_date: "2024-03-01", end_date: "2024-03-01" }, ["t6", "t5"]],
      ["a date range without trades", { start_date: "2024-02-11", end_date: "2024-02-19" }, []],
      ["broker, stock_code and type", { broker: "ssi", stock_code: "fpt", type: "buy" }, ["t6", "t1"]],
      [
        "broker, type and a date range",
        { broker: "VND", type: "sell", start_date: "2024-03-01", end_date: "2024-03-31" },
        ["t5"],
      ],
      ["stock_code and a date range", { stock_code: "FPT", start_date: "2024-01-06", end_date: "2024-02-29" }, ["t3"]],
      ["all five", { broker: "SSI", stock_code: "FPT", type: "sell", start_date: "2024-01-01", end_date: "2024-12-31" }, ["t3"]],
    ];

    it("for each case, total counting every match", async () => {
      const { env, customer, expected } = await withInvestor();
      for (const [name, query, names] of cases) {
        const data = names.map((trade) => expected.trades[trade]);
        expect(await history(env, customer.slug, query), name).toEqual({ status: 200, body: page(data, { total: data.length }) });
      }
    });

    it("never shows another customer's trades, even at the same broker", async () => {
      const { env, customer, otherTrade } = await withInvestor();
      const { body } = await history(env, customer.slug, {
        broker: "SSI",
        start_date: otherTrade.trade_date,
        end_date: otherTrade.trade_date,
      });
      expect(body).toEqual(page([], { total: 0 }));
    });
  });

  describe("pagination", () => {
    it("pages through with per_page, the last page partial, total on every page", async () => {
      const { env, customer, expected } = await withInvestor();
      const { t1, t2, t3, t4, t5, t6 } = expected.trades;
      expect((await history(env, customer.slug, { per_page: "4" })).body).toEqual(
        page([t6, t5, t4, t3], { per_page: 4, total: 6 }),
      );
      expect((await history(env, customer.slug, { per_page: "4", page: "2" })).body).toEqual(
        page([t2, t1], { page: 2, per_page: 4, total: 6 }),
      );
      expect((await history(env, customer.slug, { per_page: "2", page: "2" })).body).toEqual(
        page([t4, t3], { page: 2, per_page: 2, total: 6 }),
      );
    });

    it("answers a page past the end with 200, no data and the true total", async () => {
      const { env, customer } = await withInvestor();
      expect(await history(env, customer.slug, { per_page: "4", page: "3" })).toEqual({
        status: 200,
        body: page([], { page: 3, per_page: 4, total: 6 }),
      });
      expect((await history(env, customer.slug, { page: "1000000000" })).body).toEqual(page([], { page: 1000000000, total: 6 }));
    });

    it("accepts per_page 100", async () => {
      const { env, customer, expected } = await withInvestor();
      const { t1, t2, t3, t4, t5, t6 } = expected.trades;
      expect((await history(env, customer.slug, { per_page: "100" })).body).toEqual(
        page([t6, t5, t4, t3, t2, t1], { per_page: 100, total: 6 }),
      );
    });

    it("pages the filtered list, total counting every match", async () => {
      const { env, customer, expected } = await withInvestor();
      const { body } = await history(env, customer.slug, { type: "buy", per_page: "3", page: "2" });
      expect(body).toEqual(page([expected.trades.t1], { page: 2, per_page: 3, total: 4 }));
    });

    it("takes the first value of a repeated parameter", async () => {
      const { env, customer, expected } = await withInvestor();
      const { body } = await history(env, customer.slug, { page: ["2", "1"], per_page: ["2", "abc"] });
      expect(body).toEqual(page([expected.trades.t4, expected.trades.t3], { page: 2, per_page: 2, total: 6 }));
    });

    it("ignores unknown parameters", async () => {
      const { env, customer } = await withInvestor();
      const { status, body } = await history(env, customer.slug, { sort: "asc", limit: "1", foo: "" });
      expect(status).toBe(200);
      expect(body).toMatchObject({ pagination: { page: 1, per_page: 10, total: 6 } });
    });
  });

  describe("invalid parameters get 400 with details", () => {
    const cases: Array<[Record<string, string>, string[]]> = [
      [{ page: "0" }, ["page"]],
      [{ page: "-1" }, ["page"]],
      [{ page: "1.5" }, ["page"]],
      [{ page: "abc" }, ["page"]],
      [{ page: "" }, ["page"]],
      [{ page: "1e1" }, ["page"]],
      [{ page: "1000000001" }, ["page"]],
      [{ per_page: "0" }, ["per_page"]],
      [{ per_page: "-1" }, ["per_page"]],
      [{ per_page: "101" }, ["per_page"]],
      [{ per_page: "1.5" }, ["per_page"]],
      [{ per_page: "abc" }, ["per_page"]],
      [{ type: "hold" }, ["type"]],
      [{ type: "" }, ["type"]],
      [{ stock_code: "ABCDEFGHIJK" }, ["stock_code"]],
      [{ stock_code: "FPT!" }, ["stock_code"]],
      [{ stock_code: "F-P" }, ["stock_code"]],
      [{ stock_code: "" }, ["stock_code"]],
      [{ broker: "S S" }, ["broker"]],
      [{ broker: "ssi'--" }, ["broker"]],
      [{ broker: "A".repeat(21) }, ["broker"]],
      [{ start_date: "2024-02-30" }, ["start_date"]],
      [{ start_date: "2023-02-29" }, ["start_date"]],
      [{ end_date: "2024-13-01" }, ["end_date"]],
      [{ start_date: "yesterday" }, ["start_date"]],
      [{ end_date: "2024-1-5" }, ["end_date"]],
      [{ start_date: "2024-03-02", end_date: "2024-03-01" }, ["start_date"]],
      [{ page: "0", per_page: "101", type: "hold", start_date: "2024-02-30" }, ["page", "per_page", "type", "start_date"]],
    ];

    it("for each case, naming every parameter at fault", async () => {
      const { env, customer } = await withInvestor();
      for (const [query, paths] of cases) {
        expect(await history(env, customer.slug, query), JSON.stringify(query)).toEqual({
          status: 400,
          body: badRequest(...paths),
        });
      }
    });

    it("says what is wrong in words", async () => {
      const { env, customer } = await withInvestor();
      const { body } = await history(env, customer.slug, { per_page: "101", start_date: "2024-03-02", end_date: "2024-03-01" });
      expect(body).toEqual({
        success: false,
        error: "Bad Request",
        code: "bad_request",
        details: [
          { path: "per_page", message: "must be an integer from 1 to 100" },
          { path: "start_date", message: "must not be after end_date" },
        ],
      });
    });
  });

  describe("dates from 0001-01-01 to 9999-12-31", () => {
    it("answers any other date, year 0000 included, with 400 and the range in words, on either parameter", async () => {
      const { env, customer } = await withInvestor();
      for (const date of BAD_DATES) {
        for (const path of ["start_date", "end_date"]) {
          expect(await history(env, customer.slug, { [path]: date }), `${path}=${date}`).toEqual({
            status: 400,
            body: { success: false, error: "Bad Request", code: "bad_request", details: [{ path, message: DATE_MESSAGE }] },
          });
        }
      }
      expect(DATE_MESSAGE).toBe("must be a real date from 0001-01-01 to 9999-12-31, written YYYY-MM-DD");
    });

    it("accepts the edges of the range and filters with them", async () => {
      const { env, customer, expected } = await withInvestor();
      const { t1, t2, t3, t4, t5, t6 } = expected.trades;
      const all = page([t6, t5, t4, t3, t2, t1], { total: 6 });
      for (const date of EDGE_DATES) {
        const before = date < "2024-01-05";
        expect(await history(env, customer.slug, { start_date: date }), `start_date=${date}`).toEqual({
          status: 200,
          body: before ? all : page([], { total: 0 }),
        });
        expect(await history(env, customer.slug, { end_date: date }), `end_date=${date}`).toEqual({
          status: 200,
          body: before ? page([], { total: 0 }) : all,
        });
      }
      expect(await history(env, customer.slug, { start_date: "0001-01-01", end_date: "9999-12-31" })).toEqual({
        status: 200,
        body: all,
      });
    });

    it("compares trades of years below 1000 as those years in SQL, not as 19xx", async () => {
      const { dbs, env, customer, expected } = await withInvestor();
      const { t1, t2, t3, t4, t5, t6 } = expected.trades;
      await dbs.target`update transactions set trade_date = '0001-01-01' where id = ${t1.id}`;
      await dbs.target`update transactions set trade_date = '0099-12-31' where id = ${t2.id}`;
      const early = { t1: { ...t1, trade_date: "0001-01-01" }, t2: { ...t2, trade_date: "0099-12-31" } };
      const cases: Array<[Record<string, string>, unknown[]]> = [
        [{ start_date: "0001-01-01", end_date: "0001-01-01" }, [early.t1]],
        [{ start_date: "0001-01-02", end_date: "0999-12-31" }, [early.t2]],
        [{ end_date: "0099-12-30" }, [early.t1]],
        [{ start_date: "0100-01-01" }, [t6, t5, t4, t3]],
        [{ start_date: "1999-12-31", end_date: "2000-01-01" }, []],
        [{ start_date: "0001-01-01" }, [t6, t5, t4, t3, early.t2, early.t1]],
      ];
      for (const [query, trades] of cases) {
        expect(await history(env, customer.slug, query), JSON.stringify(query)).toEqual({
          status: 200,
          body: page(trades, { total: trades.length }),
        });
      }
    });
  });

  it("answers 404 for an unknown slug", async () => {
    const { env } = await withInvestor();
    expect(await history(env, "unknownslugaaaaaaaaaaaaaaaa")).toEqual({ status: 404, body: NOT_FOUND });
  });

  it("answers 404 for a string that cannot be a slug", async () => {
    const { env } = await withInvestor();
    for (const slug of MALFORMED_SLUGS) expect(await history(env, slug), slug).toEqual({ status: 404, body: NOT_FOUND });
  });

  it("costs exactly one database round trip, filtered and paged, found or not", async () => {
    const { dbs, customer } = await withInvestor();
    const query = {
      broker: "ssi",
      stock_code: "fpt",
      type: "buy",
      start_date: "2024-01-01",
      end_date: "2024-12-31",
      page: "2",
      per_page: "1",
    };
    expect(await dbs.targetTrips(() => history(dbs.env, customer.slug, query))).toBe(1);
    expect(await dbs.targetTrips(() => history(dbs.env, "unknownslugaaaaaaaaaaaaaaaa"))).toBe(1);
    expect(await dbs.targetTrips(() => history(dbs.env, customer.slug, { page: "0" }))).toBe(0);
  });
});
