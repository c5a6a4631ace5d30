import { describe, expect, it } from "vitest";
import { parseDecimal, toNumber } from "../../src/domain/decimal";
import { type TradeInput, matchFifo, parseTrade } from "../../src/domain";
import { ACCOUNT_A, ACCOUNT_B, tradeFactory } from "./trades";

/** The deals with pnl and exact holding days shown to 4 places, plus the unmatched shares. */
function match(trades: TradeInput[]) {
  const { deals, unmatched_sell_quantity } = matchFifo(trades.map(parseTrade));
  return {
    deals: deals.map((d) => ({
      account_id: d.account_id,
      stock_code: d.stock_code,
      sell_date: d.sell_date,
      quantity_sold: d.quantity_sold,
      realized_pnl: toNumber(d.realized_pnl, 4),
      holding_days: toNumber(d.holding_days, 4),
    })),
    unmatched_sell_quantity,
  };
}

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
        // (100*30 + 200*22 + 150*12) / 450 = 9200/450 = 20.4444…
        { account_id: ACCOUNT_A, stock_code: "X", sell_date: "2024-02-01", quantity_sold: 450, realized_pnl: 827875, holding_days: 20.4444 },
        // net 1,500,000 - 2,250 - 1,500 = 1,496,250; the rest of lot 3 costs 3,605,400 - 1,802,700
        // = 1,802,700; pnl -306,450. Jan 20 to Feb 5 is 16 days.
        { account_id: ACCOUNT_A, stock_code: "X", sell_date: "2024-02-05", quantity_sold: 150, realized_pnl: -306450, holding_days: 16 },
      ],
      unmatched_sell_quantity: 0,
    });
  });

  it("splits a lot into parts that add up to its cost exactly", () => {
    const { buy, sell } = tradeFactory();
    // 1,000 đồng over 3 shares, sold one share at a time for nothing: the parts are
    // 333.33…333, then half of the remaining 666.66…667 = 333.33…334, then the last 333.33…333.
    // Each deal rounds to -333.33, yet the exact total must be -1,000, not -999.99.
    const trades = [
      buy("2024-01-02", 3, "1000.0000"),
      sell("2024-01-03", 1, "0.0000"),
      sell("2024-01-04", 1, "0.0000"),
      sell("2024-01-05", 1, "0.0000"),
    ];
    const { deals } = matchFifo(trades.map(parseTrade));
    expect(deals.map((d) => d.realized_pnl)).toEqual([
      -333_333_333_333_333_333_333n,
      -333_333_333_333_333_333_334n,
      -333_333_333_333_333_333_333n,
    ]);
    expect(deals.reduce((total, d) => total + d.realized_pnl, 0n)).toBe(parseDecimal("-1000"));
  });

  it("makes no deal for a sell with no prior buy and counts its shares as unmatched", () => {
    const { buy, sell } = tradeFactory();
    // The later buy must not reach back to the earlier sell.
    const trades = [sell("2024-03-01", 100, "1000000.0000"), buy("2024-03-05", 100, "900000.0000")];
    expect(match(trades)).toEqual({ deals: [], unmatched_sell_quantity: 100 });
  });

  it("matches only the held part of an oversized sell and prorates its proceeds", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2024-01-02", 100, "1000000.0000", { fee: "1000.0000" }), // cost 1,001,000
      sell("2024-01-15", 250, "3000000.0000", { fee: "4500.0000", personal_tax: "3000.0000" }),
    ];
    // net 2,992,500; 100 of 250 shares matched: 2,992,500 * 100/250 = 1,197,000; pnl 196,000.
    expect(match(trades)).toEqual({
      deals: [
        { account_id: ACCOUNT_A, stock_code: "X", sell_date: "2024-01-15", quantity_sold: 100, realized_pnl: 196000, holding_days: 13 },
      ],
      unmatched_sell_quantity: 150,
    });
  });

  it("puts a same-day buy before the sell, whatever the ids and input order", () => {
    const { buy, sell } = tradeFactory();
    // The sell is created first, so its id is the smaller one too.
    const trades = [sell("2024-05-10", 100, "1100000.0000"), buy("2024-05-10", 100, "1000000.0000")];
    expect(match(trades)).toEqual({
      deals: [
        { account_id: ACCOUNT_A, stock_code: "X", sell_date: "2024-05-10", quantity_sold: 100, realized_pnl: 100000, holding_days: 0 },
      ],
      unmatched_sell_quantity: 0,
    });
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
      deals: [
        { account_id: ACCOUNT_A, stock_code: "X", sell_date: "2024-03-01", quantity_sold: 100, realized_pnl: 100000, holding_days: 59 },
      ],
      unmatched_sell_quantity: 100,
    });
  });

  it("counts calendar days across month ends, a leap day and a year end", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2023-12-30", 10, "100.0000"),
      sell("2024-03-01", 10, "100.0000"), // 2 + 31 + 29 days: 62
    ];
    expect(match(trades).deals[0]?.holding_days).toBe(62);
  });
});
