/**
 * GET /c/:slug, the customer's page, on the database path (edge cache off): what it shows for the
 * API suites' known book, in both languages, how filters and pages work, what a wrong filter
 * or an unknown slug shows, its headers, and its one database round trip.
 */
import { describe, expect, it, vi } from "vitest";
import { STYLESHEET } from "../../src/page/styles";
import { setFault } from "../support/databases";
import { BAD_DATES, EDGE_DATES, MALFORMED_SLUGS, withInvestor } from "../api/fixture";
import { figure, getPage, historyIds, relLink, tableRows } from "./html";

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

const NBSP = "\u00a0";

describe("GET /c/:slug", () => {
  it("shows the customer's sections in the order of the issue, with the API's figures", async () => {
    const { env, customer, expected } = await withInvestor();
    const { status, headers, html } = await getPage(env, `/c/${customer.slug}`);
    expect(status).toBe(200);
    expect(headers.get("Content-Type")).toBe("text/html; charset=UTF-8");
    expect(html.startsWith('<!doctype html><html lang="vi">')).toBe(true);

    const order = [
      "Trần Văn Minh",
      "Nguyễn Thị Lan",
      'id="accounts"',
      'id="valuation"',
      'id="returns"',
      'id="summary"',
      'id="pnl-chart-heading"',
      'id="trades-chart-heading"',
      'id="holdings"',
      'id="top-deals"',
      'id="received"',
      'id="history"',
    ];
    const positions = order.map((marker) => html.indexOf(marker));
    expect(
      positions.every((p) => p >= 0),
      JSON.stringify(positions),
    ).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);

    const s = expected.analytics.summary;
    expect(figure(html, "total_realized_pnl")).toEqual({ value: String(s.total_realized_pnl), text: `783.738${NBSP}₫` });
    expect(figure(html, "win_rate")).toEqual({ value: "0.5", text: "50%" });
    expect(figure(html, "profit_factor")).toEqual({ value: "4.8241", text: "4,8241" });
    expect(figure(html, "avg_win_pnl")).toEqual({ value: "988685", text: `988.685${NBSP}₫` });
    expect(figure(html, "avg_loss_pnl")).toEqual({ value: "-204947", text: `-204.947${NBSP}₫` });
    expect(figure(html, "avg_holding_days").value).toBe("36 56");
    expect(figure(html, "total_fee_tax")).toEqual({ value: "16330.25", text: `16.330${NBSP}₫` });

    // Months without a sale still appear, so both charts share one axis.
    expect(tableRows(html, "monthly_realized_pnl")).toEqual([
      ["0", "0"],
      ["988685", "988685"],
      ["-204947", "783738"],
    ]);
    expect(tableRows(html, "monthly_trade_counts")).toEqual([["2"], ["2"], ["2"]]);
    expect(html).toContain(
      '<svg class="chart" viewBox="0 0 480 240" role="img" aria-labelledby="pnl-chart-title pnl-chart-desc"',
    );
    expect(html).toContain(`<desc id="pnl-chart-desc">Từ 01/2024 đến 03/2024, lãi/lỗ lũy kế đạt 783.738${NBSP}₫`);

    // Each holding's close, its date, value and unrealized P&L; an unpriced one says so with empty values.
    const shown = (x: number | string | null) => (x === null ? "" : String(x));
    expect(tableRows(html, "holdings")).toEqual(
      expected.portfolio.map((h) => [
        String(h.quantity),
        String(h.avg_cost),
        String(h.total_cost),
        ...(h.market_price === null ? [""] : [shown(h.market_price), shown(h.price_date)]),
        shown(h.market_value),
        shown(h.unrealized_pnl),
      ]),
    );
    expect(html).toContain(`<data value="33268111.42">33.268.111${NBSP}₫</data>`); // the total cost of all holdings
    expect(html).toContain(`<data value="120500.5555">120.500,5555${NBSP}₫</data>`); // a close keeps its 4 decimals
    expect(html).toContain(`<data value="">Chưa có giá</data>`);
    // Allocation by market value: 24,100,111.10 of 24,100,111.10 + 12,050,055.55 + 3,500,025 (VNM, by cost).
    expect(html).toContain("60,78%");
    expect(html).toContain("8,83%<small> (theo giá vốn)</small>");

    const value = expected.stats.valuation;
    expect(figure(html, "market_value")).toEqual({ value: String(value.market_value), text: `36.150.167${NBSP}₫` });
    expect(figure(html, "unrealized_pnl")).toEqual({ value: String(value.unrealized_pnl), text: `6.382.080${NBSP}₫` });
    expect(figure(html, "priced_cost")).toEqual({ value: String(value.priced_cost), text: `29.768.086${NBSP}₫` });
    expect(html).toContain('Theo giá đóng cửa ngày <time datetime="2024-06-28">28/06/2024</time>');
    expect(html).toContain("1 khoản chưa có giá");
    expect(tableRows(html, "top_wins")).toEqual([["2024-02-10", "988685", "36", "100"]]);
    expect(tableRows(html, "top_losses")).toEqual([["2024-03-01", "-204947", "56", "200"]]);

    const t = expected.trades;
    expect(historyIds(html)).toEqual([t.t6, t.t5, t.t4, t.t3, t.t2, t.t1].map((x) => x.id));
    expect(tableRows(html, "history")[2]).toEqual(["2024-02-20", "buy", "50", "70000", "3500000", "52.5", "0"]);
    expect(html).toContain('<time datetime="2024-02-20">20/02/2024</time>');
  });

  it("speaks English for ?lang=en or a browser that prefers English, Vietnamese otherwise", async () => {
    const { env, customer } = await withInvestor();
    const cases: Array<[string, Record<string, string>, "vi" | "en"]> = [
      ["", {}, "vi"],
      ["?lang=en", {}, "en"],
      ["?lang=en", { "Accept-Language": "vi" }, "en"],
      ["?lang=vi", { "Accept-Language": "en-US,en;q=0.9" }, "vi"],
      ["", { "Accept-Language": "en-US,en;q=0.9" }, "en"],
      ["", { "Accept-Language": "fr-FR, en;q=0.5, vi;q=0.4" }, "en"],
      ["", { "Accept-Language": "fr-FR, en;q=0.3, vi;q=0.4" }, "vi"],
      ["?lang=fr", { "Accept-Language": "de" }, "vi"],
    ];
    for (const [query, headers, lang] of cases) {
      const page = await getPage(env, `/c/${customer.slug}${query}`, headers);
      expect({
        query,
        headers,
        status: page.status,
        lang: /<html lang="(\w+)">/.exec(page.html)?.[1],
        header: page.headers.get("Content-Language"),
      }).toEqual({
        query,
        headers,
        status: 200,
        lang,
        header: lang,
      });
      expect(page.headers.get("Vary")).toContain("Accept-Language");
      // Detected from the request alone: a page cached per language must not set or read a cookie.
      expect(page.headers.get("Set-Cookie")).toBeNull();
    }
    const withCookie = await getPage(env, `/c/${customer.slug}`, { Cookie: "language=en" });
    expect(/<html lang="(\w+)">/.exec(withCookie.html)?.[1]).toBe("vi");
    const { html } = await getPage(env, `/c/${customer.slug}?lang=en`);
    expect(html).toContain("<title>Trần Văn Minh&#39;s portfolio</title>");
    expect(figure(html, "total_realized_pnl").text).toBe("₫783,738");
    expect(figure(html, "total_fee_tax").text).toBe("₫16,330");
    expect(html).toContain('<time datetime="2024-02-20">20 Feb 2024</time>');
    expect(figure(html, "unrealized_pnl").text).toBe("₫6,382,080");
    expect(html).toContain('At the close of <time datetime="2024-06-28">28 Jun 2024</time>');
    expect(html).toContain('<h2 id="valuation">Portfolio value</h2>');
    expect(html).toContain("(by cost)");
  });

  it("filters and pages the history like the API, with links that keep the filters and the language", async () => {
    const { env, customer, expected } = await withInvestor();
    const t = expected.trades;
    const base = `/c/${customer.slug}`;

    const first = await getPage(env, `${base}?per_page=2&lang=en`);
    expect(historyIds(first.html)).toEqual([t.t6.id, t.t5.id]);
    expect(first.html).toContain("Page 1 of 3 · 6 trades");
    expect(relLink(first.html, "prev")).toBeUndefined();
    const next = relLink(first.html, "next")!;
    expect(next).toBe(`${base}?lang=en&page=2&per_page=2`);
    const second = await getPage(env, next);
    expect(historyIds(second.html)).toEqual([t.t4.id, t.t3.id]);
    expect(relLink(second.html, "prev")).toBe(`${base}?lang=en&per_page=2`);

    const sells = await getPage(env, `${base}?type=sell&broker=ssi&stock_code=fpt`);
    expect(historyIds(sells.html)).toEqual([t.t3.id]);
    expect(sells.html).toContain('<option value="SSI" selected="">');
    expect(sells.html).toContain('<input name="stock_code" value="FPT"');

    const dated = await getPage(env, `${base}?start_date=2024-02-01&end_date=2024-02-29`);
    expect(historyIds(dated.html)).toEqual([t.t4.id, t.t3.id]);
    // Typed dd/mm/yyyy, as the form shows dates: the same filter, the same links.
    const typed = await getPage(env, `${base}?start_date=1/02/2024&end_date=29%2F02%2F2024`);
    expect(historyIds(typed.html)).toEqual([t.t4.id, t.t3.id]);
    expect(typed.html).toContain('<input name="start_date" value="01/02/2024"');
    const invalid = await getPage(env, `${base}?start_date=30/02/2024`);
    expect(invalid.status).toBe(400);
    expect(invalid.html).toContain('<li data-field="start_date">');
    expect(invalid.html).toContain('<input name="start_date" value="30/02/2024"');

    // What a plain form submits when nothing is chosen: every field, empty.
    const blank = await getPage(env, `${base}?lang=vi&broker=&stock_code=&type=&start_date=&end_date=`);
    expect(blank.status).toBe(200);
    expect(historyIds(blank.html)).toHaveLength(6);

    const past = await getPage(env, `${base}?page=9`);
    expect(past.status).toBe(200);
    expect(historyIds(past.html)).toEqual([]);
    expect(past.html).toContain("Trang này không có giao dịch.");

    const none = await getPage(env, `${base}?stock_code=ZZZ`);
    expect(none.html).toContain("Không có giao dịch nào khớp bộ lọc.");
  });

  it("answers an invalid filter with 400 and says which, still showing the customer", async () => {
    const { env, customer } = await withInvestor();
    const cases: Array<[string, string[]]> = [
      ["?per_page=101", ["per_page"]],
      ["?page=0&type=hold", ["page", "type"]],
      ["?start_date=2024-02-30", ["start_date"]],
      ["?stock_code=FPT!", ["stock_code"]],
    ];
    for (const [query, fields] of cases) {
      const page = await getPage(env, `/c/${customer.slug}${query}`);
      expect({ query, status: page.status }).toEqual({ query, status: 400 });
      expect(page.headers.get("Cache-Control")).toBe("private, no-store");
      expect([...page.html.matchAll(/<li data-field="(\w+)">/g)].map((m) => m[1])).toEqual(fields);
      expect(page.html).toContain("Bộ lọc không hợp lệ");
      expect(page.html).toContain("Trần Văn Minh");
      expect(historyIds(page.html)).toEqual([]);
    }
    const order = await getPage(env, `/c/${customer.slug}?lang=en&start_date=2024-03-01&end_date=2024-01-01`);
    expect(order.status).toBe(400);
    expect(order.html).toContain('<li data-field="start_date">From: must not be after To</li>');
    // The date as typed in the form's own order, never the browser's date field.
    expect(order.html).toContain('<input name="start_date" value="01/03/2024"');
    expect(order.html).not.toContain('type="date"');
  });

  it("takes dates from 0001-01-01 to 9999-12-31 and answers any other, year 0000 included, with the 400 page", async () => {
    const { env, customer, expected } = await withInvestor();
    for (const date of BAD_DATES) {
      for (const field of ["start_date", "end_date"]) {
        const page = await getPage(env, `/c/${customer.slug}?lang=en&${field}=${encodeURIComponent(date)}`);
        expect({ field, date, status: page.status }).toEqual({ field, date, status: 400 });
        const name = field === "start_date" ? "From" : "To";
        expect(page.html).toContain(`<li data-field="${field}">${name}: must be a real date from 1 Jan 0001 to 31 Dec 9999</li>`);
        expect(historyIds(page.html)).toEqual([]);
      }
    }
    const vi = await getPage(env, `/c/${customer.slug}?start_date=0000-01-01`);
    expect(vi.html).toContain('<li data-field="start_date">Từ ngày: phải là một ngày có thật, từ 01/01/0001 đến 31/12/9999</li>');

    const t = expected.trades;
    const all = [t.t6, t.t5, t.t4, t.t3, t.t2, t.t1].map((x) => x.id);
    for (const date of EDGE_DATES) {
      const early = date < "2024-01-05";
      const from = await getPage(env, `/c/${customer.slug}?start_date=${date}`);
      const to = await getPage(env, `/c/${customer.slug}?end_date=${date}`);
      expect({ date, from: from.status, to: to.status }).toEqual({ date, from: 200, to: 200 });
      expect(historyIds(from.html), date).toEqual(early ? all : []);
      expect(historyIds(to.html), date).toEqual(early ? [] : all);
    }
  });

  it("shows a 404 page for an unknown or malformed slug", async () => {
    const { env } = await withInvestor();
    for (const slug of ["unknownslugaaaaaaaaaaaaaaaa", ...MALFORMED_SLUGS]) {
      const page = await getPage(env, `/c/${encodeURIComponent(slug)}`);
      expect({ slug, status: page.status }).toEqual({ slug, status: 404 });
      expect(page.headers.get("Content-Type")).toBe("text/html; charset=UTF-8");
      expect(page.html).toContain("<h1>Không tìm thấy trang</h1>");
    }
    const english = await getPage(env, "/c/unknownslugaaaaaaaaaaaaaaaa?lang=en");
    expect(english.html).toContain("<h1>Page not found</h1>");
  });

  it("carries the security headers, noindex, and a policy that allows only the page's own stylesheet", async () => {
    const { env, customer } = await withInvestor();
    for (const path of [`/c/${customer.slug}`, "/c/unknownslugaaaaaaaaaaaaaaaa", `/c/${customer.slug}?page=0`]) {
      const { headers, html } = await getPage(env, path);
      expect(headers.get("Content-Security-Policy")).toBe(
        `default-src 'none'; style-src 'sha256-${await sha256(STYLESHEET)}'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
      );
      expect(headers.get("X-Robots-Tag")).toBe("noindex, nofollow");
      expect(headers.get("Referrer-Policy")).toBe("no-referrer");
      expect(headers.get("X-Frame-Options")).toBe("DENY");
      expect(headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
      expect(html).toContain(`<style>${STYLESHEET}</style>`);
      expect(html).not.toMatch(/<script|\sstyle=|\son[a-z]+=|https?:\/\//);
    }
  });

  it("escapes what the back office wrote", async () => {
    const { dbs, customer } = await withInvestor();
    await dbs.target`update customers set name = ${'<script>alert("x")</script>'} where id = ${customer.id}`;
    const { html } = await getPage(dbs.env, `/c/${customer.slug}`);
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });

  it("shows a 503 page with the request id when the database fails, and never the error", async () => {
    const { dbs, customer } = await withInvestor();
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await setFault(dbs.targetName, "error500");
    try {
      const page = await getPage(dbs.env, `/c/${customer.slug}?lang=en`, { "X-Request-Id": "page-outage-0001" });
      expect(page.status).toBe(503);
      expect(page.headers.get("Content-Type")).toBe("text/html; charset=UTF-8");
      expect(page.headers.get("Content-Security-Policy")).toMatch(/^default-src 'none'; style-src 'sha256-/);
      expect(page.html).toContain("<h1>This page cannot be shown right now</h1>");
      expect(page.html).toContain("<code>page-outage-0001</code>");
      expect(page.html).not.toMatch(/simulated|NeonDbError|select /i);
    } finally {
      await setFault(dbs.targetName, "off");
      errors.mockRestore();
    }
  });

  it("costs one database round trip, for a page, a wrong filter and an unknown slug alike", async () => {
    const { dbs, customer } = await withInvestor();
    for (const path of [
      `/c/${customer.slug}`,
      `/c/${customer.slug}?type=sell&per_page=1&page=2`,
      `/c/${customer.slug}?per_page=0`,
      "/c/unknownslugaaaaaaaaaaaaaaaa",
    ]) {
      expect({ path, trips: await dbs.targetTrips(() => getPage(dbs.env, path)) }).toEqual({ path, trips: 1 });
    }
  });
});
