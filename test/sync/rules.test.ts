/**
 * A target whose stored metrics older rules wrote (src/sync/rules.ts): deployed code that did
 * not know corporate actions stored partials of format 1 and stats without
 * realized_pnl_average_cost, dividends and total_return, and no rules version. The next run
 * recomputes every customer's stored metrics once, by itself, with nothing changed in the
 * source, and what it stores is what a fresh sync stores.
 */
import { describe, expect, it } from "vitest";
import type { Sql } from "../../src/db/client";
import { METRICS_RULES } from "../../src/domain";
import { Book } from "../support/book";
import { changeSource, deliver, expectInSync, postSync, runWith, synced, withSource } from "./helpers";

/** Two customers: trades in two holdings, a bonus credit, a cash dividend, a close. */
function upgradeBook(): Book {
  const book = new Book();
  for (const shares of [100, 300]) {
    const { account } = book.simpleCustomer();
    book.trade({ account_id: account.id, trade_date: "2024-01-02", type: "buy", quantity: shares, price: "10000" });
    book.trade({ account_id: account.id, trade_date: "2024-01-03", type: "buy", quantity: shares, price: "12000" });
    book.trade({ account_id: account.id, trade_date: "2024-04-01", type: "sell", quantity: shares, price: "13000" });
    book.trade({
      account_id: account.id,
      trade_date: "2024-01-02",
      type: "buy",
      quantity: 10,
      price: "50000",
      stock_code: "VNM",
    });
    book.corporateAction({ account_id: account.id, type: "share_dividend", ex_date: "2024-03-01", quantity: shares / 10 });
    book.corporateAction({
      account_id: account.id,
      type: "cash_dividend",
      ex_date: "2024-05-02",
      quantity: shares,
      gross_amount: String(shares * 1000),
      tax: String(shares * 50),
    });
    book.holding({
      account_id: account.id,
      quantity: shares + shares / 10,
      avg_cost: "11000",
      total_cost: String(11000 * shares),
    });
  }
  book.price({ stock_code: "FPT", trade_date: "2024-06-28", close_price: "14000" });
  return book;
}

const storedMetrics = (target: Sql) =>
  target`select customer_id, stats::text as stats, analytics::text as analytics, partial from customer_metrics order by customer_id`;
const storedPartials = (target: Sql) => target`select * from holding_metrics order by account_id, stock_code`;

/** Makes the target as the code before rules versions left it. */
async function asOlderRulesLeftIt(target: Sql): Promise<void> {
  await target`delete from metrics_rules`;
  await target`update holding_metrics set partial = jsonb_set(partial - 'average_cost_pnl' - 'average_cost', '{format}', '1')`;
  await target`update customer_metrics set
    partial = jsonb_set(partial - 'average_cost_pnl' - 'average_cost', '{format}', '1'),
    stats = (stats::jsonb - 'realized_pnl_average_cost' - 'dividends' - 'total_return')::json`;
}

describe("stored metrics of older rules", () => {
  it("are recomputed once by the next run, as a fresh sync stores them, and served with the new fields", async () => {
    const dbs = await withSource(upgradeBook());
    await synced(dbs.env);
    expect(await dbs.target`select version from metrics_rules`).toEqual([{ version: METRICS_RULES }]);
    const fresh = { metrics: await storedMetrics(dbs.target), partials: await storedPartials(dbs.target) };
    await asOlderRulesLeftIt(dbs.target);
    expect(await storedMetrics(dbs.target)).not.toEqual(fresh.metrics);

    // Nothing changed in the source: the rules version alone calls for the work.
    expect(await synced(dbs.env)).toMatchObject({ synced_rows: 0, holdings_recomputed: 4, metrics_recomputed: 2 });
    expect(await dbs.target`select version from metrics_rules`).toEqual([{ version: METRICS_RULES }]);
    expect(await storedMetrics(dbs.target)).toEqual(fresh.metrics);
    expect(await storedPartials(dbs.target)).toEqual(fresh.partials);
    await expectInSync(dbs);

    // Once: the next run finds the rules current.
    expect(await synced(dbs.env)).toMatchObject({ holdings_recomputed: 0, metrics_recomputed: 0 });
  });

  it("are worked off run after run within a small budget", async () => {
    const dbs = await withSource(upgradeBook());
    await synced(dbs.env);
    const fresh = await storedMetrics(dbs.target);
    await asOlderRulesLeftIt(dbs.target);

    const runs = [];
    do runs.push((await runWith(dbs.env, { metricsTrades: 1, metricsCustomers: 1, stopAfterSteps: 12 })).report);
    while (!runs.at(-1)!.complete && runs.length < 20);
    expect(runs.at(-1)!.complete).toBe(true);
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.reduce((n, r) => n + r.metrics_recomputed, 0)).toBe(2);
    expect(await storedMetrics(dbs.target)).toEqual(fresh);
    await expectInSync(dbs);
  });
});

describe("stored metrics of newer rules", () => {
  it("stop an older release's sync before it changes anything, recorded as failed, the lease released", async () => {
    const book = upgradeBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    // A newer release upgraded the target; this code is the older one still running beside it.
    await dbs.target`update metrics_rules set version = ${METRICS_RULES + 1}`;
    const before = { metrics: await storedMetrics(dbs.target), partials: await storedPartials(dbs.target) };
    const customer = book.customers[0]!;
    await changeSource(dbs.source, "customers", customer.id, { name: "Renamed In The Back Office" });

    const { status, body } = await postSync(dbs.env);
    expect(status).toBe(503);
    expect(body).toEqual({ success: false, error: "Service Unavailable", code: "misconfigured", request_id: expect.any(String) });
    expect(await dbs.target`select name from customers where id = ${customer.id}`).toEqual([{ name: customer.name }]);
    expect(await storedMetrics(dbs.target)).toEqual(before.metrics);
    expect(await storedPartials(dbs.target)).toEqual(before.partials);
    expect(await dbs.target`select version from metrics_rules`).toEqual([{ version: METRICS_RULES + 1 }]);
    const [last] = await dbs.target`select outcome, error from sync_runs order by started_at desc limit 1`;
    expect(last).toEqual({
      outcome: "failed",
      error: `RulesNewerError: the target's stored metrics follow rules version ${METRICS_RULES + 1}, newer than this code's ${METRICS_RULES}: a newer release serves it`,
    });

    // The lease is free: once the target is back at this code's rules, the change is served.
    await dbs.target`update metrics_rules set version = ${METRICS_RULES}`;
    expect(await synced(dbs.env)).toMatchObject({ synced_rows: 1 });
    expect(await dbs.target`select name from customers where id = ${customer.id}`).toEqual([
      { name: "Renamed In The Back Office" },
    ]);
  });

  it("take an older release's continuation off the queue rather than retry it", async () => {
    const dbs = await withSource(upgradeBook());
    await synced(dbs.env);
    await dbs.target`update metrics_rules set version = ${METRICS_RULES + 1}`;
    // The newer release chains its own runs; retrying this one would fail the same way forever.
    expect(await deliver(dbs.env, { after_run: null }, {})).toEqual(["ack"]);
    const [last] = await dbs.target`select trigger, outcome from sync_runs order by started_at desc limit 1`;
    expect(last).toEqual({ trigger: "chain", outcome: "failed" });
  });
});
