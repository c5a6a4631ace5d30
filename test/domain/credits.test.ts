import { describe, expect, it } from "vitest";
import { type CreditInput, computeMetrics, holdingPartial, servedTotalReturn } from "../../src/domain";
import { Decimal } from "../../src/domain/decimal";
import { referenceMetrics } from "./reference";
import { ACCOUNT_A, tradeFactory } from "./trades";

/** A share credit to account A, stock "X" (tradeFactory's defaults). */
const credit = (id: number, ex_date: string, quantity: number): CreditInput => ({
  id: `cccccccc-0000-4000-8000-${String(id).padStart(12, "0")}`,
  account_id: ACCOUNT_A,
  stock_code: "X",
  ex_date,
  quantity,
});

describe("share credits in FIFO", () => {
  it("match bonus shares to the lot they were credited to: one deal, nothing unmatched", () => {
    const { buy, sell } = tradeFactory();
    const trades = [buy("2024-01-02", 100, "1000000.0000"), sell("2024-04-01", 120, "1200000.0000")];
    const bonus = [credit(1, "2024-03-01", 20)];

    // Without the credit, 20 of the 120 sold have no lot: 100/120 of 1,200,000 against 1,000,000.
    expect(computeMetrics(trades).analytics.summary).toMatchObject({ total_realized_pnl: 0, unmatched_sell_quantity: 20 });

    // With it, the lot is 120 shares for 1,000,000, bought on Jan 2: +200,000 over 90 days.
    const { stats, analytics } = computeMetrics(trades, bonus);
    expect(analytics.top_wins).toEqual([
      { stock_code: "X", sell_date: "2024-04-01", realized_pnl: 200000, holding_days: 90, quantity_sold: 120 },
    ]);
    expect(analytics.summary).toMatchObject({
      total_deals: 1,
      win_deals: 1,
      total_realized_pnl: 200000,
      unmatched_sell_quantity: 0,
      monthly_realized_pnl: { "2024-04": 200000 },
      // A credit is not a transaction.
      monthly_trade_counts: { "2024-01": 1, "2024-04": 1 },
      total_fee_tax: 0,
    });
    // The credit adds shares, not a buy: no value bought, no transaction, no date.
    expect(stats).toMatchObject({
      total_buy_value: 1000000,
      transaction_count: 2,
      date_range: { from: "2024-01-02", to: "2024-04-01" },
    });
    // Both cost bases see 120 shares for 1,000,000.
    expect(stats).toMatchObject({ realized_pnl: 200000, realized_pnl_average_cost: 200000, total_return: 200000 });
  });

  it("give a share left over by equal remainders to the earlier lot", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2024-01-02", 100, "1000000.0000"),
      buy("2024-01-03", 100, "2000000.0000"),
      // 1 share over two lots of 100: floors 0 and 0, remainders 100 and 100, a tie.
      // The first lot gets it: 101 shares for 1,000,000, all sold here: +10,000.
      sell("2024-01-05", 101, "1010000.0000"),
      sell("2024-01-06", 100, "2000000.0000"), // the second lot, untouched: break-even
    ];
    const { analytics } = computeMetrics(trades, [credit(1, "2024-01-04", 1)]);
    expect(analytics.summary).toMatchObject({ total_deals: 2, win_deals: 1, loss_deals: 0, unmatched_sell_quantity: 0 });
    expect(analytics.top_wins.map((d) => [d.realized_pnl, d.quantity_sold])).toEqual([[10000, 101]]);
  });

  it("open a lot at zero cost dated the ex-date when no lot is open, first in the queue", () => {
    const { buy, sell } = tradeFactory();
    const trades = [buy("2024-01-03", 100, "1000000.0000"), sell("2024-01-04", 150, "1500000.0000")];
    const { stats, analytics } = computeMetrics(trades, [credit(1, "2024-01-01", 50)]);
    // 50 shares from Jan 1 at no cost and the 100 bought: 1,500,000 - 1,000,000. Days:
    // (50 x 3 + 100 x 1) / 150 = 1.666…
    expect(analytics.summary).toMatchObject({
      total_realized_pnl: 500000,
      avg_holding_days_win: 1.67,
      unmatched_sell_quantity: 0,
    });
    expect(analytics.top_wins[0]).toMatchObject({ holding_days: 2, quantity_sold: 150 });
    expect(stats.realized_pnl_average_cost).toEqual(500000);
  });

  it("come before the trades of their ex-date, and a partly sold lot keeps the cost of what is left", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2024-01-02", 3, "1000.0000"),
      sell("2024-01-03", 1, "1000.0000"), // 1,000 - 1,000/3 = 666.666…
      // The credit (ex-date Jan 5) comes first: 2 shares costing 2,000/3 become 3.
      sell("2024-01-05", 3, "3000.0000"), // 3,000 - 2,000/3 = 2,333.333…
    ];
    const { stats, analytics } = computeMetrics(trades, [credit(1, "2024-01-05", 1)]);
    expect(analytics.top_wins.map((d) => d.realized_pnl)).toEqual([2333.33, 666.67]);
    expect(analytics.summary.unmatched_sell_quantity).toBe(0);
    // Exactly 3,000 in all, by either rule: every share bought or credited was sold.
    expect(stats.realized_pnl).toEqual(3000);
    expect(stats.realized_pnl_average_cost).toEqual(3000);
  });

  it("of one date apply by id, each over the lots the one before left", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2024-01-02", 1, "900.0000"),
      buy("2024-01-03", 1, "900.0000"),
      buy("2024-01-04", 2, "1800.0000"),
      sell("2024-01-09", 3, "0.0000"),
    ];
    // Lots of 1, 1 and 2. The credit with the smaller id (1 share): remainders 1, 1 and 2 of 4,
    // so the third lot: 1, 1, 3. Then 3 shares: 3/5, 3/5 and 9/5, floors 0, 0, 1, remainders
    // 3, 3, 4, so one to the third and one to the first: 2, 1, 5. The sell takes the first two
    // lots, 1,800. The other order would leave 2, 2, 4 and a sell costing 1,350.
    const credits = [credit(2, "2024-01-05", 3), credit(1, "2024-01-05", 1)];
    expect(computeMetrics(trades, credits).analytics.top_losses.map((d) => d.realized_pnl)).toEqual([-1800]);
  });
});

