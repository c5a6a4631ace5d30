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
   * change, so they are not the back office's changes (README.md "The sync": derived_rows).
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

/**
 * The stream's own SQL over relation names (src/sync/streams.ts), which holds no value: only
 * names from the stream's description and the schema.
 */
const fragment = (text: string) => sql.raw(text);
const commas = (parts: SQL[]) => sql.join(parts, sql`,\n`);

/** CTEs recording the work a change leaves: `rels` are relations of changed rows (before, after). */
function pendingWork(stream: Stream, rels: string[]): SQL[] {
  const ctes: SQL[] = [];
  if (stream.customersOf) {
    ctes.push(sql`pending_customers as (
      insert into ${metricsPending} (customer_id, remerge)
      select customer_id, ${stream.regroups ? sql`true` : sql`false`} from (${fragment(rels.map(stream.customersOf).join(" union "))}) as c(customer_id)
      where customer_id is not null
      on conflict (customer_id) do ${stream.regroups ? sql`update set remerge = true` : sql`nothing`}
    )`);
  }
  if (stream.pricesOf) {
    ctes.push(sql`pending_prices as (
      insert into ${pricesPending} (stock_code)
      select distinct stock_code from (${fragment(rels.map(stream.pricesOf).join(" union "))}) as p(stock_code)
      on conflict (stock_code) do nothing
    )`);
  }
  if (stream.holdingsOf) {
    // A holding already waiting recomputes from the earlier of the two dates; null stays whole.
    ctes.push(sql`pending_holdings as (
      insert into ${holdingsPending} as p (account_id, stock_code, from_date)
      select account_id, stock_code, min(from_date)
      from (${fragment(rels.map(stream.holdingsOf).join(" union "))}) as h(account_id, stock_code, from_date)
      group by account_id, stock_code
      on conflict (account_id, stock_code) do update
      set from_date = case when p.from_date is not null then least(p.from_date, excluded.from_date) end
    )`);
  }
  return ctes;
}

/** The page, one row per id (the latest version wins), read from one `jsonb` parameter: `rows`. */
function pageCte(stream: Stream, rows: string, columns = stream.columns): SQL {
  const record = ["id uuid", "updated_at timestamptz", "deleted_at timestamptz", ...columns.map((c) => `${c.name} ${c.type}`)];
  return sql`page as (
    select distinct on (id) * from jsonb_to_recordset(${rows}::jsonb) as r(${fragment(record.join(", "))})
    order by id, updated_at desc
  )`;
}

function verdict(stream: Stream): string {
  if (!stream.rules.length) return "null::text";
  return `case ${stream.rules.map((r) => `when ${r.fails} then '${r.reason.replaceAll("'", "''")}'`).join(" ")} end`;
}

function upsertStatement(stream: Stream, rows: string): SQL {
  const { name, columns, derived } = stream;
  const copied = columns.map((c) => c.name);
  const written = [...copied, ...(derived ? [derived.name] : []), MIRRORED.deletedAt, MIRRORED.rejected];
  const stored = [...written, MIRRORED.sourceUpdatedAt];
  const children = derivingFrom(name);
  const ctes = [
    pageCte(stream, rows),
    ...[
      `incoming as (
      select page.*, ${verdict(stream)} as ${MIRRORED.rejected}${derived ? `, parent.${derived.column} as ${derived.name}` : ""}
      from page${derived ? ` left join ${derived.stream} parent on parent.id = page.${derived.foreignKey}` : ""}
    )`,
      `before as (select t.* from ${name} t where t.id in (select id from page))`,
      `upserted as (
      insert into ${name} as t (id, ${stored.join(", ")})
      select id, ${written.join(", ")}, updated_at from incoming
      on conflict (id) do update set ${stored.map((c) => `${c} = excluded.${c}`).join(", ")}
      where (${stored.map((c) => `t.${c}`).join(", ")}) is distinct from (${stored.map((c) => `excluded.${c}`).join(", ")})
      returning t.*, (t.xmax = 0) as inserted
    )`,
      `changed_before as (select * from before where id in (select id from upserted))`,
      // A parent that moved (an account to another customer) takes its children's copies along.
      ...children.map(
        (child) => `follow_${child.name} as (
        update ${child.name} c set ${child.derived!.name} = u.${child.derived!.column} from upserted u
        where c.${child.derived!.foreignKey} = u.id and c.${child.derived!.name} is distinct from u.${child.derived!.column}
        returning c.id
      )`,
      ),
    ].map(fragment),
    ...pendingWork(stream, ["changed_before", "upserted"]),
  ];
  const newlyDeleted = sql`u.deleted_at is not null and b.deleted_at is null`;
  const followed = children.map((c) => `, (select count(*) from follow_${c.name})::int as ${derivedColumn(c.name)}`).join("");
  const goneSlugs = stream.slug
    ? `array(select b.${stream.slug} from changed_before b join upserted u using (id) where b.${stream.slug} is not null and b.${stream.slug} is distinct from u.${stream.slug})`
    : "array[]::text[]";
  return sql`with ${commas(ctes)}
  select
    count(*) filter (where u.rejected is null and u.inserted)::int as inserted,
    count(*) filter (where u.rejected is null and not u.inserted and not (${newlyDeleted}))::int as updated,
    count(*) filter (where u.rejected is null and not u.inserted and ${newlyDeleted})::int as deleted,
    count(*) filter (where u.rejected is not null)::int as rejected,
    ${fragment(goneSlugs)} as gone_slugs${fragment(followed)}
  from upserted u left join changed_before b on b.id = u.id`;
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
    fragment(`holders as (select t.* from ${stream.name} t join page p on t.${column} = p.${column} and t.id <> p.id)`),
    fragment(`displaced as (update ${stream.name} t set ${column} = null where t.id in (select id from holders) returning t.id)`),
    ...pendingWork(stream, ["holders"]),
  ];
  return sql`with ${commas(ctes)}
  select 0 as inserted, 0 as updated, 0 as deleted, 0 as rejected,
    array(select ${sql.identifier(column)} from holders) as gone_slugs,
    -- Holders in the page are written again by the upsert, and counted there; the others only
    -- lost a value another row took.
    (select count(*) from holders where id not in (select id from page))::int as ${sql.identifier(derivedColumn(stream.name))}`;
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
    ...children.map((child) =>
      fragment(`unlink_${child.name} as (
        update ${child.name} c set ${child.derived!.name} = null
        where c.${child.derived!.foreignKey} in (select id from removed) and c.${child.derived!.name} is not null
        returning c.id
      )`),
    ),
    ...pendingWork(stream, ["removed"]),
  ];
  const goneSlugs = stream.slug
    ? `array(select ${stream.slug} from removed where ${stream.slug} is not null)`
    : "array[]::text[]";
  const unlinked = children.map((c) => `, (select count(*) from unlink_${c.name})::int as ${derivedColumn(c.name)}`).join("");
  return oneRow(
    sql`with ${commas(ctes)}
  select 0 as inserted, 0 as updated, (select count(*) from removed)::int as deleted, 0 as rejected,
    ${fragment(goneSlugs)} as gone_slugs${fragment(unlinked)}`,
    decodeApplied,
  );
}
