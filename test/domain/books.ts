/**
 * Random books for the property tests: realistic ones, and ones built to stress exactness
 * (docs/pnl.md): lots split into equal parts, quantities that are powers of two and
 * large primes, money at the numeric(20,4) limit, fees with 4 decimals, exact break-evens,
 * many equal deals.
 */
import fc from "fast-check";
import type { CreditInput, DividendInput, TradeInput } from "../../src/domain";
import { ACCOUNT_A, ACCOUNT_B, tradeId } from "./trades";

/**
 * How many books each property sees at its full count (test/support/runs.ts scales it, as every
 * property's runs): VITE_PNL_BOOKS=100000 for the long run.
 */
// Vite replaces `import.meta.env` only when written out in full: no cast around import.meta.
export const BOOKS = Number(import.meta.env.VITE_PNL_BOOKS ?? 1000);

type Row = Omit<TradeInput, "id">;
const LIMIT = 10n ** 20n - 1n; // numeric(20,4): 9,999,999,999,999,999.9999 in 10^-4 đồng

export function units(n: bigint): string {
  const sign = n < 0n ? "-" : "";
  const a = n < 0n ? -n : n;
  return `${sign}${a / 10_000n}.${(a % 10_000n).toString().padStart(4, "0")}`;
}

const day0 = Date.UTC(2023, 0, 1);
const dateOf = (d: number) => new Date(day0 + d * 86_400_000).toISOString().slice(0, 10);
const date = fc.integer({ min: 0, max: 120 }).map(dateOf);
const account = fc.constantFrom(ACCOUNT_A, ACCOUNT_B);
const stock = fc.constantFrom("HPG", "VNM");
const PRIMES = [3, 7, 65_521, 999_983, 1_000_000_007, 2_147_483_647];
const quantity = fc.oneof(
  fc.integer({ min: 1, max: 12 }),
  fc.constantFrom(100, 300, 700, 1_100, 3_000),
  fc.integer({ min: 0, max: 30 }).map((k) => 2 ** k),
  fc.constantFrom(...PRIMES),
  fc.integer({ min: 1, max: 2_147_483_647 }),
);
const amount = fc.oneof(
  fc.bigInt({ min: 0n, max: 10n ** 12n }), // fractional đồng, 4 places
  fc.bigInt({ min: 0n, max: 10n ** 8n }).map((n) => n * 10_000n), // whole đồng
  fc.constantFrom(LIMIT, LIMIT - 1n, 1n, 5_000n, 150n),
  fc.bigInt({ min: 0n, max: LIMIT }),
);
const small = fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.constantFrom(1n, 50n, 150n, 5_000n));

/** One trade of the holding, `d` days after day 0, amounts in 10^-4 đồng. */
function row(
  holding: { account_id: string; stock_code: string },
  d: number,
  type: "buy" | "sell",
  quantity: number,
  total: bigint,
  costs: { fee?: bigint; tax?: bigint } = {},
): Row {
  return {
    account_id: holding.account_id,
    stock_code: holding.stock_code,
    trade_date: dateOf(d),
    type,
    quantity,
    total_value: units(total),
    fee: units(costs.fee ?? 0n),
    personal_tax: units(costs.tax ?? 0n),
  };
}

const anyTrade: fc.Arbitrary<Row[]> = fc
  .record({
    account_id: account,
    stock_code: stock,
    trade_date: date,
    type: fc.constantFrom<"buy" | "sell">("buy", "sell"),
    quantity,
    total_value: amount,
    fee: small,
    personal_tax: small,
  })
  .map((t) => [{ ...t, total_value: units(t.total_value), fee: units(t.fee), personal_tax: units(t.personal_tax) }]);

/** Half a cent: sums of parts that land exactly on a rounding boundary. */
const halfCent = amount.map((n) => (n / 100n) * 100n + 50n);

/**
 * One lot sold in k equal parts at one price, on k days: equal deals, repeating decimals, and
 * (with a half-cent cost and whole-cent prices) parts adding up to exactly a rounding boundary.
 */
const equalParts: fc.Arbitrary<Row[]> = fc
  .record({
    account_id: account,
    stock_code: stock,
    d: fc.integer({ min: 0, max: 60 }),
    parts: fc.integer({ min: 2, max: 7 }),
    each: fc.constantFrom(1, 3, 50, 100, 2 ** 20, 999_983),
    cost: fc.oneof(amount, halfCent),
    fee: fc.oneof(small, fc.constant(0n)),
    price: fc.oneof(
      amount,
      amount.map((n) => (n / 100n) * 100n),
    ),
  })
  .filter(({ parts, each }) => parts * each <= 2_147_483_647)
  .map(({ d, parts, each, cost, fee, price, ...holding }) => [
    row(holding, d, "buy", parts * each, cost, { fee }),
    ...Array.from({ length: parts }, (_, i) => row(holding, d + 1 + i, "sell", each, price)),
  ]);

/**
 * One lot sold in two unequal parts whose total has prime factors beyond the engine's fixed
 * scale (37, 41, ...): each part is a repeating decimal the scale cannot hold, yet with a
 * half-cent cost the two add up to exactly a rounding boundary.
 */
const splitLot: fc.Arbitrary<Row[]> = fc
  .record({
    account_id: account,
    stock_code: stock,
    d: fc.integer({ min: 0, max: 25 }),
    a: fc.constantFrom(1, 2, 5, 17, 36, 40, 100, 999_982),
    b: fc.constantFrom(1, 36, 41, 3_600, 999_983),
    cost: fc.oneof(halfCent, amount),
    price: amount.map((n) => (n / 100n) * 100n),
  })
  .map(({ d, a, b, cost, price, ...holding }) => [
    row(holding, d, "buy", a + b, cost),
    row(holding, d + 1, "sell", a, price),
    row(holding, d + 2, "sell", b, price),
  ]);

