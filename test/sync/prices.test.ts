/**
 * The stock_prices stream (docs/valuation.md; docs/sync.md): closes are copied like any table, rows no ledger can
 * hold are set aside, and latest_prices holds each stock's latest live close after every run,
 * however the closes changed, without touching any customer's stored metrics.
 */
import { describe, expect, it } from "vitest";
import type { Sql } from "../../src/db/client";
import { Book } from "../support/book";
import {
  changeSource,
  expectInSync,
  insertSource,
  rejectedRows,
  restore,
  sampleBook,
  softDelete,
  synced,
  withSource,
} from "./helpers";

/** latest_prices as (code, date, close text), by code. */
const latest = (target: Sql) =>
  target.query(
    "select stock_code, to_char(trade_date, 'YYYY-MM-DD') as trade_date, close_price::text as close from latest_prices order by 1",
  );

const at = (n: number) => `2025-07-0${n}T00:00:00Z`;

describe("stock_prices stream", () => {
  it("copies closes and keeps the latest live one per stock, whatever order they arrive in", async () => {
    const book = sampleBook();
    book.price({ stock_code: "FPT", trade_date: "2024-06-28", close_price: "120000.5000" });
    book.price({ stock_code: "FPT", trade_date: "2024-06-27", close_price: "119000" });
    book.price({ stock_code: "HPG", trade_date: "2024-06-27", close_price: "26100.1234" });
    const dbs = await withSource(book);
    const report = await synced(dbs.env);
    expect(report.streams.stock_prices).toMatchObject({ inserted: 3, updated: 0, deleted: 0, rejected: 0 });
    // Prices are a valuation: they change no customer's P&L, and name no customer.
    expect(report).toMatchObject({ prices_changed: 2, changed_customers: 2 });
    expect(await latest(dbs.target)).toEqual([
      { stock_code: "FPT", trade_date: "2024-06-28", close: "120000.5000" },
      { stock_code: "HPG", trade_date: "2024-06-27", close: "26100.1234" },
    ]);
    await expectInSync(dbs);
  });

  it("a new close, a corrected close and a soft-deleted close each move the latest close, and nothing else", async () => {
    const book = sampleBook();
    const first = book.price({ stock_code: "FPT", trade_date: "2024-06-27", close_price: "119000" });
    const dbs = await withSource(book);
    await synced(dbs.env);

    // A new trading day.
    const day = new Book().price({ stock_code: "FPT", trade_date: "2024-06-28", close_price: "121000", updated_at: at(1) });
    await insertSource(dbs.source, "stock_prices", [day]);
    let report = await synced(dbs.env);
    expect(report).toMatchObject({ synced_rows: 1, prices_changed: 1, changed_customers: 0, metrics_recomputed: 0 });
    expect(report.holdings_recomputed).toBe(0);
    expect(await latest(dbs.target)).toEqual([{ stock_code: "FPT", trade_date: "2024-06-28", close: "121000.0000" }]);

    // The back office corrects the day's close.
    await changeSource(dbs.source, "stock_prices", day.id, { close_price: "121500.25" }, at(2));
    report = await synced(dbs.env);
    expect(report).toMatchObject({ synced_rows: 1, prices_changed: 1, metrics_recomputed: 0 });
    expect(await latest(dbs.target)).toEqual([{ stock_code: "FPT", trade_date: "2024-06-28", close: "121500.2500" }]);

    // The day's close is withdrawn: the previous live close is the latest again.
    await softDelete(dbs.source, "stock_prices", day.id, at(3));
    report = await synced(dbs.env);
    expect(report.streams.stock_prices.deleted).toBe(1);
    expect(report.prices_changed).toBe(1);
    expect(await latest(dbs.target)).toEqual([{ stock_code: "FPT", trade_date: "2024-06-27", close: "119000.0000" }]);

    // A correction to an older close leaves the latest alone.
    await changeSource(dbs.source, "stock_prices", first.id, { close_price: "119100" }, at(4));
    report = await synced(dbs.env);
    expect(report).toMatchObject({ synced_rows: 1, prices_changed: 1 });
    expect(await latest(dbs.target)).toEqual([{ stock_code: "FPT", trade_date: "2024-06-27", close: "119100.0000" }]);

    // The last close withdrawn: the stock has no price at all.
    await softDelete(dbs.source, "stock_prices", first.id, at(5));
    report = await synced(dbs.env);
    expect(report.prices_changed).toBe(1);
    expect(await latest(dbs.target)).toEqual([]);

    // Restored, it is the latest again.
    await restore(dbs.source, "stock_prices", first.id, at(6));
    report = await synced(dbs.env);
    expect(report.prices_changed).toBe(1);
    expect(await latest(dbs.target)).toEqual([{ stock_code: "FPT", trade_date: "2024-06-27", close: "119100.0000" }]);
    await expectInSync(dbs);

    // A run with nothing new changes nothing.
    expect(await synced(dbs.env)).toMatchObject({ synced_rows: 0, prices_changed: 0 });
  });

  it("takes a close for a stock nobody holds, and a back office without prices leaves everything empty", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    expect(await synced(dbs.env)).toMatchObject({ prices_changed: 0 });
    expect(await latest(dbs.target)).toEqual([]);

    await insertSource(dbs.source, "stock_prices", [new Book().price({ stock_code: "VNM", updated_at: at(1) })]);
    const report = await synced(dbs.env);
    expect(report).toMatchObject({ synced_rows: 1, prices_changed: 1, changed_customers: 0, metrics_recomputed: 0 });
    expect(await latest(dbs.target)).toEqual([{ stock_code: "VNM", trade_date: "2024-06-28", close: "120000.5000" }]);
    await expectInSync(dbs);
  });

  it("sets aside a close that is not positive or a code the API cannot filter by, and takes them once mended", async () => {
    const book = sampleBook();
    const zero = book.price({ stock_code: "FPT", trade_date: "2024-06-28", close_price: "0" });
    const negative = book.price({ stock_code: "HPG", trade_date: "2024-06-28", close_price: "-1" });
    const lower = book.price({ stock_code: "vnm", trade_date: "2024-06-28", close_price: "70000" });
    book.price({ stock_code: "FPT", trade_date: "2024-06-27", close_price: "119000" });
    const dbs = await withSource(book);
    const report = await synced(dbs.env);
    expect(report.streams.stock_prices).toMatchObject({ inserted: 1, rejected: 3 });
    expect(report.rejected_rows).toBe(3);
    expect(await rejectedRows(dbs.target)).toEqual(
      [
        { stream: "stock_prices", id: zero.id, reason: "close_price is not positive" },
        { stream: "stock_prices", id: negative.id, reason: "close_price is not positive" },
        { stream: "stock_prices", id: lower.id, reason: "stock_code is not 1 to 10 uppercase letters or digits" },
      ].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    // A rejected close values nothing: FPT's latest is the earlier, accepted one.
    expect(await latest(dbs.target)).toEqual([{ stock_code: "FPT", trade_date: "2024-06-27", close: "119000.0000" }]);

    await changeSource(dbs.source, "stock_prices", zero.id, { close_price: "120000" }, at(1));
    await changeSource(dbs.source, "stock_prices", negative.id, { close_price: "26000" }, at(1));
    await changeSource(dbs.source, "stock_prices", lower.id, { stock_code: "VNM" }, at(1));
    const mended = await synced(dbs.env);
    // Four codes had a close changed: the lowercase code lost its row, VNM gained it.
    expect(mended).toMatchObject({ synced_rows: 3, rejected_rows: 0, prices_changed: 4 });
    expect(await rejectedRows(dbs.target)).toEqual([]);
    expect(await latest(dbs.target)).toEqual([
      { stock_code: "FPT", trade_date: "2024-06-28", close: "120000.0000" },
      { stock_code: "HPG", trade_date: "2024-06-28", close: "26000.0000" },
      { stock_code: "VNM", trade_date: "2024-06-28", close: "70000.0000" },
    ]);
    await expectInSync(dbs);
  });

  it("mode=full repairs closes a cursor cannot see: a hard delete and a change without updated_at", async () => {
    const book = sampleBook();
    const latestClose = book.price({ stock_code: "FPT", trade_date: "2024-06-28", close_price: "121000" });
    book.price({ stock_code: "FPT", trade_date: "2024-06-27", close_price: "119000" });
    const hpg = book.price({ stock_code: "HPG", trade_date: "2024-06-28", close_price: "26000" });
    const dbs = await withSource(book);
    await synced(dbs.env);

    await dbs.source.query("delete from stock_prices where id = $1", [latestClose.id]);
    await dbs.source.query("update stock_prices set close_price = 26500 where id = $1", [hpg.id]);
    expect(await synced(dbs.env)).toMatchObject({ synced_rows: 0, prices_changed: 0 });

    const full = await synced(dbs.env, "full");
    expect(full).toMatchObject({ synced_rows: 2, prices_changed: 2 });
    expect(full.streams.stock_prices).toMatchObject({ updated: 1, deleted: 1 });
    expect(await latest(dbs.target)).toEqual([
      { stock_code: "FPT", trade_date: "2024-06-27", close: "119000.0000" },
      { stock_code: "HPG", trade_date: "2024-06-28", close: "26500.0000" },
    ]);
    await expectInSync(dbs);
  });
});
