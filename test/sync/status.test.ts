/** GET /api/sync/status: what an operator needs to see, and runs that died. */
import { describe, expect, it } from "vitest";
import { Book } from "../support/book";
import { getJson } from "../support/worker";
import { dropSourceForeignKeys, insertSource, postSync, sourceTime, synced, withSource } from "./helpers";

const HEAVY = 120_000;
const status = (env: Parameters<typeof getJson>[0], key: string | undefined = env.ADMIN_API_KEY) =>
  getJson(env, "/api/sync/status", { headers: key === undefined ? {} : { "X-Admin-Key": key } });

describe("GET /api/sync/status", () => {
  it("refuses a caller without the admin key", async () => {
    const dbs = await withSource(new Book());
    expect(await status(dbs.env, "wrong")).toMatchObject({ status: 401, body: { success: false, error: "Unauthorized" } });
  });

  it(
    "shows the runs, each stream's lag, held rows and rejected rows with their reasons",
    async () => {
      const book = new Book();
      const { account, broker, staff } = book.simpleCustomer();
      const bad = book.trade({
        account_id: account.id,
        trade_date: "2024-01-02",
        type: "buy",
        quantity: 0,
        price: "1000",
        total_value: "0",
      });
      const dbs = await withSource(book);
      await dropSourceForeignKeys(dbs.source);
      const late = new Book();
      const customer = late.customer({ staff_id: staff.id });
      const orphan = late.account({
        customer_id: customer.id,
        broker_id: broker.id,
        updated_at: await sourceTime(dbs.source, -5),
      });
      await insertSource(dbs.source, "accounts", [orphan]);
      const run = await synced(dbs.env);

      const { status: code, body } = await status(dbs.env);
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
          rejected_rows: 1,
          pending_rows: 1,
          error: null,
        },
      ]);
      expect(body.data.held).toEqual({
        count: 1,
        rows: [{ stream: "accounts", id: orphan.id, reason: `customer_id ${customer.id} is not in the target` }],
      });
      expect(body.data.rejected).toEqual({
        count: 1,
        rows: [{ stream: "transactions", id: bad.id, reason: "quantity is not positive" }],
      });
      expect(body.data.lease).toEqual({ held: false, expires_at: null });
      expect(body.data.reconciliation).toEqual({ under_way: false, tables: [] });
      const transactions = body.data.streams.find((s: { stream: string }) => s.stream === "transactions");
      // The book's rows are stamped 2025-01-01: the cursor lags the source's clock by that much.
      expect(transactions.cursor).toBe("2025-01-01T00:00:00.000000Z");
      expect(transactions.lag_seconds).toBeGreaterThan(0);
      expect(Math.abs(Date.parse(body.data.source_clock) - Date.now())).toBeLessThan(60_000);
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
});