/** A buy and a sell whose net proceeds equal the lot's cost exactly: a break-even. */
const breakEven: fc.Arbitrary<Row[]> = fc
  .record({
    account_id: account,
    stock_code: stock,
    d: fc.integer({ min: 0, max: 60 }),
    q: quantity,
    cost: fc.bigInt({ min: 0n, max: 10n ** 15n }),
    fee: small,
    sellFee: small,
    tax: small,
  })
  .map(({ d, q, cost, fee, sellFee, tax, ...holding }) => [
    row(holding, d, "buy", q, cost, { fee }),
    row(holding, d + 5, "sell", q, cost + fee + sellFee + tax, { fee: sellFee, tax }),
  ]);

/** Identical round trips: many deals with one pnl. */
const equalDeals: fc.Arbitrary<Row[]> = fc
  .record({
    n: fc.integer({ min: 2, max: 8 }),
    q: fc.constantFrom(3, 100, 7),
    buy: fc.constantFrom(1_000n, 10_000_000n, 10_001n),
    sell: fc.constantFrom(1_100n, 900n, 10_000_000n, 10_001n),
  })
  .map(({ n, q, buy, sell }) =>
    Array.from({ length: n }, (_, i) => {
      const holding = { account_id: i % 2 ? ACCOUNT_A : ACCOUNT_B, stock_code: `E${i % 3}` };
      return [row(holding, i, "buy", q, buy * 10_000n), row(holding, i + 10, "sell", q, sell * 10_000n)];
    }).flat(),
  );

const withIds = (groups: Row[][]): TradeInput[] => groups.flat().map((t, i) => ({ ...t, id: tradeId(i + 1) }));

/** A book mixing every edge class. */
export const edgeBook = fc
  .oneof(
    fc.array(fc.oneof(anyTrade, anyTrade, equalParts, splitLot, breakEven, equalDeals), { maxLength: 12 }),
    fc.array(fc.oneof(equalParts, splitLot, breakEven), { maxLength: 3 }),
  )
  .map(withIds);

/** Realistic: board lots, whole-đồng prices on a 50 đồng tick, 0.15% fee in whole đồng, 0.1% sell tax. */
export const realisticBook = fc
  .array(
    fc.record({
      account_id: account,
      stock_code: stock,
      d: fc.integer({ min: 0, max: 400 }),
      sell: fc.boolean(),
      lots: fc.integer({ min: 1, max: 30 }),
      ticks: fc.integer({ min: 200, max: 2_000 }),
    }),
    { maxLength: 40 },
  )
  .map((rows) =>
    withIds(
      rows.map(({ account_id, stock_code, d, sell, lots, ticks }) => {
        const value = BigInt(lots * 100 * ticks * 50);
        const fee = (value * 15n) / 10_000n;
        return [
          {
            account_id,
            stock_code,
            trade_date: dateOf(d),
            type: sell ? ("sell" as const) : ("buy" as const),
            quantity: lots * 100,
            total_value: units(value * 10_000n),
            fee: units(fee * 10_000n),
            personal_tax: sell ? units(value * 10n) : "0.0000",
          },
        ];
      }),
    ),
  );

/** A uuid for the nth credit of a book, apart from trade ids. */
export const creditId = (n: number) => `cccccccc-0000-4000-8000-${String(n).padStart(12, "0")}`;

/**
 * Share credits for a book (docs/corporate-actions.md):
 * on random dates, on the dates of its trades (a buy's and a sell's), before any trade,
 * several on one date; quantities small, round, prime and at the integer limit, so remainders tie
 * and lots pass 2^31 shares.
 */
const creditsFor = (trades: readonly TradeInput[]): fc.Arbitrary<CreditInput[]> => {
  const tradeDates = [...new Set(trades.map((t) => t.trade_date))];
  return fc
    .array(
      fc.record({
        account_id: account,
        stock_code: stock,
        ex_date: fc.oneof(
          date,
          tradeDates.length ? fc.constantFrom(...tradeDates) : date,
          fc.integer({ min: -3, max: -1 }).map(dateOf),
        ),
        quantity: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom(20, 100, 1_000), fc.constantFrom(...PRIMES)),
        twice: fc.boolean(),
      }),
      { maxLength: 5 },
    )
    .map((rows) =>
      rows
        .flatMap(({ twice, ...c }) => (twice ? [c, { ...c, quantity: 1 }] : [c]))
        .map((c, i) => ({ ...c, id: creditId(i + 1) })),
    );
};

/** A book and share credits on its holdings. */
export const withCredits = (book: fc.Arbitrary<TradeInput[]>): fc.Arbitrary<[TradeInput[], CreditInput[]]> =>
  book.chain((trades) => fc.tuple(fc.constant(trades), creditsFor(trades)));

/**
 * Cash dividends: amounts up to the schema's limit, tax from none to all of it
 * (docs/corporate-actions.md).
 */
export const dividends: fc.Arbitrary<DividendInput[]> = fc.array(
  fc
    .tuple(amount, fc.bigInt({ min: 0n, max: 100n }))
    .map(([gross, percent]) => ({ gross_amount: units(gross), tax: units((gross * percent) / 100n) })),
  { maxLength: 4 },
);
