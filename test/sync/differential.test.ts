/**
 * The differential check the sync bench runs after each phase (scripts/bench/differential.ts):
 * nothing to count on a book the sync left served, continued or recomputed, and each stored row
 * that is off counted in its table.
 */
import { describe, expect, it } from "vitest";
import { storedDifferences } from "../../scripts/bench/differential";
import type { Sql } from "../../src/db/client";
import { Book, twoCustomerBook, writeSource } from "../support/book";
import { addTrade, synced, withSource } from "./helpers";

const check = (target: Sql, holdings?: string) => storedDifferences((text, params) => target.query(text, params), holdings);

/** The investor's book with a share credit over its open lots and a sell after it. */
function creditedBook() {
  const book = twoCustomerBook();
  const account = book.accounts.ssi;
  book.book.trade({
    account_id: account.id,
    trade_date: "2024-02-20",
    stock_code: "FPT",
    type: "buy",
    quantity: 50,
    price: "105000",
  });
  book.book.corporateAction({
    account_id: account.id,
    type: "share_dividend",
    stock_code: "FPT",
    ex_date: "2024-03-01",
    quantity: 7,
  });
  book.book.trade({
    account_id: account.id,
    trade_date: "2024-04-01",
    stock_code: "FPT",
    type: "sell",
    quantity: 30,
    price: "120000",
  });
  return book;
}

describe("the differential check", () => {
  it("finds nothing to count after an initial sync, a continued day and a recompute from an old date", async () => {
    const { book, accounts } = creditedBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const first = await check(dbs.target);
    expect(first.differences).toEqual([]);
    expect(first.checked).toBe(new Set(book.transactions.map((t) => `${t.account_id} ${t.stock_code}`)).size);

    await addTrade(dbs.source, accounts.ssi.id);
    expect((await synced(dbs.env)).holdings_recomputed).toBe(1);
    expect((await check(dbs.target)).differences).toEqual([]);

    const old = new Book();
    old.trade({
      account_id: accounts.vnd.id,
      trade_date: "2023-01-03",
      stock_code: "HPG",
      isin_code: "VN000000HPG4",
      type: "buy",
      quantity: 4,
      price: "24000",
      updated_at: "2025-06-02T00:00:00Z",
    });
    await writeSource(dbs.source, old);
    expect((await synced(dbs.env)).holdings_recomputed).toBe(1);
    expect((await check(dbs.target)).differences).toEqual([]);
  });

  it("counts each holding whose stored row is off, in the table it is off in, and only the holdings asked for", async () => {
    const { book, accounts } = creditedBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const fpt = { accountId: accounts.ssi.id, stockCode: "FPT" };
    const where = `account_id = '${fpt.accountId}' and stock_code = 'FPT'`;
    await dbs.target.query(`update holding_metrics set opened = opened + 1 where ${where}`);
    await dbs.target.query(`update holding_months set trades = trades + 1 where ${where} and month = '2024-04'`);
    await dbs.target.query(`delete from holding_lots where ${where}`);
    await dbs.target.query(`update position_steps set shares = shares + 1 where ${where} and date = '2024-03-01'`);
    expect((await check(dbs.target)).differences).toEqual([{ ...fpt, tables: ["holding", "months", "lots", "steps"] }]);

    const other = `select account_id, stock_code from transactions where account_id = '${accounts.vnd.id}'`;
    const elsewhere = await check(dbs.target, other);
    expect(elsewhere.differences).toEqual([]);
    expect(elsewhere.checked).toBeGreaterThan(0);
  });
});
