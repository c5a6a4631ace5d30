/**
 * Each served trade's place in its customer's history and in its account's, oldest first from 1
 * (trade date, then id: newest first is the reverse, the history's order), and how many each
 * holds (`customer_histories`): what lets GET /api/transactions/:slug serve any page as an index
 * range scan with an exact total (src/db/queries/paged.ts).
 *
 * A customer's places change exactly when its served trades do, and every such change puts the
 * customer in `metrics_pending` (src/sync/apply.ts, the streams' `customersOf`): a trade, an
 * account (moved, deleted, restored), a broker, the customer itself. So the places are written in
 * the transaction that stores the customer's metrics and takes it off that list
 * (src/sync/customers.ts), and read only while it is off it: "served" is decided by the same
 * fragments (src/db/served.ts) in both. Only rows whose place changed are written, so a new latest
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
      select t.id, t.customer_id, t.account_id,
        row_number() over (partition by t.customer_id order by t.trade_date, t.id)::int as place,
        row_number() over (partition by t.account_id order by t.trade_date, t.id)::int as account_place
      from ${transactions} t join ${accounts} a on a.id = t.account_id
      where t.customer_id = any(${batch}) and ${live(t)} and ${servedAccount(a, sql`t.customer_id`)}
    ), placed as (
      update ${transactions} x set ordinal = s.place, account_ordinal = s.account_place
      from served s
      where x.id = s.id and (x.ordinal is distinct from s.place or x.account_ordinal is distinct from s.account_place)
    ), unplaced as (
      update ${transactions} x set ordinal = null, account_ordinal = null
      where x.customer_id = any(${batch}) and (x.ordinal is not null or x.account_ordinal is not null)
        and not exists (select from served s where s.id = x.id)
    ), counted as (
      insert into ${customerHistories} (customer_id, trades, account_trades)
      select c.id, coalesce(n.trades, 0), coalesce(n.account_trades, '{}'::jsonb)
      from ${customers} c
      left join lateral (
        select sum(per.n)::int as trades, jsonb_object_agg(per.account_id::text, per.n) as account_trades
        from (select account_id, count(*)::int as n from served where customer_id = c.id group by account_id) per
      ) n on true
      where c.id = any(${batch})
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
  effect(sql`insert into ${metricsPending} (customer_id, remerge)
    select customer_id, false from ${customerMetrics}
    where ${holdsLease(holder)} and not exists (select from ${customerHistories})
    on conflict (customer_id) do nothing`);
