/**
 * The corporate_actions stream (docs/corporate-actions.md;
 * docs/sync.md): owned by its account like a trade, held while the account is
 * missing, hidden and restored with it, rows no ledger can hold set aside, and a holding's share
 * credits fed into its FIFO lots and its stored partial. Each case is checked through the public
 * API and against the source (expectInSync: the reference computes the metrics from the source's
 * served trades and credits).
 */
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { Book, writeSource } from "../support/book";
import { getJson } from "../support/worker";
import {
  changeSource,
  dropSourceForeignKeys,
  expectInSync,
  rejectedRows,
  restore,
  softDelete,
  synced,
  withSource,
} from "./helpers";

const HEAVY = 120_000;
const uncached = (env: Env) => ({ ...env, CACHE_TTL_SECONDS: "0" });
const summary = async (env: Env, slug: string) => (await getJson(uncached(env), `/api/analytics/${slug}`)).body.data.summary;

/** 100 FPT bought for 1,000,000, 20 bonus shares, all 120 sold for 1,200,000 less 1,200 of tax. */
function bonusBook() {
  const book = new Book();
  const { customer, account } = book.simpleCustomer();
  book.trade({ account_id: account.id, trade_date: "2024-01-02", type: "buy", quantity: 100, price: "10000" });
  book.trade({ account_id: account.id, trade_date: "2024-04-01", type: "sell", quantity: 120, price: "10000" });
  const bonus = book.corporateAction({ account_id: account.id, type: "share_dividend", ex_date: "2024-03-01", quantity: 20 });
  return { book, customer, account, bonus };
}

/** With the bonus: 1,198,800 - 1,000,000. */
const WITH_BONUS = { total_realized_pnl: 198800, unmatched_sell_quantity: 0 };
/** Without it: 100/120 of 1,198,800 = 999,000, less 1,000,000. */
const WITHOUT_BONUS = { total_realized_pnl: -1000, unmatched_sell_quantity: 20 };

