/** GET /api/sync/status: what an operator needs to see, and runs that died. */
import { describe, expect, it } from "vitest";
import { Book } from "../support/book";
import { render } from "../../src/sync/database";
import { lastRuns, reconciliationHistory } from "../../src/sync/status";
import { STREAMS } from "../../src/sync/streams";
import { rowsRead } from "../support/plans";
import { getJson, runScheduled } from "../support/worker";
import { accountBeforeCustomer, changeSource, postSync, runWith, sampleBook, synced, withSource } from "./helpers";

const HEAVY = 120_000;
const status = (env: Parameters<typeof getJson>[0], key: string | undefined = env.ADMIN_API_KEY) =>
  getJson(env, "/api/sync/status", { headers: key === undefined ? {} : { "X-Admin-Key": key } });

interface StreamStatus {
  stream: string;
  lag_seconds: number | null;
  caught_up: boolean | null;
  oldest_unapplied_at: string | null;
}
const streamsOf = async (env: Parameters<typeof getJson>[0]) => {
  const { body } = await status(env);
  return { clock: body.data.source_clock as string, streams: body.data.streams as StreamStatus[] };
};
const HOUR = 3_600_000;
/** When the test books' rows are stamped. */
const BOOK_DATE = Date.parse("2025-01-01T00:00:00Z");
/**
 * Seconds from `from` to `to` (epoch ms). An age the service reports is bounded by instants taken
 * before and after the request (a second either side for its rounding), not by a guess at how
 * long a request may take, which a busy machine would outrun.
 */
const secondsBetween = (from: number, to: number) => (to - from) / 1000;
/** 19:00 UTC after `at`, the default schedule's next time, worked out by hand. */
function nextNineteen(at: string): number {
  const t = Date.parse(at);
  const d = new Date(t);
  const today = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 19);
  return today > t ? today : today + 24 * HOUR;
}

