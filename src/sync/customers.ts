/**
 * The customers step of the stored metrics (src/sync/metrics.ts): each customer in
 * `metrics_pending` gets its stats and analytics from the merge of the partials of its served
 * accounts' holdings, stored with them. The stored merge is adjusted by each changed holding's
 * old and new partial (adjustMerge), so a customer's unchanged holdings are not read. When its
 * accounts may have changed (`remerge`), or a change cannot be taken back (a top deal of the
 * holding's left), the target adds up all its holdings' partials in SQL (src/sync/merge-sql.ts),
 * so one partial per customer travels, not one per holding. Figures are exact except when one
 * lies within its error bound of a rounding boundary; then, rarely, the customer's served trades
 * are read and the domain computes it exactly from the deals.
 */
import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  accounts,
  corporateActions,
  customerMetrics,
  customers,
  holdingChanges,
  holdingMetrics,
  metricsPending,
  transactions,
} from "../db/schema";
import { live, servedAccount } from "../db/served";
import {
  adjustMerge,
  combinePartials,
  computeMetrics,
  type CreditInput,
  type DividendSums,
  type HoldingChange,
  type HoldingPartial,
  mergePartials,
  PARTIAL_FORMAT,
  type TradeInput,
} from "../domain";
import { parseUnits } from "../domain/units";
import type { Budget } from "./budget";
import type { Profile } from "./profile";
import { effect, int, manyRows, text, textOrNull, type SyncDatabase } from "./database";
import { creditTuple, parseCredits, parseTrades, TRADE_TUPLE } from "../db/deals";
import { renewLease } from "./lease";
import { apartFrom, copied, mergedPartial } from "./merge-sql";
import { appendHistories, placeHistories } from "./ordinals";
import { afterLast, type Batch, readAhead } from "./read-ahead";

/** The customer being merged (`c`), and the account its rows are read through (`a`). */
const c = alias(customers, "c");
const a = alias(accounts, "a");
const t = alias(transactions, "t");
const c2 = alias(corporateActions, "c2");
const d = alias(corporateActions, "d");

export interface PendingCustomer {
  id: string;
  /** False when the target no longer has the customer at all. */
  present: boolean;
  /** Null while another customer holds its slug. */
  slug: string | null;
  /**
   * Its stored merge and each of its served holdings that changed since, as [the partial the
   * merge holds, the partial now] (null: none); null to merge all its holdings again.
   */
  adjust: { merged: HoldingPartial; changes: HoldingChange[] } | null;
  /** Without `adjust`: its served holdings' partials added up by the target, every holding's top deals kept. */
  sum: HoldingPartial | null;
  /** Its history is placed again from a date (metrics_pending.reorders_from), not appended to. */
  reorders: boolean;
  /** Trades may have come after its last placed one (metrics_pending.appends). */
  appends: boolean;
  /**
   * Its served cash dividends, summed exactly in the target: they belong to no holding's
   * partial, since a dividend may come for shares no trade in the data bought.
   */
  dividends: DividendSums;
}

/**
 * SQL: the rows of per-holding table `table` in the accounts customer `c.id` is served, as a
 * relation. What a customer's merge adds up, and what its changes and counts are taken over.
 *
 * Read account by account, each one index range of the table: the lateral subquery, kept apart
 * by `offset 0`, cannot be flattened into a join the planner may turn around. Planned freely on
 * statistics that lag (holding_changes and metrics_pending fill and empty within a run, and the
 * last ANALYZE saw them empty), it scanned every pending change of every customer once per
 * customer: 1.76 s a batch of 100 instead of 42 ms (`ofServedAccounts` in docs/benchmarks.md).
 */
const ofServedAccounts = (table: typeof holdingMetrics | typeof holdingChanges): SQL =>
  sql`(select h.* from ${accounts} a
    cross join lateral (select * from ${table} h where h.account_id = a.id offset 0) h
    where ${servedAccount(a, c.id)})`;

/** One partial of customer `c.id`'s served holdings, added up in the target (src/sync/merge-sql.ts). */
const MERGED_PARTIAL = mergedPartial(
  // Each stored partial is copied once, then read once per field (`MERGED_PARTIAL` in docs/benchmarks.md).
  sql`select ${copied(sql`h.partial`)} as p from ${ofServedAccounts(holdingMetrics)} h`,
);

/**
 * A stored merge is adjusted while at most one in this many of the customer's holdings changed;
 * beyond that, merging them all in the target costs less. A change brings two partials to the
 * Worker; the merge adds a holding up where it lies and sends one partial per customer. The
 * benchmarks that set the ratio: `ADJUST_WHILE_CHANGED` in docs/benchmarks.md.
 */
const ADJUST_WHILE_CHANGED = 4;

/**
 * The first `limit` pending customers after `after`, each with its stored merge and the changes
 * of its holdings since, or, when the customer must be merged again, its served holdings'
 * partials added up in the target: what travels is a few partials per customer, not one per
 * holding.
 */
