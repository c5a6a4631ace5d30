/**
 * What the API serves: a row is served when it and its owners are live (not soft-deleted in the
 * source, not set aside by the sync) and its references are in the target. The target keeps
 * everything else too (tombstones, held and rejected rows), so every read and the stored metrics
 * decide here, in one place, what a customer sees.
 *
 * Fragments are drizzle `sql` over a table or an alias of it (`alias(accounts, "a")` from
 * drizzle-orm/pg-core), so the read queries (src/db/queries) and the sync's statements
 * (src/sync) compose the same rules into their own statements.
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { brokers, tradePlaces, transactions } from "./schema";

/** A synced table (or an alias of one): the columns every mirrored row carries (src/db/schema/copies.ts). */
interface Mirrored {
  deletedAt: AnyPgColumn;
  rejected: AnyPgColumn;
}

/** Neither soft-deleted in the source nor set aside by the sync. */
export const live = (row: Mirrored): SQL => sql`${row.deletedAt} is null and ${row.rejected} is null`;

/** An account (or an alias of `accounts`). */
interface Account extends Mirrored {
  customerId: AnyPgColumn;
  brokerId: AnyPgColumn;
}

/**
 * Account `a` is served as one of customer `customerId`'s: live, still the customer's, and at a
 * broker the target knows (a broker soft-deleted in the source still counts: it is a reference).
 */
export const servedAccount = (a: Account, customerId: SQLWrapper): SQL =>
  sql.join(
    [live(a), sql`${a.customerId} = ${customerId}`, sql`exists (select from ${brokers} where ${brokers.id} = ${a.brokerId})`],
    sql` and `,
  );

/**
 * SQL: the trade date and id of customer `customer`'s last placed trade (src/sync/ordinals.ts),
 * the one at place `trades` (its customer_histories.trades): a trade after it is appended to the
 * served history, one at or before it places the history again. No row when none is placed.
 */
export const lastPlaced = (customer: SQLWrapper, trades: SQLWrapper): SQL =>
  sql`select t.trade_date, t.id from ${tradePlaces} p join ${transactions} t on t.id = p.transaction_id
    where p.customer_id = ${customer} and p.place = ${trades}`;
