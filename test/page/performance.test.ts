/**
 * The page's performance: today's change at the top, the chosen range's figures and charts
 * below, for the worked example of docs/performance.md synced (a buy, a cash dividend on its
 * ex-date paid weeks later, a sell, over four market days), equal to GET /api/performance for
 * the same slug and range; a bad `range` is the page's 400; a customer whose history is being
 * built reads so, not an error page.
 */
import { describe, expect, it } from "vitest";
import { getJson } from "../support/worker";
import { synced, withSource } from "../sync/helpers";
import { exampleBook } from "../performance/example-book";
import { figure, figurePart, getPage, relLink, section, tableRows } from "./html";

const NBSP = "\u00a0";

async function syncedExample() {
  const { book, slug } = exampleBook();
  const dbs = await withSource(book);
  await synced(dbs.env);
  return { dbs, slug };
}

describe("GET /c/:slug, performance", () => {
  it("opens on today's change with its two dates, then the whole history's figures, as the API has them", async () => {
    const { dbs, slug } = await syncedExample();
    const today = (await getJson(dbs.env, `/api/performance/${slug}?range=1d`)).body.data;
    // 60 FPT from 103,000 to 104,000: 6,180,000 to 6,240,000, no money in or out.
    expect(today).toMatchObject({
      start_date: "2024-06-05",
      end_date: "2024-06-06",
      end_value: 6240000,
      pnl: 60000,
      twr: 0.0097,
    });

    const { status, html } = await getPage(dbs.env, `/c/${slug}`);
    expect(status).toBe(200);
    // Today first, before the accounts; the chosen range after them.
    const order = ['id="today"', 'id="accounts"', 'id="performance"', 'id="valuation"'].map((m) => html.indexOf(m));
    expect(
      order.every((p, i) => p > (order[i - 1] ?? 0)),
      JSON.stringify(order),
    ).toBe(true);

    const top = section(html, "today");
    expect(figure(top, "today_value")).toEqual({ value: "6240000", text: `6.240.000${NBSP}₫` });
    expect(top).toContain('<time datetime="2024-06-05">05/06/2024</time> → <time datetime="2024-06-06">06/06/2024</time>');
    expect(figurePart(top, "today_change", "pnl")).toEqual({ value: "60000", text: `60.000${NBSP}₫` });
    expect(figurePart(top, "today_change", "twr")).toEqual({ value: "0.0097", text: "+0,97%" });

    // The default range is the whole history: the worked example's figures.
    const max = (await getJson(dbs.env, `/api/performance/${slug}?range=max`)).body.data;
    const body = section(html, "performance");
    expect(body).toContain(`<a href="/c/${slug}?lang=vi" aria-current="page">Tất cả</a>`);
    expect(body).toContain(`<a href="/c/${slug}?lang=vi&amp;range=1y">1 năm</a>`);
    expect(figure(body, "period_pnl")).toEqual({ value: String(max.pnl), text: `545.730${NBSP}₫` });
    expect(figure(body, "period_twr")).toEqual({ value: String(max.twr), text: "+5,89%" });
    expect(figure(body, "period_mwr")).toEqual({ value: String(max.mwr.rate), text: "+6,40%" });
    expect(figure(body, "period_benchmark")).toEqual({ value: String(max.benchmark.return), text: "+0,18%" });
    expect(figure(body, "period_dividends_receivable")).toEqual({ value: "190000", text: `190.000${NBSP}₫` });
    // Under a year: no annualized figures, as the API's null says.
    expect(max.annualized).toBeNull();
    expect(body).not.toContain("period_annualized");

    // Both charts named for a screen reader, their figures in tables equal to the API's points.
    expect(body).toContain('role="img" aria-labelledby="performance-value-chart-title performance-value-chart-desc"');
    expect(body).toContain('role="img" aria-labelledby="performance-return-chart-title performance-return-chart-desc"');
    expect(tableRows(body, "performance_value")).toEqual(
      max.points.map((p: { date: string; value: number; net_invested: number }) => [
        p.date,
        String(p.value),
        String(p.net_invested),
      ]),
    );
    expect(tableRows(body, "performance_return")).toEqual(
      max.points.map((p: { date: string; twr: number; benchmark: number | null }) => [
        p.date,
        String(p.twr),
        p.benchmark === null ? "" : String(p.benchmark),
      ]),
    );
  });

  it("reads the range picked by link in the page's one round trip, in English too", async () => {
    const { dbs, slug } = await syncedExample();
    const api = (await getJson(dbs.env, `/api/performance/${slug}?range=1m`)).body.data;
    expect(await dbs.targetTrips(() => getPage(dbs.env, `/c/${slug}?range=1m&lang=en`))).toBe(1);
    expect(await dbs.targetTrips(() => getPage(dbs.env, `/c/${slug}?range=2y&lang=en`))).toBe(1);
    const page = await getPage(dbs.env, `/c/${slug}?range=1m&lang=en`);
    expect(page.status).toBe(200);
    const body = section(page.html, "performance");
    expect(body).toContain(`<a href="/c/${slug}?lang=en&amp;range=1m" aria-current="page">1 month</a>`);
    expect(body).toContain('data-performance="1m"');
    expect(figure(body, "period_pnl")).toEqual({ value: String(api.pnl), text: "₫545,730" });
    expect(figure(body, "period_twr")).toEqual({ value: String(api.twr), text: "+5.89%" });
    expect(figure(body, "period_mwr")).toEqual({ value: String(api.mwr.rate), text: "+6.40%" });
    expect(figurePart(section(page.html, "today"), "today_change", "twr")).toEqual({ value: "0.0097", text: "+0.97%" });
    expect(page.html).toContain('<h2 id="performance">Performance</h2>');

    // The history's page links and form keep the chosen range, so paging trades leaves the chart as it was.
    const paged = (await getPage(dbs.env, `/c/${slug}?range=1m&per_page=1`)).html;
    expect(relLink(paged, "next")).toBe(`/c/${slug}?lang=vi&range=1m&page=2&per_page=1`);
    expect(paged).toContain('<input type="hidden" name="range" value="1m"/>');
    expect((await getPage(dbs.env, `/c/${slug}?per_page=1`)).html).not.toContain('name="range"');
  });

  it("answers 400 for a range it does not know, showing the links and the rest of the page", async () => {
    const { dbs, slug } = await syncedExample();
    expect((await getJson(dbs.env, `/api/performance/${slug}?range=2y`)).status).toBe(400);
    const { status, html } = await getPage(dbs.env, `/c/${slug}?range=2y&lang=en`);
    expect(status).toBe(400);
    const body = section(html, "performance");
    expect(body).toContain("The period &quot;2y&quot; is not one we know: pick one of the links below.");
    expect(body).not.toContain("aria-current");
    expect(body).not.toContain("data-performance");
    // Today's change and the other sections still show.
    expect(figure(section(html, "today"), "today_value").value).toBe("6240000");
    expect(html).toContain('id="history"');
    // A range is exactly lowercase, as in the API.
    expect((await getPage(dbs.env, `/c/${slug}?range=1Y`)).status).toBe(400);
  });

  it("says the history is being prepared while the sync builds it, not an error page", async () => {
    const { dbs, slug } = await syncedExample();
    // As the code before position steps left the target (test/performance/sync.test.ts).
    await dbs.target`delete from position_steps`;
    await dbs.target`update metrics_rules set version = version - 1`;
    const { status, html } = await getPage(dbs.env, `/c/${slug}?lang=en`);
    expect(status).toBe(200);
    const prepared = "The portfolio&#39;s history is being prepared. Please reload this page in a few minutes.";
    expect(section(html, "today")).toContain(prepared);
    expect(section(html, "performance")).toContain(prepared);
    expect(html).toContain('id="holdings"');
  });
});
