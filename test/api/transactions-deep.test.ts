/**
 * Deep pages of a long trade history (src/db/queries/paged.ts, src/sync/ordinals.ts): once the
 * sync has placed a customer's trades, any page of the unfiltered history, the customer's or one
 * account's, is read as an index range scan over the stored places, with the exact total, and
 * stays exact through the changes the sync brings (a trade deleted, one booked in the past).
 */
import { describe, expect, it } from "vitest";
import type { Db } from "../../src/db/client";
import { historyQuery } from "../../src/db/queries/history";
import { render } from "../../src/sync/database";
import type { HistoryFilters } from "../../src/db/queries/types";
import { Book } from "../support/book";
import type { TestDatabases } from "../support/databases";
import { rowsRead } from "../support/plans";
import { getJson } from "../support/worker";
import { insertSource, softDelete, synced, withSource } from "../sync/helpers";

const TRADES = 600;
const PER_PAGE = 10;

/** One customer, two accounts, TRADES buys, four a day, so the id decides between trades of a day. */
function longBook() {
  const book = new Book();
  const { customer, account, broker } = book.simpleCustomer();
  const second = book.account({ customer_id: customer.id, broker_id: broker.id, account_no: "000C000002" });
  for (let i = 0; i < TRADES; i++) {
    book.trade({
      account_id: i % 3 ? account.id : second.id,
      trade_date: day(Math.floor(i / 4)),
      type: "buy",
      quantity: 1 + (i % 7),
      price: "1000",
    });
  }
  return { book, customer, account, second };
}

/** Stamped after everything a first run read: a row the back office entered since. */
const ENTERED_SINCE = { updated_at: "2025-06-01T00:00:00.000000Z" };

