/**
 * Exact digits end to end (docs/api.md): amounts at the limits of numeric(20,4) and quantities at
 * the integer maximum, written in the back office, synced, and served by every route and the
 * customer's page with every digit, no exponent and no -0. Assertions read the raw response
 * text (JSON.parse would round the very digits under test), and computed figures are checked
 * against the exact-fraction reference of the domain suite.
 */
import { describe, expect, it } from "vitest";
import { Decimal } from "../../src/domain/decimal";
import { Book } from "../support/book";
import { Client } from "../support/worker";
import { referenceMetrics, referenceTotalReturn } from "../domain/reference";
import { synced, withSource } from "../sync/helpers";

const LIMIT = "9999999999999999.9999";
const INT_MAX = 2_147_483_647;

/** JSON with every number kept as its own text, so two bodies compare digit for digit. */
class NumberText {
  constructor(readonly text: string) {}
}
const exactParse = (text: string): unknown =>
  JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === "number" ? new NumberText(context!.source!) : value,
  );
/** What a body must read as: Decimals and numbers written as JSON writes them. */
const asServed = (value: unknown) => exactParse(JSON.stringify(value));

/** True when a double cannot hold this decimal: the test would pass through a JS number otherwise. */
const pastDouble = (text: string) => String(Number(text)) !== text;

/**
 * One customer: a buy of INT_MAX shares for the largest amount the schema admits, sold one
 * share at a time eleven times at that amount (sums past 2^53, deals with 16 integer digits,
 * wins adding up past 10^17), and a 0.0001 đồng loss, alone in its month: it rounds to 0 and
 * must read 0, not -0, and the profit factor over it passes 10^21.
 */
function limitBook() {
  const book = new Book();
  const { customer, account } = book.simpleCustomer();
  const base = { account_id: account.id, fee: "0", personal_tax: "0" };
  const big = { ...base, stock_code: "BIG", isin_code: "VN000000BIG1" };
  const tiny = { ...base, stock_code: "TINY", isin_code: "VN00000TINY1" };
  const holding = book.holding({ ...big, quantity: INT_MAX, avg_cost: "1234567890123.4567", total_cost: LIMIT });
  // A close at the limit too: the holding's value passes 10^25.
  book.price({ stock_code: "BIG", trade_date: "2024-06-28", close_price: LIMIT });
  const buy = book.trade({
    ...big,
    trade_date: "2024-01-02",
    type: "buy",
    quantity: INT_MAX,
    price: "1234567890123.4567",
    total_value: LIMIT,
    fee: "0.0001",
  });
  for (let day = 1; day <= 11; day++) {
    book.trade({
      ...big,
      trade_date: `2024-02-${String(day).padStart(2, "0")}`,
      type: "sell",
      quantity: 1,
      price: LIMIT,
      total_value: LIMIT,
    });
  }
  book.trade({ ...tiny, trade_date: "2024-03-01", type: "buy", quantity: 1, price: "1.0001", total_value: "1.0001" });
  const tinySell = book.trade({
    ...tiny,
    trade_date: "2024-04-01",
    type: "sell",
    quantity: 1,
    price: "1.0000",
    total_value: "1.0000",
  });
  return { book, customer, holding, buy, tinySell };
}

async function servedLimitBook() {
  const fixture = limitBook();
  const dbs = await withSource(fixture.book, { CACHE_TTL_SECONDS: "0" });
  await synced(dbs.env);
  const client = new Client(dbs.env);
  const text = async (path: string) => {
    const res = await client.get(path);
    expect(res.status, res.text).toBe(200);
    return res.text;
  };
  return { ...fixture, text, expected: referenceMetrics(fixture.book.transactions) };
}

