/**
 * Recomputing the stored stats and analytics of the customers in `metrics_pending`, batch by
 * batch: one read loads a batch of customers with all their trades (bounded by a trade count),
 * the engine computes, and one transaction stores the results and takes the batch off the list.
 * A customer deleted in the meantime is simply taken off (its metrics went with it).
 */
import { live, servedAccount } from "../db/served";
import { computeMetrics, type TradeInput } from "../domain";
import type { Budget } from "./budget";
import { effect, manyRows, type SyncDatabase } from "./database";
import { renewLease } from "./lease";

interface MetricsOutcome {
  /** Slugs of the customers whose metrics were stored: their cached responses are stale now. */
  slugs: string[];
  /** True when no customer is left waiting. */
  done: boolean;
}

/** Customers per batch at most, however few trades they have. */
const MAX_CUSTOMERS = 500;

/**
 * One batch: every customer in it with its slug (null while displaced) and served trades;
 * `present` is false for an id the target no longer has.
 */
type Batch = Map<string, { present: boolean; slug: string | null; trades: TradeInput[] }>;

/** Trade columns in the order the batch query sends them; money as exact decimal text. */
type TradeTuple = [string, string, string, string, "buy" | "sell", number, string, string, string];

/**
 * The pending customers after `after`, in id order, while their trades add up to at most
 * `maxTrades` (the first one always comes), each with its trades as one compact JSON array.
 * The recursive walk counts the trades of the customers it takes and of one more, never of the
 * whole list.
 */
async function loadBatch(target: SyncDatabase, after: string | null, maxTrades: number): Promise<Batch> {
  const trades = (customer: string) => `(select count(*) from transactions t where t.customer_id = ${customer})`;
  const [rows] = await target.run([
    manyRows(target.sql.query(
      `with recursive batch (customer_id, customers, trades) as (
         (select customer_id, 1, ${trades("p.customer_id")} from metrics_pending p
          where $1::uuid is null or p.customer_id > $1::uuid order by customer_id limit 1)
         union all
         select next.customer_id, b.customers + 1, b.trades + next.trades
         from batch b cross join lateral (
           select p.customer_id, ${trades("p.customer_id")} as trades
           from metrics_pending p where p.customer_id > b.customer_id order by p.customer_id limit 1
         ) next
         where b.customers < $2 and b.trades + next.trades <= $3
       )
       select b.customer_id, c.id is not null as present, c.slug, (
         select coalesce(json_agg(json_build_array(
           t.id, t.account_id, t.trade_date, t.stock_code, t.type, t.quantity, t.total_value::text, t.fee::text, t.personal_tax::text
         )), '[]')::text
         from transactions t join accounts a on a.id = t.account_id
         where t.customer_id = c.id and ${live("t")} and ${servedAccount("a", "c.id")}
       ) as trades
       from batch b left join customers c on c.id = b.customer_id
       order by b.customer_id`,
      [after, MAX_CUSTOMERS, maxTrades],
    ), (r) => r),
  ]);
  const batch: Batch = new Map();
  for (const row of rows) {
    const tuples = row.present ? (JSON.parse(row.trades as string) as TradeTuple[]) : [];
    const trades = tuples.map(([id, account_id, trade_date, stock_code, type, quantity, total_value, fee, personal_tax]) => ({
      id, account_id, trade_date, stock_code, type, quantity, total_value, fee, personal_tax,
    }));
    batch.set(row.customer_id as string, { present: row.present as boolean, slug: row.slug as string | null, trades });
  }
  return batch;
}

async function storeBatch(target: SyncDatabase, holder: string, batch: Batch): Promise<void> {
  const computed = [...batch]
    .filter(([, c]) => c.present)
    .map(([customer_id, c]) => ({ customer_id, ...computeMetrics(c.trades) }));
  await target.run([
    renewLease(target.sql, holder),
    effect(target.sql.query(
      `insert into customer_metrics (customer_id, stats, analytics, computed_at)
       select r.customer_id, r.stats, r.analytics, now()
       from json_to_recordset($1::json) as r(customer_id uuid, stats json, analytics json)
       join customers c on c.id = r.customer_id
       on conflict (customer_id) do update
       set stats = excluded.stats, analytics = excluded.analytics, computed_at = excluded.computed_at`,
      [JSON.stringify(computed)],
    )),
    effect(target.sql.query(`delete from metrics_pending where customer_id = any($1::uuid[])`, [[...batch.keys()]])),
  ]);
}

/**
 * Works through the pending customers while the budget lasts. The next batch is loaded while
 * the current one is computed and stored; the walk is by customer id, so it never meets a
 * batch it already took.
 */
export async function recomputePending(target: SyncDatabase, budget: Budget, holder: string): Promise<MetricsOutcome> {
  const load = (after: string | null) => {
    const batch = loadBatch(target, after, budget.limits.metricsTrades);
    batch.catch(() => undefined); // a load left behind when the run stops must not be an unhandled rejection
    return batch;
  };
  const slugs: string[] = [];
  let next: Promise<Batch> | undefined;
  while (!budget.spent) {
    const batch = await budget.step(async () => {
      const batch = await (next ?? load(null));
      if (batch.size === 0) return batch;
      next = load([...batch.keys()].at(-1)!);
      await storeBatch(target, holder, batch);
      return batch;
    });
    if (batch.size === 0) return { slugs, done: true };
    for (const { slug } of batch.values()) if (slug !== null) slugs.push(slug);
  }
  return { slugs, done: false };
}