describe("realized P&L by average cost", () => {
  it("takes a sell's cost at the holding's average, where FIFO takes the oldest lots", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2024-01-02", 100, "1000000.0000", { fee: "1500.0000" }), // 1,001,500
      buy("2024-02-01", 100, "2000000.0000", { fee: "3000.0000" }), // 2,003,000
      sell("2024-03-01", 100, "2500000.0000", { fee: "3750.0000", personal_tax: "2500.0000" }), // net 2,493,750
      sell("2024-03-02", 150, "3000000.0000"), // 100 of 150 matched: net 2,000,000
    ];
    const { stats } = computeMetrics(trades);
    // FIFO: 2,493,750 - 1,001,500 = 1,492,250, then 2,000,000 - 2,003,000 = -3,000.
    expect(stats.realized_pnl).toEqual(1489250);
    // Average: 200 shares for 3,004,500; the first sell takes half, 1,502,250: +991,500;
    // the second matches the 100 left, 1,502,250: +497,750. Together 1,489,250, as FIFO.
    expect(stats.realized_pnl_average_cost).toEqual(1489250);
    const partly = computeMetrics(trades.slice(0, 3)).stats;
    expect(partly.realized_pnl).toEqual(1492250);
    expect(partly.realized_pnl_average_cost).toEqual(991500);
  });

  it("decides a figure exactly on a half cent from the exact walk when the kept cost is inexact", () => {
    const { buy, sell } = tradeFactory();
    // 37 shares is beyond the fixed scale's factors, so both costs left (36/37 and 1/37 of
    // 0.0001 đồng) are truncated, and the sum, exactly 0.005 đồng, cannot be decided from them.
    const trades = [
      buy("2024-01-02", 37, "0.0001"),
      sell("2024-01-03", 1, "0.0051"), // 0.0051 - 0.0001/37
      buy("2024-01-02", 37, "0.0001", { stock_code: "Y" }),
      sell("2024-01-03", 36, "0.0000", { stock_code: "Y" }), // -0.0001 * 36/37
    ];
    expect(holdingPartial(trades.slice(0, 2)).average_cost).toEqual([36, expect.any(String), 1]);
    const { stats } = computeMetrics(trades);
    expect(stats.realized_pnl_average_cost).toEqual(0.01);
    expect(stats.total_return.text).toBe("0.005");
    expect(stats).toEqual(referenceMetrics(trades).stats);
  });

  it("keeps a position trimmed hundreds of times in a cost of bounded size, and its figure exact", () => {
    const { buy, sell } = tradeFactory();
    const day = (i: number) => new Date(Date.UTC(2024, 0, 2 + i)).toISOString().slice(0, 10);
    const trades = [buy(day(0), 1_000_003, "123456789.1234", { fee: "185185.1837" })];
    for (let i = 1; i <= 600; i++) {
      // Sells of 1 to 13 shares leave holdings that share few factors with what they held.
      trades.push(sell(day(i), 1 + ((i * 7) % 13), `${100 + i}.${String((i * 37) % 10_000).padStart(4, "0")}`));
    }
    // An exact fraction would carry a denominator of thousands of digits by now.
    const [shares, cost, inexact] = holdingPartial(trades).average_cost ?? [];
    expect(shares).toBe(1_000_003 - trades.slice(1).reduce((n, t) => n + t.quantity, 0));
    expect(cost?.length).toBeLessThan(60);
    expect(inexact).toBeGreaterThan(0);
    expect(computeMetrics(trades).stats).toEqual(referenceMetrics(trades).stats);
  });
});

describe("cash dividends and total return", () => {
  it("sum every cash dividend apart from trading, and add its net to the average-cost figure once", () => {
    const { buy, sell } = tradeFactory();
    const trades = [
      buy("2024-01-02", 3, "1000.0000"),
      sell("2024-01-03", 1, "1000.0000"), // by average cost 1,000 - 1,000/3 = 666.666…
    ];
    // Yearly dividends with 5% withheld; one of 0.005 đồng gross so the parts round apart.
    const cash = [
      { gross_amount: "300.0000", tax: "15.0000" },
      { gross_amount: "0.0050", tax: "0.0000" },
    ];
    const { stats, analytics } = computeMetrics(trades, [], cash);
    expect(stats.dividends).toEqual({ count: 2, gross: 300.01, tax: 15, net: 285.01 });
    // Never trading P&L, fees or tax.
    expect(stats.realized_pnl).toEqual(666.67);
    expect(stats.total_tax).toEqual(0);
    expect(analytics.summary.total_fee_tax).toEqual(0);
    // 666.666… + 285.005 = 951.67166…, stored as the midpoint of its 10^-4 step
    // (src/domain/total-return.ts), served rounded once: 951.67 (the rounded parts add to 951.68).
    expect(stats.realized_pnl_average_cost).toEqual(666.67);
    expect(stats.total_return.text).toBe("951.67165");
    expect(servedTotalReturn(stats.total_return, Decimal.ZERO).text).toBe("951.67");
  });
});
