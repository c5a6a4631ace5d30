/**
 * One gain on the page: where the whole history's gain (performance `pnl` over `max`, from the
 * trades) and `stats.total_return` (from the holdings the back office reports) differ, the page
 * says by how much and why, in one sentence; positions with no close are named as counted at
 * cost; and the page says when its figures were last brought from the back office. The worked
 * example of docs/performance.md, whose holdings the ledger explains, and variants that break it.
 */
import { describe, expect, it } from "vitest";
import type { Book } from "../support/book";
import { getJson } from "../support/worker";
import { synced, withSource } from "../sync/helpers";
import { exampleBook } from "../performance/example-book";
import { getPage, section } from "./html";

const NBSP = "\u00a0";

async function syncedPage(change: (book: Book, account: string) => void = () => undefined) {
  const { book, slug } = exampleBook();
  change(book, book.accounts[0]!.id);
  const dbs = await withSource(book);
  await synced(dbs.env);
  const api = async (path: string) => (await getJson(dbs.env, path)).body.data;
  return {
    dbs,
    slug,
    max: await api(`/api/performance/${slug}?range=max`),
    stats: await api(`/api/stats/${slug}`),
    vi: (await getPage(dbs.env, `/c/${slug}`)).html,
    en: (await getPage(dbs.env, `/c/${slug}?lang=en`)).html,
  };
}

/** The note on the total return, with its machine value; undefined when there is none. */
function difference(html: string) {
  const match = /<small data-note="return-difference" data-value="([^"]*)">([^<]*)<\/small>/.exec(section(html, "returns"));
  return match ? { value: match[1]!, text: match[2]!.replaceAll("&#39;", "'") } : undefined;
}

describe("the page's one gain", () => {
  it("says nothing more when the trades explain the holdings: the two figures agree", async () => {
    const { max, stats, vi, en } = await syncedPage();
    expect(max.pnl).toBe(545730);
    expect(stats.total_return).toBe(545730);
    expect(difference(vi)).toBeUndefined();
    expect(difference(en)).toBeUndefined();
  });

  it("says the holdings the back office reports disagree with the trades, and by how much", async () => {
    // The back office reports 70 FPT where the ledger leaves 60.
    const { max, stats, vi, en } = await syncedPage((book) => {
      Object.assign(book.holdings[0]!, { quantity: 70, total_cost: "7000105.0000" });
    });
    expect(max.holdings_mismatch).toBe(1);
    expect(stats.total_return).toBe(585715);
    expect(difference(vi)).toEqual({
      value: "39985",
      text: `Tổng lợi nhuận cao hơn lãi/lỗ trong kỳ ở trên (545.730${NBSP}₫) 39.985${NBSP}₫, vì 1 mã mà hệ thống của công ty ghi nhận đang nắm giữ không khớp với lịch sử giao dịch.`,
    });
    expect(difference(en)).toEqual({
      value: "39985",
      text: "Total return is ₫39,985 more than the gain over the period above (₫545,730) because the holdings the back office reports for 1 stock disagree with the trades.",
    });
  });

  it("says when the back office's cost of the holdings is not the trades' average cost", async () => {
    const { max, stats, en } = await syncedPage((book) => {
      Object.assign(book.holdings[0]!, { avg_cost: "101668.1667", total_cost: "6100090.0000" });
    });
    expect(max.holdings_mismatch).toBe(0);
    expect(stats.total_return).toBe(445730);
    expect(difference(en)).toEqual({
      value: "-100000",
      text: "Total return is ₫100,000 less than the gain over the period above (₫545,730) because the back office reports a different cost for the holdings than the average cost of the trades.",
    });
  });

  it("says when the history has shares sold that it never bought", async () => {
    // 10 FPT sold before the history's first buy: no lot to match.
    const { stats, vi } = await syncedPage((book, account) => {
      book.trade({ account_id: account, trade_date: "2024-05-31", type: "sell", quantity: 10, price: "99000" });
      Object.assign(book.holdings[0]!, { avg_cost: "101668.1667", total_cost: "6100090.0000" });
    });
    expect(stats.total_return).toBe(445730);
    expect(difference(vi)?.text).toMatch(/vì lịch sử giao dịch có 10 cổ phiếu đã bán mà không có lệnh mua nào\.$/);
  });

  it("only over the whole history, the range the total return is comparable with", async () => {
    const { dbs, slug } = await syncedPage((book) => {
      Object.assign(book.holdings[0]!, { quantity: 70, total_cost: "7000105.0000" });
    });
    const year = (await getPage(dbs.env, `/c/${slug}?range=1y`)).html;
    expect(difference(year)).toBeUndefined();
  });

  it("names positions with no close as counted at cost in the portfolio's value", async () => {
    const { max, vi, en } = await syncedPage((book, account) => {
      // 10 VNM bought on the last day, which has no close at all.
      book.trade({
        account_id: account,
        trade_date: "2024-06-06",
        type: "buy",
        quantity: 10,
        price: "70000",
        stock_code: "VNM",
        isin_code: "VN000000VNM8",
      });
      book.holding({
        account_id: account,
        stock_code: "VNM",
        isin_code: "VN000000VNM8",
        quantity: 10,
        avg_cost: "70000",
        total_cost: "700000",
      });
    });
    expect(max).toMatchObject({ unpriced_positions: 1, unpriced_value: 700000 });
    const note = (html: string) =>
      /<small data-note="unpriced" data-value="([^"]*)">([^<]*)<\/small>/.exec(section(html, "today"));
    expect(note(vi)?.slice(1)).toEqual(["700000", `Gồm 700.000${NBSP}₫ của 1 mã chưa có giá đóng cửa, tính theo giá vốn.`]);
    expect(note(en)?.slice(1)).toEqual(["700000", "Includes ₫700,000 for 1 position with no close yet, counted at cost."]);
  });

  it("says when the figures were last brought from the back office: the last complete sync run", async () => {
    const { dbs, vi, en } = await syncedPage();
    const [run] = (await dbs.target`
      select to_char(finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at from sync_runs where outcome = 'complete'`) as {
      at: string;
    }[];
    const local = new Date(new Date(run!.at).getTime() + 7 * 3_600_000).toISOString();
    const hhmm = local.slice(11, 16);
    const ddmmyyyy = `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)}`;
    expect(vi).toContain(
      `Số liệu lấy từ hệ thống của công ty lúc <time datetime="${run!.at}">${hhmm} ${ddmmyyyy}</time> (giờ Việt Nam)`,
    );
    expect(en).toMatch(
      new RegExp(
        `Figures brought from the back office at <time datetime="${run!.at}">${hhmm} \\d{1,2} \\w{3} \\d{4}</time> \\(Vietnam time\\)`,
      ),
    );
  });
});
