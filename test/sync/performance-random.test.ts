/**
 * GET /api/performance/:slug against the reference (test/performance/reference.ts) on random
 * small books synced through the real sync: a few accounts at two brokers, buys, sells (some
 * beyond the lots), share credits, cash dividends paid later, closes with gaps, stocks never
 * priced, a benchmark with closes on some days or none (then every code's dates are the
 * calendar). Every range, and a few from/to/broker/interval queries, must equal the reference
 * in every figure and point, the positions and the drawdown included (./reference-positions.ts),
 * and the positions' exact parts must add up to the period's figures; over max, pnl must equal
 * the average-cost realized P&L plus the open positions' gain plus the dividends, and
 * stats.total_return where the two must agree.
 *
 * Seeded, so a failure replays: fast-check prints the seed and path; add the seed to SEEDS.
 * More: VITE_PERF_SEEDS=1,2,3.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Book } from "../support/book";
import { Fraction, money } from "../domain/fraction";
import { referenceAnswer, servedPerformance, syncedBook } from "../performance/ledger";
import { identityParts, type PerformanceQueryInput, referencePerformance } from "../performance/reference";
import { movedExactly } from "../performance/reference-positions";
import { PERFORMANCE_RANGES } from "../../src/schemas/queries";
import { getJson } from "../support/worker";
import { runs } from "../support/runs";

const SEEDS = import.meta.env.VITE_PERF_SEEDS?.split(",").map(Number) ?? [20261127];
const RUNS = 4;

const DAYS = [
  "2023-12-27",
  "2023-12-29",
  "2024-01-02",
  "2024-01-03",
  "2024-01-04",
  "2024-01-08",
  "2024-01-15",
  "2024-02-01",
  "2024-02-29",
  "2024-03-01",
  "2025-01-02",
];
const CODES = ["AAA", "BBB", "CCC"];
const PRICES = ["1000", "1234.5", "999.9999", "50000.25", "7"];
const FEES = ["0", "1.5", "12.3456"];

const day = fc.constantFrom(...DAYS);
const account = fc.integer({ min: 0, max: 2 });
const code = fc.constantFrom(...CODES);
const event = fc.oneof(
  fc.record({
    kind: fc.constant("buy" as const),
    account,
    code,
    day,
    quantity: fc.integer({ min: 1, max: 300 }),
    price: fc.constantFrom(...PRICES),
    fee: fc.constantFrom(...FEES),
  }),
  fc.record({
    kind: fc.constant("sell" as const),
    account,
    code,
    day,
    quantity: fc.integer({ min: 1, max: 400 }),
    price: fc.constantFrom(...PRICES),
    fee: fc.constantFrom(...FEES),
  }),
  fc.record({ kind: fc.constant("credit" as const), account, code, day, quantity: fc.integer({ min: 1, max: 100 }) }),
  fc.record({
    kind: fc.constant("dividend" as const),
    account,
    code,
    day,
    quantity: fc.integer({ min: 0, max: 300 }),
    gross: fc.constantFrom("1000", "2500.5"),
    tax: fc.constantFrom("0", "125.025"),
    paidAfter: fc.constantFrom(0, 20),
  }),
);
const bookArb = fc.record({
  customers: fc.array(fc.array(event, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 2 }),
  closes: fc.uniqueArray(fc.record({ code, day, price: fc.constantFrom(...PRICES) }), {
    selector: (c) => `${c.code} ${c.day}`,
    maxLength: 14,
  }),
  benchmark: fc.subarray(DAYS),
  holdingsFromLedger: fc.boolean(),
  from: day,
  to: day,
});

/** quantity × price, exactly, as numeric(20,4) text. */
function times(quantity: number, price: string): string {
  const units = BigInt(quantity) * money(price).mul(new Fraction(10_000n)).num;
  const text = units.toString().padStart(5, "0");
  return `${text.slice(0, -4)}.${text.slice(-4)}`;
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

type Generated = typeof bookArb extends fc.Arbitrary<infer T> ? T : never;

function buildBook(g: Generated) {
  const book = new Book();
  const ssi = book.broker({ code: "SSI" });
  const vnd = book.broker({ code: "VND", name: "VNDIRECT" });
  const staff = book.staffMember();
  const customers = g.customers.map((events, c) => {
    const customer = book.customer({ staff_id: staff.id });
    const accounts = [ssi, vnd, ssi].map((b, i) =>
      book.account({ customer_id: customer.id, broker_id: b.id, account_no: `${c}${i}` }),
    );
    for (const e of events) {
      const account_id = accounts[e.account]!.id;
      const stock = { stock_code: e.code, isin_code: `VN000000${e.code}0` };
      if (e.kind === "buy" || e.kind === "sell") {
        const total_value = times(e.quantity, e.price);
        const personal_tax = e.kind === "sell" ? times(1, e.price) : "0"; // one share's price: any value
        book.trade({
          account_id,
          ...stock,
          trade_date: e.day,
          type: e.kind,
          quantity: e.quantity,
          price: e.price,
          total_value,
          fee: e.fee,
          personal_tax,
        });
      } else if (e.kind === "credit") {
        book.corporateAction({ account_id, ...stock, type: "share_dividend", ex_date: e.day, quantity: e.quantity });
      } else {
        book.corporateAction({
          account_id,
          ...stock,
          type: "cash_dividend",
          ex_date: e.day,
          pay_date: addDays(e.day, e.paidAfter),
          quantity: e.quantity,
          gross_amount: e.gross,
          tax: e.tax,
        });
      }
    }
    return customer;
  });
  for (const c of g.closes) book.price({ stock_code: c.code, trade_date: c.day, close_price: c.price });
  for (const [i, date] of g.benchmark.entries())
    book.price({ stock_code: "VNINDEX", trade_date: date, close_price: `${1000 + 7 * i}.25` });
  // The back office's holdings: the ledger's positions (when C has 4 decimals), or none at all.
  let holdingsExplained = g.holdingsFromLedger;
  if (g.holdingsFromLedger) {
    for (const customer of customers) {
      for (const [key, p] of identityParts(book, customer.id).positions) {
        const [account_id, stock_code] = key.split(" ") as [string, string];
        const cost = p.cost.mul(new Fraction(10_000n));
        if (cost.den !== 1n) holdingsExplained = false;
        if (p.shares === 0n) continue;
        book.holding({
          account_id,
          stock_code,
          isin_code: `VN000000${stock_code}0`,
          quantity: Number(p.shares),
          avg_cost: "0",
          total_cost: p.cost.toRoundedDecimal(4).text,
        });
      }
    }
  }
  return { book, customers, holdingsExplained };
}

function queries(g: Generated): PerformanceQueryInput[] {
  const [from, to] = g.from <= g.to ? [g.from, g.to] : [g.to, g.from];
  return [
    {},
    ...PERFORMANCE_RANGES.map((range) => ({ range })),
    { from, to },
    { from },
    { range: "1m", to },
    { broker: "ssi" },
    { broker: "VND", range: "1y" },
    { interval: "week" },
    { interval: "month", range: "max" },
    // Any code as the benchmark: a stock of the books, one with no close, in any case.
    { benchmark: "aaa" },
    { benchmark: "BBB", range: "1m" },
    { benchmark: "VN30", from, to },
  ];
}

/** The positions' exact parts add up to the period's figures: their sums round to the answer's. */
function expectPartsAddUp(book: Book, customerId: string, query: PerformanceQueryInput, answer: Record<string, unknown>) {
  const { positions } = movedExactly(book, customerId, query);
  const sumOf = (part: "start" | "end" | "inflow" | "sells" | "dividends" | "pnl") =>
    positions.reduce((total, p) => total.add(p.exact[part]), new Fraction(0n)).toRoundedNumber(2);
  expect(
    {
      start_value: sumOf("start"),
      end_value: sumOf("end"),
      invested: sumOf("inflow"),
      withdrawn: sumOf("sells"),
      dividends: sumOf("dividends"),
      pnl: sumOf("pnl"),
    },
    `the positions' parts ${JSON.stringify(query)}`,
  ).toEqual({
    start_value: answer.start_value,
    end_value: answer.end_value,
    invested: answer.invested,
    withdrawn: answer.withdrawn,
    dividends: answer.dividends,
    pnl: answer.pnl,
  });
}

describe("performance on random books", () => {
  for (const seed of SEEDS) {
    it(`equals the reference in every figure and point, and adds up (seed ${seed})`, { timeout: 120_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(bookArb, async (g) => {
          const { book, customers, holdingsExplained } = buildBook(g);
          const dbs = await syncedBook(book);
          for (const customer of customers) {
            for (const query of queries(g)) {
              const expected = referenceAnswer(book, customer.id, query);
              expect(await servedPerformance(dbs, customer.slug, query), `${customer.slug} ${JSON.stringify(query)}`).toEqual(
                expected,
              );
              expectPartsAddUp(book, customer.id, query, expected);
            }
            // The consistency identity, over max with e = as_of.
            const parts = identityParts(book, customer.id);
            const max = referencePerformance(book, customer.id, {});
            expect(max.pnl, "pnl = realized (average cost) + open MV - C + dividends").toBe(parts.pnl.toRoundedNumber(2));
            const stats = (await getJson(dbs.env, `/api/stats/${customer.slug}`)).body.data;
            expect(stats.realized_pnl_average_cost).toBe(parts.realized.toRoundedNumber(2));
            const asOf = max.as_of as string | null;
            const laterDividend = book.corporate_actions.some(
              (c) =>
                c.type === "cash_dividend" &&
                asOf !== null &&
                c.ex_date > asOf &&
                book.accounts.some((a) => a.id === c.account_id && a.customer_id === customer.id),
            );
            const held = new Set([...parts.positions.values()].filter((p) => p.shares > 0n).map((p) => p.code));
            const laterClose = book.stock_prices.some((p) => held.has(p.stock_code) && asOf !== null && p.trade_date > asOf);
            if (holdingsExplained && !laterDividend && !laterClose && asOf !== null) {
              expect(stats.total_return, "stats.total_return = max pnl").toBe(max.pnl);
              expect(max.holdings_mismatch).toBe(0);
            }
          }
        }),
        { seed, numRuns: runs(RUNS) },
      );
    });
  }
});
