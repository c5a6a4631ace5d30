/**
 * mode=full (docs/sync.md): drift a cursor cannot see is found by comparing checksums of id ranges
 * in both databases and repaired, resumably, and after a complete full run the target serves
 * exactly what the source holds.
 */
import { chunkDigits } from "../../src/sync/id-ranges";
import { STREAMS } from "../../src/sync/streams";
import { describe, expect, it } from "vitest";
import type { Book } from "../support/book";
import { countRows, expectInSync, runWith, synced, widerBook, withSource } from "./helpers";

const HEAVY = 180_000;

/** Drift of every kind the cursor cannot see; returns how many target rows it takes to repair. */
async function drift(dbs: Awaited<ReturnType<typeof withSource>>, book: Book): Promise<number> {
  const [changed, removed, edited] = book.transactions;
  // A source change that did not bump updated_at.
  await dbs.source.query("update transactions set fee = fee + 1.5 where id = $1", [changed!.id]);
  // A target row deleted by hand, another edited by hand, and one that the source never had.
  await dbs.target.query("delete from transactions where id = $1", [removed!.id]);
  await dbs.target.query("update transactions set quantity = quantity + 1 where id = $1", [edited!.id]);
  await dbs.target.query("update customers set name = 'edited by hand' where id = $1", [book.customers[1]!.id]);
  await dbs.target.query(
    `insert into brokers (id, code, name, source_updated_at) values ($1, 'ROGUE', 'Not in the back office', now())`,
    [crypto.randomUUID()],
  );
  // And a row the source deleted outright.
  await dbs.source.query("delete from holdings where id = $1", [book.holdings[2]!.id]);
  return 6;
}

describe("full reconciliation", () => {
  it(
    "repairs every kind of drift, counts each repair, and finds nothing the second time",
    async () => {
      const book = widerBook();
      const dbs = await withSource(book);
      await synced(dbs.env);
      const repairs = await drift(dbs, book);

      expect((await synced(dbs.env)).synced_rows).toBe(0);
      const full = await synced(dbs.env, "full");
      expect(full).toMatchObject({ mode: "full", complete: true, synced_rows: repairs });
      expect(full.reconciliation).toMatchObject({ done: true, repaired_ranges: expect.any(Number) });
      expect(full.streams.transactions).toMatchObject({ inserted: 1, updated: 2, deleted: 0 });
      expect(full.streams.brokers.deleted).toBe(1);
      expect(full.streams.holdings.deleted).toBe(1);
      await expectInSync(dbs);

      const again = await synced(dbs.env, "full");
      expect(again).toMatchObject({ synced_rows: 0, reconciliation: { repaired_ranges: 0, done: true } });
    },
    HEAVY,
  );

  it(
    "costs one checksum request per table and database when nothing differs",
    async () => {
      const dbs = await withSource(widerBook());
      await synced(dbs.env);
      const before = await dbs.sourceRequests();
      const full = await synced(dbs.env, "full");
      expect(full).toMatchObject({ synced_rows: 0, reconciliation: { repaired_ranges: 0, done: true } });
      // The upper bound, one empty page per stream, one checksum per table.
      expect((await dbs.sourceRequests()) - before).toBe(1 + STREAMS.length + STREAMS.length);
    },
    HEAVY,
  );

  // A run over this book and its drift takes 20 to 21 steps (the drift's ids are random).
  it.each([1, 2, 3, 5, 8, 13, 17])(
    "resumes a full run stopped after %i steps, in later runs of any mode",
    async (steps) => {
      const book = widerBook();
      const dbs = await withSource(book);
      await synced(dbs.env);
      const repairs = await drift(dbs, book);

      // Small leaves, so the repair takes many steps to stop between.
      const limits = { reconcileLeafRows: 1, pageRows: 2 };
      const stopped = await runWith(dbs.env, { ...limits, stopAfterSteps: steps }, "full");
      expect(stopped.report.complete).toBe(false);
      let total = stopped.report.synced_rows;
      let complete = false;
      // Later runs stop too, each after enough steps to read its streams and reach one leaf.
      for (let run = 0; !complete && run < 40; run++) {
        const next = await runWith(dbs.env, { ...limits, stopAfterSteps: 20 }, "delta");
        total += next.report.synced_rows;
        complete = next.report.complete;
      }
      expect(complete).toBe(true);
      expect(total).toBe(repairs);
      expect(await dbs.target`select * from reconcile_progress`).toEqual([]);
      await expectInSync(dbs);
    },
    HEAVY,
  );

  it(
    "splits the first comparison of a large table into statements of bounded size, and resumes between them",
    async () => {
      const book = widerBook();
      const dbs = await withSource(book);
      await synced(dbs.env);
      const repairs = await drift(dbs, book);
      // The target's estimate of each table's size, as autovacuum's analyze leaves it.
      await dbs.target.query("analyze");
      const [estimate] = await dbs.target`select reltuples::int as rows from pg_class where relname = 'transactions'`;
      const rows = Number(estimate?.rows);
      // A bound under the table's size and over a sixteenth of it: one statement per hex digit.
      const limits = { reconcileCompareRows: Math.ceil(rows / 16), reconcileLeafRows: 1, pageRows: 2 };
      expect(chunkDigits(rows, limits.reconcileCompareRows)).toBe(1);

      const before = await dbs.sourceRequests();
      const whole = await runWith(dbs.env, limits, "full");
      expect(whole.report).toMatchObject({ complete: true, synced_rows: repairs });
      // The transactions' first comparison alone is 16 statements (each with its target twin).
      expect((await dbs.sourceRequests()) - before).toBeGreaterThanOrEqual(16 + STREAMS.length);
      await expectInSync(dbs);

      // Drift again, and give every run a few steps: each resumes after the last prefix compared.
      const [, , , silent, lost] = book.transactions;
      await dbs.source.query("update transactions set fee = fee + 2.5 where id = $1", [silent!.id]);
      await dbs.target.query("delete from transactions where id = $1", [lost!.id]);
      const again = 2;
      let total = 0;
      let runs = 0;
      for (let complete = false; !complete && runs < 60; runs++) {
        const next = await runWith(dbs.env, { ...limits, stopAfterSteps: 12 }, runs === 0 ? "full" : "delta");
        total += next.report.synced_rows;
        complete = next.report.complete;
      }
      expect({ total, unfinished: await dbs.target`select * from reconcile_progress` }).toEqual({ total: again, unfinished: [] });
      expect(runs).toBeGreaterThan(1);
      await expectInSync(dbs);
    },
    HEAVY,
  );

  it(
    "rebuilds a target emptied by hand",
    async () => {
      const book = widerBook();
      const dbs = await withSource(book);
      await synced(dbs.env);
      for (const table of ["transactions", "holdings", "accounts", "customers", "staff", "brokers"])
        await dbs.target.query(`delete from ${table}`);
      const full = await synced(dbs.env, "full");
      expect(full).toMatchObject({ complete: true, synced_rows: countRows(book) });
      await expectInSync(dbs);
    },
    HEAVY,
  );
});
