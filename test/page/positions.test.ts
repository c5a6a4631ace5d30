/**
 * The page's "what moved the range": the worst fall with its peak and low, and each stock's gain,
 * return and weight in the API's order, each code a link to its trades, for a book worked out by
 * hand, equal to GET /api/performance for the same slug and range.
 */
import { describe, expect, it } from "vitest";
import { getJson } from "../support/worker";
import { ledger, syncedBook } from "../performance/ledger";
import { figure, getPage, historyIds, section, tableRows, tableTexts } from "./html";

const NBSP = "\u00a0";
const HPG = { stock_code: "HPG", isin_code: "VN000000HPG4" };
const ACB = { stock_code: "ACB", isin_code: "VN000000ACB2" };

/**
 * 100 FPT at 10,000, 50 HPG at 20,000 and 10 ACB at 10,000 bought on 1 March, no fee; the ACB
 * sold on 4 March at 9,000. FPT closes 10,000, 12,000, 12,000, 9,000, 12,000 (1, 4, 5, 6, 7
 * March), HPG 20,000 throughout, ACB 10,000 and 9,000.
 */
async function syncedBookOfThree() {
  const l = ledger();
  l.buy("2024-03-01", 100, "10000");
  l.buy("2024-03-01", 50, "20000", HPG);
  l.buy("2024-03-01", 10, "10000", ACB);
  l.sell("2024-03-04", 10, "9000", ACB);
  const days = ["2024-03-01", "2024-03-04", "2024-03-05", "2024-03-06", "2024-03-07"];
  l.closes(
    days.map((d, i) => [d, ["10000", "12000", "12000", "9000", "12000"][i]!] as const),
    "FPT",
  );
  l.closes(
    days.map((d) => [d, "20000"] as const),
    "HPG",
  );
  l.closes(
    [
      ["2024-03-01", "10000"],
      ["2024-03-04", "9000"],
    ],
    "ACB",
  );
  l.closes(days.map((d) => [d, "1000"] as const));
  return { dbs: await syncedBook(l.book), slug: l.customer.slug };
}

describe("GET /c/:slug, what moved the range", () => {
  it("shows the worst fall with its dates and each stock in the API's order, each code a link to its trades", async () => {
    const { dbs, slug } = await syncedBookOfThree();
    const api = (await getJson(dbs.env, `/api/performance/${slug}`)).body.data;
    // Growth: 1 (03-01), 2,290,000 / 2,100,000 (03-04, the ACB's 90,000 out), the same on 03-05
    // (2,200,000 / 2,200,000), then × 1,900,000 / 2,200,000 on 03-06: a fall of
    // 1 - 19/22 = 0.136363…, from the latest peak (03-05) to the earliest low (03-06).
    expect(api.drawdown).toEqual({ max: 0.1364, peak_date: "2024-03-05", trough_date: "2024-03-06" });
    // By end value: FPT 1,200,000 (of 2,200,000), HPG 1,000,000, ACB 0 (sold for 10,000 less
    // than it cost, -10%): not in the codes' own order.
    expect(api.positions.map((p: { stock_code: string }) => p.stock_code)).toEqual(["FPT", "HPG", "ACB"]);

    const vi = section((await getPage(dbs.env, `/c/${slug}`)).html, "performance");
    expect(figure(vi, "period_drawdown")).toEqual({ value: "0.1364", text: "-13,64%" });
    expect(vi).toContain(
      'data-part="drawdown_dates">Đỉnh <time datetime="2024-03-05">05/03/2024</time> → đáy <time datetime="2024-03-06">06/03/2024</time>',
    );
    expect(vi).toContain('<h3 id="positions-heading">Lãi/lỗ theo mã</h3>');
    // Each row's figures are the API's exact ones; the text is whole đồng and the page's rates.
    expect(tableRows(vi, "positions")).toEqual(
      api.positions.map((p: { pnl: number; twr: number; weight: number }) => [String(p.pnl), String(p.twr), String(p.weight)]),
    );
    expect(tableTexts(vi, "positions")).toEqual([
      ["FPT", `200.000${NBSP}₫`, "+20,00%", "54,55%"],
      ["HPG", `0${NBSP}₫`, "0,00%", "45,45%"],
      ["ACB", `-10.000${NBSP}₫`, "-10,00%", "0%"],
    ]);
    const hrefs = [...vi.matchAll(/<th scope="row" data-label="Mã CK"><a href="([^"]+)">/g)].map((m) => m[1]);
    expect(hrefs).toEqual(["FPT", "HPG", "ACB"].map((code) => `/c/${slug}?lang=vi&amp;stock_code=${code}#history`));

    // In English over a range picked by link: the links keep the range.
    const en = section((await getPage(dbs.env, `/c/${slug}?range=1m&lang=en`)).html, "performance");
    expect(figure(en, "period_drawdown")).toEqual({ value: "0.1364", text: "-13.64%" });
    expect(en).toContain(
      'data-part="drawdown_dates">Peak <time datetime="2024-03-05">5 Mar 2024</time> → low <time datetime="2024-03-06">6 Mar 2024</time>',
    );
    expect(tableTexts(en, "positions").map((row) => row.join(" | "))).toEqual([
      "FPT | ₫200,000 | +20.00% | 54.55%",
      "HPG | ₫0 | 0.00% | 45.45%",
      "ACB | -₫10,000 | -10.00% | 0%",
    ]);
    expect(en).toContain(`<a href="/c/${slug}?lang=en&amp;range=1m&amp;stock_code=ACB#history">ACB</a>`);

    // The link opens the history of that code alone: the ACB's buy and sell.
    const acb = await getPage(dbs.env, `/c/${slug}?lang=vi&stock_code=ACB`);
    expect(acb.status).toBe(200);
    const trades = (await getJson(dbs.env, `/api/transactions/${slug}?stock_code=ACB`)).body.data;
    expect(trades).toHaveLength(2);
    expect(historyIds(acb.html)).toEqual(trades.map((tx: { id: string }) => tx.id));
  });

  it("says there was no fall when the growth never went down", async () => {
    const l = ledger();
    l.buy("2024-03-01", 100, "10000");
    l.closes(
      [
        ["2024-03-01", "10000"],
        ["2024-03-04", "11000"],
      ],
      "FPT",
    );
    l.closes([
      ["2024-03-01", "1000"],
      ["2024-03-04", "1000"],
    ]);
    const dbs = await syncedBook(l.book);
    const body = section((await getPage(dbs.env, `/c/${l.customer.slug}?lang=en`)).html, "performance");
    expect(figure(body, "period_drawdown")).toEqual({ value: "0", text: "0.00%" });
    expect(body).toContain("No fall in the period.");
    expect(tableTexts(body, "positions")).toEqual([["FPT", "₫100,000", "+10.00%", "100%"]]);
  });
});