describe("GET /api/sync/status", () => {
  it("refuses a caller without the admin key", async () => {
    const dbs = await withSource(new Book());
    expect(await status(dbs.env, "wrong")).toMatchObject({
      status: 401,
      body: { success: false, error: "Unauthorized", code: "unauthorized" },
    });
  });

  it(
    "shows the runs, each stream's lag, held rows and rejected rows with their reasons",
    async () => {
      const book = new Book();
      const { account, broker, staff } = book.simpleCustomer();
      book.price();
      book.corporateAction({ account_id: account.id, type: "share_dividend", ex_date: "2024-03-01", quantity: 10 });
      const bad = book.trade({
        account_id: account.id,
        trade_date: "2024-01-02",
        type: "buy",
        quantity: 0,
        price: "1000",
        total_value: "0",
      });
      const dbs = await withSource(book);
      const { customer, account: orphan } = await accountBeforeCustomer(dbs.source, { staff, broker }, -5);
      const runStarted = Date.now();
      const run = await synced(dbs.env);

      const asked = Date.now();
      const { status: code, body } = await status(dbs.env);
      const answered = Date.now();
      expect(code).toBe(200);
      expect(body.data.runs).toEqual([
        {
          id: run.run_id,
          trigger: "manual",
          mode: "delta",
          outcome: "complete",
          started_at: expect.any(String),
          finished_at: expect.any(String),
          duration_ms: expect.any(Number),
          synced_rows: run.synced_rows,
          derived_rows: 0,
          rejected_rows: 1,
          pending_rows: 1,
          error: null,
        },
      ]);
      // Held and rejected rows are listed with how long they have waited: the held account since
      // this run held it (not since its stamp, 5 seconds back), the bad trade since the book's
      // date, 2025-01-01. No reconciliation has completed, so the account is no orphan.
      expect(body.data.held).toEqual({
        count: 1,
        oldest_age_seconds: expect.any(Number),
        rows: [
          {
            stream: "accounts",
            id: orphan.id,
            reason: `customer_id ${customer.id} is not in the target`,
            age_seconds: body.data.held.oldest_age_seconds,
          },
        ],
      });
      expect(body.data.held.oldest_age_seconds).toBeGreaterThanOrEqual(0);
      expect(body.data.held.oldest_age_seconds).toBeLessThanOrEqual(secondsBetween(runStarted, answered) + 1);
      expect(body.data.orphans).toEqual({ count: 0, oldest_age_seconds: null, rows: [] });
      expect(body.data.rejected).toEqual({
        count: 1,
        oldest_age_seconds: body.data.rejected.rows[0].age_seconds,
        rows: [{ stream: "transactions", id: bad.id, reason: "quantity is not positive", age_seconds: expect.any(Number) }],
      });
      expect(body.data.rejected.oldest_age_seconds).toBeGreaterThanOrEqual(secondsBetween(BOOK_DATE, asked) - 1);
      expect(body.data.rejected.oldest_age_seconds).toBeLessThanOrEqual(secondsBetween(BOOK_DATE, answered) + 1);
      expect(body.data.lease).toEqual({ held: false, expires_at: null });
      expect(body.data.reconciliation).toMatchObject({ under_way: false, started_at: null, tables: [], last_complete: null });
      // Caught up: no stream has a change waiting, although the book's rows are a year old.
      for (const stream of body.data.streams)
        expect(stream).toEqual({
          stream: stream.stream,
          // The book has no holdings: that stream has no cursor yet, and nothing waits in it either.
          cursor: stream.stream === "holdings" ? null : expect.any(String),
          oldest_unapplied_at: null,
          lag_seconds: 0,
          caught_up: true,
          lag_unknown_reason: null,
        });
      const transactions = body.data.streams.find((s: { stream: string }) => s.stream === "transactions");
      expect(transactions.cursor).toBe("2025-01-01T00:00:00.000000Z");
      // The source's clock is read while the request runs.
      expect(Date.parse(body.data.source_clock)).toBeGreaterThanOrEqual(asked - 1_000);
      expect(Date.parse(body.data.source_clock)).toBeLessThanOrEqual(answered + 1_000);
      expect(body.data.source).toBe("ok");
      // The tests' key is short on purpose; a real one of 32 characters or more is not weak.
      expect(body.data.admin_key).toEqual({
        weak: true,
        advice: "ADMIN_API_KEY has 14 characters, fewer than 32; make one with: openssl rand -base64 32",
      });
      const strong = { ...dbs.env, ADMIN_API_KEY: "k".repeat(32) };
      expect((await status(strong)).body.data.admin_key).toEqual({ weak: false, advice: null });
    },
    HEAVY,
  );

  it(
    "shows a run killed midway as died once its lease expired, and the next run proceeds",
    async () => {
      const dbs = await withSource(new Book());
      const killed = crypto.randomUUID();
      // What a run leaves when its isolate is killed after taking the lease: a running row, a lease.
      await dbs.target`insert into sync_lease values ('sync', ${killed}, now() + interval '90 seconds')`;
      await dbs.target`insert into sync_runs (id, trigger, mode, started_at, outcome) values (${killed}, 'cron', 'delta', now(), 'running')`;

      let seen = await status(dbs.env);
      expect(seen.body.data.runs[0]).toMatchObject({ id: killed, outcome: "running" });
      expect(seen.body.data.lease.held).toBe(true);
      const refused = await postSync(dbs.env);
      expect(refused.status).toBe(409);
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(80);

      await dbs.target`update sync_lease set expires_at = now() - interval '1 second'`;
      seen = await status(dbs.env);
      expect(seen.body.data.runs[0]).toMatchObject({ id: killed, outcome: "died" });
      await synced(dbs.env);
      const [row] = await dbs.target`select outcome from sync_runs where id = ${killed}`;
      expect(row).toEqual({ outcome: "died" });
      seen = await status(dbs.env);
      expect(seen.body.data.runs.map((r: { outcome: string }) => r.outcome)).toEqual(["complete", "died"]);
    },
    HEAVY,
  );

  it(
    "gives each stream's lag as the wait of its oldest change not applied: 0 once caught up, still 0 while nothing changes",
    async () => {
      const book = sampleBook();
      // A row in every stream.
      book.price();
      book.corporateAction({ account_id: book.accounts[0]!.id, type: "share_dividend", ex_date: "2024-03-01", quantity: 10 });
      const dbs = await withSource(book);
      // Nothing synced yet: every stream's first row, stamped with the book's date, waits.
      const asked = Date.now();
      const before = await streamsOf(dbs.env);
      const answered = Date.now();
      for (const s of before.streams) {
        expect(s).toMatchObject({ caught_up: false, oldest_unapplied_at: "2025-01-01T00:00:00.000000Z" });
        expect(s.lag_seconds!).toBeGreaterThanOrEqual(secondsBetween(BOOK_DATE, asked) - 1);
        expect(s.lag_seconds!).toBeLessThanOrEqual(secondsBetween(BOOK_DATE, answered) + 1);
      }

      await synced(dbs.env);
      const caughtUp = await streamsOf(dbs.env);
      for (const s of caughtUp.streams) expect(s).toMatchObject({ lag_seconds: 0, caught_up: true, oldest_unapplied_at: null });
      // The source's clock moves on, nothing changes: the lag does not grow.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const later = await streamsOf(dbs.env);
      expect(Date.parse(later.clock)).toBeGreaterThan(Date.parse(caughtUp.clock));
      for (const s of later.streams) expect(s).toMatchObject({ lag_seconds: 0, caught_up: true });

      // A change stamped 30 s ago waits for the next run, and only its stream lags: by those 30 s
      // and however long it has waited since.
      const changed = Date.now();
      await changeSource(dbs.source, "transactions", book.transactions[0]!.id, { fee: "1" }, -30);
      const waiting = await streamsOf(dbs.env);
      const seen = Date.now();
      for (const s of waiting.streams) {
        if (s.stream !== "transactions") expect(s).toMatchObject({ lag_seconds: 0, caught_up: true });
      }
      const transactions = waiting.streams.find((s) => s.stream === "transactions")!;
      expect(transactions.caught_up).toBe(false);
      expect(transactions.lag_seconds).toBeGreaterThanOrEqual(30);
      expect(transactions.lag_seconds).toBeLessThanOrEqual(30 + secondsBetween(changed, seen) + 1);
      await synced(dbs.env);
      for (const s of (await streamsOf(dbs.env)).streams) expect(s).toMatchObject({ lag_seconds: 0, caught_up: true });
    },
    HEAVY,
  );

  it(
    "says why the lag is unknown when the source cannot be read, and still answers",
    async () => {
      const dbs = await withSource(sampleBook());
      await synced(dbs.env);
      await dbs.fault("source", "error500");
      const { status: code, body } = await status(dbs.env);
      expect(code).toBe(200);
      // The only place the back office's reachability is shown (the public health never reaches it).
      expect(body.data.source).toBe("unavailable");
      expect(body.data.source_clock).toBeNull();
      for (const s of body.data.streams)
        expect(s).toMatchObject({ lag_seconds: null, caught_up: null, lag_unknown_reason: "the source database failed" });
      expect(JSON.stringify(body)).not.toContain(dbs.sourceName);
    },
    HEAVY,
  );

  it(
    "shows the reconciliation's schedule, the last complete one with what it repaired per table, and when one is overdue",
    async () => {
      const book = sampleBook();
      const dbs = await withSource(book);
      await runScheduled(dbs.env);
      let seen = (await status(dbs.env)).body.data.reconciliation;
      // Never reconciled, but a new deployment is not overdue before its first night.
      const [firstRun] = (await status(dbs.env)).body.data.runs.slice(-1);
      expect(seen).toEqual({
        schedule: "0 19 * * *",
        under_way: false,
        started_at: null,
        tables: [],
        last_complete: null,
        due_by: new Date(nextNineteen(firstRun.started_at) + 2 * HOUR).toISOString(),
        overdue: false,
      });

      // Interrupted: under way, with where each table stands.
      await dbs.source.query("delete from transactions where id = $1", [book.transactions[0]!.id]);
      await dbs.source.query("update holdings set quantity = quantity + 1 where id = $1", [book.holdings[0]!.id]);
      const stopped = await runWith(dbs.env, { stopAfterSteps: 10 }, "full");
      expect(stopped.report.complete).toBe(false);
      seen = (await status(dbs.env)).body.data.reconciliation;
      expect(seen).toMatchObject({ under_way: true, started_at: expect.any(String), last_complete: null });
      expect(seen.tables.map((t: { stream: string }) => t.stream).sort()).toEqual(STREAMS.map((t) => t.name).sort());

      // The scheduled one goes on with it and completes it.
      await runScheduled(dbs.env, dbs.env.SYNC_RECONCILE_CRON);
      seen = (await status(dbs.env)).body.data.reconciliation;
      const zero = { inserted: 0, updated: 0, deleted: 0 };
      expect(seen.last_complete).toEqual({
        trigger: "manual",
        started_at: expect.any(String),
        finished_at: expect.any(String),
        duration_ms: expect.any(Number),
        runs: 2,
        compared_ranges: expect.any(Number),
        repaired_ranges: 2,
        // Every synced table, in stream order; only the two that drifted were repaired.
        repaired: STREAMS.map(({ name }) => ({
          stream: name,
          ...zero,
          ...(name === "holdings" && { updated: 1 }),
          ...(name === "transactions" && { deleted: 1 }),
        })),
      });
      const took = Date.parse(seen.last_complete.finished_at) - Date.parse(seen.last_complete.started_at);
      expect(Math.abs(seen.last_complete.duration_ms - took)).toBeLessThanOrEqual(1);
      expect(seen).toMatchObject({
        under_way: false,
        started_at: null,
        tables: [],
        due_by: new Date(nextNineteen(seen.last_complete.finished_at) + 2 * HOUR).toISOString(),
        overdue: false,
      });

      // Two days without a complete one: overdue.
      await dbs.target`update reconciliations set started_at = started_at - interval '2 days', finished_at = finished_at - interval '2 days'`;
      seen = (await status(dbs.env)).body.data.reconciliation;
      expect(seen.overdue).toBe(true);
      expect(Date.parse(seen.due_by)).toBeLessThan(Date.now());

      // The next scheduled one, with nothing to repair, ends it.
      await runScheduled(dbs.env, dbs.env.SYNC_RECONCILE_CRON);
      seen = (await status(dbs.env)).body.data.reconciliation;
      expect(seen).toMatchObject({ overdue: false, last_complete: { trigger: "cron", runs: 1, repaired_ranges: 0 } });
    },
    HEAVY,
  );

  it("reads the last runs, and the first, from the runs' index however many runs there have been", async () => {
    const dbs = await withSource(sampleBook());
    // Runs are never pruned: a year of a run a minute is half a million.
    await dbs.target.query(`insert into sync_runs (id, trigger, mode, started_at, finished_at, outcome, complete)
      select gen_random_uuid(), 'cron', 'delta', timestamptz '2026-01-01' + n * interval '1 minute',
        timestamptz '2026-01-01' + n * interval '1 minute' + interval '2 seconds', 'complete', true
      from generate_series(1, 500) n`);
    expect(await rowsRead(dbs.target, "sync_runs", render(lastRuns().query))).toBeLessThanOrEqual(50);
    expect(await rowsRead(dbs.target, "sync_runs", render(reconciliationHistory().query))).toBeLessThanOrEqual(1);
    const { body } = await status(dbs.env);
    expect(body.data.runs.map((r: { started_at: string }) => r.started_at).slice(0, 2)).toEqual([
      "2026-01-01T08:20:00.000000Z",
      "2026-01-01T08:19:00.000000Z",
    ]);
  });
});