async function loadCustomers(target: SyncDatabase, limit: number, after: string | null): Promise<Batch<PendingCustomer>> {
  const [rows] = await target.run([
    manyRows(
      // One more than the batch is counted (not merged) to tell whether any are left.
      sql`select b.customer_id, c.id is not null as present, c.slug, b.reorders_from is not null as reorders, b.appends, b.waiting::int as waiting,
           case when x.adjust then m.partial::text end as merged,
           case when x.adjust then (
             -- apartFrom reads the other side once per month, so each side is copied once first
             -- (loadCustomers in docs/benchmarks.md).
             with pairs as materialized (
               select ${copied(sql`h.merged`)} as merged, ${copied(sql`hm.partial`)} as partial
               from ${ofServedAccounts(holdingChanges)} h
               left join ${holdingMetrics} hm on hm.account_id = h.account_id and hm.stock_code = h.stock_code
             )
             select coalesce(json_agg(json_build_array(${apartFrom(sql`p.merged`, sql`p.partial`)}, ${apartFrom(sql`p.partial`, sql`p.merged`)})), '[]')::text
             from pairs p
           ) end as changes,
           case when not x.adjust then ${MERGED_PARTIAL} end as sum,
           dv.count as dividend_count, dv.gross as dividend_gross, dv.tax as dividend_tax
         from (
           select customer_id, remerge, reorders_from, appends, count(*) over () as waiting from (
             select customer_id, remerge, reorders_from, appends from ${metricsPending} where ${after}::uuid is null or customer_id > ${after}::uuid
             order by customer_id limit ${limit + 1}
           ) w order by customer_id limit ${limit}
         ) b
         left join ${customers} c on c.id = b.customer_id
         left join ${customerMetrics} m on m.customer_id = b.customer_id
         cross join lateral (
           select not b.remerge and coalesce((m.partial ->> 'format')::int = ${PARTIAL_FORMAT}, false)
             and ${ADJUST_WHILE_CHANGED} * (select count(*) from ${ofServedAccounts(holdingChanges)} h)
               <= (select count(*) from ${ofServedAccounts(holdingMetrics)} h)
             as adjust
         ) x
         cross join lateral (
           select count(*)::int as count, coalesce(sum(d.gross_amount), 0)::text as gross, coalesce(sum(d.tax), 0)::text as tax
           from ${corporateActions} d join ${accounts} a on a.id = d.account_id
           where d.type = 'cash_dividend' and ${live(d)} and ${servedAccount(a, c.id)}
         ) dv
         order by b.customer_id`,
      (r) => ({
        waiting: int(r.waiting),
        customer: {
          id: text(r.customer_id),
          present: r.present === true,
          slug: textOrNull(r.slug),
          adjust:
            r.merged === null
              ? null
              : {
                  merged: JSON.parse(text(r.merged)) as HoldingPartial,
                  changes: JSON.parse(text(r.changes)) as HoldingChange[],
                },
          sum: r.sum === null ? null : (JSON.parse(text(r.sum)) as HoldingPartial),
          reorders: r.reorders === true,
          appends: r.appends === true,
          dividends: {
            count: int(r.dividend_count),
            gross: parseUnits(text(r.dividend_gross)),
            tax: parseUnits(text(r.dividend_tax)),
          },
        },
      }),
    ),
  ]);
  return { items: rows.map((r) => r.customer), more: (rows[0]?.waiting ?? 0) > limit };
}

/** The customers' served holdings' partials added up in the target, for those whose stored merge could not be adjusted. */
async function loadSums(target: SyncDatabase, ids: string[]): Promise<Map<string, HoldingPartial>> {
  if (!ids.length) return new Map();
  const [rows] = await target.run([
    manyRows(
      sql`select c.id, ${MERGED_PARTIAL} as sum from ${customers} c where c.id = any(${sql.param(ids)}::uuid[])`,
      (r) => [text(r.id), JSON.parse(text(r.sum)) as HoldingPartial] as const,
    ),
  ]);
  return new Map(rows);
}

/** The exact path, for the customers whose merge cannot decide a figure: their served trades. */
async function loadServedTrades(
  target: SyncDatabase,
  ids: string[],
): Promise<Map<string, { trades: TradeInput[]; credits: CreditInput[] }>> {
  if (!ids.length) return new Map();
  const [rows] = await target.run([
    manyRows(
      sql`select c.id, (
           select coalesce(json_agg(${TRADE_TUPLE}), '[]')::text
           from ${transactions} t join ${accounts} a on a.id = t.account_id
           where t.customer_id = c.id and ${live(t)} and ${servedAccount(a, c.id)}
         ) as trades, (
           select coalesce(json_agg(${creditTuple("c2")}), '[]')::text
           from ${corporateActions} c2 join ${accounts} a on a.id = c2.account_id
           where c2.type = 'share_dividend' and ${live(c2)} and ${servedAccount(a, c.id)}
         ) as credits
         from ${customers} c where c.id = any(${sql.param(ids)}::uuid[])`,
      (r) => [text(r.id), { trades: parseTrades(text(r.trades)), credits: parseCredits(text(r.credits)) }] as const,
    ),
  ]);
  return new Map(rows);
}

