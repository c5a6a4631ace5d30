/**
 * The page's "what the portfolio earned" section: total return, the FIFO and the average-cost
 * realized figures side by side with the line on why they differ, and the net cash dividends,
 * for a book worked by hand, in both languages, equal to the API's stats for the same slug.
 */
import { describe, expect, it } from "vitest";
import { withInvestor } from "../api/fixture";
import { apiDatabases } from "../support/api";
import { Book, writeTarget } from "../support/book";
import { getJson } from "../support/worker";
import { figure, figurePart, getPage } from "./html";

const NBSP = "\u00a0";

/**
 * FPT bought 100 at 100,000 and 100 at 120,000, then 100 sold at 130,000 (tax 13,000). FIFO
 * sells the first lot: 12,987,000 - 10,000,000 = 2,987,000. Average cost sells 100 of 200 that
 * cost 22,000,000: 12,987,000 - 11,000,000 = 1,987,000. A cash dividend of 200,000.50 with
 * 10,000.025 withheld nets 190,000.475 (190,000.48). The 100 held, at the broker's average cost
 * of 11,000,000, close at 125,000.50: 12,500,050 worth, 1,500,050 unrealized. Total return:
 * 1,987,000 + 190,000.475, rounded once (2,177,000.48), + 1,500,050 = 3,677,050.48.
 */
function twoPriceBook() {
  const book = new Book();
  const { customer, account } = book.simpleCustomer();
  const fpt = { account_id: account.id };
  book.trade({ ...fpt, trade_date: "2024-01-05", type: "buy", quantity: 100, price: "100000" });
  book.trade({ ...fpt, trade_date: "2024-02-05", type: "buy", quantity: 100, price: "120000" });
  book.trade({ ...fpt, trade_date: "2024-03-05", type: "sell", quantity: 100, price: "130000" });
  book.corporateAction({
    ...fpt,
    type: "cash_dividend",
    ex_date: "2024-04-01",
    pay_date: "2024-04-20",
    quantity: 100,
    gross_amount: "200000.5000",
    tax: "10000.0250",
  });
  book.holding({ ...fpt, quantity: 100, avg_cost: "110000.0000", total_cost: "11000000.0000" });
  book.price({ stock_code: "FPT", trade_date: "2024-06-28", close_price: "125000.5000" });
  return { book, slug: customer.slug };
}

describe("GET /c/:slug, what the portfolio earned", () => {
  it("shows total return, both realized figures and the net dividends, exactly as the API has them", async () => {
    const dbs = await apiDatabases();
    const { book, slug } = twoPriceBook();
    await writeTarget(dbs.target, book);
    const stats = (await getJson(dbs.env, `/api/stats/${slug}`)).body.data;
    expect({
      total_return: stats.total_return,
      realized_pnl: stats.realized_pnl,
      realized_pnl_average_cost: stats.realized_pnl_average_cost,
      dividends: stats.dividends,
    }).toEqual({
      total_return: 3677050.48,
      realized_pnl: 2987000,
      realized_pnl_average_cost: 1987000,
      dividends: { count: 1, gross: 200000.5, tax: 10000.03, net: 190000.48 },
    });

    const vi = (await getPage(dbs.env, `/c/${slug}`)).html;
    const order = ['id="valuation"', 'id="returns"', 'id="summary"'].map((marker) => vi.indexOf(marker));
    expect(order.every((p, i) => p > (order[i - 1] ?? 0))).toBe(true);
    expect(vi).toContain('<h2 id="returns">Kết quả đầu tư</h2>');
    expect(figure(vi, "total_return")).toEqual({ value: "3677050.48", text: `3.677.050${NBSP}₫` });
    expect(figure(vi, "realized_pnl")).toEqual({ value: "2987000", text: `2.987.000${NBSP}₫` });
    expect(figure(vi, "realized_pnl_average_cost")).toEqual({ value: "1987000", text: `1.987.000${NBSP}₫` });
    expect(figure(vi, "dividends")).toEqual({ value: "190000.48", text: `190.000${NBSP}₫` });
    expect(figurePart(vi, "dividends", "gross")).toEqual({ value: "200000.5", text: `200.001${NBSP}₫` });
    expect(figurePart(vi, "dividends", "tax")).toEqual({ value: "10000.03", text: `10.000${NBSP}₫` });
    expect(figurePart(vi, "dividends", "count")).toEqual({ value: "1", text: "1" });
    expect(vi).toContain("<dt>Lãi/lỗ đã thực hiện (FIFO)</dt>");
    expect(vi).toContain("<dt>Lãi/lỗ đã thực hiện (giá vốn bình quân)</dt>");
    expect(vi).toContain("nên hai con số khác nhau khi một mã được mua ở nhiều mức giá.</p>");

    const en = (await getPage(dbs.env, `/c/${slug}?lang=en`)).html;
    expect(en).toContain('<h2 id="returns">What the portfolio earned</h2>');
    expect(figure(en, "total_return")).toEqual({ value: "3677050.48", text: "₫3,677,050" });
    expect(figure(en, "realized_pnl")).toEqual({ value: "2987000", text: "₫2,987,000" });
    expect(figure(en, "realized_pnl_average_cost")).toEqual({ value: "1987000", text: "₫1,987,000" });
    expect(figure(en, "dividends")).toEqual({ value: "190000.48", text: "₫190,000" });
    expect(figurePart(en, "dividends", "gross")).toEqual({ value: "200000.5", text: "₫200,001" });
    expect(figurePart(en, "dividends", "tax")).toEqual({ value: "10000.03", text: "₫10,000" });
    expect(en).toContain("<dt>Realized P&amp;L (FIFO)</dt>");
    expect(en).toContain("<dt>Realized P&amp;L (average cost)</dt>");
    expect(en).toContain("so the two differ when a stock was bought at several prices.</p>");
  });

  it("says when no cash dividend was received, and shows no section for a customer with nothing", async () => {
    const { env, customer, expected } = await withInvestor();
    const html = (await getPage(env, `/c/${customer.slug}?lang=en`)).html;
    expect(figure(html, "total_return")).toEqual({ value: String(expected.stats.total_return), text: "₫7,165,818" });
    expect(figure(html, "dividends")).toEqual({ value: "0", text: "₫0" });
    expect(html).toContain("<small>No cash dividend yet.</small>");
    expect(html).not.toContain('data-part="gross"');

    const dbs = await apiDatabases();
    const empty = new Book();
    const { customer: nobody } = empty.simpleCustomer();
    await writeTarget(dbs.target, empty);
    const page = await getPage(dbs.env, `/c/${nobody.slug}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('id="summary"');
    expect(page.html).not.toContain('id="returns"');
  });
});
