/**
 * GET /api/performance/:slug (docs/performance.md): one case per rule, each with a book small enough to
 * work out by hand. Every expected body below is worked out by hand from its rules (the comments
 * show the arithmetic); the reference (test/performance/reference.ts) must give it too, and so
 * must the endpoint, over a real sync.
 */
import { describe, expect, it } from "vitest";
import { DATE_MESSAGE } from "../../src/schemas/dates";
import { PERFORMANCE_INTERVALS, PERFORMANCE_RANGES } from "../../src/schemas/queries";
import { Book } from "../support/book";
import { getJson } from "../support/worker";
import { expectPerformance, ledger, performanceOf, servedPerformance, syncedBook } from "../performance/ledger";
import { referencePerformance } from "../performance/reference";
import { expectedPerformance } from "./performance-expected";

describe("GET /api/performance/:slug", () => {
  it("counts a buy before a sell of the same day, so the sell matches the lots bought that day", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000"); // In 1,000,000
    l.sell("2024-03-01", 60, "11000"); // Out 660,000: it matches 60 of the 100 bought that day
    l.book.holding({ account_id: l.account.id, quantity: 40, avg_cost: "10000", total_cost: "400000.0000" });
    l.close("2024-03-01", "12000", "FPT");
    l.close("2024-03-04", "12500", "FPT");
    l.close("2024-03-01", "1200");
    l.close("2024-03-04", "1212");
    const dbs = await syncedBook(l.book);
    // MV: 40 × 12,000 = 480,000, then 40 × 12,500 = 500,000.
    // r(03-01) = (480,000 + 660,000) / (0 + 1,000,000) - 1 = 0.14; r(03-04) = 500,000 / 480,000 - 1 = 1/24.
    // twr = 1.14 × 25/24 - 1 = 0.1875. mwr: MV(s) = 0, so t counts from 03-01: -340,000 at t = 0,
    // +500,000 at T = 3: 1 + y = 500,000 / 340,000, y = 8/17 = 0.470588...
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      {},
      expectedPerformance({
        start_date: "2024-02-29",
        end_date: "2024-03-04",
        as_of: "2024-03-04",
        end_value: 500000,
        invested: 1000000,
        withdrawn: 660000,
        net_invested: 340000,
        pnl: 160000,
        twr: 0.1875,
        mwr: { rate: 0.4706, status: "ok" },
        benchmark: { code: "VNINDEX", start_close: 1200, end_close: 1212, return: 0.01 },
        points: [
          { date: "2024-02-29", value: 0, net_invested: 0, pnl: 0, twr: 0, benchmark: 0 },
          { date: "2024-03-01", value: 480000, net_invested: 340000, pnl: 140000, twr: 0.14, benchmark: 0 },
          { date: "2024-03-04", value: 500000, net_invested: 340000, pnl: 160000, twr: 0.1875, benchmark: 0.01 },
        ],
      }),
    );
  });

  it("brings back only the matched part of a sell beyond the lots, and returns 0 on a day with nothing held", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000");
    l.sell("2024-03-04", 150, "12000"); // 1,800,000 for 150 shares, 100 of them in lots: Out 1,200,000
    l.close("2024-03-01", "11000", "FPT");
    l.closes([
      ["2024-03-01", "1000"],
      ["2024-03-04", "1010"],
      ["2024-03-05", "990.5"],
    ]);
    const dbs = await syncedBook(l.book);
    // r(03-01) = 1,100,000 / 1,000,000 - 1 = 0.1; r(03-04) = 1,200,000 / 1,100,000 - 1 = 1/11;
    // r(03-05) = 0 / 0: 0. twr = 1.1 × 12/11 - 1 = 0.2.
    // mwr: -1,000,000 at t = 0, +1,200,000 at t = 3, MV(e) = 0 at T = 4: (1 + y)^(3/4) = 1.2,
    // y = 1.2^(4/3) - 1 = 0.27519...
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      {},
      expectedPerformance({
        start_date: "2024-02-29",
        end_date: "2024-03-05",
        as_of: "2024-03-05",
        invested: 1000000,
        withdrawn: 1200000,
        net_invested: -200000,
        pnl: 200000,
        twr: 0.2,
        mwr: { rate: 0.2752, status: "ok" },
        benchmark: { code: "VNINDEX", start_close: 1000, end_close: 990.5, return: -0.0095 },
        points: [
          { date: "2024-02-29", value: 0, net_invested: 0, pnl: 0, twr: 0, benchmark: 0 },
          { date: "2024-03-01", value: 1100000, net_invested: 1000000, pnl: 100000, twr: 0.1, benchmark: 0 },
          { date: "2024-03-04", value: 0, net_invested: -200000, pnl: 200000, twr: 0.2, benchmark: 0.01 },
          { date: "2024-03-05", value: 0, net_invested: -200000, pnl: 200000, twr: 0.2, benchmark: -0.0095 },
        ],
      }),
    );
  });

  it("credits shares on their ex_date before the trades of that date, as no flow", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000");
    l.book.corporateAction({ account_id: l.account.id, type: "share_dividend", ex_date: "2024-03-04", quantity: 100 });
    l.sell("2024-03-04", 150, "10000"); // 200 shares after the credit: all 150 match, Out 1,500,000
    l.book.holding({ account_id: l.account.id, quantity: 50, avg_cost: "5000", total_cost: "250000.0000" });
    l.close("2024-03-01", "10000", "FPT");
    l.close("2024-03-04", "5000", "FPT");
    l.close("2024-03-01", "1000");
    l.close("2024-03-04", "1000");
    const dbs = await syncedBook(l.book);
    // MV(03-04) = 50 × 5,000. r(03-04) = (250,000 + 1,500,000) / 1,000,000 - 1 = 0.75.
    // mwr: -1,000,000 at 0, +1,750,000 at T = 3: y = 0.75.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      {},
      expectedPerformance({
        start_date: "2024-02-29",
        end_date: "2024-03-04",
        as_of: "2024-03-04",
        end_value: 250000,
        invested: 1000000,
        withdrawn: 1500000,
        net_invested: -500000,
        pnl: 750000,
        twr: 0.75,
        mwr: { rate: 0.75, status: "ok" },
        benchmark: { code: "VNINDEX", start_close: 1000, end_close: 1000, return: 0 },
        points: [
          { date: "2024-02-29", value: 0, net_invested: 0, pnl: 0, twr: 0, benchmark: 0 },
          { date: "2024-03-01", value: 1000000, net_invested: 1000000, pnl: 0, twr: 0, benchmark: 0 },
          { date: "2024-03-04", value: 250000, net_invested: -500000, pnl: 750000, twr: 0.75, benchmark: 0 },
        ],
      }),
    );
  });

  it("counts a cash dividend on its ex_date, receivable until it is paid weeks later", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000");
    l.book.corporateAction({
      account_id: l.account.id,
      type: "cash_dividend",
      ex_date: "2024-03-05",
      pay_date: "2024-03-26",
      quantity: 100,
      gross_amount: "100000",
      tax: "5000",
    });
    l.book.holding({ account_id: l.account.id, quantity: 100, avg_cost: "10000", total_cost: "1000000.0000" });
    l.close("2024-03-01", "10000", "FPT");
    l.close("2024-03-05", "9000", "FPT");
    for (const date of ["2024-03-01", "2024-03-04", "2024-03-05", "2024-03-26", "2024-03-27"]) l.close(date, "1000");
    const dbs = await syncedBook(l.book);
    // On 03-05: MV 900,000, Out 95,000: r = 995,000 / 1,000,000 - 1 = -0.005.
    // Up to 03-20, e = 03-05: -1,000,000 at 0, +995,000 at T = 4: y = -0.005. Receivable 95,000.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { to: "2024-03-20" },
      {
        end_date: "2024-03-05",
        as_of: "2024-03-27",
        end_value: 900000,
        invested: 1000000,
        withdrawn: 0,
        dividends: 95000,
        net_invested: 905000,
        pnl: -5000,
        twr: -0.005,
        mwr: { rate: -0.005, status: "ok" },
        dividends_receivable: 95000,
      },
      { partial: true },
    );
    // Paid on 03-26: nothing receivable from then on. mwr: -1,000,000 at 0, +95,000 at t = 4,
    // +900,000 at T = 26: y = -0.0054372...
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      {},
      {
        end_date: "2024-03-27",
        dividends: 95000,
        pnl: -5000,
        twr: -0.005,
        mwr: { rate: -0.0054, status: "ok" },
        dividends_receivable: 0,
      },
      { partial: true },
    );
    await expectPerformance(dbs, l.book, l.customer, { to: "2024-03-26" }, { dividends_receivable: 0 }, { partial: true });
    await expectPerformance(dbs, l.book, l.customer, { to: "2024-03-25" }, { dividends_receivable: 95000 }, { partial: true });
  });

  it("values a position with no close at its cost until a close exists", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "70000.5", { stock_code: "VNM", isin_code: "VN000000VNM8", total_value: "7000050", fee: "100" });
    l.close("2024-03-05", "71000", "VNM");
    for (const date of ["2024-03-01", "2024-03-04", "2024-03-05"]) l.close(date, "1000");
    const dbs = await syncedBook(l.book);
    // Until 03-05, MV = C = 7,000,150: no gain. Then 100 × 71,000 = 7,100,000.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { to: "2024-03-04" },
      { end_value: 7000150, pnl: 0, twr: 0, unpriced_value: 7000150, unpriced_positions: 1, holdings_mismatch: 1 },
      { partial: true },
    );
    // r(03-05) = 7,100,000 / 7,000,150 - 1 = 0.014264...
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      {},
      { end_value: 7100000, pnl: 99850, twr: 0.0143, unpriced_value: 0, unpriced_positions: 0 },
      { partial: true },
    );
  });

  it("counts holdings_mismatch by (account, stock) pair, the holdings rows of a pair summed", async () => {
    const book = new Book();
    // Each customer holds FPT in two holdings rows of one account.
    const pair = (rows: readonly [number, number], ledgerShares: number) => {
      const l = ledger(book);
      l.buy("2024-03-01", ledgerShares, "10000");
      for (const quantity of rows)
        l.book.holding({ account_id: l.account.id, quantity, avg_cost: "10000", total_cost: `${quantity * 10000}.0000` });
      return l.customer;
    };
    // 800 + 1,600 = 2,400 against 3,500: one pair off (counted row by row, it was two).
    const apart = pair([800, 1600], 3500);
    // 1,000 + 1,000 = 2,000 against 1,000: one pair off (row by row, each row matched the 1,000).
    const doubled = pair([1000, 1000], 1000);
    // 1,000 + 1,000 = 2,000 against 2,000: the pair agrees (row by row, both rows were off).
    const agrees = pair([1000, 1000], 2000);
    for (const date of ["2024-03-01", "2024-03-04"]) book.price({ stock_code: "VNINDEX", trade_date: date, close_price: "1000" });
    const dbs = await syncedBook(book);
    for (const [customer, mismatch] of [
      [apart, 1],
      [doubled, 1],
      [agrees, 0],
    ] as const) {
      await expectPerformance(dbs, book, customer, {}, { holdings_mismatch: mismatch }, { partial: true });
      const { status, body } = await performanceOf(dbs, customer.slug);
      expect(status).toBe(200);
      expect(body.data.holdings_mismatch, customer.slug).toBe(mismatch);
    }
  });

  it("values an unpriced position at its exact C when sells left the stored C inexact, and after a close by it", async () => {
    const l = ledger();
    const vnm = { stock_code: "VNM", isin_code: "VN000000VNM8" };
    // 1,000,003 is prime: each day's buy of 1 and sell of 1 multiplies C's exact denominator by
    // it (C × 1,000,002 / 1,000,003), so after eight days it passes the 10^40 the sync keeps
    // exactly, and the stored C is truncated and marked inexact.
    l.buy("2024-03-01", 1_000_003, "1000", { ...vnm, total_value: "1000003000", fee: "1" });
    const days = ["2024-03-04", "2024-03-05", "2024-03-06", "2024-03-07", "2024-03-08", "2024-03-11", "2024-03-12", "2024-03-13"];
    for (const day of days) {
      l.buy(day, 1, "1000", { ...vnm, total_value: "1000" });
      l.sell(day, 1, "1000", { ...vnm, total_value: "1000" });
    }
    for (const date of ["2024-03-01", ...days, "2024-03-14"]) l.close(date, "1000");
    l.close("2024-03-14", "1100", "VNM");
    const dbs = await syncedBook(l.book);
    const [step] = await dbs.target.query(
      "select cost_inexact from position_steps where stock_code = 'VNM' and date = '2024-03-13'",
    );
    expect(step?.cost_inexact).toBeGreaterThan(0);
    // The reference walks C exactly: the served value must be it, to the đồng.
    await expectPerformance(dbs, l.book, l.customer, { to: "2024-03-13" }, { unpriced_positions: 1 }, { partial: true });
    const exact = referencePerformance(l.book, l.customer.id, { to: "2024-03-13" });
    expect(exact.unpriced_value).toBe(exact.end_value);
    // Then 1,000,003 × 1,100, with no C in it.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      {},
      { end_value: 1100003300, unpriced_value: 0, unpriced_positions: 0 },
      { partial: true },
    );
  });

  it("values a day without its stock's close at the latest close before it, never a later one", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000");
    l.close("2024-03-01", "10000", "FPT");
    l.close("2024-03-05", "11000", "FPT"); // none on 03-04
    for (const date of ["2024-03-01", "2024-03-04", "2024-03-05"]) l.close(date, "1000");
    const dbs = await syncedBook(l.book);
    const data = referencePerformance(l.book, l.customer.id, {});
    expect(data.points.map((p) => [p.date, p.value])).toEqual([
      ["2024-02-29", 0],
      ["2024-03-01", 1000000],
      ["2024-03-04", 1000000],
      ["2024-03-05", 1100000],
    ]);
    await expectPerformance(dbs, l.book, l.customer, {}, { twr: 0.1, pnl: 100000 }, { partial: true });
  });

  it("leaves a soft-deleted close out, the stock's and the benchmark's", async () => {
    const l = ledger();
    const deleted_at = "2024-03-07T00:00:00.000000Z";
    l.buy("2024-03-01", 100, "10000");
    l.close("2024-03-01", "10000", "FPT");
    l.book.price({ stock_code: "FPT", trade_date: "2024-03-04", close_price: "12000", deleted_at });
    l.close("2024-03-05", "11000", "FPT");
    l.closes([
      ["2024-03-01", "1000"],
      ["2024-03-04", "1010"],
      ["2024-03-05", "1020"],
    ]);
    l.book.price({ stock_code: "VNINDEX", trade_date: "2024-03-06", close_price: "1030", deleted_at });
    const dbs = await syncedBook(l.book);
    // 03-04 is valued at 03-01's close (100 × 10,000), as if the deleted 12,000 had never been;
    // the deleted 03-06 benchmark close makes no point and ends nothing.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      {},
      {
        end_date: "2024-03-05",
        as_of: "2024-03-05",
        end_value: 1100000,
        benchmark: { code: "VNINDEX", start_close: 1000, end_close: 1020, return: 0.02 },
        points: [
          { date: "2024-02-29", value: 0, benchmark: 0 },
          { date: "2024-03-01", value: 1000000, benchmark: 0 },
          { date: "2024-03-04", value: 1000000, benchmark: 0.01 },
          { date: "2024-03-05", value: 1100000, benchmark: 0.02 },
        ],
      },
      { partial: true },
    );
  });

  it("gives a sold-out stretch day returns of 0 and starts mwr at the first flow when nothing is held at s", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000");
    l.sell("2024-03-04", 100, "11000");
    l.buy("2024-03-07", 100, "12000");
    const fpt = [
      ["03-01", "10000"],
      ["03-04", "11000"],
      ["03-05", "11500"],
      ["03-06", "11800"],
      ["03-07", "12000"],
      ["03-08", "12600"],
    ];
    for (const [day, close] of fpt) {
      l.close(`2024-${day}`, close!, "FPT");
      l.close(`2024-${day}`, "1000");
    }
    const dbs = await syncedBook(l.book);
    // r: 0, 0.1, 0 (0/0), 0 (0/0), 0 (1,200,000 / 1,200,000), 0.05: twr 1.1 × 1.05 - 1 = 0.155.
    await expectPerformance(dbs, l.book, l.customer, {}, { twr: 0.155, pnl: 160000 }, { partial: true });
    // From 03-05: s = 03-04, MV(s) = 0, the first flow on 03-07 is t = 0: -1,200,000, then
    // +1,260,000 at T = 1: y = 0.05.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { from: "2024-03-05" },
      {
        range: null,
        from: "2024-03-05",
        start_date: "2024-03-04",
        start_value: 0,
        invested: 1200000,
        pnl: 60000,
        twr: 0.05,
        mwr: { rate: 0.05, status: "ok" },
      },
      { partial: true },
    );
    // Nothing held and nothing flowing: no period for mwr, twr 0.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { from: "2024-03-05", to: "2024-03-06" },
      { start_value: 0, end_value: 0, pnl: 0, twr: 0, mwr: { rate: null, status: "no_period" } },
      { partial: true },
    );
  });

  it("takes a month or a year back to the month's last day: 2026-03-31 - 1m, 2024-02-29 - 1y", async () => {
    const a = ledger();
    a.buy("2026-01-05", 100, "10000");
    for (const date of ["2026-01-05", "2026-02-27", "2026-03-02", "2026-03-31"]) a.close(date, "1000");
    const b = ledger(a.book);
    b.buy("2023-01-03", 100, "10000");
    b.closes(
      [
        ["2023-02-28", "10000"],
        ["2023-03-01", "10000"],
        ["2024-02-29", "12100"],
      ],
      "FPT",
    );
    for (const date of ["2023-01-03", "2023-02-28", "2023-03-01", "2024-02-29"]) b.close(date, "1000");
    const dbs = await syncedBook(a.book);
    await expectPerformance(
      dbs,
      a.book,
      a.customer,
      { range: "1m" },
      { start_date: "2026-02-28", end_date: "2026-03-31", clamped: false },
      { partial: true },
    );
    // s = 2023-02-28, 366 days before e: annualized. twr = 1.21 - 1 = 0.21, and mwr the same
    // (-1,000,000 at 0, +1,210,000 at T = 366); per year 1.21^(365/366) - 1 = 0.20937...
    await expectPerformance(
      dbs,
      b.book,
      b.customer,
      { range: "1y", to: "2024-02-29" },
      {
        start_date: "2023-02-28",
        end_date: "2024-02-29",
        start_value: 1000000,
        end_value: 1210000,
        twr: 0.21,
        mwr: { rate: 0.21, status: "ok" },
        annualized: { twr: 0.2094, mwr: 0.2094 },
      },
      { partial: true },
    );
  });

  it("starts ytd on 1 January at December 31 of the year before", async () => {
    const l = ledger();
    l.buy("2024-12-30", 100, "10000");
    l.buy("2025-01-01", 10, "10000");
    l.close("2024-12-30", "1000");
    l.close("2024-12-31", "1010");
    const dbs = await syncedBook(l.book);
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { range: "ytd" },
      {
        range: "ytd",
        start_date: "2024-12-31",
        end_date: "2025-01-01",
        as_of: "2025-01-01",
        start_value: 1000000,
        invested: 100000,
        end_value: 1100000,
        benchmark: { code: "VNINDEX", start_close: 1010, end_close: 1010, return: 0 },
      },
      { partial: true },
    );
  });

  it("answers an empty range for `from` after as_of and for `to` before the first point", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000");
    l.close("2024-03-01", "10500", "FPT");
    l.close("2024-02-28", "990");
    l.close("2024-03-01", "1000");
    l.close("2024-03-04", "1010");
    const dbs = await syncedBook(l.book);
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { from: "2024-04-01" },
      expectedPerformance({
        range: null,
        from: "2024-04-01",
        start_date: "2024-03-04",
        end_date: "2024-03-04",
        as_of: "2024-03-04",
        start_value: 1050000,
        end_value: 1050000,
        net_invested: 1050000,
        benchmark: { code: "VNINDEX", start_close: 1010, end_close: 1010, return: 0 },
        holdings_mismatch: 1,
      }),
    );
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { range: "1w", to: "2024-02-29" },
      expectedPerformance({
        range: "1w",
        to: "2024-02-29",
        start_date: "2024-02-29",
        end_date: "2024-02-29",
        as_of: "2024-03-04",
        benchmark: { code: "VNINDEX", start_close: 990, end_close: 990, return: 0 },
        holdings_mismatch: 1,
      }),
    );
    // A range asked for before the first point is cut there, and says so.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { range: "1m" },
      {
        start_date: "2024-02-29",
        clamped: true,
        benchmark: { code: "VNINDEX", start_close: 1000, end_close: 1010, return: 0.01 },
      },
      { partial: true },
    );
  });

  it("rounds a twr and an mwr of exactly ±0.00005 away from zero", async () => {
    const up = ledger();
    up.buy("2024-03-01", 1, "10000");
    for (const [date, close] of [
      ["2024-03-01", "10000"],
      ["2024-03-04", "10000.2"],
      ["2024-03-05", "10000.5"],
    ] as const) {
      up.close(date, close, "FPT");
      up.close(date, "1000");
    }
    const down = ledger(up.book);
    down.buy("2024-03-01", 1, "10000", { stock_code: "HPG", isin_code: "VN000000HPG4" });
    down.closes(
      [
        ["2024-03-01", "10000"],
        ["2024-03-04", "9999.8"],
        ["2024-03-05", "9999.5"],
      ],
      "HPG",
    );
    const dbs = await syncedBook(up.book);
    // s = 03-01 (MV 10,000), no flow, MV(e) = 10,000.5: twr = 0.00005 exactly, and mwr's root is
    // exactly 0.00005 (every t is 0 or T = 4): both 0.0001. Down: -0.0001.
    const exactly = (sign: number) => ({
      start_value: 10000,
      end_value: 10000 + sign * 0.5,
      pnl: sign * 0.5,
      twr: sign * 0.0001,
      mwr: { rate: sign * 0.0001, status: "ok" },
    });
    await expectPerformance(dbs, up.book, up.customer, { from: "2024-03-02" }, exactly(1), { partial: true });
    await expectPerformance(dbs, down.book, down.customer, { from: "2024-03-02" }, exactly(-1), { partial: true });
    // Over 1d (03-04 to 03-05) the day return is 0.3 / 10,000.2 = 0.0000299...: 0.
    await expectPerformance(
      dbs,
      up.book,
      up.customer,
      { range: "1d" },
      { start_date: "2024-03-04", twr: 0, pnl: 0.3 },
      { partial: true },
    );
  });

  it("takes the smallest root when the flows change sign twice", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000");
    l.sell("2024-03-02", 100, "23000"); // Out 2,300,000
    l.buy("2024-03-03", 100, "15000"); // In 1,500,000
    l.close("2024-03-01", "10000", "FPT");
    l.close("2024-03-03", "1800", "FPT"); // MV(e) 180,000
    for (const date of ["2024-03-01", "2024-03-02", "2024-03-03"]) l.close(date, "1000");
    const dbs = await syncedBook(l.book);
    // From 03-02: -1,000,000 at 0, +2,300,000 at 1, -1,320,000 at T = 2. With v = (1 + y)^(-1/2):
    // -100 + 230v - 132v² = 0 at v = 10/11 and 5/6, so y = 0.21 and y = 0.44: the smaller.
    // twr = (2,300,000 / 1,000,000) × (180,000 / 1,500,000) - 1 = 2.3 × 0.12 - 1 = -0.724.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { from: "2024-03-02" },
      { start_value: 1000000, twr: -0.724, mwr: { rate: 0.21, status: "ok" } },
      { partial: true },
    );
  });

  it("answers no_root when no rate balances the flows, and a plain product when a day loses more than all", async () => {
    const l = ledger();
    l.buy("2023-01-03", 100, "10000");
    // Sold for 1,000 less a fee of 5,000: Out -4,000.
    l.sell("2024-01-10", 100, "10", { total_value: "1000", fee: "5000" });
    l.close("2023-01-03", "10000", "FPT");
    l.close("2023-01-03", "1000");
    l.close("2024-01-10", "1000");
    const dbs = await syncedBook(l.book);
    // r(2024-01-10) = -4,000 / 1,000,000 - 1 = -1.004; twr = -1.004 (1 + twr <= 0: no annualized twr).
    // mwr: -1,000,000 at 0, -4,000 at T = 372: f < 0 everywhere.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      {},
      {
        start_date: "2023-01-02",
        withdrawn: -4000,
        pnl: -1004000,
        twr: -1.004,
        mwr: { rate: null, status: "no_root" },
        annualized: { twr: null, mwr: null },
      },
      { partial: true },
    );
  });

  it("answers no_period when every flow is on the last day and nothing was held before", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000");
    l.close("2024-03-01", "10100", "FPT");
    l.close("2024-03-01", "1000");
    const dbs = await syncedBook(l.book);
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      {},
      { start_date: "2024-02-29", end_date: "2024-03-01", pnl: 10000, twr: 0.01, mwr: { rate: null, status: "no_period" } },
      { partial: true },
    );
  });

  it("puts one week across a year end in the week interval, and picks the interval by the period's length", async () => {
    const l = ledger();
    l.buy("2024-12-23", 100, "10000");
    const days = ["12-23", "12-24", "12-25", "12-26", "12-27", "12-30", "12-31"].map((d) => `2024-${d}`);
    days.push(...["01-02", "01-03", "01-06", "01-07", "01-08", "01-09", "01-10"].map((d) => `2025-${d}`));
    for (const [i, date] of days.entries()) {
      l.close(date, String(1000 + i));
      l.close(date, String(10000 + 10 * i), "FPT");
    }
    const dbs = await syncedBook(l.book);
    const data = referencePerformance(l.book, l.customer.id, { interval: "week" });
    // Mondays 12-23, 12-30 (to Sunday 2025-01-05) and 2025-01-06: their last points.
    expect(data.points.map((p) => p.date)).toEqual(["2024-12-22", "2024-12-27", "2025-01-03", "2025-01-10"]);
    await expectPerformance(dbs, l.book, l.customer, { interval: "week" }, { interval: "week" }, { partial: true });
    await expectPerformance(dbs, l.book, l.customer, { interval: "month" }, { interval: "month" }, { partial: true });
    await expectPerformance(dbs, l.book, l.customer, {}, { interval: "day" }, { partial: true });
  });

  it("refuses with 400 what PerformanceQuery (src/schemas/queries.ts) refuses, naming each parameter", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000");
    const dbs = await syncedBook(l.book);
    const bad = async (query: string, details: { path: string; message: string }[]) => {
      const { status, body } = await getJson(dbs.env, `/api/performance/${l.customer.slug}?${query}`);
      expect({ status, body }, query).toEqual({
        status: 400,
        body: { success: false, error: "Bad Request", code: "bad_request", details },
      });
    };
    const RANGE = `must be one of ${PERFORMANCE_RANGES.join(", ")}`;
    await bad("range=1y&from=2024-01-01", [{ path: "from", message: "must not be given with range" }]);
    await bad("range=1M", [{ path: "range", message: RANGE }]);
    await bad("range=MAX", [{ path: "range", message: RANGE }]);
    await bad("interval=hour", [{ path: "interval", message: `must be one of ${PERFORMANCE_INTERVALS.join(", ")}` }]);
    await bad("from=2023-02-29", [{ path: "from", message: DATE_MESSAGE }]);
    await bad("to=0000-01-01", [{ path: "to", message: DATE_MESSAGE }]);
    await bad("from=2024-03-02&to=2024-03-01", [{ path: "from", message: "must not be after to" }]);
    await bad("broker=bad!", [{ path: "broker", message: "must be a broker code: 1 to 20 letters or digits" }]);
  });

  it("answers 404 for an unknown slug, and nulls and zeros for a customer with no point", async () => {
    const book = new Book();
    const { customer, account } = book.simpleCustomer();
    book.holding({ account_id: account.id, quantity: 10 }); // a holding the (empty) ledger does not explain
    book.price({ stock_code: "VNINDEX", trade_date: "2024-03-01", close_price: "1000" });
    const dbs = await syncedBook(book);
    expect((await performanceOf(dbs, "AAAAAAAAAAAAAAAAAAAAAA")).body).toEqual({
      success: false,
      error: "Not Found",
      code: "not_found",
    });
    expect((await performanceOf(dbs, "AAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
    await expectPerformance(dbs, book, customer, {}, expectedPerformance({ holdings_mismatch: 1 }));
    await expectPerformance(
      dbs,
      book,
      customer,
      { from: "2024-01-01", to: "2024-12-31" },
      expectedPerformance({ range: null, from: "2024-01-01", to: "2024-12-31", holdings_mismatch: 1 }),
    );
  });

  it("keeps to one broker's accounts with `broker`, in any case, and an unknown broker has no ledger", async () => {
    const book = new Book();
    const { customer, ssiMain, vndMain } = book.twoBrokerCustomer();
    const trade = (account_id: string, trade_date: string, price: string) =>
      book.trade({ account_id, trade_date, type: "buy", quantity: 100, price, fee: "0" });
    trade(ssiMain.id, "2024-03-01", "10000");
    trade(vndMain.id, "2024-03-04", "20000");
    book.price({ stock_code: "FPT", trade_date: "2024-03-05", close_price: "21000" });
    for (const date of ["2024-03-01", "2024-03-04", "2024-03-05"])
      book.price({ stock_code: "VNINDEX", trade_date: date, close_price: "1000" });
    const dbs = await syncedBook(book);
    await expectPerformance(
      dbs,
      book,
      customer,
      {},
      { start_date: "2024-02-29", invested: 3000000, end_value: 4200000 },
      { partial: true },
    );
    // VND alone: its first point is 03-04.
    await expectPerformance(
      dbs,
      book,
      customer,
      { broker: "vnd" },
      { start_date: "2024-03-03", invested: 2000000, end_value: 2100000, pnl: 100000, twr: 0.05 },
      { partial: true },
    );
    await expectPerformance(dbs, book, customer, { broker: "Ssi" }, { invested: 1000000, end_value: 2100000 }, { partial: true });
    await expectPerformance(
      dbs,
      book,
      customer,
      { broker: "hsc" },
      { as_of: null, points: [], holdings_mismatch: 0 },
      { partial: true },
    );
  });

  it("adds up over max to the average-cost P&L, the open positions' gain and the dividends: stats.total_return", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000", { fee: "15.5" });
    l.buy("2024-03-04", 50, "10400.25", { total_value: "520012.5", fee: "7.75" });
    l.sell("2024-03-05", 120, "11000", { personal_tax: "1320", fee: "19.8" });
    l.book.corporateAction({
      account_id: l.account.id,
      type: "cash_dividend",
      ex_date: "2024-03-05",
      pay_date: "2024-04-01",
      quantity: 150,
      gross_amount: "150000",
      tax: "7500",
    });
    // Held: 30 shares at the average cost of the walk.
    l.close("2024-03-01", "10100", "FPT");
    l.close("2024-03-05", "10999.9", "FPT");
    l.close("2024-03-06", "11000.1", "FPT");
    for (const date of ["2024-03-01", "2024-03-04", "2024-03-05", "2024-03-06"]) l.close(date, "1000");
    // The holding the back office states: 30 shares at C = (1,000,015.5 + 520,020.25) × 30 / 150.
    l.book.holding({ account_id: l.account.id, quantity: 30, avg_cost: "10133.5717", total_cost: "304007.1500" });
    const dbs = await syncedBook(l.book);
    await expectPerformance(dbs, l.book, l.customer, {}, { pnl: 271127.45 }, { partial: true });
    const data = await servedPerformance(dbs, l.customer.slug);
    const { body } = await getJson(dbs.env, `/api/stats/${l.customer.slug}`);
    // realized (average cost) = (1,320,000 - 19.8 - 1,320) - 1,520,035.75 × 120/150 = 1,318,660.2 - 1,216,028.6
    //   = 102,631.6; open: 30 × 11,000.1 - 304,007.15 = 25,995.85; dividends 142,500: 271,127.45.
    expect(body.data.realized_pnl_average_cost).toBe(102631.6);
    expect(data.pnl).toBe(271127.45);
    expect(body.data.total_return).toBe(data.pnl);
    expect(data.holdings_mismatch).toBe(0);
    // 1d with no flow on e: pnl = MV(e) - MV(s) = 30 × (11,000.1 - 10,999.9).
    await expectPerformance(dbs, l.book, l.customer, { range: "1d" }, { start_date: "2024-03-05", pnl: 6 }, { partial: true });
  });
});

/** The reference alone, on a book nothing syncs: the hand-worked figures it must reproduce. */
describe("the performance reference", () => {
  it("gives a customer with a ledger and no calendar its trade dates as points", () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000");
    l.buy("2024-03-04", 100, "10000");
    const data = referencePerformance(l.book, l.customer.id, {});
    expect(data.points.map((p) => p.date)).toEqual(["2024-02-29", "2024-03-01", "2024-03-04"]);
    expect(data.unpriced_positions).toBe(1);
  });
});
