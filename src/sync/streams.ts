/**
 * The synced streams, in foreign-key order, and everything the sync knows about each
 * (docs/sync.md). Each stream names a table that has the same name in the source and in the
 * target. Columns and foreign keys come from the source schema (src/db/source.ts); what is
 * written here is only what the schema cannot say: who owns a row, which rows no ledger can
 * hold, and which customers a change to a row touches.
 *
 * Ownership decides what is served, and it is read where the data is read, never copied: the
 * target keeps every row with its tombstone (`deleted_at`), so a restore in the source serves
 * the row's owned rows again although they did not change, and a reference (staff, broker)
 * soft-deleted hides nothing that refers to it.
 */
import { getTableName, type SQL, sql } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { customerHistories, tradePlaces } from "../db/schema";
import { lastPlaced } from "../db/served";
import { sourceTables } from "../db/source";
import { SERVABLE_SLUG_SQL } from "../domain/slug";
import { STOCK_CODE_SQL } from "../domain/stock-code";

export type StreamName = keyof typeof sourceTables;

interface Column {
  name: string;
  /** The Postgres type `jsonb_to_recordset` reads the source value as. */
  type: string;
}

/** A check on an incoming row (SQL over its columns, unqualified) and what to say when it fails. */
export interface Rule {
  fails: SQL;
  reason: string;
}

export interface Stream {
  name: StreamName;
  /**
   * The table, as the source schema declares it: statements name it through this object, in
   * either database (the target's table has the same name).
   */
  table: PgTable;
  /** Columns copied as they are, besides `id`, `updated_at` and `deleted_at`. */
  columns: readonly Column[];
  /** Foreign keys: a row whose parent is not in the target is held (stored, not served). */
  parents: readonly { column: string; stream: StreamName }[];
  /** A target column taken from a parent rather than copied: `name` = parent's `column` via `foreignKey`. */
  derived?: { name: string; stream: StreamName; foreignKey: string; column: string };
  /** Rows no ledger can hold (docs/sync.md): set aside with the first failing rule's reason. */
  rules: readonly Rule[];
  /**
   * The customers whose served data a row touches, as SQL over a relation `r` holding rows of
   * this table (the target's columns): both the row's version before a change and after it.
   * None for a table no customer owns or stores metrics of (stock_prices).
   */
  customersOf?: (r: SQL) => SQL;
  /**
   * The stock codes whose latest close a row may change, as SQL over `r` (stock_prices): their
   * latest_prices row is brought up to date after the data (src/sync/prices.ts).
   */
  pricesOf?: (r: SQL) => SQL;
  /**
   * True when a change can change which accounts a customer is served (servedAccount): those
   * customers merge all their holdings again instead of adjusting their stored merge.
   */
  regroups?: boolean;
  /**
   * What a change does to its customers' histories (src/sync/ordinals.ts), as SQL
   * (customer_id, from_date, appends) over the changed rows as they were (`before`) and as they
   * are (`after`, null when removed; its `inserted` is true for a row new to the target). Placed
   * again from `from_date` on: a row that held a place lost it or may have moved (from the
   * earlier of its two dates), or a row without one came at or before the customer's last placed
   * trade (from its date). Appended to (`appends`, no date): a row without a place came after
   * that trade. A change to which accounts are served (`regroups`) places every customer it
   * touches from the start; a customer no row of which gets `appends` is not looked at for
   * trades to append.
   */
  placesOf?: (before: SQL, after: SQL | null) => SQL;
  /**
   * The holdings whose metrics a row feeds, as SQL over `r`: (account_id, stock_code, the
   * trade date from which the holding's partial must be recomputed).
   */
  holdingsOf?: (r: SQL) => SQL;
  /** A column unique in the target whose value a row can take from another (customers.slug). */
  unique?: string;
  /** The column public reads (and their cache entries) are addressed by. */
  slug?: string;
}

const CURSOR_COLUMNS = new Set(["id", "updated_at", "deleted_at"]);

/** A stream's copied columns and foreign keys, as the source schema declares them. */
function fromSource(name: StreamName): Pick<Stream, "name" | "table" | "columns" | "parents"> {
  const table = getTableConfig(sourceTables[name]);
  return {
    name,
    table: sourceTables[name],
    columns: table.columns.filter((c) => !CURSOR_COLUMNS.has(c.name)).map((c) => ({ name: c.name, type: c.getSQLType() })),
    parents: table.foreignKeys.map((fk) => {
      const reference = fk.reference();
      return { column: reference.columns[0]!.name, stream: getTableName(reference.foreignTable) as StreamName };
    }),
  };
}

const notNegative = (column: string): Rule => ({ fails: sql`${sql.identifier(column)} < 0`, reason: `${column} is negative` });
/** The API filters and shows stock codes uppercase (src/domain/stock-code.ts): anything else could not be found. */
const stockCode: Rule = {
  fails: sql`stock_code !~ ${STOCK_CODE_SQL}`,
  reason: "stock_code is not 1 to 10 uppercase letters or digits",
};

const { accounts, customers } = sourceTables;
const customerOfAccount = (account: SQL) => sql`select customer_id from ${accounts} where id = ${account}`;
/** SQL: trade row `r` holds a place in its customer's history (src/sync/ordinals.ts). */
const placed = (r: SQL) => sql`exists (select from ${tradePlaces} p where p.transaction_id = ${r}.id)`;

