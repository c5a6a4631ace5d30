/** Failures: nothing half-applied, the failure answered and recorded, and the next run catches up. */
import { afterEach, describe, expect, it } from "vitest";
import { Book } from "../support/book";
import { SourceUnavailableError, TargetUnavailableError } from "../../src/sync/errors";
import { setFault } from "../support/databases";
import { expectInSync, postSync, runWith, sampleBook, synced, targetState, withSource } from "./helpers";

const faulted: string[] = [];
async function fault(database: string, mode: "error500" | "timeout") {
  faulted.push(database);
  await setFault(database, mode);
}
afterEach(async () => {
  await Promise.all(faulted.splice(0).map((db) => setFault(db, "off")));
});

describe("sync failures", () => {
  it("answers 502 when the source fails, changes nothing, and catches up on the next run", async () => {
    const book = sampleBook();
    const dbs = await withSource(book);
    const before = await targetState(dbs.target);
    await fault(dbs.sourceName, "error500");

    const { status, body } = await postSync(dbs.env);
    expect(status).toBe(502);
    expect(body).toMatchObject({ success: false, error: "Bad Gateway", code: "source_unavailable" });
    expect(await targetState(dbs.target)).toEqual(before);
    const [run] = await dbs.target`select outcome, synced_rows, error is not null as has_error from sync_runs`;
    expect(run).toEqual({ outcome: "failed", synced_rows: 0, has_error: true });
    expect(await dbs.target`select * from sync_lease`).toEqual([]);

    await setFault(dbs.sourceName, "off");
    expect((await synced(dbs.env)).complete).toBe(true);
    await expectInSync(dbs);
  });

  it("gives up on a source that does not answer within the request timeout", async () => {
    const dbs = await withSource(sampleBook());
    await fault(dbs.sourceName, "timeout");
    await expect(runWith(dbs.env, { requestTimeoutMs: 500 })).rejects.toBeInstanceOf(SourceUnavailableError);
    expect((await targetState(dbs.target)).rows.customers).toEqual([]);
  });

  it("answers 503 when the target cannot be reached", async () => {
    const dbs = await withSource(sampleBook());
    await fault(dbs.targetName, "error500");
    const { status, body } = await postSync(dbs.env);
    expect(status).toBe(503);
    expect(body).toMatchObject({ success: false, error: "Service Unavailable", code: "database_unavailable" });
  });

  it("keeps a page's data and its cursor together when the page's transaction fails", async () => {
    const book = new Book();
    const { account } = book.simpleCustomer();
    const trades = ["FPT", "HPG", "VNM", "BOOM", "SSI", "MWG"].map((stock_code, i) =>
      book.trade({
        account_id: account.id,
        trade_date: "2024-01-02",
        stock_code,
        type: "buy",
        quantity: 1,
        price: "1000",
        updated_at: `2025-03-0${i + 1}T00:00:00Z`,
      }),
    );
    const dbs = await withSource(book);
    // The target refuses one row of the second page, as a broken page would fail.
    await dbs.target`alter table transactions add constraint refuse_boom check (stock_code <> 'BOOM')`;

    await expect(runWith(dbs.env, { pageRows: 3 })).rejects.toMatchObject({ code: "23514" });
    const copied = await dbs.target`select id from transactions order by source_updated_at`;
    expect(copied.map((r) => r.id)).toEqual(trades.slice(0, 3).map((t) => t.id));
    const [cursor] = await dbs.target`select cursor_id from sync_cursors where stream = 'transactions'`;
    expect(cursor!.cursor_id).toBe(trades[2]!.id);
    const [run] = await dbs.target`select outcome, synced_rows from sync_runs`;
    expect(run).toEqual({ outcome: "failed", synced_rows: 7 });

    await dbs.target`alter table transactions drop constraint refuse_boom`;
    expect((await synced(dbs.env)).synced_rows).toBe(3);
    await expectInSync(dbs);
  });

  it("reads a backlog in smaller pages after one of its pages takes longer than a request may", async () => {
    const book = new Book();
    const { account } = book.simpleCustomer();
    for (let day = 1; day <= 8; day++)
      book.trade({ account_id: account.id, trade_date: `2024-01-0${day}`, type: "buy", quantity: 1, price: "1000" });
    const dbs = await withSource(book);
    // The target takes 4 s over any page of more than four trades, then fails it (as a server
    // cancelling a statement its client gave up on would).
    await dbs.target`
      create function slow_big_page() returns trigger language plpgsql as $$
      begin
        if (select count(*) from added) > 4 then
          perform pg_sleep(4);
          raise exception 'page too slow';
        end if;
        return null;
      end $$`;
    await dbs.target`create trigger slow_big_page after insert on transactions referencing new table as added
      for each statement execute function slow_big_page()`;
    // Only the run that meets the slow page waits less than it takes; the next waits as long as
    // it likes, so only the page size tells them apart.
    await expect(runWith(dbs.env, { pageRows: 8, requestTimeoutMs: 3_000 })).rejects.toBeInstanceOf(TargetUnavailableError);
    expect(await dbs.target`select count(*)::int as n from transactions`).toEqual([{ n: 0 }]);
    expect(await dbs.target`select page_rows from sync_cursors where stream = 'transactions'`).toEqual([{ page_rows: 4 }]);
    const [run] = await dbs.target`select outcome from sync_runs`;
    expect(run).toEqual({ outcome: "failed" });

    const report = await runWith(dbs.env, { pageRows: 8 });
    expect(report.report.complete).toBe(true);
    await expectInSync(dbs);
    // Caught up: the next backlog is read in pages of the budget's size again.
    expect(await dbs.target`select page_rows from sync_cursors where stream = 'transactions'`).toEqual([{ page_rows: null }]);
  });
});