const day = (n: number) => new Date(Date.UTC(2020, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

/** Newest first, id descending on equal dates: the history's order, as a plain sort. */
const newestFirst = <T extends { id: string; trade_date: string }>(trades: T[]) =>
  [...trades].sort((x, y) => (x.trade_date === y.trade_date ? (x.id < y.id ? 1 : -1) : x.trade_date < y.trade_date ? 1 : -1));

async function page(dbs: TestDatabases, path: string, n: number) {
  const { status, body } = await getJson(dbs.env, `${path}${path.includes("?") ? "&" : "?"}per_page=${PER_PAGE}&page=${n}`);
  expect(status, path).toBe(200);
  return { total: body.pagination.total, ids: body.data.map((t: { id: string }) => t.id) };
}

async function expectPages(dbs: TestDatabases, path: string, ids: string[], pages: number[]) {
  for (const n of pages) {
    expect(await page(dbs, path, n), `${path} page ${n}`).toEqual({
      total: ids.length,
      ids: ids.slice((n - 1) * PER_PAGE, n * PER_PAGE),
    });
  }
}

/** How many rows of `transactions` the history statement reads for one page (its plan). */
async function transactionRowsRead(dbs: TestDatabases, slug: string, query: HistoryFilters, accountId?: string) {
  const statement = historyQuery({ execute: (q: unknown) => q } as unknown as Db, { slug, accountId }, query);
  return rowsRead(dbs.target, "transactions", render(statement as never));
}

describe("a long history, synced", () => {
  it("serves the first, a middle and the last pages exactly, and stays exact through a delete and a trade booked in the past", async () => {
    const { book, customer, account, second } = longBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const all = `/api/transactions/${customer.slug}`;
    const last = Math.ceil(TRADES / PER_PAGE);
    let trades = newestFirst(book.transactions);
    await expectPages(
      dbs,
      all,
      trades.map((t) => t.id),
      [1, 2, 31, last, last + 1],
    );
    const inSecond = trades.filter((t) => t.account_id === second.id).map((t) => t.id);
    await expectPages(dbs, `${all}/${second.id}`, inSecond, [1, 7, Math.ceil(inSecond.length / PER_PAGE)]);

    // One trade of the middle goes, one is booked long ago: every later page shifts.
    const gone = trades[305]!;
    await softDelete(dbs.source, "transactions", gone.id);
    const more = new Book();
    // Booked on a date long past.
    const early = more.trade({
      account_id: account.id,
      trade_date: "2019-06-01",
      type: "buy",
      quantity: 5,
      price: "900",
      ...ENTERED_SINCE,
    });
    await insertSource(dbs.source, "transactions", [early]);
    await synced(dbs.env);
    trades = newestFirst([...book.transactions.filter((t) => t.id !== gone.id), early]);
    await expectPages(
      dbs,
      all,
      trades.map((t) => t.id),
      [1, 30, 31, 32, last, last + 1],
    );
    const inFirst = trades.filter((t) => t.account_id === account.id).map((t) => t.id);
    await expectPages(dbs, `${all}/${account.id}`, inFirst, [1, 20, Math.ceil(inFirst.length / PER_PAGE)]);
  }, 120_000);

  it("places the history again when the only change is a trade booked before the last placed one", async () => {
    const { book, customer, account } = longBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    // Dated inside the history (its trades span 150 days) and nothing placed moves or goes: the
    // new trade alone must bring the history to be placed again.
    const booked = new Book().trade({
      account_id: account.id,
      trade_date: day(TRADES / 8),
      type: "buy",
      quantity: 1,
      price: "1000",
      ...ENTERED_SINCE,
    });
    await insertSource(dbs.source, "transactions", [booked]);
    await synced(dbs.env);
    const trades = newestFirst([...book.transactions, booked]);
    const all = `/api/transactions/${customer.slug}`;
    await expectPages(
      dbs,
      all,
      trades.map((t) => t.id),
      [1, 30, 31, Math.ceil(trades.length / PER_PAGE)],
    );
    const inAccount = trades.filter((t) => t.account_id === account.id).map((t) => t.id);
    await expectPages(dbs, `${all}/${account.id}`, inAccount, [1, Math.ceil(inAccount.length / PER_PAGE)]);
  }, 120_000);

  it("appends a new day's trades after the last placed one, through a fee edited meanwhile, and a dividend moves nothing", async () => {
    const { book, customer, account, second } = longBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const before = await dbs.target.query(
      `select transaction_id as id, place from trade_places where customer_id = $1 order by place`,
      [customer.id],
    );
    // A new trading day in both accounts, a fee mended on an old trade, and a cash dividend.
    const more = new Book();
    const day = more.trade({
      account_id: second.id,
      trade_date: "2024-01-02",
      type: "buy",
      quantity: 3,
      price: "1000",
      ...ENTERED_SINCE,
    });
    const later = more.trade({
      account_id: account.id,
      trade_date: "2024-01-03",
      type: "sell",
      quantity: 2,
      price: "1100",
      ...ENTERED_SINCE,
    });
    await insertSource(dbs.source, "transactions", [day, later]);
    const old = book.transactions[10]!;
    await dbs.source.query(`update transactions set fee = fee + 1, updated_at = '2025-06-01' where id = $1`, [old.id]);
    const dividend = more.corporateAction({
      account_id: account.id,
      type: "cash_dividend",
      ex_date: "2021-01-04",
      quantity: 100,
      gross_amount: "100000",
      ...ENTERED_SINCE,
    });
    await insertSource(dbs.source, "corporate_actions", [dividend]);
    await synced(dbs.env);

    // The places the first run gave stay; the new trades take the next two.
    const after = await dbs.target.query(
      `select transaction_id as id, place from trade_places where customer_id = $1 order by place`,
      [customer.id],
    );
    expect(after).toEqual([...before, { id: day.id, place: TRADES + 1 }, { id: later.id, place: TRADES + 2 }]);
    const trades = newestFirst([...book.transactions, day, later]);
    const last = Math.ceil(trades.length / PER_PAGE);
    await expectPages(
      dbs,
      `/api/transactions/${customer.slug}`,
      trades.map((t) => t.id),
      [1, 2, last],
    );
    for (const acc of [account, second]) {
      const ids = trades.filter((t) => t.account_id === acc.id).map((t) => t.id);
      await expectPages(dbs, `/api/transactions/${customer.slug}/${acc.id}`, ids, [1, Math.ceil(ids.length / PER_PAGE)]);
    }
  }, 120_000);

  it("reads about a page of trades for the last page as for the first, the customer's and an account's", async () => {
    const { book, customer, account } = longBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const last = Math.ceil(TRADES / PER_PAGE);
    for (const n of [1, last]) {
      const query = { page: n, per_page: PER_PAGE };
      expect(await transactionRowsRead(dbs, customer.slug, query), `page ${n}`).toBeLessThanOrEqual(2 * PER_PAGE);
      expect(await transactionRowsRead(dbs, customer.slug, query, account.id), `account page ${n}`).toBeLessThanOrEqual(
        2 * PER_PAGE,
      );
    }
  }, 120_000);

  it("reads a filtered page in the index's order: its count's rows and about a page more, not every match again to sort", async () => {
    const { book, customer } = longBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    // Every trade of the book is a buy: the count reads them all, the page only its own.
    const query = { page: 2, per_page: PER_PAGE, type: "buy" as const };
    expect(await transactionRowsRead(dbs, customer.slug, query)).toBeLessThanOrEqual(TRADES + 3 * PER_PAGE);
  }, 120_000);

  it("reads a page filtered by a stock code alone as each account's index range, its total stored while current", async () => {
    const { book, customer, account, second } = longBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const code = book.transactions[0]!.stock_code;
    const path = `/api/transactions/${customer.slug}?stock_code=${code}`;
    const ids = newestFirst(book.transactions).map((t) => t.id);
    await expectPages(dbs, path, ids, [1, 2, Math.ceil(TRADES / PER_PAGE)]);
    // Page 1 reads its page's trades from each of the two accounts, not the stock's every trade to count and sort.
    expect(await transactionRowsRead(dbs, customer.slug, { page: 1, per_page: PER_PAGE, stock_code: code })).toBeLessThanOrEqual(
      2 * PER_PAGE,
    );
    const theirs = newestFirst(book.transactions.filter((t) => t.account_id === second.id)).map((t) => t.id);
    await expectPages(dbs, `/api/transactions/${customer.slug}/${second.id}?stock_code=${code}`, theirs, [1, 3]);

    // While a change waits for the metrics, the total is counted: the stored one may lag behind.
    await dbs.target.query(
      `update holding_metrics set partial = jsonb_set(partial, '{transactions}', '1') where account_id = $1`,
      [account.id],
    );
    await dbs.target.query(`insert into metrics_pending (customer_id) values ($1)`, [customer.id]);
    const uncached = { ...dbs, env: { ...dbs.env, CACHE_TTL_SECONDS: "0" } };
    expect((await page(uncached, path, 1)).total).toBe(TRADES);
    // Current again, the stored count is the total (here the one planted above): the stock's trades are not counted.
    await dbs.target.query(`delete from metrics_pending`);
    expect((await page(uncached, path, 1)).total).toBe(1 + theirs.length);
  }, 120_000);
});
