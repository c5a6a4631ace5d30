/**
 * GET /api/performance/:slug, the worst fall (docs/performance.md, "The worst fall"): ties, a
 * fall of exactly 0.00005, a fall past 100%, over every point whatever the interval. Every
 * expected figure is worked out by hand (the comments show the arithmetic); the reference
 * (test/performance/reference-positions.ts) must give it too, and so must the endpoint, over a real
 * sync.
 */
import { describe, it } from "vitest";
import { expectPerformance, ledger, syncedBook } from "../performance/ledger";
import { expectedPosition } from "./performance-expected";

const HPG = { stock_code: "HPG", isin_code: "VN000000HPG4" };

describe("GET /api/performance/:slug: drawdown", () => {
  it("finds the earliest trough and the latest peak before it over every point, whatever the interval", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000");
    const closes = [
      ["2024-03-01", "10000"], // I = 1 (P = 1: this is the peak's latest date so far)
      ["2024-03-04", "12000"], // 1.2
      ["2024-03-05", "12000"], // 1.2 again: the peak is now 03-05
      ["2024-03-06", "9000"], // 0.9: DD = 1 - 0.9 / 1.2 = 0.25
      ["2024-03-07", "12000"], // 1.2: back to the peak
      ["2024-03-08", "9000"], // 0.25 again: a tie, the earliest trough stays
    ] as const;
    l.closes(closes, "FPT");
    l.closes(closes.map(([date]) => [date, "1000"]));
    // A second customer whose only fall is exactly 0.00005: rounded once, away from zero.
    const small = ledger(l.book);
    small.buy("2024-03-01", 1, "10000", HPG);
    small.closes(
      [
        ["2024-03-01", "10000"],
        ["2024-03-04", "9999.5"],
      ],
      "HPG",
    );
    const dbs = await syncedBook(l.book);
    const drawdown = { max: 0.25, peak_date: "2024-03-05", trough_date: "2024-03-06" };
    await expectPerformance(dbs, l.book, l.customer, {}, { twr: -0.1, drawdown }, { partial: true });
    // The week's chart shows 03-08 alone of that week; the drawdown still reads every point.
    await expectPerformance(dbs, l.book, l.customer, { interval: "week" }, { interval: "week", drawdown }, { partial: true });
    // From 03-07 (s = 03-06, I(s) = 1): the fall of 03-08 from the peak of 03-07.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      { from: "2024-03-07" },
      { drawdown: { max: 0.25, peak_date: "2024-03-07", trough_date: "2024-03-08" } },
      { partial: true },
    );
    await expectPerformance(
      dbs,
      l.book,
      small.customer,
      {},
      { drawdown: { max: 0.0001, peak_date: "2024-03-01", trough_date: "2024-03-04" } },
      { partial: true },
    );
  });

  it("falls past 100% when a day's 1 + r is below 0, from s when the first buy's fee made the first fall", async () => {
    const l = ledger();
    l.buy("2023-01-03", 100, "10000", { fee: "100" }); // In 1,000,100
    // Sold for 1,000 less a fee of 5,000: Out -4,000.
    l.sell("2024-01-10", 100, "10", { total_value: "1000", fee: "5000" });
    l.close("2023-01-03", "10000", "FPT");
    l.close("2023-01-03", "1000");
    l.close("2024-01-10", "1000");
    const dbs = await syncedBook(l.book);
    // I(2023-01-03) = 1,000,000 / 1,000,100; I(2024-01-10) = that × (-4,000 / 1,000,000)
    // = -0.0039996...: DD = 1.0039996..., from s (I = 1). FPT alone: the same twr, and MV(e) = 0:
    // no weight. pnl = -4,000 - 1,000,100.
    await expectPerformance(
      dbs,
      l.book,
      l.customer,
      {},
      {
        start_date: "2023-01-02",
        end_value: 0,
        twr: -1.004,
        drawdown: { max: 1.004, peak_date: "2023-01-02", trough_date: "2024-01-10" },
        positions: [expectedPosition("FPT", { invested: 1000100, withdrawn: -4000, pnl: -1004100, twr: -1.004, weight: null })],
      },
      { partial: true },
    );
  });
});
