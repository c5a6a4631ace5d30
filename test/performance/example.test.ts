/**
 * The worked example of docs/performance.md, end to end: a buy, a cash dividend on its ex-date
 * paid weeks later, and a sell, over four market days, synced and read back. The expected
 * figures were worked out by hand with exact fractions (the day returns and their product) and,
 * for the money-weighted return, a 300-step bisection at 80 digits: 0.06396952128...
 */
import { describe, expect, it } from "vitest";
import { getJson } from "../support/worker";
import { synced, withSource } from "../sync/helpers";
import { exampleBook } from "./example-book";

describe("performance: the worked example", () => {
  it("answers every figure of the whole history exactly", async () => {
    const { book, slug } = exampleBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const { status, body } = await getJson(dbs.env, `/api/performance/${slug}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      data: {
        range: "max",
        from: null,
        to: null,
        interval: "day",
        start_date: "2024-06-02",
        end_date: "2024-06-06",
        as_of: "2024-06-06",
        clamped: false,
        start_value: 0,
        end_value: 6240000,
        invested: 10000150,
        withdrawn: 4115880,
        dividends: 190000,
        net_invested: 5694270,
        pnl: 545730,
        twr: 0.0589,
        mwr: { rate: 0.064, status: "ok" },
        annualized: null,
        benchmark: { code: "VNINDEX", start_close: 1260, end_close: 1262.25, return: 0.0018 },
        unpriced_value: 0,
        unpriced_positions: 0,
        dividends_receivable: 190000,
        holdings_mismatch: 0,
        // Every day's return is above 0: no fall. FPT is the whole portfolio: its figures are the period's.
        drawdown: { max: 0, peak_date: null, trough_date: null },
        positions: [
          {
            stock_code: "FPT",
            shares: 60,
            start_value: 0,
            end_value: 6240000,
            invested: 10000150,
            withdrawn: 4115880,
            dividends: 190000,
            pnl: 545730,
            twr: 0.0589,
            weight: 1,
          },
        ],
        points: [
          { date: "2024-06-02", value: 0, net_invested: 0, pnl: 0, twr: 0, benchmark: 0 },
          { date: "2024-06-03", value: 10100000, net_invested: 10000150, pnl: 99850, twr: 0.01, benchmark: 0 },
          { date: "2024-06-04", value: 10200000, net_invested: 9810150, pnl: 389850, twr: 0.039, benchmark: -0.0036 },
          { date: "2024-06-05", value: 6180000, net_invested: 5694270, pnl: 485730, twr: 0.0488, benchmark: 0.0079 },
          { date: "2024-06-06", value: 6240000, net_invested: 5694270, pnl: 545730, twr: 0.0589, benchmark: 0.0018 },
        ],
      },
    });
  });
});
