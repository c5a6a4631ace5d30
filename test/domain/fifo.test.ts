/**
 * FIFO matching cases worked by hand (docs/pnl.md), checked twice: on the exact deals matchHolding
 * passes to its sink (pnl as a fraction of 10^-4 đồng, holding days as share-days over shares),
 * and on what computeMetrics shows for them.
 */
import { describe, expect, it } from "vitest";
import { type TradeInput, computeMetrics, matchHolding, parseTrade } from "../../src/domain";
import { fifoOrder } from "../../src/domain/parse";
import { groupByHolding } from "../../src/domain/metrics";
import { ACCOUNT_A, ACCOUNT_B, tradeFactory } from "./trades";

interface ExactDeal {
  account_id: string;
  sell_date: string;
  quantity_sold: number;
  /** Reduced [numerator, denominator] in 10^-4 đồng. */
  pnl: [bigint, bigint];
  /** Reduced [share-days, shares]. */
  days: [number, number];
}

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function reduce(num: bigint, den: bigint): [bigint, bigint] {
  const g = gcd(num, den);
  return g === 0n ? [0n, 1n] : [num / g, den / g];
}

/** Every deal of `trades`, holding by holding as computeMetrics matches them, and the unmatched shares. */
function match(trades: TradeInput[]): { deals: ExactDeal[]; unmatched: number } {
  const deals: ExactDeal[] = [];
  let unmatched = 0;
  for (const holding of groupByHolding(trades.map(parseTrade))) {
    holding.sort(fifoOrder);
    unmatched += matchHolding(holding, (sell, matched, pnl, num, den, shareDays) => {
      const [days, shares] = reduce(BigInt(shareDays), BigInt(matched));
      deals.push({
        account_id: sell.account_id,
        sell_date: sell.trade_date,
        quantity_sold: matched,
        pnl: Number.isNaN(pnl) ? reduce(num, den) : [BigInt(pnl), 1n],
        days: [Number(days), Number(shares)],
      });
    });
  }
  return { deals, unmatched };
}

/** Whole đồng in 10^-4 đồng, as a reduced fraction. */
const dong = (n: bigint): [bigint, bigint] => [n * 10_000n, 1n];

