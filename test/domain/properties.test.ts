import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type TradeInput, computeMetrics, matchFifo, parseTrade } from "../../src/domain";
import { ACCOUNT_A, ACCOUNT_B, tradeId } from "./trades";

/** A non-negative amount with 4 fractional digits, as Postgres numeric(20,4) prints it. */
const money = (max: bigint) =>
  fc.bigInt({ min: 0n, max }).map((n) => `${n / 10_000n}.${(n % 10_000n).toString().padStart(4, "0")}`);

const day0 = Date.UTC(2023, 0, 1);
const trade = fc.record({
  account_id: fc.constantFrom(ACCOUNT_A, ACCOUNT_B, "0c000000-0000-4000-8000-00000000000c"),
  stock_code: fc.constantFrom("HPG", "VNM", "FPT"),
  trade_date: fc.integer({ min: 0, max: 800 }).map((d) => new Date(day0 + d * 86_400_000).toISOString().slice(0, 10)),
  type: fc.constantFrom<TradeInput["type"]>("buy", "sell"),
  quantity: fc.integer({ min: 1, max: 2000 }),
  total_value: money(10n ** 14n), // up to 10 billion đồng
  fee: money(10n ** 9n), // up to 100,000 đồng, fractional
  personal_tax: money(10n ** 8n),
});
// Round numbers make equal pnl and same-day trades common, so ties get exercised too.
const roundTrade = fc.record({
  account_id: fc.constantFrom(ACCOUNT_A, ACCOUNT_B),
  stock_code: fc.constantFrom("HPG", "VNM"),
  trade_date: fc.constantFrom("2024-01-02", "2024-01-03"),
  type: fc.constantFrom<TradeInput["type"]>("buy", "sell"),
  quantity: fc.constant(100),
  total_value: fc.constantFrom("1000.0000", "1100.0000"),
  fee: fc.constant("0.0000"),
  personal_tax: fc.constant("0.0000"),
});
const withIds = (trades: Omit<TradeInput, "id">[]) => trades.map((t, i): TradeInput => ({ ...t, id: tradeId(i + 1) }));
const history = fc.array(fc.oneof(trade, roundTrade), { maxLength: 80 }).map(withIds);
const roundHistory = fc.array(roundTrade, { maxLength: 30 }).map(withIds);

/** Exact sum of fees and taxes in hundredths of a đồng, rounded half up (all are >= 0). */
function exactFeeTaxHundredths(trades: TradeInput[]): number {
  const units = (s: string) => BigInt(s.replace(".", ""));
  const total = trades.reduce((sum, t) => sum + units(t.fee) + units(t.personal_tax), 0n);
  return Number((total + 50n) / 100n);
}

describe("computeMetrics over random histories", () => {
  it("agrees with itself and with the raw trades", () => {
    fc.assert(
      fc.property(history, (trades) => {
        const { stats, analytics } = computeMetrics(trades);
        const { summary } = analytics;
        expect(stats.realized_pnl).toBe(summary.total_realized_pnl);
        expect(summary.win_deals + summary.loss_deals).toBeLessThanOrEqual(summary.total_deals);
        expect(Object.values(summary.monthly_trade_counts).reduce((a, b) => a + b, 0)).toBe(stats.transaction_count);

        const hundredths = (x: number) => Math.round(x * 100);
        expect(hundredths(summary.total_fee_tax)).toBe(exactFeeTaxHundredths(trades));
        // The three stats parts are rounded separately, so they may differ by one hundredth.
        const parts = hundredths(stats.total_buy_fee) + hundredths(stats.total_sell_fee) + hundredths(stats.total_tax);
        expect(Math.abs(parts - hundredths(summary.total_fee_tax))).toBeLessThanOrEqual(1);
      }),
    );
  });

  it("accounts for every sold share as matched or unmatched", () => {
    fc.assert(
      fc.property(history, (trades) => {
        const { deals, unmatched_sell_quantity } = matchFifo(trades.map(parseTrade));
        const sold = trades.filter((t) => t.type === "sell").reduce((sum, t) => sum + t.quantity, 0);
        expect(deals.reduce((sum, d) => sum + d.quantity_sold, 0) + unmatched_sell_quantity).toBe(sold);
        expect(computeMetrics(trades).analytics.summary.unmatched_sell_quantity).toBe(unmatched_sell_quantity);
      }),
    );
  });

  it("does not depend on the order of its input", () => {
    const shuffled = fc.oneof(history, roundHistory).chain((trades) =>
      fc.tuple(fc.constant(trades), fc.shuffledSubarray(trades, { minLength: trades.length })),
    );
    fc.assert(
      fc.property(shuffled, ([trades, reordered]) => {
        expect(computeMetrics(reordered)).toEqual(computeMetrics(trades));
      }),
    );
  });
});
