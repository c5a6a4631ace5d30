/**
 * Counts that say what the back office changed (docs/sync.md): `synced_rows` counts rows changed
 * because their source row changed or a reconciliation repaired them; rows changed only because
 * a parent changed (a moved account's trades) are `derived_rows`, apart, in the run's report,
 * its history row and the status.
 */
import { describe, expect, it } from "vitest";
import { Book } from "../support/book";
import { getJson } from "../support/worker";
import { changeSource, dropSourceForeignKeys, expectInSync, synced, withSource } from "./helpers";

const HEAVY = 120_000;

/** Two customers; the first's account has three trades. */
function bookWithAccountToMove() {
  const book = new Book();
  const { account } = book.simpleCustomer();
  const other = book.customer({ staff_id: book.staff[0]!.id });
  for (let d = 1; d <= 3; d++)
    book.trade({ account_id: account.id, trade_date: `2024-02-0${d}`, type: "buy", quantity: d, price: "1000" });
  return { book, account, other };
}

describe("synced and derived rows", () => {
  it(
    "count a moved account as one synced row and its trades as derived ones",
    async () => {
      const { book, account, other } = bookWithAccountToMove();
      const dbs = await withSource(book);
      await synced(dbs.env);
      await changeSource(dbs.source, "accounts", account.id, { customer_id: other.id });

      const moved = await synced(dbs.env);
      expect(moved).toMatchObject({ synced_rows: 1, derived_rows: 3 });
      expect(moved.streams.accounts).toMatchObject({ inserted: 0, updated: 1, deleted: 0, derived: 0 });
      expect(moved.streams.transactions).toMatchObject({ inserted: 0, updated: 0, deleted: 0, derived: 3 });
      const [run] = await dbs.target`select synced_rows, derived_rows from sync_runs where id = ${moved.run_id}`;
      expect(run).toEqual({ synced_rows: 1, derived_rows: 3 });
      const { body } = await getJson(dbs.env, "/api/sync/status", { headers: { "X-Admin-Key": dbs.env.ADMIN_API_KEY! } });
      expect(body.data.runs[0]).toMatchObject({ id: moved.run_id, synced_rows: 1, derived_rows: 3 });
      await expectInSync(dbs);

      expect(await synced(dbs.env)).toMatchObject({ synced_rows: 0, derived_rows: 0 });
    },
    HEAVY,
  );

  it(
    "count an account the back office deleted outright as one repaired row, and its trades as derived",
    async () => {
      const { book, account } = bookWithAccountToMove();
      const dbs = await withSource(book);
      await synced(dbs.env);
      await dropSourceForeignKeys(dbs.source);
      await dbs.source.query("delete from accounts where id = $1", [account.id]);

      const full = await synced(dbs.env, "full");
      expect(full).toMatchObject({ synced_rows: 1, derived_rows: 3, reconciliation: { repaired_rows: 1, done: true } });
      expect(full.streams.accounts).toMatchObject({ deleted: 1, derived: 0 });
      expect(full.streams.transactions).toMatchObject({ updated: 0, deleted: 0, derived: 3 });
      await expectInSync(dbs);
    },
    HEAVY,
  );
});
