/**
 * Held rows an operator can read (src/sync/held.ts): a back office without foreign keys deletes
 * a customer outright while its account stays. The next complete reconciliation removes the
 * customer from the target and finds the account's parent nowhere in the source: the account is
 * counted and listed apart as an orphan, with the parent it lacks, no longer as pending; it is
 * served again the moment that parent comes back. A held row's age counts from when it was first
 * held, not from its source stamp.
 */
import { describe, expect, it } from "vitest";
import { Book } from "../support/book";
import { getJson } from "../support/worker";
import { accountBeforeCustomer, dropSourceForeignKeys, insertSource, synced, withSource } from "./helpers";

/**
 * The seconds since `started` (epoch ms) and a second for rounding: what a row first held after
 * `started` may have waited, measured, not guessed at (a busy machine outruns any guess).
 */
const since = (started: number) => (Date.now() - started) / 1000 + 1;

const status = async (env: Parameters<typeof getJson>[0]) => {
  const { status: code, body } = await getJson(env, "/api/sync/status", { headers: { "X-Admin-Key": env.ADMIN_API_KEY! } });
  expect(code).toBe(200);
  return body.data;
};

describe("a customer deleted outright while its account stays", () => {
  it("is an orphan after the next complete reconciliation, listed with its missing parent, and served again when the parent comes", async () => {
    const started = Date.now();
    const book = new Book();
    const { customer, account } = book.simpleCustomer();
    book.trade({ account_id: account.id, trade_date: "2024-01-02", type: "buy", quantity: 10, price: "1000" });
    const dbs = await withSource(book);
    await dropSourceForeignKeys(dbs.source);
    await synced(dbs.env);
    const [row] = await dbs.source.query(`select * from customers where id = $1`, [customer.id]);
    await dbs.source.query(`delete from customers where id = $1`, [customer.id]);

    const full = await synced(dbs.env, "full");
    expect(full).toMatchObject({ complete: true, pending_rows: 0, orphan_rows: 1 });
    const seen = await status(dbs.env);
    expect(seen.held).toEqual({ count: 0, oldest_age_seconds: null, rows: [] });
    expect(seen.orphans).toEqual({
      count: 1,
      oldest_age_seconds: expect.any(Number),
      rows: [
        {
          stream: "accounts",
          id: account.id,
          reason: `customer_id ${customer.id} is not in the target`,
          parent: { stream: "customers", id: customer.id },
          age_seconds: seen.orphans.oldest_age_seconds,
        },
      ],
    });
    // Held since this run, not since the account's stamp in the book (2025-01-01).
    expect(seen.orphans.oldest_age_seconds).toBeLessThanOrEqual(since(started));
    // A delta run keeps it an orphan.
    expect(await synced(dbs.env)).toMatchObject({ pending_rows: 0, orphan_rows: 1 });

    // The parent comes back: the account is served, neither held nor an orphan.
    await insertSource(dbs.source, "customers", [{ ...row, updated_at: new Date().toISOString() }]);
    expect(await synced(dbs.env)).toMatchObject({ pending_rows: 0, orphan_rows: 0 });
    const { body } = await getJson(dbs.env, `/api/customers/${customer.slug}`);
    expect(body.data.accounts.map((a: { id: string }) => a.id)).toEqual([account.id]);
    expect((await status(dbs.env)).orphans).toEqual({ count: 0, oldest_age_seconds: null, rows: [] });
  }, 240_000);

  it("counts a held row's age from when it was first held, not from its source stamp a year back", async () => {
    const started = Date.now();
    const book = new Book();
    const { staff, broker } = book.simpleCustomer();
    const dbs = await withSource(book);
    const { account } = await accountBeforeCustomer(dbs.source, { staff, broker }, -365 * 86_400);
    expect(await synced(dbs.env)).toMatchObject({ pending_rows: 1, orphan_rows: 0 });
    const seen = await status(dbs.env);
    expect(seen.held.rows).toEqual([expect.objectContaining({ stream: "accounts", id: account.id })]);
    expect(seen.held.oldest_age_seconds).toBeLessThanOrEqual(since(started));
  }, 120_000);
});
