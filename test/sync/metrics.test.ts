/** The stored metrics follow the trades, and the cached answers follow the sync. */
import { describe, expect, it } from "vitest";
import { computeMetrics, type HoldingPartial, holdingPartial, type ResumePoint, type Stats } from "../../src/domain";
import { newSlug } from "../../src/domain/slug";
import { takeOffPending } from "../../src/sync/holdings";
import { render } from "../../src/sync/database";
import { monthsOf, withoutMonths } from "../../src/sync/months";
import { STREAMS } from "../../src/sync/streams";
import { Book, twoCustomerBook, writeSource } from "../support/book";
import { rowsReadAsPlanned } from "../support/plans";
import { getJson } from "../support/worker";
import { addTrade, changeSource, expectStoredRowsAddUp, runWith, sampleBook, softDelete, synced, withSource } from "./helpers";

describe("cached answers after a sync", () => {
  it("are dropped for a customer deleted or given a new slug", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const [renamed, deleted] = book.customers;
    for (const c of [renamed!, deleted!]) expect((await getJson(dbs.env, `/api/customers/${c.slug}`)).status).toBe(200);

    const slug = newSlug();
    await changeSource(dbs.source, "customers", renamed!.id, { slug });
    await softDelete(dbs.source, "customers", deleted!.id);
    expect((await synced(dbs.env)).changed_customers).toBe(3);

    expect((await getJson(dbs.env, `/api/customers/${renamed!.slug}`)).status).toBe(404);
    expect((await getJson(dbs.env, `/api/customers/${slug}`)).status).toBe(200);
    expect((await getJson(dbs.env, `/api/customers/${deleted!.slug}`)).status).toBe(404);
  });
});

/** Each customer's stats as the domain computes them from its accounts' trades, in customer id order. */
function expectedStats(book: Book) {
  return book.customers
    .map((c) => {
      const accounts = new Set(book.accounts.filter((a) => a.customer_id === c.id).map((a) => a.id));
      return { customer_id: c.id, stats: computeMetrics(book.transactions.filter((t) => accounts.has(t.account_id))).stats };
    })
    .sort((a, b) => a.customer_id.localeCompare(b.customer_id));
}

