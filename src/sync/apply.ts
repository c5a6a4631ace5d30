/**
 * Applying source rows to the target, set-based, built from the stream's description
 * (src/sync/streams.ts). A page is one statement (two for a stream with a unique column) that
 *
 * - reads the page from one `jsonb` parameter (`jsonb_to_recordset`: never a placeholder per
 *   value) and keeps one row per id;
 * - judges each row against the stream's rules: a row no ledger can hold is stored with its
 *   reason in `rejected` (never served, never in P&L) and the rest of the page goes on;
 * - upserts every row, soft-deleted ones as tombstones, writing only rows that really differ;
 * - takes derived columns from the parent as the target holds it (null while the parent has not
 *   arrived: the row waits, unserved) and keeps copies in children in step when a parent moves;
 * - records the holdings and customers whose metrics and cached answers the change touches, as
 *   the target stood before the statement and after it;
 * - returns exact counts and the slugs that stopped naming their customer.
 *
 * All sub-statements of one statement see the target as it was before the statement, which is
 * what the "before" relations rely on.
 */
import { type SQL, sql } from "drizzle-orm";
import { holdingsPending, metricsPending, MIRRORED, pricesPending } from "../db/schema";
import { sourceTables } from "../db/source";
import { int, oneRow, texts, type Row, type Statement } from "./database";
import { derivingFrom, STREAMS, type Stream, type StreamName } from "./streams";

export interface Applied {
  inserted: number;
  updated: number;
  /** Rows newly soft-deleted, or removed because the source no longer has them. */
  deleted: number;
  /** Rows set aside as no ledger can hold them. */
  rejected: number;
  /**
   * Rows of other tables (or other rows of this one) changed only because these rows changed: a
   * moved account's trades following it, a slug's former holder. Their own source rows did not
   * change, so they are not the back office's changes (docs/sync.md: derived_rows).
   */
  derived: Partial<Record<StreamName, number>>;
  /** Slugs that stopped naming their customer (changed, handed on, or the row removed). */
  goneSlugs: string[];
}

export function addApplied(a: Applied, b: Applied): Applied {
  const derived = { ...a.derived };
  for (const [stream, n] of Object.entries(b.derived) as [StreamName, number][]) derived[stream] = (derived[stream] ?? 0) + n;
  return {
    inserted: a.inserted + b.inserted,
    updated: a.updated + b.updated,
    deleted: a.deleted + b.deleted,
    rejected: a.rejected + b.rejected,
    derived,
    goneSlugs: [...a.goneSlugs, ...b.goneSlugs],
  };
}

/** The column a statement counts rows of `stream` derived in. */
const derivedColumn = (stream: StreamName) => `derived_${stream}`;

const decodeApplied = (r: Row): Applied => ({
  inserted: int(r.inserted),
  updated: int(r.updated),
  deleted: int(r.deleted),
  rejected: int(r.rejected),
  derived: Object.fromEntries(
    STREAMS.filter((s) => derivedColumn(s.name) in r).map((s) => [s.name, int(r[derivedColumn(s.name)])]),
  ),
  goneSlugs: texts(r.gone_slugs),
});

const commas = (parts: SQL[]) => sql.join(parts, sql`,\n`);
/** A column or relation named in the stream's description (from the source schema), quoted. */
const name = (identifier: string): SQL => sql`${sql.identifier(identifier)}`;
/** `a, b, c`, each name qualified by `alias` when one is given. */
const names = (identifiers: readonly string[], alias?: string) =>
  sql.join(
    identifiers.map((c) => (alias ? sql`${name(alias)}.${name(c)}` : name(c))),
    sql`, `,
  );
/** The table of a stream: its name is the same in both databases. */
const tableOf = (stream: StreamName) => sourceTables[stream];
/** The relations of changed rows a statement's CTEs name (before and after the change). */
const relations = (rels: readonly string[], of: (r: SQL) => SQL) =>
  sql.join(
    rels.map((r) => of(name(r))),
    sql` union `,
  );