describe("the corporate_actions stream", () => {
  it(
    "holds a credit while its account is missing and feeds it into FIFO once the account arrives",
    async () => {
      const { book, customer, account } = bonusBook();
      book.accounts = book.accounts.filter((a) => a !== account);
      const dbs = await withSource(new Book());
      await dropSourceForeignKeys(dbs.source);
      await writeSource(dbs.source, book);
      // The trades and the credit wait for their account.
      expect(await synced(dbs.env)).toMatchObject({ pending_rows: 3 });

      const late = new Book();
      late.accounts.push({ ...account, updated_at: "2025-06-01T00:00:00Z" });
      await writeSource(dbs.source, late);
      expect(await synced(dbs.env)).toMatchObject({ pending_rows: 0 });
      expect(await summary(dbs.env, customer.slug)).toMatchObject(WITH_BONUS);
      await expectInSync(dbs);
    },
    HEAVY,
  );

  it(
    "hides a soft-deleted credit, and serves it again with its restored account",
    async () => {
      const { book, customer, account, bonus } = bonusBook();
      const dbs = await withSource(book);
      await synced(dbs.env);
      expect(await summary(dbs.env, customer.slug)).toMatchObject(WITH_BONUS);

      await softDelete(dbs.source, "corporate_actions", bonus.id, "2025-06-01T00:00:00Z");
      expect(await synced(dbs.env)).toMatchObject({ synced_rows: 1 });
      expect(await summary(dbs.env, customer.slug)).toMatchObject(WITHOUT_BONUS);
      await expectInSync(dbs);

      await restore(dbs.source, "corporate_actions", bonus.id, "2025-06-02T00:00:00Z");
      await synced(dbs.env);
      expect(await summary(dbs.env, customer.slug)).toMatchObject(WITH_BONUS);

      // The account goes and comes back: its credit with it, although the credit never changed.
      await softDelete(dbs.source, "accounts", account.id, "2025-06-03T00:00:00Z");
      await synced(dbs.env);
      expect(await summary(dbs.env, customer.slug)).toMatchObject({ total_realized_pnl: 0, total_deals: 0 });
      await restore(dbs.source, "accounts", account.id, "2025-06-04T00:00:00Z");
      await synced(dbs.env);
      expect(await summary(dbs.env, customer.slug)).toMatchObject(WITH_BONUS);
      await expectInSync(dbs);
    },
    HEAVY,
  );

  it(
    "sets aside rows no ledger can hold, with their reasons, and takes them when mended",
    async () => {
      const { book, customer, account, bonus } = bonusBook();
      bonus.gross_amount = "100";
      const row = (p: Partial<Parameters<Book["corporateAction"]>[0]>) =>
        book.corporateAction({ account_id: account.id, type: "cash_dividend", ex_date: "2024-06-01", quantity: 100, ...p });
      const bad = [
        row({ type: "share_dividend", quantity: 0 }),
        row({ gross_amount: "1000", tax: "1001" }),
        row({ gross_amount: "-1" }),
        row({ quantity: -1 }),
        row({ pay_date: "2024-05-31" }),
        row({ stock_code: "fpt" }),
      ];
      const good = row({ gross_amount: "1000", tax: "50", pay_date: "2024-06-20" });
      const dbs = await withSource(book);
      expect(await synced(dbs.env)).toMatchObject({ rejected_rows: 7 });
      const reasons = new Map(
        ((await rejectedRows(dbs.target)) as { id: string; reason: string }[]).map((r) => [r.id, r.reason]),
      );
      expect([bonus, ...bad].map((r) => reasons.get(r.id))).toEqual([
        "share credit carries cash or tax",
        "share credit quantity is not positive",
        "cash dividend tax is above its gross_amount",
        "cash dividend gross_amount is negative",
        "cash dividend quantity is negative",
        "pay_date is before ex_date",
        "stock_code is not 1 to 10 uppercase letters or digits",
      ]);
      expect(reasons.has(good.id)).toBe(false);
      expect(await summary(dbs.env, customer.slug)).toMatchObject(WITHOUT_BONUS);
      // The one cash dividend it could take, apart from trading: 1,000 with 50 withheld.
      const stats = (await getJson(uncached(dbs.env), `/api/stats/${customer.slug}`)).body.data;
      expect(stats.dividends).toEqual({ count: 1, gross: 1000, tax: 50, net: 950 });
      expect(stats).toMatchObject({ realized_pnl: -1000, realized_pnl_average_cost: -1000, total_return: -50 });
      await expectInSync(dbs);

      await changeSource(dbs.source, "corporate_actions", bonus.id, { gross_amount: "0" }, "2025-06-01T00:00:00Z");
      expect(await synced(dbs.env)).toMatchObject({ rejected_rows: 0, synced_rows: 1 });
      expect(await summary(dbs.env, customer.slug)).toMatchObject(WITH_BONUS);
      await expectInSync(dbs);
    },
    HEAVY,
  );

  it(
    "follows a credit moved to another date, and continues a stored partial across a later credit",
    async () => {
      const { book, customer, account, bonus } = bonusBook();
      const dbs = await withSource(book);
      await synced(dbs.env);
      const trade = (p: { trade_date: string; type: "buy" | "sell"; quantity: number }, updated_at: string) => {
        const day = new Book();
        day.trade({ account_id: account.id, price: "10000", updated_at, ...p });
        return writeSource(dbs.source, day);
      };

      // After the sell: the 20 sold beyond the lot are unmatched, and the credit opens a lot of
      // 20 at no cost dated May 1.
      const moved = { ex_date: "2024-05-01", pay_date: "2024-05-01" };
      await changeSource(dbs.source, "corporate_actions", bonus.id, moved, "2025-06-01T00:00:00Z");
      expect(await synced(dbs.env)).toMatchObject({ holdings_recomputed: 1 });
      expect(await summary(dbs.env, customer.slug)).toMatchObject(WITHOUT_BONUS);
      await expectInSync(dbs);

      // Those 20 sold on a later day: 200,000 less 200 of tax, all of it gained.
      await trade({ trade_date: "2024-06-03", type: "sell", quantity: 20 }, "2025-06-02T00:00:00Z");
      await synced(dbs.env);
      expect(await summary(dbs.env, customer.slug)).toMatchObject({ total_deals: 2, total_realized_pnl: 198800 });
      await expectInSync(dbs);

      // A buy, then a credit dated after everything stored: the partial continues across it,
      // spreading the 10 shares over the open lot (110 for 1,000,000), sold for 1,098,900.
      await trade({ trade_date: "2024-06-10", type: "buy", quantity: 100 }, "2025-06-03T00:00:00Z");
      await synced(dbs.env);
      const later = new Book();
      later.corporateAction({
        account_id: account.id,
        type: "share_dividend",
        ex_date: "2024-07-01",
        quantity: 10,
        updated_at: "2025-06-04T00:00:00Z",
      });
      await writeSource(dbs.source, later);
      await synced(dbs.env);
      await trade({ trade_date: "2024-08-01", type: "sell", quantity: 110 }, "2025-06-05T00:00:00Z");
      await synced(dbs.env);
      expect(await summary(dbs.env, customer.slug)).toMatchObject({ total_deals: 3, total_realized_pnl: 198800 + 98900 });
      await expectInSync(dbs);

      // The first credit back before the first sell: the holding is recomputed from its start.
      await changeSource(
        dbs.source,
        "corporate_actions",
        bonus.id,
        { ex_date: "2024-03-01", pay_date: "2024-03-01" },
        "2025-06-06T00:00:00Z",
      );
      await synced(dbs.env);
      expect(await summary(dbs.env, customer.slug)).toMatchObject({ total_deals: 2, unmatched_sell_quantity: 20 });
      await expectInSync(dbs);
    },
    HEAVY,
  );

  it(
    "is repaired by mode=full when the source changed a credit without updated_at",
    async () => {
      const { book, customer, bonus } = bonusBook();
      const dbs = await withSource(book);
      await synced(dbs.env);
      await dbs.source.query("update corporate_actions set quantity = 10 where id = $1", [bonus.id]);
      expect(await synced(dbs.env)).toMatchObject({ synced_rows: 0 });
      expect(await summary(dbs.env, customer.slug)).toMatchObject(WITH_BONUS);

      expect((await synced(dbs.env, "full")).streams.corporate_actions).toMatchObject({ updated: 1 });
      // 110 shares for 1,000,000; 110/120 of 1,198,800 = 1,098,900: +98,900, 10 unmatched.
      expect(await summary(dbs.env, customer.slug)).toMatchObject({ total_realized_pnl: 98900, unmatched_sell_quantity: 10 });
      await expectInSync(dbs);
    },
    HEAVY,
  );
});
