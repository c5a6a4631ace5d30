/**
 * The scheduled reconciliation (docs/sync.md): the cron SYNC_RECONCILE_CRON names runs what
 * `?mode=full` does, so what no delta can see (a hard delete, a change without updated_at, a
 * parent committed later than the overlap) is served right with no operator; its runs chain
 * until it is complete, and each serves what changed first.
 */
import { describe, expect, it } from "vitest";
import { getConfig, type Env } from "../../src/env";
import { STREAMS } from "../../src/sync/streams";
import { cronSync } from "../../src/sync/worker";
import { Book } from "../support/book";
import type { TestDatabases } from "../support/databases";
import { getJson, runScheduled } from "../support/worker";
import {
  addTrade,
  changeSource,
  deliver,
  dropSourceForeignKeys,
  expectCustomerServed,
  expectInSync,
  insertSource,
  recordingQueue,
  sourceTime,
  widerBook,
  withSource,
} from "./helpers";

const HEAVY = 240_000;
const reconcileCron = (env: Env) => getConfig(env).SYNC_RECONCILE_CRON;

/** The ids and fees of a customer's served trades. */
async function servedTrades(dbs: TestDatabases, slug: string): Promise<Map<string, number>> {
  const { body } = await getJson({ ...dbs.env, CACHE_TTL_SECONDS: "0" }, `/api/transactions/${slug}?per_page=100`);
  return new Map(body.data.map((t: { id: string; fee: number }) => [t.id, t.fee]));
}

const history = (dbs: TestDatabases) => dbs.target`select trigger, mode, outcome from sync_runs order by started_at`;

