/**
 * The six synced streams, in foreign-key order: a parent stream is always applied before its
 * children, so within one run a child normally finds its parent already in the target.
 *
 * Each stream names a table that has the same name in the source and in the target. Columns
 * and foreign keys come from the source schema (src/db/source.ts); what is written here is
 * only what the schema cannot say. The SQL fragments are written against fixed CTE names of
 * the apply statement (src/sync/apply.ts): `changed` (ids of rows the statement inserted,
 * updated or deleted) and `upserted` (the rows it inserted or updated, as stored).
 */
import { getTableName } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/pg-core";
import { sourceTables } from "../db/source";

export type StreamName = keyof typeof sourceTables;

interface Column {
  name: string;
  /** The Postgres type `jsonb_to_recordset` reads the source value as. */
  type: string;
}

export interface Stream {
  name: StreamName;
  /** Columns copied as they are, besides `id`, `updated_at` and `deleted_at`. */
  columns: readonly Column[];
  /** Foreign keys. A live row whose parent is not in the target is an orphan and is skipped. */
  parents: readonly { column: string; stream: StreamName }[];
  /** Target columns taken from a parent rather than copied (the parent table is joined by name). */
  derived: readonly { name: string; from: string }[];
  /**
   * The customers whose served data the statement changed: those linked to `changed` rows as
   * the target stood before the statement, and those the `upserted` rows link to now.
   */
  customersBefore: string;
  customersAfter?: string;
  /** A copy of a derived column kept in step when the parent row changes. */
  propagate?: { stream: StreamName; foreignKey: string; column: string };
  /** The column public reads (and their cache entries) are addressed by. */
  slug?: string;
}

const CURSOR_COLUMNS = new Set(["id", "updated_at", "deleted_at"]);

/** A stream's copied columns and foreign keys, as the source schema declares them. */
function fromSource(name: StreamName): Pick<Stream, "name" | "columns" | "parents"> {
  const table = getTableConfig(sourceTables[name]);
  return {
    name,
    columns: table.columns.filter((c) => !CURSOR_COLUMNS.has(c.name)).map((c) => ({ name: c.name, type: c.getSQLType() })),
    parents: table.foreignKeys.map((fk) => {
      const reference = fk.reference();
      return { column: reference.columns[0]!.name, stream: getTableName(reference.foreignTable) as StreamName };
    }),
  };
}

export const STREAMS: readonly Stream[] = [
  {
    ...fromSource("brokers"),
    derived: [],
    customersBefore: "select customer_id from accounts where broker_id in (select id from changed)",
  },
  {
    ...fromSource("staff"),
    derived: [],
    customersBefore: "select id from customers where staff_id in (select id from changed)",
  },
  {
    ...fromSource("customers"),
    derived: [],
    customersBefore: "select id from changed",
    slug: "slug",
  },
  {
    ...fromSource("accounts"),
    derived: [],
    customersBefore: "select customer_id from accounts where id in (select id from changed)",
    customersAfter: "select customer_id from upserted",
    propagate: { stream: "transactions", foreignKey: "account_id", column: "customer_id" },
  },
  {
    ...fromSource("holdings"),
    derived: [],
    customersBefore:
      "select a.customer_id from holdings h join accounts a on a.id = h.account_id where h.id in (select id from changed)",
    customersAfter: "select a.customer_id from upserted u join accounts a on a.id = u.account_id",
  },
  {
    ...fromSource("transactions"),
    // Denormalised so a customer's history is one index range scan (src/db/schema.ts).
    derived: [{ name: "customer_id", from: "accounts.customer_id" }],
    customersBefore: "select customer_id from transactions where id in (select id from changed)",
    customersAfter: "select customer_id from upserted",
  },
];

/** Streams whose rows reference `stream`: they go with a deleted parent. */
export function childrenOf(stream: StreamName): Stream[] {
  return STREAMS.filter((s) => s.parents.some((p) => p.stream === stream));
}

export function streamNamed(name: StreamName): Stream {
  return STREAMS.find((s) => s.name === name)!;
}