/** A customer's stored merge adjusted by its holdings' changes, or null when it must be merged again. */
const adjusted = (customer: PendingCustomer): HoldingPartial | null =>
  customer.adjust && adjustMerge(customer.adjust.merged, customer.adjust.changes);

/** The merge to store from the target's sum, or null when a holding's partial is of another format. */
const combined = (sum: HoldingPartial): HoldingPartial | null => (sum.format === PARTIAL_FORMAT ? combinePartials([sum]) : null);

/**
 * Takes the customers' holding changes off the list: their stored merges hold their holdings'
 * partials now. Changes in accounts a customer is not served matter to no merge: serving the
 * account again merges the customer again. Found account by account (a probe of the key each)
 * and deleted by row: joined to the accounts, on statistics taken while the list was empty, the
 * whole list was scanned every batch (docs/benchmarks.md, "holding_changes taken off by row").
 */
export const takeOffChanges = (ids: string[]) =>
  effect(
    sql`delete from ${holdingChanges} h where h.ctid = any(array(
      select x.ctid from ${accounts} a cross join lateral (select x.ctid from ${holdingChanges} x where x.account_id = a.id offset 0) x
      where a.customer_id = any(${sql.param(ids)}::uuid[])))`,
  );

async function storeCustomers(target: SyncDatabase, holder: string, batch: PendingCustomer[], profile: Profile): Promise<void> {
  const present = batch.filter((c) => c.present);
  const merges = profile.timeSync(
    "customers",
    "compute",
    () => new Map(present.map((c) => [c.id, adjusted(c) ?? (c.sum && combined(c.sum))])),
  );
  const unadjusted = present.filter((c) => c.adjust && merges.get(c.id) === null).map((c) => c.id);
  for (const [id, sum] of await profile.time("customers", "read", () => loadSums(target, unadjusted)))
    merges.set(id, combined(sum));
  // Without a merge (a partial of another format), or when a figure is undecided, the deals decide.
  const dividends = new Map(present.map((c) => [c.id, c.dividends]));
  const received = (id: string) => dividends.get(id)!;
  const metrics = profile.timeSync(
    "customers",
    "compute",
    () => new Map([...merges].map(([id, merge]) => [id, merge && mergePartials([merge], received(id))])),
  );
  const undecided = [...metrics].filter(([, m]) => m === null).map(([id]) => id);
  const deals = await profile.time("customers", "read", () => loadServedTrades(target, undecided));
  profile.timeSync("customers", "compute", () => {
    for (const [id, { trades, credits }] of deals) metrics.set(id, computeMetrics(trades, credits, received(id)));
  });
  const rows = [...metrics].map(([customer_id, m]) => ({ customer_id, ...m!, partial: merges.get(customer_id) }));
  const ids = batch.map((c) => c.id);
  await profile.time("customers", "write", () =>
    target.run([
      renewLease(holder),
      // A customer the target no longer has loses its metrics; one merely deleted keeps them for a restore.
      effect(
        sql`delete from ${customerMetrics}
        where customer_id = any(${sql.param(ids)}::uuid[]) and customer_id <> all(${sql.param(present.map((p) => p.id))}::uuid[])`,
      ),
      effect(
        sql`insert into ${customerMetrics} (customer_id, stats, analytics, computed_at, partial)
         select r.customer_id, r.stats, r.analytics, now(), r.partial
         from json_to_recordset(${JSON.stringify(rows)}::json) as r(customer_id uuid, stats json, analytics json, partial jsonb)
         on conflict (customer_id) do update
         set stats = excluded.stats, analytics = excluded.analytics, computed_at = excluded.computed_at, partial = excluded.partial`,
      ),
      takeOffChanges(ids),
      // The places of their served trades, for deep history pages, with them off the list
      // (src/sync/ordinals.ts): a day's new trades appended where nothing placed moved, the rest
      // placed again from the earliest date that moved.
      appendHistories(present.filter((c) => c.appends && !c.reorders).map((c) => c.id)),
      placeHistories(ids),
      effect(sql`delete from ${metricsPending} where customer_id = any(${sql.param(ids)}::uuid[])`),
    ]),
  );
}

/**
 * Works through the pending customers, batch by batch while the budget lasts: true when none is
 * left. Each batch is one read and one transaction that stores it and takes it off the list;
 * `stored` hears of the customers of each batch stored.
 */
export function recomputeCustomers(
  target: SyncDatabase,
  budget: Budget,
  holder: string,
  stored: (customers: PendingCustomer[]) => void,
): Promise<boolean> {
  return readAhead<Batch<PendingCustomer>, string | null>(budget, "customers", null, {
    read: (after) => loadCustomers(target, budget.limits.metricsCustomers, after),
    after: (batch) => afterLast(batch, (customer) => customer.id),
    async store(batch) {
      if (batch.items.length) await storeCustomers(target, holder, batch.items, budget.profile);
      stored(batch.items);
    },
  });
}