/** CTEs recording the work a change leaves: `rels` are relations of changed rows (before, after). */
function pendingWork(stream: Stream, rels: readonly string[], change?: { before: string; after: string | null }): SQL[] {
  const ctes: SQL[] = [];
  if (stream.customersOf) {
    const regroups = stream.regroups ? sql`true` : sql`false`;
    // From which date each customer's history is placed again: the start, when the served
    // accounts may change; the displaced trades' earliest date; none (null) otherwise. Whether
    // trades are to be appended to it: only where the stream's placesOf says so.
    const everyPlace = stream.regroups ? sql`'-infinity'::date` : sql`null::date`;
    const placing =
      stream.placesOf && change
        ? sql` union all select customer_id, from_date, appends from (${stream.placesOf(name(change.before), change.after ? name(change.after) : null)}) as d(customer_id, from_date, appends)`
        : sql``;
    // A flag once set stays set until the customer is stored; dates keep the earliest (least and
    // min pass over nulls).
    ctes.push(sql`pending_customers as (
      insert into ${metricsPending} as p (customer_id, remerge, reorders_from, appends)
      select customer_id, ${regroups}, min(reorders_from), bool_or(appends) from (
        select customer_id, ${everyPlace} as reorders_from, false as appends
        from (${relations(rels, stream.customersOf)}) as c(customer_id)${placing}
      ) w
      where customer_id is not null
      group by customer_id
      on conflict (customer_id) do update
      set remerge = p.remerge or excluded.remerge, reorders_from = least(p.reorders_from, excluded.reorders_from),
        appends = p.appends or excluded.appends
    )`);
  }
  if (stream.pricesOf) {
    ctes.push(sql`pending_prices as (
      insert into ${pricesPending} (stock_code)
      select distinct stock_code from (${relations(rels, stream.pricesOf)}) as p(stock_code)
      on conflict (stock_code) do nothing
    )`);
  }
  if (stream.holdingsOf) {
    // A holding already waiting recomputes from the earlier of the two dates; null stays whole.
    ctes.push(sql`pending_holdings as (
      insert into ${holdingsPending} as p (account_id, stock_code, from_date)
      select account_id, stock_code, min(from_date)
      from (${relations(rels, stream.holdingsOf)}) as h(account_id, stock_code, from_date)
      group by account_id, stock_code
      on conflict (account_id, stock_code) do update
      set from_date = case when p.from_date is not null then least(p.from_date, excluded.from_date) end
    )`);
  }
  return ctes;
}

/** The page, one row per id (the latest version wins), read from one `jsonb` parameter: `rows`. */
function pageCte(stream: Stream, rows: string, columns = stream.columns): SQL {
  // Each column's type is the source schema's own (`numeric(20, 4)`, `date`, ...).
  const record = columns.map((c) => sql`, ${name(c.name)} ${sql.raw(c.type)}`);
  return sql`page as (
    select distinct on (id) * from jsonb_to_recordset(${rows}::jsonb)
      as r(id uuid, updated_at timestamptz, deleted_at timestamptz${sql.join(record)})
    order by id, updated_at desc
  )`;
}

/** The first failing rule's reason, or null for a row a ledger can hold. */
function verdict(stream: Stream): SQL {
  if (!stream.rules.length) return sql`null::text`;
  return sql`case ${sql.join(
    stream.rules.map((r) => sql`when ${r.fails} then ${r.reason}::text`),
    sql` `,
  )} end`;
}

function upsertStatement(stream: Stream, rows: string): SQL {
  const { table, columns, derived } = stream;
  const copied = columns.map((c) => c.name);
  const written = [...copied, ...(derived ? [derived.name] : []), MIRRORED.deletedAt, MIRRORED.rejected];
  const stored = [...written, MIRRORED.sourceUpdatedAt];
  const children = derivingFrom(stream.name);
  const fromParent = derived
    ? {
        column: sql`, parent.${name(derived.column)} as ${name(derived.name)}`,
        join: sql` left join ${tableOf(derived.stream)} parent on parent.id = page.${name(derived.foreignKey)}`,
      }
    : { column: sql``, join: sql`` };
  const ctes = [
    pageCte(stream, rows),
    sql`incoming as (
      select page.*, ${verdict(stream)} as ${name(MIRRORED.rejected)}${fromParent.column}
      from page${fromParent.join}
    )`,
    sql`before as (select t.* from ${table} t where t.id in (select id from page))`,
    sql`upserted as (
      insert into ${table} as t (id, ${names(stored)})
      select id, ${names(written)}, updated_at from incoming
      on conflict (id) do update set ${sql.join(
        stored.map((c) => sql`${name(c)} = excluded.${name(c)}`),
        sql`, `,
      )}
      where (${names(stored, "t")}) is distinct from (${names(stored, "excluded")})
      returning t.*, (t.xmax = 0) as inserted
    )`,
    sql`changed_before as (select * from before where id in (select id from upserted))`,
    // A parent that moved (an account to another customer) takes its children's copies along.
    ...children.map((child) => {
      const { name: copy, foreignKey, column } = child.derived!;
      return sql`${name(`follow_${child.name}`)} as (
        update ${child.table} c set ${name(copy)} = u.${name(column)} from upserted u
        where c.${name(foreignKey)} = u.id and c.${name(copy)} is distinct from u.${name(column)}
        returning c.id
      )`;
    }),
    ...pendingWork(stream, ["changed_before", "upserted"], { before: "changed_before", after: "upserted" }),
  ];
  const newlyDeleted = sql`u.deleted_at is not null and b.deleted_at is null`;
  const goneSlugs = stream.slug
    ? sql`array(select b.${name(stream.slug)} from changed_before b join upserted u using (id)
        where b.${name(stream.slug)} is not null and b.${name(stream.slug)} is distinct from u.${name(stream.slug)})`
    : sql`array[]::text[]`;
  return sql`with ${commas(ctes)}
  select
    count(*) filter (where u.rejected is null and u.inserted)::int as inserted,
    count(*) filter (where u.rejected is null and not u.inserted and not (${newlyDeleted}))::int as updated,
    count(*) filter (where u.rejected is null and not u.inserted and ${newlyDeleted})::int as deleted,
    count(*) filter (where u.rejected is not null)::int as rejected,
    ${goneSlugs} as gone_slugs${countsOf(children, "follow")}
  from upserted u left join changed_before b on b.id = u.id`;
}

