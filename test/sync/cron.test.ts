/** The Cron Trigger runs the same sync, and every run leaves a history row. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { setFault } from "../support/databases";
import { getJson, runScheduled } from "../support/worker";
import { addTrade, expectInSync, sampleBook, synced, withSource } from "./helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the scheduled sync", () => {
  it("syncs and records the run", async () => {
    const dbs = await withSource(sampleBook());
    await runScheduled(dbs.env);
    await expectInSync(dbs);
    const runs =
      await dbs.target`select trigger, mode, outcome, complete, synced_rows, finished_at is not null as finished from sync_runs`;
    expect(runs).toEqual([
      { trigger: "cron", mode: "delta", outcome: "complete", complete: true, synced_rows: 14, finished: true },
    ]);
  });

  it("logs a skip, without a history row, while another run holds the lease", async () => {
    const dbs = await withSource(sampleBook());
    await dbs.target`insert into sync_lease values ('sync', ${crypto.randomUUID()}, now() + interval '1 minute')`;
    const info = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await runScheduled(dbs.env);
    expect(info.mock.calls.map(([line]) => JSON.parse(line as string))).toContainEqual(
      expect.objectContaining({ level: "info", event: "sync_skipped", trigger: "cron" }),
    );
    expect(await dbs.target`select * from sync_runs`).toEqual([]);
  });

  it("logs and records a failure without the connection strings", async () => {
    const dbs = await withSource(sampleBook());
    await setFault(dbs.sourceName, "error500");
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await runScheduled(dbs.env);
    } finally {
      await setFault(dbs.sourceName, "off");
    }
    const lines = errors.mock.calls.map(([line]) => line as string);
    expect(lines.map((l) => JSON.parse(l))).toContainEqual(
      expect.objectContaining({ level: "error", event: "sync_failed", trigger: "cron" }),
    );
    for (const line of lines) expect(line).not.toContain(dbs.env.SOURCE_DATABASE_URL!);
    const [run] = await dbs.target`select trigger, outcome, error from sync_runs`;
    expect(run).toMatchObject({ trigger: "cron", outcome: "failed" });
    expect(run!.error).not.toContain(dbs.env.SOURCE_DATABASE_URL!);
  });

  it("drops this data centre's cached answers of the changed customers when PUBLIC_ORIGIN is set", async () => {
    // callWorker serves https://api.test, so that is the origin the cache keys live under.
    const book = sampleBook();
    const dbs = await withSource(book, { PUBLIC_ORIGIN: "https://api.test/" });
    await synced(dbs.env);
    const [changed, untouched] = book.customers.map((c) => `/api/stats/${c.slug}`);
    for (const path of [changed!, untouched!]) {
      await getJson(dbs.env, path);
      expect((await getJson(dbs.env, path)).headers.get("X-Cache")).toBe("HIT");
    }

    await addTrade(dbs.source, book.accounts[0]!.id);
    await runScheduled(dbs.env);

    const after = await getJson(dbs.env, changed!);
    expect(after.headers.get("X-Cache")).toBe("MISS");
    expect(after.body.data.transaction_count).toBe(4);
    expect((await getJson(dbs.env, untouched!)).headers.get("X-Cache")).toBe("HIT");
  });

  it("records manual runs too", async () => {
    const dbs = await withSource(sampleBook());
    const report = await synced(dbs.env);
    const [run] = await dbs.target`select id, trigger, outcome, synced_rows, details from sync_runs`;
    expect(run).toMatchObject({ id: report.run_id, trigger: "manual", outcome: "complete", synced_rows: report.synced_rows });
    expect(run!.details.streams).toEqual(report.streams);
  });
});
