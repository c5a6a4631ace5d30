/**
 * Applying a page of source rows to the target: one set-based statement per page, built from
 * the stream's description. The statement
 *
 * - reads the page from one `jsonb` parameter (`jsonb_to_recordset`: never a placeholder per
 *   value) and keeps one row per id;
 * - upserts the live rows whose parents are in the target, writing only rows that really differ;
 * - deletes the soft-deleted rows and, children first, everything below them, each counted
 *   (the foreign keys cascade too, but counting needs the explicit deletes);
 * - keeps copies of a parent's column in step (transactions.customer_id);
 * - records the customers whose served data changed in `metrics_pending`;
 * - returns exact counts and the slugs that stopped being served.
 *
 * All sub-statements of one statement see the target as it was before the statement, which is
 * what the "before" links in src/sync/streams.ts rely on.
 */
import type { Sql } from "../db/client";
import type { Query, Rows } from "./database";
import { childrenOf, streamNamed, type Stream, type StreamName } from "./streams";

export interface Applied {
  inserted: number;
  updated: number;
  deleted: number;
  /** Live rows skipped because a parent is not in the target (yet). */
  orphans: number;
  /** Slugs no longer served: deleted customers and replaced slugs. */
  goneSlugs: string[];
}

/** The deletes of the rows `gone` yields and of all their descendants, as named CTEs. */
function removalCtes(stream: Stream, gone: string): { ctes: string[]; removed: StreamName[] } {
  const ctes = [`removed_${stream.name} as (delete from ${stream.name} t where t.id in (${gone}) returning t.*)`];
  const removed: StreamName[] = [stream.name];
  const descend = (parent: StreamName) => {
    for (const child of childrenOf(parent)) {
      const foreignKey = child.parents.find((p) => p.stream === parent)!.column;
      ctes.push(
        `removed_${child.name} as (delete from ${child.name} t where t.${foreignKey} in (select id from removed_${parent}) returning t.*)`,
      );
      removed.push(child.name);
      descend(child.name);
    }
  };
  descend(stream.name);
  return { ctes, removed };
}

function pendingCte(customers: (string | undefined)[]): string {
  return `pending as (
    insert into metrics_pending (customer_id)
    select customer_id from (${customers.filter(Boolean).join(" union ")}) as c(customer_id)
    on conflict do nothing
  )`;
}

const countOf = (cte: string, where = "") => `(select count(*) from ${cte}${where ? ` where ${where}` : ""})`;

/**
 * The slugs no longer served after the statement: those of removed rows and, when `replaced`
 * is given, the old slugs of rows whose slug changed.
 */
function goneSlugs(removed: StreamName[], replaced?: Stream): string {
  const sources = removed.flatMap((name) => {
    const slug = streamNamed(name).slug;
    return slug ? [`select ${slug} from removed_${name}`] : [];
  });
  if (replaced?.slug) {
    const { name, slug } = replaced;
    sources.push(`select t.${slug} from ${name} t join upserted u on u.id = t.id where t.${slug} <> u.${slug}`);
  }
  return sources.length ? `array(${sources.join(" union ")})` : "array[]::text[]";
}

/** The statement that removes target rows whose ids `gone` yields (src/sync/reconcile.ts). */
export function removalStatement(stream: Stream, gone: string): string {
  const { ctes, removed } = removalCtes(stream, gone);
  return `with ${[...ctes, `changed as (select id from removed_${stream.name})`, pendingCte([stream.customersBefore])].join(",\n")}
  select 0 as inserted, 0 as updated,
    (${removed.map((r) => countOf(`removed_${r}`)).join(" + ")})::int as deleted,
    0 as orphans,
    ${goneSlugs(removed)} as gone_slugs`;
}

function pageStatement(stream: Stream): string {
  const { name, columns, parents, derived, propagate } = stream;
  const record = ["id uuid", "updated_at timestamptz", "deleted_at timestamptz", ...columns.map((c) => `${c.name} ${c.type}`)];
  const written = [...columns.map((c) => c.name), ...derived.map((d) => d.name)];
  const joins = parents.map((p) => `join ${p.stream} on ${p.stream}.id = page.${p.column}`);
  const stored = [...written, "source_updated_at"];
  const { ctes: removal, removed } = removalCtes(stream, "select id from page where deleted_at is not null");
  const ctes = [
    `page as (
      select distinct on (id) * from jsonb_to_recordset($1::jsonb) as r(${record.join(", ")})
      order by id, updated_at desc
    )`,
    `live as (
      select page.*${derived.map((d) => `, ${d.from} as ${d.name}`).join("")}
      from page ${joins.join(" ")}
      where page.deleted_at is null
    )`,
    `upserted as (
      insert into ${name} as t (id, ${stored.join(", ")})
      select id, ${written.join(", ")}, updated_at from live
      on conflict (id) do update set ${stored.map((c) => `${c} = excluded.${c}`).join(", ")}
      where (${stored.map((c) => `t.${c}`).join(", ")}) is distinct from (${stored.map((c) => `excluded.${c}`).join(", ")})
      returning t.*, (t.xmax = 0) as inserted
    )`,
    ...removal,
    ...(propagate
      ? [
          `propagated as (
            update ${propagate.stream} t set ${propagate.column} = u.${propagate.column} from upserted u
            where t.${propagate.foreignKey} = u.id and t.${propagate.column} <> u.${propagate.column}
            returning t.id
          )`,
        ]
      : []),
    `changed as (select id from upserted union all select id from removed_${name})`,
    pendingCte([stream.customersBefore, stream.customersAfter]),
  ];
  return `with ${ctes.join(",\n")}
  select
    ${countOf("upserted", "inserted")}::int as inserted,
    (${countOf("upserted", "not inserted")}${propagate ? ` + ${countOf("propagated")}` : ""})::int as updated,
    (${removed.map((r) => countOf(`removed_${r}`)).join(" + ")})::int as deleted,
    (${countOf("page", "deleted_at is null")} - ${countOf("live")})::int as orphans,
    ${goneSlugs(removed, stream)} as gone_slugs`;
}

/** The apply statement for one page; `rows` is the page as JSON text, straight from the source. */
export function applyPage(sql: Sql, stream: Stream, rows: string): Query {
  return sql.query(pageStatement(stream), [rows]);
}

export function readApplied(rows: Rows): Applied {
  const row = rows[0] as { inserted: number; updated: number; deleted: number; orphans: number; gone_slugs: string[] };
  return { inserted: row.inserted, updated: row.updated, deleted: row.deleted, orphans: row.orphans, goneSlugs: row.gone_slugs };
}
