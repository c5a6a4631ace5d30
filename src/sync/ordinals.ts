/**
 * Each served trade's place in its customer's history and in its account's, oldest first from 1
 * (trade date, then id: newest first is the reverse, the history's order), and how many each
 * holds (`customer_histories`): what lets GET /api/transactions/:slug serve any page as an index
 * range scan with an exact total (src/db/queries/paged.ts).
 *
 * A customer's places change exactly when its served trades do, and every such change puts the
 * customer in `metrics_pending` with `reorders` set (src/sync/apply.ts, the streams' `customersOf`
 * and `reorders`): a trade, an account (moved, deleted, restored), a broker, the customer itself.
 * So the places are written in the transaction that stores the customer's metrics and takes it
 * off that list (src/sync/customers.ts), and read only while it is off it: "served" is decided by
 * the same fragments (src/db/served.ts) in both. A customer queued for a dividend, a share
 * credit or a holding row alone keeps its places: none of them moves a trade, and placing a
 * customer costs a pass over all its trades. Only rows whose place changed are written, so a new latest
 * trade writes one row; a trade booked in the past moves the ones after it. Rows of the customer
 * no longer served lose their places.
 */
import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { accounts, customerHistories, customers, customerMetrics, metricsPending, transactions } from "../db/schema";
import { live, servedAccount } from "../db/served";
import { effect, type Statement } from "./database";
import { holdsLease } from "./lease";

const t = alias(transactions, "t");
const a = alias(accounts, "a");

/** Places these customers' served trades and records their counts; a customer the target no longer has loses its row. */
export function placeHistories(ids: readonly string[]): Statement<void> {
  const batch = sql`${sql.param([...ids])}::uuid[]`;
  return effect(sql`with served as materialized (
      select t.id, t.customer_id, t.account_id, t.ordinal, t.account_ordinal,
        row_number() over (partition by t.customer_id order by t.trade_date, t.id)::int as place,
        row_number() over (partition by t.account_id order by t.trade_date, t.id)::int as account_place
      from ${transactions} t join ${accounts} a on a.id = t.account_id
      where t.customer_id = any(${batch}) and ${live(t)} and ${servedAccount(a, sql`t.customer_id`)}
    ), placed as (
      -- Compared in the scan above, so only the rows whose place moved are looked up to be written.
      update ${transactions} x set ordinal = s.place, account_ordinal = s.account_place
      from (select * from served where ordinal is distinct from place or account_ordinal is distinct from account_place) s
      where x.id = s.id
    ), unplaced as (
      -- Both places are written together, so a placed row has an ordinal: the partial index finds them.
      update ${transactions} x set ordinal = null, account_ordinal = null
      where x.customer_id = any(${batch}) and x.ordinal is not null
        and not exists (select from served s where s.id = x.id)
    ), per_account as (
      select customer_id, account_id, count(*)::int as n from served group by customer_id, account_id
    ), counted as (
      -- Counted in one pass over the batch's trades, then joined: a lateral per customer would
      -- scan the whole batch once per customer (the materialized CTE has no index).
      insert into ${customerHistories} (customer_id, trades, account_trades)
      select c.id, coalesce(sum(per.n), 0)::int,
        coalesce(jsonb_object_agg(per.account_id::text, per.n) filter (where per.account_id is not null), '{}'::jsonb)
      from ${customers} c left join per_account per on per.customer_id = c.id
      where c.id = any(${batch})
      group by c.id
      on conflict (customer_id) do update set trades = excluded.trades, account_trades = excluded.account_trades
    )
    delete from ${customerHistories} h where h.customer_id = any(${batch})
      and not exists (select from ${customers} c where c.id = h.customer_id)`);
}

/**
 * Builds the places once on a target that has stored metrics but no histories yet (the first run
 * of the code that keeps them): every customer with metrics is queued for the metrics step, which
 * places its trades; reads page by OFFSET until then. Sent in the run's opening transaction; one
 * one-row probe when there is nothing to do.
 */
export const buildHistoriesOnce = (holder: string): Statement<void> =>
  effect(sql`insert into ${metricsPending} (customer_id, remerge, reorders)
    select customer_id, false, true from ${customerMetrics}
    where ${holdsLease(holder)} and not exists (select from ${customerHistories})
    on conflict (customer_id) do update set reorders = true`);