export const STREAMS: readonly Stream[] = [
  {
    ...fromSource("brokers"),
    rules: [],
    // A broker's code and name are embedded in every account at it.
    customersOf: (r) => sql`select a.customer_id from ${accounts} a join ${r} on a.broker_id = ${r}.id`,
    // An account is served only at a broker the target has.
    regroups: true,
  },
  {
    ...fromSource("staff"),
    rules: [],
    customersOf: (r) => sql`select c.id from ${customers} c join ${r} on c.staff_id = ${r}.id`,
  },
  {
    ...fromSource("customers"),
    rules: [{ fails: sql`slug !~ ${SERVABLE_SLUG_SQL}`, reason: "slug cannot be served (1 to 64 letters, digits, _ or -)" }],
    customersOf: (r) => sql`select id from ${r}`,
    regroups: true,
    unique: "slug",
    slug: "slug",
  },
  {
    ...fromSource("accounts"),
    rules: [],
    customersOf: (r) => sql`select customer_id from ${r}`,
    regroups: true,
  },
  {
    ...fromSource("holdings"),
    rules: [
      { fails: sql`quantity < 0`, reason: "quantity is negative" },
      notNegative("avg_cost"),
      notNegative("total_cost"),
      stockCode,
    ],
    customersOf: (r) => customerOfAccount(sql`any(array(select account_id from ${r}))`),
  },
  {
    ...fromSource("transactions"),
    placesOf: (before, after) => {
      if (!after) return sql`select customer_id, trade_date, false from ${before} where ${placed(before)}`;
      return sql`select x.customer_id, least(b.trade_date, u.trade_date), false from ${before} b join ${after} u using (id)
          -- Both owners: the row left one history and brings its old place into the other.
          cross join lateral (values (b.customer_id), (u.customer_id)) as x(customer_id)
          where ${placed(sql`b`)}
            and (b.trade_date, b.account_id, b.customer_id, b.deleted_at, b.rejected)
              is distinct from (u.trade_date, u.account_id, u.customer_id, u.deleted_at, u.rejected)
        union all
        -- A live trade without a place: at or before its customer's last placed one, the history is
        -- placed again from its date; after it (or with none placed), appended to, which takes only
        -- the trades after that one.
        select u.customer_id, case when w.displaces then u.trade_date end, w.displaces is not true
          from ${after} u
          left join ${customerHistories} h on h.customer_id = u.customer_id
          left join lateral (${lastPlaced(sql`h.customer_id`, sql`h.trades`)}) l on true
          -- Null when none is placed.
          cross join lateral (select (u.trade_date, u.id) <= (l.trade_date, l.id) as displaces) w
          -- A row new to the target has no place to look for (one left by a row removed and
          -- booked again is taken over when placed): at 10M trades each probe of the places' key
          -- cost ~0.2 ms, three quarters of this part (\`placesOf\` in docs/sync.md).
          where u.deleted_at is null and u.rejected is null and (u.inserted or not ${placed(sql`u`)})`;
    },
    // Denormalised so a customer's history is one index range scan (src/db/schema/copies.ts).
    derived: { name: "customer_id", stream: "accounts", foreignKey: "account_id", column: "customer_id" },
    rules: [
      { fails: sql`quantity <= 0`, reason: "quantity is not positive" },
      notNegative("price"),
      notNegative("total_value"),
      notNegative("fee"),
      notNegative("personal_tax"),
      stockCode,
    ],
    customersOf: (r) => customerOfAccount(sql`any(array(select account_id from ${r}))`),
    holdingsOf: (r) => sql`select account_id, stock_code, trade_date from ${r}`,
  },
  // What each account received (docs/corporate-actions.md): owned by its account, like its trades.
  {
    ...fromSource("corporate_actions"),
    rules: [
      stockCode,
      { fails: sql`type = 'share_dividend' and quantity <= 0`, reason: "share credit quantity is not positive" },
      { fails: sql`type = 'share_dividend' and (gross_amount <> 0 or tax <> 0)`, reason: "share credit carries cash or tax" },
      { fails: sql`type = 'cash_dividend' and quantity < 0`, reason: "cash dividend quantity is negative" },
      { fails: sql`type = 'cash_dividend' and gross_amount < 0`, reason: "cash dividend gross_amount is negative" },
      { fails: sql`type = 'cash_dividend' and tax < 0`, reason: "cash dividend tax is negative" },
      { fails: sql`type = 'cash_dividend' and tax > gross_amount`, reason: "cash dividend tax is above its gross_amount" },
      { fails: sql`pay_date < ex_date`, reason: "pay_date is before ex_date" },
    ],
    customersOf: (r) => customerOfAccount(sql`any(array(select account_id from ${r}))`),
    // A share credit changes its holding's FIFO lots from its ex_date on.
    holdingsOf: (r) => sql`select account_id, stock_code, ex_date from ${r} where type = 'share_dividend'`,
  },
  // Closes: a reference no customer owns. A price is a valuation, never P&L: a change only
  // marks its stock's latest close for refreshing, and touches no customer's stored metrics.
  {
    ...fromSource("stock_prices"),
    rules: [{ fails: sql`close_price <= 0`, reason: "close_price is not positive" }, stockCode],
    pricesOf: (r) => sql`select stock_code from ${r}`,
  },
];

/** Streams whose rows take a derived column from `stream` (transactions from accounts). */
export function derivingFrom(stream: StreamName): Stream[] {
  return STREAMS.filter((s) => s.derived?.stream === stream);
}