describe("stored metrics after a sync", () => {
  it("change when a trade arrives, and the cached stats are invalidated", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const customer = book.customers[0]!;
    const path = `/api/stats/${customer.slug}`;

    const first = await getJson(dbs.env, path);
    expect(first.body.data.transaction_count).toBe(3);
    expect((await getJson(dbs.env, path)).headers.get("X-Cache")).toBe("HIT");

    const added = await addTrade(dbs.source, book.accounts[0]!.id);
    const report = await synced(dbs.env);
    // Only the holding the trade belongs to is recomputed; the customer's other holding is merged as stored.
    expect(report).toMatchObject({ synced_rows: 1, holdings_recomputed: 1, metrics_recomputed: 1, changed_customers: 1 });

    const after = await getJson(dbs.env, path);
    expect(after.headers.get("X-Cache")).toBe("MISS");
    const trades = [...book.transactions.filter((t) => t.account_id !== book.accounts[2]!.id), ...[added]];
    // The stored figures; the valuation beside them is read from the prices (test/api/valuation.test.ts).
    const { valuation: _, ...stored } = after.body.data;
    expect(stored).toEqual(computeMetrics(trades).stats);
  });

  it("are recomputed in batches bounded by trades, each holding whole", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    const { report } = await runWith(dbs.env, { metricsTrades: 1 });
    expect(report).toMatchObject({ complete: true, holdings_recomputed: 3, metrics_recomputed: 2 });
    const stored = await dbs.target`select customer_id, stats from customer_metrics`;
    const expected = expectedStats(book);
    expect(stored).toEqual(expect.arrayContaining(expected));
    expect(await dbs.target`select * from metrics_pending`).toEqual([]);
    expect(await dbs.target`select * from holdings_pending`).toEqual([]);
  });

  it("lose no batch when a run stops between them, whatever was already read for the next", async () => {
    const book = sampleBook();
    for (let i = 0; i < 3; i++) {
      const { account } = book.simpleCustomer();
      book.trade({ account_id: account.id, trade_date: "2024-03-01", type: "buy", quantity: 10 + i, price: "25000" });
    }
    const expected = expectedStats(book);
    // One holding a batch, one customer a batch. Each run reads every stream (a step each) and
    // stops after two more steps, leaving the next batch it had read unstored; once no holding
    // waits, reading none is one of them.
    const dbs = await withSource(book);
    const limits = { metricsTrades: 1, metricsCustomers: 1, stopAfterSteps: STREAMS.length + 2 };
    const runs = [];
    do runs.push((await runWith(dbs.env, limits)).report);
    while (!runs[runs.length - 1]!.complete && runs.length < 20);
    expect(runs.map((r) => [r.holdings_recomputed, r.metrics_recomputed])).toEqual([
      ...Array.from({ length: 3 }, () => [2, 0]),
      ...Array.from({ length: 5 }, () => [0, 1]),
    ]);
    expect(await dbs.target`select customer_id, stats from customer_metrics order by customer_id`).toEqual(expected);
    expect(await dbs.target`select * from holdings_pending`).toEqual([]);
    expect(await dbs.target`select * from metrics_pending`).toEqual([]);
  });

  it("keep a moved account's holdings as they are and merge them into the new owner", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const [from, to] = book.customers;
    await changeSource(dbs.source, "accounts", book.accounts[0]!.id, { customer_id: to!.id });
    const report = await synced(dbs.env);
    expect(report).toMatchObject({ holdings_recomputed: 0, metrics_recomputed: 2 });
    const tradesOf = (customer: string) => {
      const accounts = new Set(
        book.accounts.filter((a) => (a.id === book.accounts[0]!.id ? to!.id : a.customer_id) === customer).map((a) => a.id),
      );
      return book.transactions.filter((t) => accounts.has(t.account_id));
    };
    for (const c of [from!, to!]) {
      const [stored] = await dbs.target`select stats, analytics from customer_metrics where customer_id = ${c.id}`;
      expect(stored).toEqual(computeMetrics(tradesOf(c.id)));
    }
  });

  it("continue a holding from its latest trade date when every change is dated after it, and recompute it whole otherwise", async () => {
    const book = new Book();
    const { account, customer } = book.simpleCustomer();
    const trade = (trade_date: string, type: "buy" | "sell", quantity: number, price: string, updated_at: string) =>
      book.trade({ account_id: account.id, trade_date, type, quantity, price, updated_at });
    const first = trade("2024-01-02", "buy", 100, "1000", "2025-01-01T00:00:00Z");
    trade("2024-01-03", "buy", 50, "1100", "2025-01-01T00:00:00Z");
    trade("2024-01-04", "sell", 120, "1200", "2025-01-01T00:00:00Z");
    const dbs = await withSource(book);
    await synced(dbs.env);
    const stored = async () => {
      const [point] =
        (await dbs.target`select partial, through::text as through, consumed::int, opened::int from holding_metrics`) as [
          Omit<ResumePoint, "head">,
        ];
      const lots = await dbs.target`select at::int, lot from holding_lots order by at`;
      const months =
        await dbs.target`select account_id, stock_code, month, trades, pnl::text as pnl, pnl_inexact from holding_months order by month`;
      const [metrics] = await dbs.target`select stats, analytics from customer_metrics where customer_id = ${customer.id}`;
      return { ...point, lots, months, metrics };
    };
    const append = async (...trades: Parameters<typeof trade>[]) => {
      const day = new Book();
      day.transactions.push(...trades.map((t) => trade(...t)));
      await writeSource(dbs.source, day);
    };
    const plant = () => dbs.target`update holding_metrics set partial = jsonb_set(partial, '{transactions}', '1000')`;
    const expectWhole = async () => {
      const point = await stored();
      const whole = holdingPartial(book.transactions);
      // Stored without its months, which are rows of their own (src/sync/months.ts).
      expect(point.partial).toEqual(withoutMonths(whole));
      expect(point.months).toEqual(monthsOf(account.id, first.stock_code, whole));
      expect(point.metrics).toEqual(computeMetrics(book.transactions));
      return point;
    };

    // The lots left open: 20 of the second lot's 50 shares are sold (costs in 10^-4 đồng, days since 1970).
    const start = await expectWhole();
    expect(start.through).toBe("2024-01-04");
    expect(start).toMatchObject({ consumed: 120, opened: 150, lots: [{ at: 100, lot: [50, 550_000_000, 19_725] }] });

    // A trade on a later date continues from the stored partial, exactly as the whole history gives.
    await append(["2024-01-05", "sell", 20, "1300", "2025-02-01T00:00:00Z"]);
    expect(await synced(dbs.env)).toMatchObject({ holdings_recomputed: 1, metrics_recomputed: 1 });
    expect(await expectWhole()).toMatchObject({ through: "2024-01-05", consumed: 140, opened: 150 });

    // Only the stored partial and the newer trades are read: a count planted in it comes through.
    await plant();
    await append(["2024-01-08", "buy", 5, "1250", "2025-03-01T00:00:00Z"]);
    await synced(dbs.env);
    const bought = await stored();
    expect(bought.partial.transactions).toBe(1001);
    expect(bought).toMatchObject({ consumed: 140, opened: 155, lots: [{ at: 100 }, { at: 150, lot: [5, 62_500_000, 19_730] }] });

    // A sell reads only the lots it reaches: a cost planted in the lot behind them stays unread.
    await dbs.target`update holding_lots set lot = '[5, 1, 19730]' where at = 150`;
    await dbs.target`update holding_metrics set partial = jsonb_set(partial, '{transactions}', '5')`;
    await append(["2024-01-09", "sell", 5, "1270", "2025-03-15T00:00:00Z"]);
    await synced(dbs.env);
    const sold = await expectWhole();
    expect(sold).toMatchObject({ consumed: 145, opened: 155, lots: [{ at: 100 }, { at: 150, lot: [5, 1, 19_730] }] });

    // One more trade on the latest date, or a change to an older one, recomputes it from all its
    // trades. Its lots are compared with those stored: the one planted above is written again
    // with its true cost, the closed one goes.
    await append(["2024-01-09", "sell", 5, "1260", "2025-04-01T00:00:00Z"]);
    await synced(dbs.env);
    expect(await expectWhole()).toMatchObject({ consumed: 150, opened: 155, lots: [{ at: 150, lot: [5, 62_500_000, 19_730] }] });
    const rows = () => dbs.target`select at::int, ctid::text from holding_lots order by at`;
    const before = await rows();
    await plant();
    // The edited buy's lot is closed: no open lot changes, so none is written again.
    await changeSource(dbs.source, "transactions", first.id, { fee: "7" }, "2025-05-01T00:00:00Z");
    first.fee = "7";
    await synced(dbs.env);
    expect(await expectWhole()).toMatchObject({ lots: [{ at: 150, lot: [5, 62_500_000, 19_730] }] });
    expect(await rows()).toEqual(before);
  });

  it("write again only the steps and months an old sell's fee edit changes", async () => {
    const { book, accounts } = twoCustomerBook();
    const account = accounts.ssi.id;
    const trade = (trade_date: string, type: "buy" | "sell", quantity: number, price: string) =>
      book.trade({ account_id: account, trade_date, type, quantity, price });
    trade("2024-03-04", "buy", 200, "90000");
    const sell = trade("2024-04-01", "sell", 50, "95000");
    trade("2024-05-02", "sell", 50, "97000");
    trade("2024-06-03", "buy", 20, "99000");
    const dbs = await withSource(book);
    await synced(dbs.env);
    const rows = () =>
      dbs.target.query(
        `select 'step ' || date::text as row, ctid::text, withdrawn_num::text as value from position_steps where account_id = $1
         union all select 'month ' || month, ctid::text, pnl::text from holding_months where account_id = $1 order by 1`,
        [account],
      );
    const before = await rows();
    await changeSource(dbs.source, "transactions", sell.id, { fee: "1000" }, "2025-06-01T00:00:00Z");
    expect((await synced(dbs.env)).holdings_recomputed).toBe(1);
    const after = await rows();
    const changed = after.filter((r, i) => r.ctid !== before[i]?.ctid).map((r) => r.row);
    expect(after.map((r) => r.row)).toEqual(before.map((r) => r.row));
    // The sell's date's step (its Out) and its month's row (the deal's P&L); nothing else.
    expect(changed).toEqual(["month 2024-04", "step 2024-04-01"]);
    expect(after.find((r) => r.row === "step 2024-04-01")?.value).not.toBe(
      before.find((r) => r.row === "step 2024-04-01")?.value,
    );
    await expectStoredRowsAddUp(dbs.target);
  });

  it("never merge or continue a partial of another format: the customer is computed from its trades, the holding recomputed whole", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const customer = book.customers[0]!;
    const account = book.accounts[0]!;
    const tradesOf = () => {
      const accounts = new Set(book.accounts.filter((a) => a.customer_id === customer.id).map((a) => a.id));
      return book.transactions.filter((t) => accounts.has(t.account_id));
    };
    // A partial an older engine stored, with a count that would show if it were used.
    await dbs.target`update holding_metrics set partial = jsonb_set(jsonb_set(partial, '{format}', '0'), '{transactions}', '1000')
      where account_id = ${account.id}`;
    await dbs.target`insert into metrics_pending (customer_id, remerge) values (${customer.id}, true)`;
    expect(await synced(dbs.env)).toMatchObject({ holdings_recomputed: 0, metrics_recomputed: 1 });
    const [merged] = await dbs.target`select stats, analytics from customer_metrics where customer_id = ${customer.id}`;
    expect(merged).toEqual(computeMetrics(tradesOf()));

    book.transactions.push(await addTrade(dbs.source, account.id));
    expect(await synced(dbs.env)).toMatchObject({ holdings_recomputed: 1, metrics_recomputed: 1 });
    const [point] = (await dbs.target`select partial from holding_metrics where account_id = ${account.id}`) as [
      { partial: HoldingPartial },
    ];
    expect(point.partial).toEqual(withoutMonths(holdingPartial(book.transactions.filter((t) => t.account_id === account.id))));
    const [stored] = await dbs.target`select stats, analytics from customer_metrics where customer_id = ${customer.id}`;
    expect(stored).toEqual(computeMetrics(tradesOf()));
  });

  it("merge a customer from every served holding at each change, and keep no merge to adjust", async () => {
    const { book, customer, accounts } = twoCustomerBook();
    const stock = (stock_code: string) => ({ stock_code, isin_code: `VN000000${stock_code}1` });
    for (const code of ["VNM", "MWG"]) {
      book.trade({
        account_id: accounts.vnd.id,
        trade_date: "2024-03-04",
        ...stock(code),
        type: "buy",
        quantity: 10,
        price: "70000",
      });
    }
    const dbs = await withSource(book);
    await synced(dbs.env);
    const own = () => book.transactions.filter((t) => t.account_id === accounts.ssi.id || t.account_id === accounts.vnd.id);
    const stored = async () => {
      const [row] =
        (await dbs.target`select stats, analytics, partial from customer_metrics where customer_id = ${customer.id}`) as [
          { stats: Stats; analytics: unknown; partial: HoldingPartial | null },
        ];
      return row;
    };
    const trade = async (account_id: string, code: string, updated_at: string) => {
      const day = new Book();
      book.transactions.push(
        day.trade({ account_id, trade_date: "2024-05-02", ...stock(code), type: "buy", quantity: 1, price: "1000", updated_at }),
      );
      await writeSource(dbs.source, day);
    };
    expect(await stored()).toEqual({ ...computeMetrics(own()), partial: null });

    // A count planted in a holding that does not change shows that the merge reads it.
    await dbs.target`update holding_metrics set partial = jsonb_set(partial, '{transactions}', '1000'::jsonb)
      where account_id = ${accounts.vnd.id} and stock_code = 'HPG'`;
    const hpg = own().filter((t) => t.account_id === accounts.vnd.id && t.stock_code === "HPG").length;
    await trade(accounts.ssi.id, "FPT", "2025-06-01T00:00:00Z");
    expect(await synced(dbs.env)).toMatchObject({ holdings_recomputed: 1, metrics_recomputed: 1 });
    expect((await stored()).stats.transaction_count).toBe(own().length - hpg + 1000);
    // Nothing is kept to adjust a merge by: an older release that finds no merge merges again.
    expect((await stored()).partial).toBeNull();
    expect(await dbs.target`select count(*)::int as n from holding_changes`).toEqual([{ n: 0 }]);

    // Without the planted count, the figures are those of the whole book again.
    await dbs.target`update holding_metrics set partial = jsonb_set(partial, '{transactions}', ${String(hpg)}::jsonb)
      where account_id = ${accounts.vnd.id} and stock_code = 'HPG'`;
    await trade(accounts.vnd.id, "VNM", "2025-06-02T00:00:00Z");
    expect(await synced(dbs.env)).toMatchObject({ holdings_recomputed: 1, metrics_recomputed: 1 });
    expect(await stored()).toEqual({ ...computeMetrics(own()), partial: null });
  });

  it("take a batch's holdings off the pending list key by key, however many others wait and whatever the statistics say", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    // The list is empty between runs, so the last ANALYZE saw it empty; within a run it fills.
    await dbs.target.query("analyze holdings_pending");
    const own = book.accounts.slice(0, 2).map((a) => ({ accountId: a.id, stockCode: "OWN" }));
    await dbs.target.query(
      `insert into holdings_pending (account_id, stock_code)
       select gen_random_uuid(), 'S' || n from generate_series(1, 20000) n
       union all select a, 'OWN' from unnest($1::uuid[]) a`,
      [own.map((h) => h.accountId)],
    );
    const read = await rowsReadAsPlanned(dbs.target, "holdings_pending", render(takeOffPending(own).query));
    expect(read).toBeLessThanOrEqual(2 * own.length);
    expect(await dbs.target`select count(*)::int as n from holdings_pending where stock_code = 'OWN'`).toEqual([{ n: 0 }]);
    expect(await dbs.target`select count(*)::int as n from holdings_pending`).toEqual([{ n: 20000 }]);
  });
});