/** `, (select count(*) from follow_transactions)::int as derived_transactions`, one per child. */
function countsOf(children: readonly Stream[], cte: "follow" | "unlink"): SQL {
  return sql.join(
    children.map((c) => sql`, (select count(*) from ${name(`${cte}_${c.name}`)})::int as ${name(derivedColumn(c.name))}`),
  );
}

/**
 * Before the upsert, in the same transaction: clears the unique column of target rows whose
 * value a page row now takes (a slug handed on, two customers exchanging slugs). The source
 * holds each value once, so a target row still holding a value the source gives another row is
 * out of date: it is served under no slug until its own change arrives. Done as a statement of
 * its own because Postgres checks a unique index row by row, so even an exchange inside one
 * page would collide within a single statement.
 */
function displaceStatement(stream: Stream, column: string, rows: string): SQL {
  const uniqueColumn = stream.columns.find((c) => c.name === column)!;
  const ctes = [
    pageCte(stream, rows, [uniqueColumn]),
    sql`holders as (select t.* from ${stream.table} t join page p on t.${name(column)} = p.${name(column)} and t.id <> p.id)`,
    sql`displaced as (update ${stream.table} t set ${name(column)} = null where t.id in (select id from holders) returning t.id)`,
    ...pendingWork(stream, ["holders"]),
  ];
  return sql`with ${commas(ctes)}
  select 0 as inserted, 0 as updated, 0 as deleted, 0 as rejected,
    array(select ${name(column)} from holders) as gone_slugs,
    -- Holders in the page are written again by the upsert, and counted there; the others only
    -- lost a value another row took.
    (select count(*) from holders where id not in (select id from page))::int as ${name(derivedColumn(stream.name))}`;
}

/** The statements that apply a page; `rows` is the page as JSON text, straight from the source. */
export function applyPage(stream: Stream, rows: string): Statement<Applied>[] {
  const upsert = oneRow(upsertStatement(stream, rows), decodeApplied);
  if (!stream.unique) return [upsert];
  return [oneRow(displaceStatement(stream, stream.unique, rows), decodeApplied), upsert];
}

/**
 * Removes the target rows `gone` yields (a condition over the table as `t`), which the source no
 * longer has (src/sync/reconcile.ts). Children keep their rows and wait, unserved, as when their
 * parent has not arrived; copies they took from the parent are cleared.
 */
export function removeRows(stream: Stream, gone: SQL): Statement<Applied> {
  const children = derivingFrom(stream.name);
  const ctes = [
    sql`removed as (delete from ${stream.table} t where ${gone} returning t.*)`,
    ...children.map((child) => {
      const { name: copy, foreignKey } = child.derived!;
      return sql`${name(`unlink_${child.name}`)} as (
        update ${child.table} c set ${name(copy)} = null
        where c.${name(foreignKey)} in (select id from removed) and c.${name(copy)} is not null
        returning c.id
      )`;
    }),
    ...pendingWork(stream, ["removed"], { before: "removed", after: null }),
  ];
  const goneSlugs = stream.slug
    ? sql`array(select ${name(stream.slug)} from removed where ${name(stream.slug)} is not null)`
    : sql`array[]::text[]`;
  return oneRow(
    sql`with ${commas(ctes)}
  select 0 as inserted, 0 as updated, (select count(*) from removed)::int as deleted, 0 as rejected,
    ${goneSlugs} as gone_slugs${countsOf(children, "unlink")}`,
    decodeApplied,
  );
}