describe("the scheduled reconciliation", () => {
  it("is the second cron of wrangler.toml, nightly at 02:00 in Vietnam", async () => {
    const dbs = await withSource(new Book());
    expect(reconcileCron(dbs.env)).toBe("0 19 * * *");
  });

  it(
    "stops serving rows the back office deleted outright, with no operator",
    async () => {
      const book = widerBook();
      const dbs = await withSource(book);
      await runScheduled(dbs.env);
      const [trade, holding] = [book.transactions[1]!, book.holdings[0]!];
      await dbs.source.query("delete from transactions where id = $1", [trade.id]);
      await dbs.source.query("delete from holdings where id = $1", [holding.id]);
      const slug = book.customers[0]!.slug;

      await runScheduled(dbs.env);
      expect((await servedTrades(dbs, slug)).has(trade.id), "the delta cannot see a hard delete").toBe(true);

      await runScheduled(dbs.env, reconcileCron(dbs.env));
      expect((await servedTrades(dbs, slug)).has(trade.id)).toBe(false);
      await expectInSync(dbs);
      expect(await history(dbs)).toEqual([
        { trigger: "cron", mode: "delta", outcome: "complete" },
        { trigger: "cron", mode: "delta", outcome: "complete" },
        { trigger: "cron", mode: "full", outcome: "complete" },
      ]);
    },
    HEAVY,
  );

  it(
    "serves a change the back office made without bumping updated_at",
    async () => {
      const book = widerBook();
      const dbs = await withSource(book);
      await runScheduled(dbs.env);
      const trade = book.transactions[2]!;
      await dbs.source.query("update transactions set fee = fee + 1.5 where id = $1", [trade.id]);
      const slug = book.customers[0]!.slug;

      await runScheduled(dbs.env);
      expect((await servedTrades(dbs, slug)).get(trade.id)).toBe(Number(trade.fee));

      await runScheduled(dbs.env, reconcileCron(dbs.env));
      expect((await servedTrades(dbs, slug)).get(trade.id)).toBe(Number(trade.fee) + 1.5);
      await expectInSync(dbs);
    },
    HEAVY,
  );

  it(
    "serves the trades of an account committed later than the overlap window",
    async () => {
      const book = new Book();
      const { customer, account, broker } = book.simpleCustomer();
      const dbs = await withSource(book);
      await dropSourceForeignKeys(dbs.source);
      // The trades of an account not committed yet arrive, and wait for it.
      const late = new Book();
      const lateAccount = late.account({ customer_id: customer.id, broker_id: broker.id, account_no: "LATE" });
      const trades = [1, 2].map((d) =>
        late.trade({ account_id: lateAccount.id, trade_date: `2024-03-0${d}`, type: "buy", quantity: d, price: "1000" }),
      );
      await insertSource(dbs.source, "transactions", trades);
      // Another account changes now, so the accounts cursor stands at the source's clock.
      await changeSource(dbs.source, "accounts", account.id, { account_no: "MOVED" }, 0);
      await runScheduled(dbs.env);
      // The account commits, stamped 20 minutes back: behind the cursor and its 5-minute overlap.
      await insertSource(dbs.source, "accounts", [{ ...lateAccount, updated_at: await sourceTime(dbs.source, -1200) }]);

      await runScheduled(dbs.env);
      const held = await dbs.target`select count(*)::int as n from transactions where customer_id is null`;
      expect(held).toEqual([{ n: 2 }]);
      expect([...(await servedTrades(dbs, customer.slug)).keys()]).not.toContain(trades[0]!.id);

      await runScheduled(dbs.env, reconcileCron(dbs.env));
      expect([...(await servedTrades(dbs, customer.slug)).keys()]).toEqual(expect.arrayContaining(trades.map((t) => t.id)));
      await expectInSync(dbs);
    },
    HEAVY,
  );

  it(
    "keeps its request when another run holds the lease, and a continuation carries it out",
    async () => {
      const book = widerBook();
      const dbs = await withSource(book);
      await runScheduled(dbs.env);
      await dbs.source.query("delete from transactions where id = $1", [book.transactions[0]!.id]);
      const { sent, delays, queue } = recordingQueue();
      const env = { ...dbs.env, SYNC_QUEUE: queue };
      await dbs.target`insert into sync_lease values ('sync', ${crypto.randomUUID()}, now() + interval '45 seconds')`;

      await runScheduled(env, reconcileCron(env));
      expect(sent).toEqual([{ after_run: null }]);
      expect(delays[0]).toBeGreaterThanOrEqual(40);
      expect((await dbs.target`select count(*)::int as n from reconcile_progress`)[0]).toEqual({ n: STREAMS.length });

      await dbs.target`delete from sync_lease`;
      expect(await deliver(env, sent[0]!, {})).toEqual(["ack"]);
      expect(await dbs.target`select * from reconcile_progress`).toEqual([]);
      await expectInSync(dbs);
    },
    HEAVY,
  );

  // Stopped in the delta (1), in the metrics (a step per stream, then the holdings) and in the
  // comparison (after the customers too).
  it.each([1, STREAMS.length + 1, STREAMS.length + 3])(
    "stopped after %i steps, goes on run after run, each serving the trades that arrived before it first",
    async (firstStop) => {
      const book = widerBook();
      const dbs = await withSource(book);
      await runScheduled(dbs.env);
      // Drift in two customers' data; trades keep arriving in a third's.
      await dbs.source.query("update transactions set fee = fee + 1.5 where id = $1", [book.transactions[0]!.id]);
      await dbs.source.query("delete from transactions where id = $1", [book.transactions[7]!.id]);
      const busy = { slug: book.customers[3]!.slug, account: book.accounts[3]!.id };
      const { sent, queue } = recordingQueue();
      const env = { ...dbs.env, SYNC_QUEUE: queue };
      // One-row leaves, so the reconciliation takes many steps.
      const limits = { reconcileLeafRows: 1 };

      await addTrade(dbs.source, busy.account, await sourceTime(dbs.source, 0));
      await cronSync(env, reconcileCron(env), { limits: { ...limits, stopAfterSteps: firstStop } });
      expect(sent).toHaveLength(1);

      // Each later run has the steps of a delta with nothing to page through (one per stream),
      // of the metrics (holdings, then customers) and one step of the comparison or repair.
      let interrupted = 0;
      for (let runs = 0; sent.length > 0; runs++) {
        expect(runs).toBeLessThan(60);
        await addTrade(dbs.source, busy.account, await sourceTime(dbs.source, 0));
        expect(await deliver(env, sent.shift()!, { ...limits, stopAfterSteps: STREAMS.length + 3 })).toEqual(["ack"]);
        await expectCustomerServed(dbs, busy.slug);
        const [last] = await dbs.target`select complete, details from sync_runs order by started_at desc limit 1`;
        if (!last!.complete && last!.details.reconciliation) interrupted++;
      }
      expect(interrupted).toBeGreaterThan(5);
      expect(await dbs.target`select * from reconcile_progress`).toEqual([]);
      await expectInSync(dbs);
    },
    HEAVY,
  );
});
