/**
 * Fail closed (src/bindings.ts): a Worker deployed without NOT_FOUND_LIMITER, ADMIN_KEY_LIMITER
 * or SYNC_QUEUE, or with a var where the binding should be, serves nothing but its liveness
 * check, which names what is missing; every other route answers 500 and the log names the
 * binding; cron and queue runs log it and touch no database.
 */
import { describe, expect, it } from "vitest";
import { REQUIRED_BINDINGS } from "../../src/bindings";
import type { Env } from "../../src/env";
import { ENDPOINTS, pathOf } from "../support/endpoints";
import { deliver } from "../sync/helpers";
import { errorLogs } from "../support/logs";
import { Client, runScheduled } from "../support/worker";
import { withCustomer } from "./helpers";

const without = (env: Env, name: string, value: unknown = undefined) => ({ ...env, [name]: value }) as Env;

describe.each(REQUIRED_BINDINGS)("a Worker without %s", (name) => {
  it("answers every route but the liveness check with 500 `internal`, and logs the missing binding", async () => {
    const { dbs, customer, account } = await withCustomer();
    for (const value of [undefined, "a var of the same name"]) {
      const client = new Client(without(dbs.env, name, value));
      const paths = ENDPOINTS.filter((e) => e.path !== "/api/health/live").map((e) => ({
        method: e.method.toUpperCase(),
        path: pathOf(e, { slug: customer.slug, accountId: account.id }),
      }));
      paths.push(
        { method: "GET", path: `/c/${customer.slug}` },
        { method: "GET", path: "/nope" },
        { method: "OPTIONS", path: "/api/brokers" },
      );
      for (const { method, path } of paths) {
        let reply: Awaited<ReturnType<Client["send"]>> | undefined;
        const logs = await errorLogs(async () => {
          reply = await client.send(path, {
            method,
            headers: { "X-Admin-Key": dbs.env.ADMIN_API_KEY!, Origin: "https://app.test" },
          });
        });
        const where = `${method} ${path} (${String(value)})`;
        expect({ status: reply!.status, code: reply!.body?.code ?? null }, where).toEqual({
          status: 500,
          code: "internal",
        });
        expect(logs, where).toEqual([
          expect.objectContaining({
            request_id: reply!.headers.get("X-Request-Id"),
            status: 500,
            error: expect.stringContaining(`MissingBindingError: missing bindings: ${name}`),
          }),
        ]);
      }
      // Nothing reached a database on the way.
      expect(await dbs.trips(() => client.get(`/api/customers/${customer.slug}`))).toMatchObject({ target: 0, source: 0 });
    }
  });

  it("answers the liveness check with 503 naming it", async () => {
    const { dbs } = await withCustomer();
    const reply = await new Client(without(dbs.env, name)).get("/api/health/live");
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 503,
      body: { success: false, error: "Service Unavailable", code: "misconfigured", details: { missing_bindings: [name] } },
    });
    // With every binding, it is the usual liveness.
    expect((await new Client(dbs.env).get("/api/health/live")).body).toEqual({ success: true, data: { status: "ok" } });
  });

  it("runs no cron sync and no queued continuation, and logs why", async () => {
    const { dbs } = await withCustomer();
    const env = without(dbs.env, name);
    for (const cron of ["*/15 * * * *", "0 19 * * *"]) {
      let trips: { target: number; source: number } | undefined;
      const logs = await errorLogs(async () => {
        trips = await dbs.trips(() => runScheduled(env, cron));
      });
      expect(trips, cron).toMatchObject({ target: 0, source: 0 });
      expect(logs, cron).toEqual([{ level: "error", event: "bindings_missing", trigger: "cron", missing: [name] }]);
    }
    let trips: { target: number; source: number; result: unknown } | undefined;
    const logs = await errorLogs(async () => {
      trips = await dbs.trips(() => deliver(env, { after_run: null }, {}));
    });
    expect(trips).toEqual({ target: 0, source: 0, result: [] });
    expect(logs).toEqual([{ level: "error", event: "bindings_missing", trigger: "chain", missing: [name] }]);
  });
});
