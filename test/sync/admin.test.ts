/** Who may run a sync, and one run at a time. */
import { describe, expect, it } from "vitest";
import { SyncRunningResponse } from "../../src/schemas";
import { render } from "../../src/sync/database";
import { isLeaseLost, LEASE_SECONDS, renewLease } from "../../src/sync/lease";
import { expectSchema } from "../support/api";
import { Book } from "../support/book";
import { getJson } from "../support/worker";
import { postSync, sampleBook, synced, targetState, withSource } from "./helpers";

const UNAUTHORIZED = { success: false, error: "Unauthorized", code: "unauthorized" };

describe("POST /api/sync access", () => {
  it.each([
    ["a wrong key", "not-the-key"],
    ["a key that only shares a prefix", "test-admin-key-and-more"],
    ["an empty key", ""],
    ["no key", null],
  ])("refuses %s with 401 and changes nothing", async (_why, key) => {
    const dbs = await withSource(sampleBook());
    const before = await targetState(dbs.target);
    const { status, body } = await postSync(dbs.env, { key });
    expect(status).toBe(401);
    expect(body).toEqual(UNAUTHORIZED);
    expect(await targetState(dbs.target)).toEqual(before);
    expect(await dbs.target`select * from sync_runs`).toEqual([]);
  });

  it("refuses every call when no admin key is configured", async () => {
    const dbs = await withSource(sampleBook(), { ADMIN_API_KEY: "" });
    for (const key of ["", "undefined", "test-admin-key"]) {
      expect(await postSync(dbs.env, { key })).toMatchObject({ status: 401, body: UNAUTHORIZED });
    }
  });

  it("is documented in the OpenAPI document with its key scheme and statuses", async () => {
    const dbs = await withSource(new Book());
    const { body } = await getJson(dbs.env, "/api/openapi.json");
    const operation = body.paths["/api/sync"].post;
    expect(operation.security).toEqual([{ adminKey: [] }]);
    expect(operation.parameters).toContainEqual(expect.objectContaining({ in: "query", name: "mode" }));
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "401", "409", "502", "503"]));
  });

  it("checks the key before the parameters", async () => {
    const dbs = await withSource(sampleBook());
    expect((await postSync(dbs.env, { key: "wrong", mode: "bogus" as "full" })).status).toBe(401);
    expect((await postSync(dbs.env, { mode: "bogus" as "full" })).status).toBe(400);
  });
});

describe("one sync at a time", () => {
  it("answers 409 to a second sync while the first runs", async () => {
    const dbs = await withSource(sampleBook());
    const results = await Promise.all([postSync(dbs.env), postSync(dbs.env)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect(refused.body).toEqual({
      success: false,
      error: "Conflict",
      code: "sync_running",
      details: {
        reason: expect.stringMatching(/^another sync run holds the lease until \d{4}-/),
        retry_after_seconds: expect.any(Number),
      },
    });
    // What the document says a 409 carries (its details were once documented as a list of issues).
    expectSchema(SyncRunningResponse, refused.body);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBe(refused.body.details.retry_after_seconds);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(LEASE_SECONDS);
  });

  it("answers 409 while another run holds the lease, and runs once a crashed run's lease expired", async () => {
    const dbs = await withSource(sampleBook());
    await dbs.target`insert into sync_lease values ('sync', ${crypto.randomUUID()}, now() + interval '1 minute')`;
    const refused = await postSync(dbs.env);
    expect(refused.status).toBe(409);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(59);
    expect(Number(refused.headers.get("Retry-After"))).toBeLessThanOrEqual(60);

    await dbs.target`update sync_lease set expires_at = now() - interval '1 second'`;
    expect((await synced(dbs.env)).complete).toBe(true);
    expect(await dbs.target`select * from sync_lease`).toEqual([]);
  });

  it("makes a run that lost its lease unable to commit", async () => {
    const dbs = await withSource(sampleBook());
    const [mine, theirs] = [crypto.randomUUID(), crypto.randomUUID()];
    await dbs.target`insert into sync_lease values ('sync', ${theirs}, now() + make_interval(secs => ${LEASE_SECONDS}))`;
    const write = dbs.target`insert into metrics_pending values (${crypto.randomUUID()})`;
    const renew = render(renewLease(mine).query);
    const failure = await dbs.target.transaction([dbs.target.query(renew.sql, renew.params), write]).catch((err: unknown) => err);
    expect(isLeaseLost(failure)).toBe(true);
    expect(await dbs.target`select * from metrics_pending`).toEqual([]);
  });
});
