/**
 * GET /api/performance/:slug?benchmark=CODE (docs/performance.md, "The benchmark"): any code the
 * back office books closes for, typed in any case, compared with under the same rules as the
 * default; the points' dates stay BENCHMARK_CODE's. Every expected figure is worked out by hand;
 * the reference (test/performance/reference.ts) must give it too, and so must the endpoint.
 */
import { describe, expect, it } from "vitest";
import { getJson } from "../support/worker";
import { CacheClient } from "../cache/helpers";
import { synced, withSource } from "../sync/helpers";
import { expectPerformance, ledger, syncedBook } from "../performance/ledger";
import { expectedPerformance, expectedPosition, NO_DRAWDOWN } from "./performance-expected";

/** FPT bought on 1 March; VNINDEX (the calendar), VN30 and FPT closes around it. */
function benchmarkBook() {
  const l = ledger();
  l.buy("2024-03-01", 100, "10000");
  l.closes(
    [
      ["2024-03-01", "10000"],
      ["2024-03-04", "10500"],
      ["2024-03-05", "11000"],
    ],
    "FPT",
  );
  l.closes([
    ["2024-03-01", "1000"],
    ["2024-03-04", "1010"],
    ["2024-03-05", "1020"],
  ]);
  // VN30's closes fall on other days: one before the first point, one after as_of (no point).
  l.closes(
    [
      ["2024-02-28", "1500"],
      ["2024-03-04", "1530"],
      ["2024-03-06", "1545"],
    ],
    "VN30",
  );
  return l;
}