describe("exact digits", () => {
  it("serves holdings and trades with the digits the back office stored, at the schema's limits", async () => {
    const { customer, holding, buy, text } = await servedLimitBook();
    const portfolio = await text(`/api/portfolio/${customer.slug}`);
    expect(portfolio).toContain(`"quantity":${INT_MAX},"avg_cost":1234567890123.4567,"total_cost":${LIMIT},`);
    expect(exactParse(portfolio)).toMatchObject({ data: [{ id: holding.id, total_cost: new NumberText(LIMIT) }] });

    const history = await text(`/api/transactions/${customer.slug}?stock_code=BIG&type=buy`);
    expect(history).toContain(
      `"quantity":${INT_MAX},"price":1234567890123.4567,"total_value":${LIMIT},"fee":0.0001,"personal_tax":0,`,
    );
    expect(history).toContain(`"id":"${buy.id}"`);
    // Postgres writes numeric(20,4) with four places; the API writes the shortest exact text.
    const tiny = await text(`/api/transactions/${customer.slug}?stock_code=TINY&type=sell`);
    expect(tiny).toContain(`"price":1,"total_value":1,"fee":0,"personal_tax":0,`);
  });

  it("serves stats and analytics past 2^53 and 10^21 exactly, without exponent, and a rounded loss as 0", async () => {
    const { book, customer, text, expected } = await servedLimitBook();
    const { stats, analytics } = expected;
    // The reference's figures are what the test is about: sums no double holds, a factor past 10^21.
    expect(stats.total_buy_value.text).toBe("10000000000000001");
    expect(stats.total_sell_value.text).toBe("110000000000000001");
    expect(pastDouble(stats.realized_pnl.text) && pastDouble(analytics.top_wins[0]!.realized_pnl.text)).toBe(true);
    expect(Decimal.compare(analytics.summary.profit_factor!, Decimal.parse("1e21"))).toBeGreaterThan(0);
    expect(analytics.top_losses.map((d) => d.realized_pnl.text)).toEqual(["0"]);

    // INT_MAX × LIMIT = 21474836469999999999785251.6353, less the cost of LIMIT, each rounded
    // once to 2 places (so the cost of LIMIT reads 10^16).
    const valuation =
      '"valuation":{"as_of":"2024-06-28","cost":10000000000000000,"priced_cost":10000000000000000,' +
      '"market_value":21474836469999999999785251.64,"unrealized_pnl":21474836459999999999785251.64,' +
      '"priced_holdings":1,"unpriced_holdings":0}';
    // The total return: the realized and dividend parts plus the exact unrealized P&L
    // (21474836469999999999785251.6353 − 9999999999999999.9999, in 10^-4 đồng), rounded once.
    const unrealized = 214748364599999999997852516354n;
    const served = { ...stats, total_return: referenceTotalReturn(book.transactions, [], [], unrealized) };
    expect(served.total_return.text).toBe("21474836569999999948562510.01");
    const statsText = await text(`/api/stats/${customer.slug}`);
    expect(statsText).toBe(`${JSON.stringify({ success: true, data: served }).slice(0, -2)},${valuation}}}`);
    expect(statsText).toContain('"total_buy_value":10000000000000001,"total_sell_value":110000000000000001,');

    const analyticsText = await text(`/api/analytics/${customer.slug}`);
    expect(exactParse(analyticsText)).toEqual(asServed({ success: true, data: analytics }));
    expect(analyticsText).toContain(`"profit_factor":${analytics.summary.profit_factor!.text},`);
    expect(analytics.summary.profit_factor!.text).toMatch(/^\d{22,}(\.\d{1,4})?$/);
    expect(analyticsText).toContain('"2024-04":0}');
    expect(analyticsText).not.toMatch(/-0[,}\]]|[eE][+-]?\d/);

    const aggregateText = await text(`/api/aggregate/${customer.slug}`);
    expect(exactParse(aggregateText)).toMatchObject(asServed({ data: { stats: served, analytics } }) as object);
    expect(aggregateText).toContain(`"total_cost":${LIMIT},`);
  });

  it("writes the same digits in the page's <data value>, and shows them without a trip through a double", async () => {
    const { customer, text, expected } = await servedLimitBook();
    const html = await text(`/c/${customer.slug}?per_page=100`);
    for (const value of [
      "1234567890123.4567",
      LIMIT,
      "0.0001",
      expected.stats.realized_pnl.text,
      expected.analytics.summary.profit_factor!.text,
    ]) {
      expect(html, value).toContain(`<data value="${value}"`);
    }
    // Money in whole đồng (docs/page.md), rounded from the exact decimal.
    const money = new Intl.NumberFormat("vi-VN", { style: "currency", currency: "VND", maximumFractionDigits: 0 });
    const realized = expected.analytics.summary.total_realized_pnl.text;
    const shown = money.format(realized as Intl.StringNumericLiteral);
    // The decimal formatted as text differs from the double's: the page shows the former.
    expect(shown).not.toBe(money.format(Number(realized)));
    expect(html).toContain(`<data value="${realized}" class="gain">${shown}</data>`);
    expect(html).not.toContain('<data value="-0"');
  });
});
