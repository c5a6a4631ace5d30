/**
 * The valuation (docs/valuation.md) against the simple reference of test/support/valuation.ts: random
 * holdings and closes over several dates, soft-deleted latest closes, unpriced stocks, and
 * quantities, costs and closes at the limits of the source schema (integer, numeric(20,4)).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AggregateResponse, PortfolioResponse, StatsResponse } from "../../src/schemas";
import { apiDatabases, getValid } from "../support/api";
import { Book, writeTarget } from "../support/book";
import { holdingValuation, latestCloses, valuationOf } from "../support/valuation";
import { getJson } from "../support/worker";
import { runs } from "../support/runs";

const MAX_MONEY = "9999999999999999.9999";
const MAX_QUANTITY = 2_147_483_647;
const CODES = ["AAA", "BBB", "CCC", "DDD"];
const DATES = ["2024-06-26", "2024-06-27", "2024-06-28", "2024-07-01"];

/** A numeric(20,4) amount: the extremes as often as anything in between. */
const amount = (min: bigint) =>
  fc.oneof(
    fc.constantFrom(MAX_MONEY, `${min}.0001`.replace(/^0\./, "0."), "0.0001", "1.0000"),
    fc.bigInt({ min: min * 10_000n, max: 99_999_999_999_999_999_999n }).map((n) => {
      const digits = n.toString().padStart(5, "0");
      return `${digits.slice(0, -4)}.${digits.slice(-4)}`;
    }),
  );

const holdingArb = fc.record({
  stock_code: fc.constantFrom(...CODES),
  quantity: fc.oneof(fc.constantFrom(0, 1, MAX_QUANTITY), fc.integer({ min: 0, max: MAX_QUANTITY })),
  total_cost: fc.oneof(fc.constant("0.0000"), amount(0n)),
});

const closeArb = fc.record({
  stock_code: fc.constantFrom(...CODES),
  trade_date: fc.constantFrom(...DATES),
  // Written straight into the target, so only closes the sync lets in: a price <= 0 is set
  // aside (test/sync/prices.test.ts) and never reaches latest_prices.
  close_price: amount(0n).filter((price) => /[1-9]/.test(price)),
  deleted: fc.boolean(),
});

const bookArb = fc.record({
  customers: fc.array(fc.array(holdingArb, { maxLength: 5 }), { minLength: 1, maxLength: 3 }),
  closes: fc.uniqueArray(closeArb, { selector: (c) => `${c.stock_code} ${c.trade_date}`, maxLength: 12 }),
});

describe("valuation", () => {
  it("equals the reference for random holdings and closes, up to the schema's limits", { timeout: 180_000 }, async () => {
    // One pair of databases for every run; each run's stock codes are its own.
    const dbs = await apiDatabases();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(bookArb, async ({ customers, closes }) => {
        run++;
        const code = (c: string) => `${c}${run}`;
        const book = new Book();
        const broker = book.broker();
        const staff = book.staffMember();
        const slugs = customers.map((holdings) => {
          const customer = book.customer({ staff_id: staff.id });
          const account = book.account({ customer_id: customer.id, broker_id: broker.id });
          for (const h of holdings) book.holding({ account_id: account.id, ...h, stock_code: code(h.stock_code) });
          return customer.slug;
        });
        for (const c of closes) {
          book.price({
            stock_code: code(c.stock_code),
            trade_date: c.trade_date,
            close_price: c.close_price,
            deleted_at: c.deleted ? "2025-01-02T00:00:00.000000Z" : null,
          });
        }
        await writeTarget(dbs.target, book);
        const reference = latestCloses(book.stock_prices);

        for (const [i, slug] of slugs.entries()) {
          const held = book.holdings.filter(
            (h) => book.accounts.find((a) => a.id === h.account_id)!.customer_id === book.customers[i]!.id,
          );
          const { data } = await getValid(dbs.env, `/api/aggregate/${slug}`, AggregateResponse);
          // Holdings come by stock code, then id (one account); compare each by its id.
          for (const h of held) {
            const served = data.portfolio.find((p) => p.id === h.id)!;
            const { market_price, price_date, market_value, unrealized_pnl } = served;
            expect({ market_price, price_date, market_value, unrealized_pnl }, h.id).toEqual(holdingValuation(h, reference));
          }
          expect(data.stats.valuation).toEqual(valuationOf(held, reference));
          // The single-resource reads say the same.
          expect((await getValid(dbs.env, `/api/portfolio/${slug}`, PortfolioResponse)).data).toEqual(data.portfolio);
          expect((await getValid(dbs.env, `/api/stats/${slug}`, StatsResponse)).data).toEqual(data.stats);
        }
      }),
      { numRuns: runs(15) },
    );
  });

  it("reads a customer with nothing priced, and one holding nothing, as zeros and nulls", async () => {
    const dbs = await apiDatabases();
    const book = new Book();
    const { customer, account } = book.simpleCustomer();
    book.holding({ account_id: account.id, stock_code: "VNM", total_cost: "3500025.5050" });
    const empty = book.customer({ staff_id: customer.staff_id });
    book.price({ stock_code: "FPT" });
    await writeTarget(dbs.target, book);

    const { data } = await getValid(dbs.env, `/api/aggregate/${customer.slug}`, AggregateResponse);
    expect(data.portfolio[0]).toMatchObject({ market_price: null, price_date: null, market_value: null, unrealized_pnl: null });
    expect(data.stats.valuation).toEqual({
      as_of: null,
      cost: 3500025.51,
      priced_cost: 0,
      market_value: 0,
      unrealized_pnl: 0,
      priced_holdings: 0,
      unpriced_holdings: 1,
    });
    const none = await getValid(dbs.env, `/api/stats/${empty.slug}`, StatsResponse);
    expect(none.data.valuation).toEqual({
      as_of: null,
      cost: 0,
      priced_cost: 0,
      market_value: 0,
      unrealized_pnl: 0,
      priced_holdings: 0,
      unpriced_holdings: 0,
    });
  });

  it("values at the close as it is now, without touching the stored metrics, in one round trip", async () => {
    const dbs = await apiDatabases();
    const book = new Book();
    const { customer, account } = book.simpleCustomer();
    book.holding({ account_id: account.id, quantity: 100, total_cost: "10015000.0000" });
    book.price({ stock_code: "FPT", trade_date: "2024-06-28", close_price: "120000.5000" });
    await writeTarget(dbs.target, book);
    const before = await getValid(dbs.env, `/api/stats/${customer.slug}`, StatsResponse);
    expect(before.data.valuation).toMatchObject({ as_of: "2024-06-28", market_value: 12000050, unrealized_pnl: 1985050 });

    const [stored] = await dbs.target`select stats::text from customer_metrics where customer_id = ${customer.id}`;
    await dbs.target`update latest_prices set trade_date = '2024-07-01', close_price = 90000.25 where stock_code = 'FPT'`;
    const after = await getValid(dbs.env, `/api/stats/${customer.slug}`, StatsResponse);
    expect(after.data.valuation).toMatchObject({ as_of: "2024-07-01", market_value: 9000025, unrealized_pnl: -1014975 });
    expect(await dbs.target`select stats::text from customer_metrics where customer_id = ${customer.id}`).toEqual([stored]);

    for (const endpoint of ["portfolio", "stats", "aggregate"]) {
      expect(await dbs.targetTrips(() => getJson(dbs.env, `/api/${endpoint}/${customer.slug}`)), endpoint).toBe(1);
    }
  });
});
