/**
 * The customers step of the stored metrics (src/sync/metrics.ts): each customer in
 * `metrics_pending` gets its stats and analytics from its served accounts' holdings' partials,
 * added up where they lie (src/sync/merge-sql.ts), so one partial per customer travels, not one
 * per holding, and no copy of an old partial is kept to adjust a stored merge later
 * (docs/stored-state.md). Figures are exact except when one lies within its error bound of a
 * rounding boundary; then, rarely, the customer's served trades are read and the domain
 * computes it exactly from the deals.
 */
import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  accounts,
  corporateActions,
  customerMetrics,
  customers,
  holdingMetrics,
  holdingMonths,
  metricsPending,
  transactions,
} from "../db/schema";
import { live, servedAccount } from "../db/served";
import {
  combinePartials,
  computeMetrics,
  type CreditInput,
  type DividendSums,
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
import { copied, mergedPartial } from "./merge-sql";
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
  /** Its served holdings' partials added up by the target, every holding's top deals kept; null when it is gone. */
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
 * SQL: the rows of per-holding table `table` (partials, months) in the accounts customer `c.id`
 * is served, as a relation: what a customer's merge adds up.
 *
 * Read account by account, each one index range of the table: the lateral subquery, kept apart
 * by `offset 0`, cannot be flattened into a join the planner may turn around. Planned freely on
 * statistics that lag (metrics_pending fills and empties within a run, and the last ANALYZE saw
 * it empty), the customers' rows were scanned once per customer: 1.76 s a batch of 100 instead
 * of 42 ms (`ofServedAccounts` in docs/sync.md).
 */
const ofServedAccounts = (table: typeof holdingMetrics | typeof holdingMonths): SQL =>
  sql`(select h.* from ${accounts} a
    cross join lateral (select * from ${table} h where h.account_id = a.id offset 0) h
    where ${servedAccount(a, c.id)})`;

/** One partial of customer `c.id`'s served holdings, added up in the target (src/sync/merge-sql.ts). */
const MERGED_PARTIAL = mergedPartial(
  // Each stored partial is copied once, then read once per field (`MERGED_PARTIAL` in docs/sync.md).
  sql`select ${copied(sql`h.partial`)} as p from ${ofServedAccounts(holdingMetrics)} h`,
  sql`select m.month, m.trades, m.pnl, m.pnl_inexact from ${ofServedAccounts(holdingMonths)} m`,
);

/**
 * The first `limit` pending customers after `after`, each with its served holdings' partials
 * added up in the target: what travels is one partial per customer, not one per holding.
 */
async function loadCustomers(target: SyncDatabase, limit: number, after: string | null): Promise<Batch<PendingCustomer>> {
  const [rows] = await target.run([
    manyRows(
      // One more than the batch is counted (not merged) to tell whether any are left.
      sql`select b.customer_id, c.id is not null as present, c.slug, b.reorders_from is not null as reorders, b.appends, b.waiting::int as waiting,
           case when c.id is not null then ${MERGED_PARTIAL} end as sum,
           dv.count as dividend_count, dv.gross as dividend_gross, dv.tax as dividend_tax
         from (
           select customer_id, reorders_from, appends, count(*) over () as waiting from (
             select customer_id, reorders_from, appends from ${metricsPending} where ${after}::uuid is null or customer_id > ${after}::uuid
             order by customer_id limit ${limit + 1}
           ) w order by customer_id limit ${limit}
         ) b
         left join ${customers} c on c.id = b.customer_id
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

/** The merge to store from the target's sum, or null when a holding's partial is of another format. */
const combined = (sum: HoldingPartial): HoldingPartial | null => (sum.format === PARTIAL_FORMAT ? combinePartials([sum]) : null);

async function storeCustomers(target: SyncDatabase, holder: string, batch: PendingCustomer[], profile: Profile): Promise<void> {
  const present = batch.filter((c) => c.present);
  const merges = profile.timeSync("customers", "compute", () => new Map(present.map((c) => [c.id, c.sum && combined(c.sum)])));
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
  const rows = [...metrics].map(([customer_id, m]) => ({ customer_id, ...m! }));
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
        // No merge is stored (partial null): an older release that finds none merges the customer
        // again rather than adjusting a merge this code no longer keeps (docs/stored-state.md).
        sql`insert into ${customerMetrics} (customer_id, stats, analytics, computed_at, partial)
         select r.customer_id, r.stats, r.analytics, now(), null
         from json_to_recordset(${JSON.stringify(rows)}::json) as r(customer_id uuid, stats json, analytics json)
         on conflict (customer_id) do update
         set stats = excluded.stats, analytics = excluded.analytics, computed_at = excluded.computed_at, partial = null`,
      ),
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
