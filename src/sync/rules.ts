/**
 * Upgrades the stored metrics when the code's rules are newer than theirs (docs/corporate-actions.md): a
 * target whose customers' metrics were stored by older rules (without a field added since, or a
 * figure computed another way) recomputes them once, with no operator. One statement, sent in
 * the run's opening transaction, records the new version and, only when it was older, marks
 * every stored holding pending from scratch and every stored customer for a full merge, so
 * the version and the work it calls for commit together; the runs then work the backlog off
 * within their budgets like any other change.
 */
import { sql } from "drizzle-orm";
import { corporateActions, customerMetrics, holdingMetrics, holdingsPending, metricsPending, metricsRules } from "../db/schema";
import { METRICS_RULES } from "../domain";
import { int, manyRows, type Statement } from "./database";
import { holdsLease } from "./lease";

/** True when this run found the stored metrics older than the code's rules and marked them all. */
export function upgradeMetricsRules(holder: string): Statement<boolean> {
  return {
    query: sql`with upgraded as (
           insert into ${metricsRules} (one, version)
           select true, ${METRICS_RULES}::int where ${holdsLease(holder)}
           on conflict (one) do update set version = excluded.version where ${metricsRules.version} < excluded.version
           returning version
         ), holdings as (
           insert into ${holdingsPending} (account_id, stock_code, from_date)
           select account_id, stock_code, null::date from ${holdingMetrics} where exists (select 1 from upgraded)
           -- A holding of share credits alone has no partial, but has position steps.
           union select account_id, stock_code, null from ${corporateActions}
           where type = 'share_dividend' and exists (select 1 from upgraded)
           on conflict (account_id, stock_code) do update set from_date = null
         ), customers as (
           insert into ${metricsPending} (customer_id, remerge)
           select customer_id, true from ${customerMetrics} where exists (select 1 from upgraded)
           on conflict (customer_id) do update set remerge = true
         )
         select version from upgraded`,
    decode: (rows) => rows.length > 0,
  };
}

/**
 * The rules version the target's stored metrics were written by (null: none recorded yet). A run
 * finding it newer than its own stops (RulesNewerError): a newer release serves this target.
 */
export function storedMetricsRules(): Statement<number | null> {
  const read = manyRows(sql`select version from ${metricsRules}`, (r) => int(r.version));
  return { query: read.query, decode: (rows) => read.decode(rows)[0] ?? null };
}