describe("GET /api/performance/:slug?benchmark=CODE", () => {
  it("compares with the code asked, in any case, on the default calendar's points", async () => {
    const l = benchmarkBook();
    const dbs = await syncedBook(l.book);
    // s = 02-29 (max): VN30's start close is its latest on or before the first point, 1,500 of
    // 02-28; its end close the latest on or before e = 03-05, 1,530 of 03-04: 0.02. The 03-06
    // close makes no point. twr: 1,000,000 / 1,000,000, 1.05, 1,100,000 / 1,050,000: 0.1; mwr
    // -1,000,000 at 0 and +1,100,000 at T = 4: 0.1 exactly.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { benchmark: "vn30" },
      {
        ...expectedPerformance({
          start_date: "2024-02-29",
          end_date: "2024-03-05",
          as_of: "2024-03-05",
          end_value: 1100000,
          invested: 1000000,
          net_invested: 1000000,
          pnl: 100000,
          twr: 0.1,
          mwr: { rate: 0.1, status: "ok" },
          benchmark: { code: "VN30", start_close: 1500, end_close: 1530, return: 0.02 },
          holdings_mismatch: 1,
          points: [
            { date: "2024-02-29", value: 0, net_invested: 0, pnl: 0, twr: 0, benchmark: 0 },
            { date: "2024-03-01", value: 1000000, net_invested: 1000000, pnl: 0, twr: 0, benchmark: 0 },
            { date: "2024-03-04", value: 1050000, net_invested: 1000000, pnl: 50000, twr: 0.05, benchmark: 0.02 },
            { date: "2024-03-05", value: 1100000, net_invested: 1000000, pnl: 100000, twr: 0.1, benchmark: 0.02 },
          ],
        }),
        drawdown: NO_DRAWDOWN,
        positions: [
          expectedPosition("FPT", { shares: 100, end_value: 1100000, invested: 1000000, pnl: 100000, twr: 0.1, weight: 1 }),
        ],
      },
    );
    // A stock as the benchmark: FPT against itself.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { benchmark: "Fpt" },
      {
        benchmark: { code: "FPT", start_close: 10000, end_close: 11000, return: 0.1 },
        points: [{ benchmark: 0 }, { benchmark: 0 }, { benchmark: 0.05 }, { benchmark: 0.1 }],
      },
      { partial: true },
    );
    // 1d (s = 03-04): both VN30 closes are 03-04's. An empty range: both the latest on or before e.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { range: "1d", benchmark: "VN30" },
      { benchmark: { code: "VN30", start_close: 1530, end_close: 1530, return: 0 } },
      { partial: true },
    );
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { from: "2024-04-01", benchmark: "VN30" },
      { benchmark: { code: "VN30", start_close: 1530, end_close: 1530, return: 0 }, points: [] },
      { partial: true },
    );
  });

  it("answers null closes and returns for a code with no close, and for a customer with no point", async () => {
    const l = benchmarkBook();
    const nobody = ledger(l.book);
    const dbs = await syncedBook(l.book);
    const none = { code: "HNXINDEX", start_close: null, end_close: null, return: null };
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { benchmark: "hnxindex" },
      {
        end_date: "2024-03-05",
        twr: 0.1,
        benchmark: none,
        points: [{ benchmark: null }, { benchmark: null }, { benchmark: null }, { benchmark: null }],
      },
      { partial: true },
    );
    await expectPerformance(
      dbs,
      l.book,
      nobody.customer,
      { benchmark: "HNXINDEX" },
      { as_of: null, benchmark: none },
      { partial: true },
    );
  });

  it("refuses a code that is not 1 to 10 letters or digits with 400, empty included", async () => {
    const l = benchmarkBook();
    const dbs = await syncedBook(l.book);
    for (const code of ["", "VN-30", "ABCDEFGHIJK", "VN 30", "Đ30"]) {
      const query = new URLSearchParams({ benchmark: code }).toString();
      const { status, body } = await getJson(dbs.env, `/api/performance/${l.customer.slug}?${query}`);
      expect({ status, body }, query).toEqual({
        status: 400,
        body: {
          success: false,
          error: "Bad Request",
          code: "bad_request",
          details: [{ path: "benchmark", message: "must be 1 to 10 letters or digits" }],
        },
      });
    }
  });

  it("keys the cache by the code as validated: one entry per code, whatever its case, one round trip a miss", async () => {
    const l = benchmarkBook();
    const client = new CacheClient(await withSource(l.book, { CACHE_TTL_SECONDS: "60" }));
    await synced(client.dbs.env);
    const base = `/api/performance/${l.customer.slug}`;
    const vn30 = await client.expectServed(`${base}?benchmark=VN30`, "MISS", 1);
    expect(vn30.body.data.benchmark.code).toBe("VN30");
    expect((await client.expectServed(`${base}?benchmark=vn30`, "HIT", 0)).text).toBe(vn30.text);
    const fpt = await client.expectServed(`${base}?benchmark=FPT`, "MISS", 1);
    expect(fpt.body.data.benchmark.code).toBe("FPT");
    const plain = await client.expectServed(base, "MISS", 1);
    expect(plain.body.data.benchmark.code).toBe("VNINDEX");
    expect(plain.body.data.points.map((p: { date: string }) => p.date)).toEqual(
      vn30.body.data.points.map((p: { date: string }) => p.date),
    );
  });

  it("documents the parameter, and the query's examples together are a request the endpoint answers", async () => {
    const l = benchmarkBook();
    const dbs = await syncedBook(l.book);
    const document = (await getJson(dbs.env, "/api/openapi.json")).body;
    const operation = document.paths["/api/performance/{slug}"].get;
    const parameters = (operation.parameters as { name: string; in: string; schema: { example?: string } }[]).filter(
      (p) => p.in === "query",
    );
    expect(parameters.find((p) => p.name === "benchmark")?.schema).toMatchObject({ example: "VN30", maxLength: 10 });
    const examples = Object.fromEntries(
      parameters.filter((p) => p.schema.example !== undefined).map((p) => [p.name, String(p.schema.example)]),
    );
    expect(Object.keys(examples).sort()).toEqual(["benchmark", "broker", "interval", "range", "to"]);
    const { status, body } = await getJson(dbs.env, `/api/performance/${l.customer.slug}?${new URLSearchParams(examples)}`);
    expect({ status, benchmark: body.data?.benchmark?.code }).toEqual({ status: 200, benchmark: "VN30" });
    const schemas = document.components.schemas;
    expect(Object.keys(schemas.Performance.properties)).toEqual(expect.arrayContaining(["drawdown", "positions"]));
    expect(schemas.PerformancePosition.required).toEqual([
      "stock_code",
      "shares",
      "start_value",
      "end_value",
      "invested",
      "withdrawn",
      "dividends",
      "pnl",
      "twr",
      "weight",
    ]);
  });
});
