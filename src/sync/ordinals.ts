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
 * fragments (src/db/served.ts) in both.
 *
 * Placing a customer from the start costs a pass over all its trades, so it is done only when
 * needed: `reorders` is set when a trade that had a place moved or went (the transactions
 * stream's `displacesPlaces`) or when which accounts are served may have changed, and then only
 * rows whose place changed are written (a trade booked in the past moves the ones after it; rows
 * no longer served lose their places). A day's new trades, dated after the customer's last
 * placed one, are appended (appendHistories: only the new rows are read and written); a
 * dividend, a share credit or a holding row moves nothing.
 */
import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { accounts, customerHistories, customers, customerMetrics, metricsPending, transactions } from "../db/schema";
import { live, servedAccount } from "../db/served";
import { effect, type Statement } from "./database";
import { holdsLease } from "./lease";

const t = alias(transactions, "t");
const a = alias(accounts, "a");

/** SQL: trade `t`, of account `a` (joined), is served. */
const servedTrade = sql`${live(t)} and ${servedAccount(a, sql`t.customer_id`)}`;

/**
 * Appends to these customers' histories the served trades that have no place yet, when all of
 * them come after the customer's last placed trade (a new trading day): each takes the next
 * place in its customer's history and in its account's, and the counts grow by them. A customer
 * with an unplaced trade at or before its last placed one is left as it is, for placeHistories.
 * Only for customers not flagged `reorders`: no placed trade of theirs moved or went.
 */
export function appendHistories(ids: readonly string[]): Statement<void> {
  const batch = sql`${sql.param([...ids])}::uuid[]`;
  return effect(sql`with stored as (
      select h.customer_id, h.trades, h.account_trades, l.trade_date as last_date, l.id as last_id
      from ${customerHistories} h
      left join lateral (
        select t.trade_date, t.id from ${transactions} t where t.customer_id = h.customer_id and t.ordinal = h.trades
      ) l on true
      where h.customer_id = any(${batch}) and (h.trades = 0 or l.id is not null)
    ), fresh as materialized (
      -- transactions_unplaced_idx: the rows without a place, mostly the day's new ones. \`early\`:
      -- at or before the customer's last placed trade, so the customer cannot be appended to.
      select t.id, t.customer_id, t.account_id, t.trade_date,
        coalesce((t.trade_date, t.id) <= (s.last_date, s.last_id), false) as early
      from stored s
      join ${transactions} t on t.customer_id = s.customer_id and t.ordinal is null
      join ${accounts} a on a.id = t.account_id
      where ${servedTrade}
    ), appendable as (
      -- An array, not an anti-join: the planner takes a CTE for one row and compared every
      -- fresh row with every other (1.1 s a batch of a 1M trading day).
      select s.* from stored s where s.customer_id <> all(array(select customer_id from fresh where early))
    ), numbered as (
      select f.id, f.customer_id, f.account_id,
        (s.trades + row_number() over (partition by f.customer_id order by f.trade_date, f.id))::int as place,
        (coalesce((s.account_trades ->> f.account_id::text)::int, 0)
          + row_number() over (partition by f.account_id order by f.trade_date, f.id))::int as account_place
      from fresh f join appendable s using (customer_id)
    ), placed as (
      update ${transactions} x set ordinal = n.place, account_ordinal = n.account_place from numbered n where x.id = n.id
    ), grown as (
      select customer_id, max(place) as trades, jsonb_object_agg(account_id::text, account_place) as accounts
      from (select customer_id, account_id, max(place) as place, max(account_place) as account_place from numbered
        group by customer_id, account_id) per
      group by customer_id
    )
    update ${customerHistories} h set trades = g.trades, account_trades = h.account_trades || g.accounts
    from grown g where h.customer_id = g.customer_id`);
}

/**
 * Places these customers' served trades from the start and records their counts, for those that
 * need it: flagged `reorders` (metrics_pending), never placed, or left with an unplaced trade by
 * appendHistories. A customer the target no longer has loses its row.
 */
export function placeHistories(ids: readonly string[]): Statement<void> {
  const all = sql`${sql.param([...ids])}::uuid[]`;
  // An array, not a subquery: `= any(array)` probes the customer index, where `in (subquery)`
  // let the planner join the whole table against the few chosen (1 s a batch on the 1M bench).
  const batch = sql`array(select id from chosen)`;
  return effect(sql`with chosen as materialized (
      select c.id from unnest(${all}) as c(id)
      -- A lateral with a limit is probed customer by customer (transactions_unplaced_idx); as
      -- an exists beside the others, the planner hashed every unplaced row of the table, once a
      -- batch (145 ms a batch on the 10M trading day; \`placeHistories\` in docs/benchmarks.md).
      left join lateral (
        select true as found from ${transactions} t join ${accounts} a on a.id = t.account_id
        where t.customer_id = c.id and t.ordinal is null and ${servedTrade} limit 1
      ) unplaced on true
      where exists (select from ${metricsPending} p where p.customer_id = c.id and p.reorders)
        or not exists (select from ${customerHistories} h where h.customer_id = c.id)
        or unplaced.found
    ), served as materialized (
      select t.id, t.customer_id, t.account_id, t.ordinal, t.account_ordinal,
        row_number() over (partition by t.customer_id order by t.trade_date, t.id)::int as place,
        row_number() over (partition by t.account_id order by t.trade_date, t.id)::int as account_place
      from ${transactions} t join ${accounts} a on a.id = t.account_id
      where t.customer_id = any(${batch}) and ${servedTrade}
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
    delete from ${customerHistories} h where h.customer_id = any(${all})
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
