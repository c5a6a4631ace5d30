/**
 * Outages (issue 7, item 5). Target down, answering 500 or not answering at all: public reads
 * give the 503 envelope in bounded time and recover by themselves, on the same Worker, once it
 * is back. Source down: public reads do not notice. (The sync's side of a source outage, 502
 * with the target untouched and the next run catching up, is test/sync/failure.test.ts.)
 */
import { describe, expect, it, vi } from "vitest";
import { newSlug } from "../../src/domain/slug";
import { getConfig } from "../../src/env";
import { ENDPOINTS, pathsOf } from "../support/endpoints";
import { Client } from "../support/worker";
import { withCustomer } from "./helpers";

/** The public GETs that read only the target (health, which pings it, has its own checks). */
const TARGET_READS = ENDPOINTS.filter(
  (e) => e.access === "public" && e.method === "get" && e.reads.join() === "target" && e.operationId !== "getHealth",
);

/** Every public read that needs the target, for one customer and account. */
function reads(slug: string, accountId: string) {
  return [
    ...pathsOf(TARGET_READS, { slug, accountId }),
    `/api/transactions/${slug}?type=buy&per_page=5`,
    // An unknown slug and a malformed one cannot be told from a known one while the database is down.
    `/api/customers/${newSlug()}`,
    "/api/customers/bad!slug",
  ];
}

async function expectUnavailable(client: Client, paths: string[]) {
  for (const path of paths) {
    const reply = await client.get(path);
    expect({ status: reply.status, body: reply.body, type: reply.headers.get("Content-Type") }, path).toEqual({
      status: 503,
      body: {
        success: false,
        error: "Service Unavailable",
        code: "database_unavailable",
        request_id: reply.headers.get("X-Request-Id"),
      },
      type: expect.stringMatching(/^application\/json/),
    });
  }
}

async function expectServed(client: Client, paths: string[]) {
  for (const path of paths.slice(0, -2)) {
    const reply = await client.get(path);
    expect(reply.status, `${path}: ${reply.text}`).toBe(200);
    expect(reply.body.success).toBe(true);
  }
}

describe("target database down", () => {
  it("answers 503 while it fails with HTTP 500, and serves again on the next request once it is back", async () => {
    const { dbs, customer, account, client } = await withCustomer();
    const paths = reads(customer.slug, account.id);
    await dbs.fault("target", "error500");
    await expectUnavailable(client, paths);

    const health = await client.get("/api/health");
    expect(health.status).toBe(503);
    expect(health.body).toEqual({
      success: false,
      error: "Service Unavailable",
      code: "database_unavailable",
      data: { status: "degraded", databases: { target: "unavailable" } },
    });
    expect((await client.get("/api/health/live")).status).toBe(200); // the Worker itself is fine

    await dbs.recover("target");
    await expectServed(client, paths);
    expect((await client.get("/api/health")).body.data).toEqual({ status: "ok", databases: { target: "ok" } });
  });

  it("answers 503 when its deadline passes while it does not answer at all, and recovers", async () => {
    const { dbs, customer, account } = await withCustomer();
    const client = new Client(dbs.env).with({ DATABASE_TIMEOUT_MS: "800" });
    const paths = reads(customer.slug, account.id);
    await dbs.fault("target", "timeout");

    // The hanging database never answers, so only the request's deadline (src/db/client.ts) can
    // end the wait: each request's signal, of DATABASE_TIMEOUT_MS, has timed out behind its 503.
    // Watched through the deadline itself, not a clock, which a busy machine would slow.
    const deadlines = vi.spyOn(AbortSignal, "timeout");
    const results = await Promise.all(
      paths.map((path) => client.get(path).then((r) => ({ path, status: r.status, body: r.body }))),
    );
    for (const { path, status, body } of results) {
      expect({ status, error: body.error, code: body.code }, path).toEqual({
        status: 503,
        error: "Service Unavailable",
        code: "database_unavailable",
      });
    }
    expect(deadlines.mock.calls.length).toBeGreaterThanOrEqual(paths.length);
    expect(new Set(deadlines.mock.calls.map(([ms]) => ms))).toEqual(new Set([800]));
    for (const signal of deadlines.mock.results.map((r) => r.value as AbortSignal))
      expect({ aborted: signal.aborted, reason: (signal.reason as Error).name }).toEqual({
        aborted: true,
        reason: "TimeoutError",
      });
    deadlines.mockRestore();

    await dbs.recover("target");
    // Served again by the same Worker; the short deadline only bounded the outage's wait.
    await expectServed(client.with({ DATABASE_TIMEOUT_MS: "5000" }), paths);
  });

  it("gives every request a deadline of 10 seconds unless DATABASE_TIMEOUT_MS says otherwise", async () => {
    const { dbs } = await withCustomer();
    expect(getConfig({ ...dbs.env, DATABASE_TIMEOUT_MS: undefined }).DATABASE_TIMEOUT_MS).toBe(10_000);
    expect(getConfig({ ...dbs.env, DATABASE_TIMEOUT_MS: "2500" }).DATABASE_TIMEOUT_MS).toBe(2_500);
    expect(() => getConfig({ ...dbs.env, DATABASE_TIMEOUT_MS: "0" })).toThrow(/DATABASE_TIMEOUT_MS/);
  });

  it("leaves requests that are answered in time alone, request after request", async () => {
    // The deadline is per request (each request makes its own client), not per Worker: a deadline
    // started by the first request would have passed by the second round. It is generous, since a
    // loaded, instrumented run can take most of a second for one read.
    const deadlineMs = 2_000;
    const { customer, account, dbs } = await withCustomer();
    const client = new Client(dbs.env).with({ DATABASE_TIMEOUT_MS: String(deadlineMs) });
    await expectServed(client, reads(customer.slug, account.id));
    await new Promise((resolve) => setTimeout(resolve, deadlineMs + 100));
    await expectServed(client, reads(customer.slug, account.id));
  });
});

describe("source database down", () => {
  it.each(["error500", "timeout"] as const)(
    "leaves public reads and health untouched (%s); only the admin's sync status shows it",
    async (mode) => {
      const { dbs, customer, account } = await withCustomer();
      // Long enough for a target read on a slow, instrumented run; short enough that the sync
      // status's read of a hanging source gives up within the test.
      const client = new Client(dbs.env).with({ DATABASE_TIMEOUT_MS: "3000" });
      await dbs.fault("source", mode);
      await expectServed(client, reads(customer.slug, account.id));

      // A stranger's health check never reaches the back office: not one source request.
      const { source, result: health } = await dbs.trips(() => client.get("/api/health"));
      expect({ status: health.status, body: health.body, source }).toEqual({
        status: 200,
        body: { success: true, data: { status: "ok", databases: { target: "ok" } } },
        source: 0,
      });
      const status = await client.get("/api/sync/status", { "X-Admin-Key": client.env.ADMIN_API_KEY! });
      expect({ status: status.status, source: status.body.data.source }).toEqual({ status: 200, source: "unavailable" });

      if (mode === "error500") {
        // The sync gives up (502) while the reads go on; the sync suites test what it leaves behind.
        const sync = await client.postSync();
        expect({ status: sync.status, body: sync.body }).toEqual({
          status: 502,
          body: expect.objectContaining({ success: false, error: "Bad Gateway", code: "source_unavailable" }),
        });
        await expectServed(client, reads(customer.slug, account.id));
      }

      await dbs.recover("source");
      const recovered = await client.get("/api/sync/status", { "X-Admin-Key": client.env.ADMIN_API_KEY! });
      expect(recovered.body.data.source).toBe("ok");
    },
  );
});