describe("FIFO matching", () => {
  it("consumes three lots in order, prorating the last, and closes it with a later sell", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2024-01-02", 100, "1000000.0000", { fee: "1500.0000" }), // lot 1 cost 1,001,500
      buy("2024-01-10", 200, "2200000.0000", { fee: "3300.0000" }), // lot 2 cost 2,203,300
      buy("2024-01-20", 300, "3600000.0000", { fee: "5400.0000" }), // lot 3 cost 3,605,400
      sell("2024-02-01", 450, "5850000.0000", { fee: "8775.0000", personal_tax: "5850.0000" }),
      sell("2024-02-05", 150, "1500000.0000", { fee: "2250.0000", personal_tax: "1500.0000" }),
    ];
    expect(match(trades)).toEqual({
      deals: [
        // net 5,850,000 - 8,775 - 5,850 = 5,835,375; cost 1,001,500 + 2,203,300 + 150/300 of
        // 3,605,400 = 1,802,700, total 5,007,500; pnl 827,875. Days 30, 22 and 12 (to Feb 1):
        // (100*30 + 200*22 + 150*12) / 450 = 9200/450 = 184/9.
        { account_id: ACCOUNT_A, sell_date: "2024-02-01", quantity_sold: 450, pnl: dong(827_875n), days: [184, 9] },
        // net 1,500,000 - 2,250 - 1,500 = 1,496,250; the rest of lot 3 costs 3,605,400 - 1,802,700
        // = 1,802,700; pnl -306,450. Jan 20 to Feb 5 is 16 days.
        { account_id: ACCOUNT_A, sell_date: "2024-02-05", quantity_sold: 150, pnl: dong(-306_450n), days: [16, 1] },
      ],
      unmatched: 0,
    });
    const { summary, top_wins, top_losses } = computeMetrics(trades).analytics;
    // 184/9 = 20.444… shown as 20 on the deal, 20.44 as the mean of one win.
    expect(top_wins).toEqual([
      { stock_code: "X", sell_date: "2024-02-01", realized_pnl: 827875, holding_days: 20, quantity_sold: 450 },
    ]);
    expect(top_losses).toEqual([
      { stock_code: "X", sell_date: "2024-02-05", realized_pnl: -306450, holding_days: 16, quantity_sold: 150 },
    ]);
    expect(summary).toMatchObject({
      total_realized_pnl: 521425,
      avg_holding_days_win: 20.44,
      avg_holding_days_loss: 16,
      unmatched_sell_quantity: 0,
    });
  });

  it("splits a lot into parts that add up to its cost exactly", () => {
    const { buy, sell } = tradeFactory();
    // 1,000 đồng over 3 shares, sold one share at a time for nothing: each part is exactly
    // -1,000/3 đồng. Each deal shows -333.33, yet the exact total is -1,000, not -999.99.
    const trades = [
      buy("2024-01-02", 3, "1000.0000"),
      sell("2024-01-03", 1, "0.0000"),
      sell("2024-01-04", 1, "0.0000"),
      sell("2024-01-05", 1, "0.0000"),
    ];
    expect(match(trades).deals.map((d) => d.pnl)).toEqual([
      [-10_000_000n, 3n],
      [-10_000_000n, 3n],
      [-10_000_000n, 3n],
    ]);
    const { stats, analytics } = computeMetrics(trades);
    expect(stats.realized_pnl.text).toBe("-1000");
    expect(analytics.summary).toMatchObject({
      loss_deals: 3,
      avg_loss_pnl: -333.33,
      avg_holding_days_loss: 2,
      monthly_realized_pnl: { "2024-01": -1000 },
    });
    expect(analytics.top_losses.map((d) => d.realized_pnl)).toEqual([-333.33, -333.33, -333.33]);
    // Equal pnl: the newest sell ranks first.
    expect(analytics.top_losses.map((d) => d.sell_date)).toEqual(["2024-01-05", "2024-01-04", "2024-01-03"]);
  });

  it("makes no deal for a sell with no prior buy and counts its shares as unmatched", () => {
    const { buy, sell } = tradeFactory();
    // The later buy must not reach back to the earlier sell.
    const trades = [sell("2024-03-01", 100, "1000000.0000"), buy("2024-03-05", 100, "900000.0000")];
    expect(match(trades)).toEqual({ deals: [], unmatched: 100 });
    expect(computeMetrics(trades).analytics.summary).toMatchObject({
      total_deals: 0,
      unmatched_sell_quantity: 100,
      total_realized_pnl: 0,
    });
  });

  it("matches only the held part of an oversized sell and prorates its proceeds", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2024-01-02", 100, "1000000.0000", { fee: "1000.0000" }), // cost 1,001,000
      sell("2024-01-15", 250, "3000000.0000", { fee: "4500.0000", personal_tax: "3000.0000" }),
    ];
    // net 2,992,500; 100 of 250 shares matched: 2,992,500 * 100/250 = 1,197,000; pnl 196,000.
    expect(match(trades)).toEqual({
      deals: [{ account_id: ACCOUNT_A, sell_date: "2024-01-15", quantity_sold: 100, pnl: dong(196_000n), days: [13, 1] }],
      unmatched: 150,
    });
    expect(computeMetrics(trades).analytics).toMatchObject({
      summary: { total_deals: 1, win_deals: 1, total_realized_pnl: 196000, unmatched_sell_quantity: 150 },
      top_wins: [{ stock_code: "X", sell_date: "2024-01-15", realized_pnl: 196000, holding_days: 13, quantity_sold: 100 }],
    });
  });

  it("prorates an oversized sell's proceeds exactly when they do not divide", () => {
    const { buy, sell } = tradeFactory();
    // 1 of 3 shares held: proceeds 100/3 đồng against a cost of 10; pnl 70/3 = 23.333… đồng.
    const trades = [buy("2024-01-02", 1, "10.0000"), sell("2024-01-03", 3, "100.0000")];
    expect(match(trades)).toEqual({
      deals: [{ account_id: ACCOUNT_A, sell_date: "2024-01-03", quantity_sold: 1, pnl: [700_000n, 3n], days: [1, 1] }],
      unmatched: 2,
    });
    expect(computeMetrics(trades).stats.realized_pnl.text).toBe("23.33");
  });

  it("stays exact where a part of a lot outgrows doubles in the middle of a sell", () => {
    const { buy, sell } = tradeFactory();
    const q = 2_147_483_647n; // a prime: no part of the second lot divides
    const c = 999_999_999_999_999n; // 99,999,999,999.9999 đồng, the largest 15-digit cost
    const trades = [
      buy("2024-01-02", 1, "1.0000"),
      buy("2024-01-03", Number(q), "99999999999.9999"),
      // Takes the first lot whole, then all but one share of the second: c x (q - 1) / q, whose
      // remainder times the shares taken is far beyond 2^53.
      sell("2024-01-04", Number(q), "0.0000"),
      sell("2024-01-05", 1, "0.0000"), // the last share: c / q
    ];
    const first = reduce(-(10_000n * q + c * (q - 1n)), q);
    const second = reduce(-c, q);
    expect(match(trades).deals.map((d) => d.pnl)).toEqual([first, second]);
    // Together the two lots' cost exactly: 1 + 99,999,999,999.9999 đồng.
    expect(first[0] * second[1] + second[0] * first[1]).toBe(-(10_000n + c) * first[1] * second[1]);
    expect(computeMetrics(trades).stats.realized_pnl.text).toBe("-100000000001");
  });

  it("puts a same-day buy before the sell, whatever the ids and input order", () => {
    const { buy, sell } = tradeFactory();
    // The sell is created first, so its id is the smaller one too.
    const trades = [sell("2024-05-10", 100, "1100000.0000"), buy("2024-05-10", 100, "1000000.0000")];
    const expected = {
      deals: [{ account_id: ACCOUNT_A, sell_date: "2024-05-10", quantity_sold: 100, pnl: dong(100_000n), days: [0, 1] }],
      unmatched: 0,
    };
    expect(match(trades)).toEqual(expected);
    expect(match([...trades].reverse())).toEqual(expected);
    expect(computeMetrics(trades).analytics.top_wins).toEqual([
      { stock_code: "X", sell_date: "2024-05-10", realized_pnl: 100000, holding_days: 0, quantity_sold: 100 },
    ]);
  });

  it("orders same-day sells by id", () => {
    const { buy, sell } = tradeFactory();
    // Two sells on one day: the smaller id takes the older, cheaper lot.
    const trades = [
      buy("2024-01-02", 100, "1000.0000"),
      buy("2024-01-03", 100, "2000.0000"),
      sell("2024-01-10", 100, "1500.0000"), // takes lot 1: +500, 8 days
      sell("2024-01-10", 100, "1500.0000"), // takes lot 2: -500, 7 days
    ];
    const expected = [
      { account_id: ACCOUNT_A, sell_date: "2024-01-10", quantity_sold: 100, pnl: dong(500n), days: [8, 1] },
      { account_id: ACCOUNT_A, sell_date: "2024-01-10", quantity_sold: 100, pnl: dong(-500n), days: [7, 1] },
    ];
    expect(match(trades).deals).toEqual(expected);
    expect(match([...trades].reverse()).deals).toEqual(expected);
  });

  it("keeps lots of the same ticker in two accounts apart", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2024-01-02", 100, "1000000.0000", { account_id: ACCOUNT_A }),
      // Account B holds nothing yet: this sell must not take account A's lot.
      sell("2024-02-01", 100, "1200000.0000", { account_id: ACCOUNT_B }),
      buy("2024-02-10", 100, "900000.0000", { account_id: ACCOUNT_B }),
      // Account A's sell takes its own January lot (59 days), not account B's cheaper one.
      sell("2024-03-01", 100, "1100000.0000", { account_id: ACCOUNT_A }),
    ];
    expect(match(trades)).toEqual({
      deals: [{ account_id: ACCOUNT_A, sell_date: "2024-03-01", quantity_sold: 100, pnl: dong(100_000n), days: [59, 1] }],
      unmatched: 100,
    });
    expect(computeMetrics(trades).analytics.summary).toMatchObject({
      total_deals: 1,
      total_realized_pnl: 100000,
      avg_holding_days_win: 59,
      unmatched_sell_quantity: 100,
    });
  });

  it("counts calendar days across month ends, a leap day and a year end", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2023-12-30", 10, "100.0000"),
      sell("2024-03-01", 10, "100.0000"), // 2 + 31 + 29 days: 62
      buy("2024-02-28", 10, "100.0000", { stock_code: "Y" }),
      sell("2025-03-01", 10, "100.0000", { stock_code: "Y" }), // a year over Feb 29 (366) and a day: 367
      buy("1900-02-28", 10, "100.0000", { stock_code: "Z" }),
      sell("1900-03-01", 10, "100.0000", { stock_code: "Z" }), // 1900 is not a leap year: 1 day
      buy("2000-02-28", 10, "100.0000", { stock_code: "W" }),
      sell("2000-03-01", 10, "100.0000", { stock_code: "W" }), // 2000 is: 2 days
    ];
    expect(match(trades).deals.map((d) => d.days)).toEqual([
      [62, 1],
      [367, 1],
      [1, 1],
      [2, 1],
    ]);
  });
});
