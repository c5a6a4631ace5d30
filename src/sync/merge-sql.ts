/**
 * The domain's merge rules (PARTIAL_MERGE in src/domain/merge.ts) in their second form: SQL
 * that adds partials up where they are stored, so a customer merged again sends one partial to
 * the Worker, not one per holding (src/sync/customers.ts). Both forms must agree:
 * test/sync/merge-sql.test.ts runs them on the same partials. A field added to PARTIAL_MERGE
 * is merged here by its rule, with no other change. The monthly fields are not in the stored
 * partials: they are summed from the holdings' month rows (`holding_months`, src/sync/months.ts).
 */
import { type SQL, sql } from "drizzle-orm";
import { type MergeRule, PARTIAL_FORMAT, PARTIAL_MERGE } from "../domain";

/**
 * SQL adding up field `field` of the partials `p` in the relation `parts`, by its merge rule; a
 * monthly field from the relation `months` (month, trades, pnl, pnl_inexact) instead.
 */
function mergeField(field: string, rule: MergeRule): string {
  const f = `'${field}'`;
  const sum = (value: string, type: string) => `coalesce(sum((${value})::${type}), 0)`;
  const fixed = (value: string) =>
    `json_build_object('sum', ${sum(`${value} ->> 'sum'`, "numeric")}::text, 'inexact', ${sum(`${value} ->> 'inexact'`, "int")})`;
  switch (rule) {
    case "format":
      // An older format in any partial makes the whole merge fall to the exact path.
      return `case when count(*) = 0 then ${PARTIAL_FORMAT} when count(distinct p ->> ${f}) = 1 then min((p ->> ${f})::int) else -1 end`;
    case "count":
      return sum(`p ->> ${f}`, "bigint");
    case "amount":
      return `${sum(`p ->> ${f}`, "numeric")}::text`;
    case "min":
    case "max":
      return `${rule}(p ->> ${f})`;
    case "fixed":
      return fixed(`p -> ${f}`);
    case "counts by month":
      // Only months with a trade have an entry, as in the domain's map.
      return `(select coalesce(json_object_agg(m.month, m.n order by m.month), '{}') from (
        select month, sum(trades)::bigint as n from months group by month having sum(trades) > 0) m)`;
    case "fixed by month":
      // Only months with a deal have an entry: a month's pnl is null until one falls in it.
      return `(select coalesce(json_object_agg(m.month, json_build_object('sum', m.total::text, 'inexact', m.inexact) order by m.month), '{}') from (
        select month, sum(pnl) as total, sum(pnl_inexact)::bigint as inexact from months where pnl is not null group by month) m)`;
    case "deals":
      return `(select coalesce(json_agg(d), '[]') from parts, jsonb_array_elements(parts.p -> ${f}) d)`;
    case "holding":
      return "null";
  }
}

/** Every field of a partial by its rule: SQL written from PARTIAL_MERGE alone, with no value in it. */
const MERGED_FIELDS = sql.raw(
  Object.entries(PARTIAL_MERGE)
    .map(([field, rule]) => `'${field}', ${mergeField(field, rule)}`)
    .join(", "),
);

/**
 * SQL: one partial, as JSON text, adding up the partials of relation `partials` (a select
 * yielding them as the `jsonb` column `p`) and the month rows of relation `months` (a select
 * yielding `holding_months`' columns month, trades, pnl, pnl_inexact); what `combinePartials`
 * (src/domain/partial.ts) takes as one partial.
 */
export const mergedPartial = (partials: SQL, months: SQL): SQL =>
  sql`(with parts as (${partials}), months as (${months}) select json_build_object(${MERGED_FIELDS})::text from parts)`;

/**
 * SQL: a copy of jsonb value `v` in memory. Each read of a field of a stored partial fetches and
 * decompresses it again, so a query that reads many fields of one reads them from a copy, taken
 * once (in a CTE the planner cannot inline, or it copies at every read).
 */
export const copied = (v: SQL): SQL => sql`${v} || '{}'::jsonb`;
