import { describe, expect, it } from "vitest";
import { type CustomerMetrics, computeMetrics } from "../../src/domain";
import { EMPTY_METRICS } from "../../src/domain/empty";
import type { Wire } from "../support/decimal";
import { ACCOUNT_A, ACCOUNT_B, tradeFactory } from "./trades";

describe("computeMetrics", () => {
  it("works a sell across two lots to the đồng, by FIFO and by average cost", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2024-01-02", 1000, "20000000.0000", { fee: "30000.0000" }),
      buy("2024-02-01", 1000, "25000000.0000", { fee: "37500.0000" }),
      sell("2024-03-01", 1500, "36000000.0000", { fee: "54000.0000", personal_tax: "36000.0000" }),
    ];
    // Cost: lot 1 whole, 20,030,000, plus half of lot 2, 25,037,500 / 2 = 12,518,750:
    // 32,548,750. Net proceeds 36,000,000 - 54,000 - 36,000 = 35,910,000; pnl 3,361,250.
    // Days: Jan 2 to Mar 1 = 59, Feb 1 to Mar 1 = 29 (2024 is a leap year);
    // (1000*59 + 500*29) / 1500 = 49. Fees and tax: 30,000 + 37,500 + 54,000 + 36,000 = 157,500.
    const expected: Wire<CustomerMetrics> = {
      stats: {
        total_buy_value: 45000000,
        total_sell_value: 36000000,
        total_buy_fee: 67500,
        total_sell_fee: 54000,
        total_tax: 36000,
        realized_pnl: 3361250,
        // Average cost: 2,000 shares for 45,067,500, so 1,500 cost 33,800,625; 35,910,000 less that.
        realized_pnl_average_cost: 2109375,
        transaction_count: 3,
        date_range: { from: "2024-01-02", to: "2024-03-01" },
        dividends: { count: 0, gross: 0, tax: 0, net: 0 },
        total_return: 2109375,
      },
      analytics: {
        summary: {
          total_deals: 1,
          win_deals: 1,
          loss_deals: 0,
          win_rate: 1,
          avg_win_pnl: 3361250,
          avg_loss_pnl: 0,
          profit_factor: null,
          avg_holding_days_win: 49,
          avg_holding_days_loss: 0,
          total_realized_pnl: 3361250,
          total_fee_tax: 157500,
          monthly_trade_counts: { "2024-01": 1, "2024-02": 1, "2024-03": 1 },
          monthly_realized_pnl: { "2024-03": 3361250 },
          unmatched_sell_quantity: 0,
        },
        top_wins: [{ stock_code: "X", sell_date: "2024-03-01", realized_pnl: 3361250, holding_days: 49, quantity_sold: 1500 }],
        top_losses: [],
      },
    };
    expect(computeMetrics(trades)).toEqual(expected);
  });

  it("applies every rule at once on two accounts and two brokers' copies of a ticker", () => {
    const { buy, sell } = tradeFactory();
    const a = { account_id: ACCOUNT_A };
    const b = { account_id: ACCOUNT_B };
    const trades = [
      // Account A, HPG.
      buy("2024-01-02", 1000, "25000000.0000", { ...a, stock_code: "HPG", fee: "37500.0000" }), // cost 25,037,500
      buy("2024-01-15", 500, "13000000.0000", { ...a, stock_code: "HPG", fee: "19500.0000" }), // cost 13,019,500
      // D1: net 33,600,000 - 50,400 - 33,600 = 33,516,000; cost 25,037,500 + 200/500 of
      // 13,019,500 = 5,207,800, total 30,245,300; pnl +3,270,700. Days 49 (from Jan 2) and
      // 36 (from Jan 15): (1000*49 + 200*36) / 1200 = 46.8333…, shown as 47.
      sell("2024-02-20", 1200, "33600000.0000", { ...a, stock_code: "HPG", fee: "50400.0000", personal_tax: "33600.0000" }),
      // D2: only 300 left of 500 sold, 200 unmatched. Net 11,500,000 - 17,250 - 11,500 =
      // 11,471,250, times 300/500 = 6,882,750; cost 13,019,500 - 5,207,800 = 7,811,700;
      // pnl -928,950. Jan 15 to Mar 4: 49 days.
      sell("2024-03-04", 500, "11500000.0000", { ...a, stock_code: "HPG", fee: "17250.0000", personal_tax: "11500.0000" }),
      // Account B, HPG: its own lot, cost 7,811,700.5.
      buy("2024-02-01", 300, "7800000.0000", { ...b, stock_code: "HPG", fee: "11700.5000" }),
      // D3, break-even: net 7,830,000 - 10,469.5 - 7,830 = 7,811,700.5; pnl 0. 32 days.
      sell("2024-03-04", 300, "7830000.0000", { ...b, stock_code: "HPG", fee: "10469.5000", personal_tax: "7830.0000" }),
      // Account B, VNM: a sell with no buy before it, 100 unmatched.
      sell("2024-03-15", 100, "6800000.0000", { ...b, stock_code: "VNM", fee: "10200.0000", personal_tax: "6800.0000" }),
      // D4: created before its same-day buy (smaller id), still matched after it. Net 6,900,000
      // - 10,350 - 6,900 = 6,882,750; cost 100/200 of 13,420,100 = 6,710,050; pnl +172,700; 0 days.
      sell("2024-04-01", 100, "6900000.0000", { ...b, stock_code: "VNM", fee: "10350.0000", personal_tax: "6900.0000" }),
      buy("2024-04-01", 200, "13400000.0000", { ...b, stock_code: "VNM", fee: "20100.0000" }),
      // Account A, FPT, fractional đồng. D5: net 9,400,000 - 14,100.125 - 9,400 = 9,376,499.875;
      // cost 9,514,250.25; pnl -137,750.375, shown as -137,750.38. Apr 10 to May 2: 22 days.
      buy("2024-04-10", 100, "9500000.0000", { ...a, stock_code: "FPT", fee: "14250.2500" }),
      sell("2024-05-02", 100, "9400000.0000", { ...a, stock_code: "FPT", fee: "14100.1250", personal_tax: "9400.0000" }),
    ];
    const expected: Wire<CustomerMetrics> = {
      stats: {
        total_buy_value: 68700000, // 25,000,000 + 13,000,000 + 7,800,000 + 13,400,000 + 9,500,000
        total_sell_value: 76030000, // 33,600,000 + 11,500,000 + 7,830,000 + 6,800,000 + 6,900,000 + 9,400,000
        total_buy_fee: 103050.75, // 37,500 + 19,500 + 11,700.5 + 20,100 + 14,250.25
        total_sell_fee: 112769.63, // 50,400 + 17,250 + 10,469.5 + 10,200 + 10,350 + 14,100.125 = 112,769.625
        total_tax: 76030, // 33,600 + 11,500 + 7,830 + 6,800 + 6,900 + 9,400
        realized_pnl: 2376699.63, // 3,270,700 - 928,950 + 0 + 172,700 - 137,750.375 = 2,376,699.625
        // A HPG: 1,500 shares for 38,057,000; D1 takes 1,200 of them, 30,445,600: +3,070,400; D2
        // matches the 300 left, 7,611,400: 6,882,750 - 7,611,400 = -728,650. Every share either
        // holding bought was sold, so the total equals FIFO's; the deals do not.
        realized_pnl_average_cost: 2376699.63,
        transaction_count: 11,
        date_range: { from: "2024-01-02", to: "2024-05-02" },
        dividends: { count: 0, gross: 0, tax: 0, net: 0 },
        // Stored unrounded (a multiple of 10^-4): the read adds the unrealized P&L, then rounds once.
        total_return: 2376699.625,
      },
      analytics: {
        summary: {
          total_deals: 5,
          win_deals: 2, // D1, D4
          loss_deals: 2, // D2, D5; the break-even D3 counts only in total_deals
          win_rate: 0.4,
          avg_win_pnl: 1721700, // (3,270,700 + 172,700) / 2
          avg_loss_pnl: -533350.19, // (-928,950 - 137,750.375) / 2 = -533,350.1875
          profit_factor: 3.2281, // 3,443,400 / 1,066,700.375 = 3.22808…
          avg_holding_days_win: 23.42, // (46.8333… + 0) / 2 = 23.4166…, from exact days, not 47
          avg_holding_days_loss: 35.5, // (49 + 22) / 2
          total_realized_pnl: 2376699.63,
          total_fee_tax: 291850.38, // 103,050.75 + 112,769.625 + 76,030 = 291,850.375
          monthly_trade_counts: { "2024-01": 2, "2024-02": 2, "2024-03": 3, "2024-04": 3, "2024-05": 1 },
          // By sell month: D1; D2 + the break-even D3; D4; D5 (-137,750.375).
          monthly_realized_pnl: { "2024-02": 3270700, "2024-03": -928950, "2024-04": 172700, "2024-05": -137750.38 },
          unmatched_sell_quantity: 300, // 200 (D2's sell) + 100 (VNM with no buy)
        },
        top_wins: [
          { stock_code: "HPG", sell_date: "2024-02-20", realized_pnl: 3270700, holding_days: 47, quantity_sold: 1200 },
          { stock_code: "VNM", sell_date: "2024-04-01", realized_pnl: 172700, holding_days: 0, quantity_sold: 100 },
        ],
        top_losses: [
          { stock_code: "HPG", sell_date: "2024-03-04", realized_pnl: -928950, holding_days: 49, quantity_sold: 300 },
          { stock_code: "FPT", sell_date: "2024-05-02", realized_pnl: -137750.38, holding_days: 22, quantity_sold: 100 },
        ],
      },
    };
    expect(computeMetrics(trades)).toEqual(expected);
  });

  it("returns zeros, nulls and empty lists for no trades", () => {
    const expected: Wire<CustomerMetrics> = {
      stats: {
        total_buy_value: 0,
        total_sell_value: 0,
        total_buy_fee: 0,
        total_sell_fee: 0,
        total_tax: 0,
        realized_pnl: 0,
        realized_pnl_average_cost: 0,
        transaction_count: 0,
        date_range: { from: null, to: null },
        dividends: { count: 0, gross: 0, tax: 0, net: 0 },
        total_return: 0,
      },
      analytics: {
        summary: {
          total_deals: 0,
          win_deals: 0,
          loss_deals: 0,
          win_rate: 0,
          avg_win_pnl: 0,
          avg_loss_pnl: 0,
          profit_factor: 0,
          avg_holding_days_win: 0,
          avg_holding_days_loss: 0,
          total_realized_pnl: 0,
          total_fee_tax: 0,
          monthly_trade_counts: {},
          monthly_realized_pnl: {},
          unmatched_sell_quantity: 0,
        },
        top_wins: [],
        top_losses: [],
      },
    };
    expect(computeMetrics([])).toEqual(expected);
    expect(EMPTY_METRICS).toEqual(expected); // what a customer reads before metrics are stored
  });

  it("counts a break-even deal only in total_deals, so it lowers the win rate", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      // Cost 1,001,000; net 1,003,000 - 1,000 - 1,000 = 1,001,000: pnl exactly 0.
      buy("2024-01-02", 100, "1000000.0000", { fee: "1000.0000" }),
      sell("2024-01-20", 100, "1003000.0000", { fee: "1000.0000", personal_tax: "1000.0000" }),
      // A plain win of 100,000 on another stock.
      buy("2024-01-02", 100, "500000.0000", { stock_code: "Y" }),
      sell("2024-01-12", 100, "600000.0000", { stock_code: "Y" }),
    ];
    const { summary, top_wins, top_losses } = computeMetrics(trades).analytics;
    expect(summary).toMatchObject({ total_deals: 2, win_deals: 1, loss_deals: 0, win_rate: 0.5, avg_win_pnl: 100000 });
    expect(top_wins.map((d) => [d.stock_code, d.holding_days])).toEqual([["Y", 10]]);
    expect(top_losses).toEqual([]);
  });

  it("gives profit_factor null with wins and no loss", () => {
    const { buy, sell } = tradeFactory();
    const trades = [buy("2024-01-02", 100, "1000.0000"), sell("2024-01-05", 100, "1500.0000")];
    expect(computeMetrics(trades).analytics.summary).toMatchObject({ win_deals: 1, loss_deals: 0, profit_factor: null });
  });

  it("gives profit_factor 0 and win_rate 0 with losses and no win", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2024-01-02", 100, "1000.0000"),
      sell("2024-01-05", 40, "300.0000"), // 300 - 400 = -100
      sell("2024-01-09", 60, "500.0000"), // 500 - 600 = -100; days 3 and 7
    ];
    expect(computeMetrics(trades).analytics.summary).toMatchObject({
      total_deals: 2,
      win_deals: 0,
      loss_deals: 2,
      win_rate: 0,
      profit_factor: 0,
      avg_loss_pnl: -100,
      avg_holding_days_loss: 5,
      avg_win_pnl: 0,
      avg_holding_days_win: 0,
    });
  });

  it("sums fees exactly where adding floats lands on the wrong side of a rounding tie", () => {
    const { buy, sell } = tradeFactory();
    // Fees 0.1 + 5 × 0.2 and a tax of 0.005 make exactly 1.105 → 1.11. Added as floats in
    // this order they make 1.1049999999999998, which rounds to 1.10.
    const trades = [
      buy("2024-01-02", 10, "100.0000", { fee: "0.1000" }),
      ...[3, 4, 5, 8, 9].map((day) => sell(`2024-01-0${day}`, 1, "10.0000", { fee: "0.2000" })),
      sell("2024-01-10", 1, "10.0000", { personal_tax: "0.0050" }),
    ];
    const { stats, analytics } = computeMetrics(trades);
    expect(analytics.summary.total_fee_tax.text).toBe("1.11");
    expect(stats.total_sell_fee.text).toBe("1");
    expect(stats.total_tax.text).toBe("0.01"); // 0.005 rounds half away from zero
  });

  it("shows 0.1 + 0.2 đồng of fees as exactly 0.3", () => {
    const { buy, sell } = tradeFactory();
    const trades = [buy("2024-01-02", 1, "10.0000", { fee: "0.1000" }), sell("2024-01-03", 1, "10.0000", { fee: "0.2000" })];
    expect(computeMetrics(trades).analytics.summary.total_fee_tax.text).toBe("0.3");
  });

  it("rounds a negative pnl of -1.005 to -1.01 and a tiny loss to 0, never -0", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2024-01-02", 100, "1000.0000", { fee: "1.0050" }), // cost 1,001.005
      sell("2024-01-03", 100, "1000.0000"), // pnl -1.005
      buy("2024-01-02", 100, "1000.0000", { stock_code: "Y", fee: "0.0040" }), // cost 1,000.004
      sell("2024-01-04", 100, "1000.0000", { stock_code: "Y" }), // pnl -0.004, still a loss
    ];
    const { stats, analytics } = computeMetrics(trades);
    // Total -1.009 → -1.01; mean -1.009 / 2 = -0.5045 → -0.50.
    expect(stats.realized_pnl.text).toBe("-1.01");
    expect(analytics.summary.loss_deals).toBe(2);
    expect(analytics.summary.avg_loss_pnl.text).toBe("-0.5");
    expect(analytics.top_losses.map((d) => d.realized_pnl)).toEqual([-1.01, 0]);
    expect(analytics.top_losses[1]?.realized_pnl.text).toBe("0");
  });

  it("ranks top lists on exact pnl, then newest sell, then stock code, five at most", () => {
    const { buy, sell } = tradeFactory();
    // Every stock is bought on 2024-02-01 for 10,000 and sold once for 10,000 + pnl.
    const deal = (stock_code: string, sell_date: string, proceeds: string) => [
      buy("2024-02-01", 100, "10000.0000", { stock_code }),
      sell(sell_date, 100, proceeds, { stock_code }),
    ];
    const trades = [
      ...deal("BBB", "2024-03-10", "10500.0000"), // +500
      ...deal("EEE", "2024-03-05", "10100.0000"), // +100, cut
      ...deal("HHH", "2024-03-25", "10499.9960"), // +499.996: shows as 500 but ranks below 500
      ...deal("AAA", "2024-03-10", "10500.0000"), // +500, same day as BBB: AAA first
      ...deal("FFF", "2024-03-05", "10300.0000"), // +300, cut
      ...deal("CCC", "2024-03-12", "10500.0000"), // +500, newest of the 500s
      ...deal("GGG", "2024-03-20", "10050.0000"), // +50, cut
      ...deal("DDD", "2024-03-01", "10900.0000"), // +900, best
      ...deal("MMM", "2024-04-01", "9800.0000"), // -200
      ...deal("QQQ", "2024-04-05", "9800.0040"), // -199.996: shows as -200 but ranks after
      ...deal("NNN", "2024-04-02", "9800.0000"), // -200, same day as KKK: KKK first
      ...deal("RRR", "2024-04-01", "9950.0000"), // -50, cut
      ...deal("PPP", "2024-04-02", "9700.0000"), // -300, worst
      ...deal("KKK", "2024-04-02", "9800.0000"), // -200
    ];
    // Days from 2024-02-01: Mar 1 = 29, Mar 10 = 38, Mar 12 = 40, Mar 25 = 53, Apr 1 = 60,
    // Apr 2 = 61, Apr 5 = 64.
    const { top_wins, top_losses } = computeMetrics(trades).analytics;
    expect(top_wins).toEqual([
      { stock_code: "DDD", sell_date: "2024-03-01", realized_pnl: 900, holding_days: 29, quantity_sold: 100 },
      { stock_code: "CCC", sell_date: "2024-03-12", realized_pnl: 500, holding_days: 40, quantity_sold: 100 },
      { stock_code: "AAA", sell_date: "2024-03-10", realized_pnl: 500, holding_days: 38, quantity_sold: 100 },
      { stock_code: "BBB", sell_date: "2024-03-10", realized_pnl: 500, holding_days: 38, quantity_sold: 100 },
      { stock_code: "HHH", sell_date: "2024-03-25", realized_pnl: 500, holding_days: 53, quantity_sold: 100 },
    ]);
    expect(top_losses).toEqual([
      { stock_code: "PPP", sell_date: "2024-04-02", realized_pnl: -300, holding_days: 61, quantity_sold: 100 },
      { stock_code: "KKK", sell_date: "2024-04-02", realized_pnl: -200, holding_days: 61, quantity_sold: 100 },
      { stock_code: "NNN", sell_date: "2024-04-02", realized_pnl: -200, holding_days: 61, quantity_sold: 100 },
      { stock_code: "MMM", sell_date: "2024-04-01", realized_pnl: -200, holding_days: 60, quantity_sold: 100 },
      { stock_code: "QQQ", sell_date: "2024-04-05", realized_pnl: -200, holding_days: 64, quantity_sold: 100 },
    ]);
  });

  it("orders deals tied on pnl, day and stock code the same whatever the input order", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2024-01-02", 100, "1000.0000", { account_id: ACCOUNT_A }),
      sell("2024-02-01", 100, "1100.0000", { account_id: ACCOUNT_A }), // +100, 30 days, smaller id
      buy("2024-01-10", 50, "500.0000", { account_id: ACCOUNT_B }),
      sell("2024-02-01", 50, "600.0000", { account_id: ACCOUNT_B }), // +100, 22 days
    ];
    const expected = [
      { stock_code: "X", sell_date: "2024-02-01", realized_pnl: 100, holding_days: 30, quantity_sold: 100 },
      { stock_code: "X", sell_date: "2024-02-01", realized_pnl: 100, holding_days: 22, quantity_sold: 50 },
    ];
    expect(computeMetrics(trades).analytics.top_wins).toEqual(expected);
    expect(computeMetrics([...trades].reverse()).analytics.top_wins).toEqual(expected);
  });

  it("keys monthly_trade_counts by YYYY-MM in ascending order over all transactions", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      sell("2024-11-05", 10, "100.0000"), // unmatched sells count too
      buy("2023-02-10", 10, "100.0000"),
      buy("2024-01-31", 10, "100.0000"),
      sell("2023-12-01", 10, "120.0000"),
      buy("2024-01-02", 10, "100.0000"),
    ];
    const counts = computeMetrics(trades).analytics.summary.monthly_trade_counts;
    expect(Object.entries(counts)).toEqual([
      ["2023-02", 1],
      ["2023-12", 1],
      ["2024-01", 2],
      ["2024-11", 1],
    ]);
  });
});
