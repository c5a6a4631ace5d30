/**
 * Each served trade's place in its customer's history and in its account's, oldest first from 1
 * (trade date, then id: newest first is the reverse, the history's order), kept in
 * `trade_places`, and how many each holds (`customer_histories`): what lets
 * GET /api/transactions/:slug serve any page as an index range scan with an exact total
 * (src/db/queries/paged.ts).
 *
 * A customer's places change exactly when its served trades do, and every such change puts the
 * customer in `metrics_pending` (src/sync/apply.ts, the streams' `customersOf`): a trade, an
 * account (moved, deleted, restored), a broker, the customer itself. So the places are written in
 * the transaction that stores the customer's metrics and takes it off that list
 * (src/sync/customers.ts), and read only while it is off it: "served" is decided by the same
 * fragments (src/db/served.ts) in both.
 *
 * Placing a customer's trades again costs a pass over them, so it is done only when needed and
 * only from where it is needed: `reorders_from` is set to the earliest date of a trade that had a
 * place and moved or went, or of one without a place that comes at or before the customer's last
 * placed one (the transactions stream's `placesOf`), and to the start when which accounts are
 * served may have changed; then the trades from that date on are placed again and only rows whose
 * place changed are written (a trade booked in the past moves the ones after it; rows no longer
 * served lose their places). Otherwise a day's new trades, dated after the customer's last placed
 * one, are appended (appendHistories: only the new rows are read and written), looked for only
 * when a change brought a trade without a place (`appends`, also set by `placesOf`); a dividend,
 * a share credit, a holding row or an edit of a placed trade moves nothing and looks for nothing.
 */
import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { accounts, customerHistories, customers, customerMetrics, metricsPending, tradePlaces, transactions } from "../db/schema";
import { newestFirst } from "../db/order";
import { lastPlaced, live, servedAccount } from "../db/served";
import { effect, type Statement } from "./database";
import { holdsLease } from "./lease";

const t = alias(transactions, "t");
const a = alias(accounts, "a");

/**
 * SQL: stores the places of `rows` (a relation with id, customer_id, account_id, place and
 * account_place); a trade's row left by an owner it moved from is taken over.
 */
const storePlaces = (rows: SQL) =>
  sql`insert into ${tradePlaces} (transaction_id, customer_id, account_id, place, account_place)
    select id, customer_id, account_id, place, account_place from ${rows}
    on conflict (transaction_id) do update set customer_id = excluded.customer_id, account_id = excluded.account_id,
      place = excluded.place, account_place = excluded.account_place`;

/**
 * Appends to these customers' histories their served trades dated after their last placed one (a
 * new trading day): each takes the next place in its customer's history and in its account's, and
 * the counts grow by them. Only for customers flagged `appends` and not `reorders_from`: no
 * placed trade of theirs moved or went, and no unplaced one came at or before their last placed
 * one (the transactions stream flags those, src/sync/streams.ts), so the trades after it are all
 * their history lacks.
 */
export function appendHistories(ids: readonly string[]): Statement<void> {
  const batch = sql`${sql.param([...ids])}::uuid[]`;
  return effect(sql`with stored as (
      select h.customer_id, h.trades, h.account_trades, l.trade_date as last_date, l.id as last_id
      from ${customerHistories} h
      left join lateral (${lastPlaced(sql`h.customer_id`, sql`h.trades`)}) l on true
      where h.customer_id = any(${batch}) and (h.trades = 0 or l.id is not null)
    ), fresh as materialized (
      -- The trades after its last placed one, served account by served account: the date bounds a
      -- range of transactions_account_date_idx. Kept apart by \`offset 0\`: planned freely, the
      -- range was guessed at a third of the table and crossed with each account's every trade
      -- (~100 ms a batch at 10M trades with no new trade); joined to accounts after it, the
      -- planner hashed every account once per customer (3.6 ms each on the kept 10M scale book:
      -- \`appendHistories\` in docs/sync.md).
      select t.id, t.customer_id, t.account_id, t.trade_date
      from stored s
      join ${accounts} a on ${servedAccount(a, sql`s.customer_id`)}
      cross join lateral (
        select * from ${transactions} t
        where t.account_id = a.id and t.customer_id = s.customer_id
          and t.trade_date >= coalesce(s.last_date, '-infinity'::date) and ${live(t)}
        offset 0
      ) t
      where s.last_id is null or t.trade_date > s.last_date or t.id > s.last_id
    ), numbered as (
      select f.id, f.customer_id, f.account_id,
        (s.trades + row_number() over (partition by f.customer_id order by f.trade_date, f.id))::int as place,
        (coalesce((s.account_trades ->> f.account_id::text)::int, 0)
          + row_number() over (partition by f.account_id order by f.trade_date, f.id))::int as account_place
      from fresh f join stored s using (customer_id)
    ), placed as (${storePlaces(sql`numbered`)}), grown as (
      select customer_id, max(place) as trades, jsonb_object_agg(account_id::text, account_place) as accounts
      from (select customer_id, account_id, max(place) as place, max(account_place) as account_place from numbered
        group by customer_id, account_id) per
      group by customer_id
    )
    update ${customerHistories} h set trades = g.trades, account_trades = h.account_trades || g.accounts
    from grown g where h.customer_id = g.customer_id`);
}

/**
 * Places again these customers' served trades from the date their places may have changed on,
 * and records their counts, for those that need it: flagged (metrics_pending.reorders_from), or
 * never placed (from the start). A customer the target no longer has loses its row.
 *
 * Every change that can move a place flags its trade's dates (the transactions stream's
 * `placesOf`), or the start when which accounts are served may change, so the places
 * before the flagged date stand: they are the first places of the history and of each account's,
 * and only the trades from that date on are read, numbered after them, and written where their
 * place changed.
 */
export function placeHistories(ids: readonly string[]): Statement<void> {
  const all = sql`${sql.param([...ids])}::uuid[]`;
  // An array, not a subquery: `= any(array)` probes the customer index, where `in (subquery)`
  // let the planner join the whole table against the few chosen (1 s a batch on the 1M bench).
  const batch = sql`array(select id from chosen)`;
  // The highest place of the customer's (or an account's) trades dated before the date: the
  // places there are a prefix of the history, so the last placed trade holds it. Looked for among
  // the last ten trades before the date, walked in index order, and only if none of those is
  // placed (a run of trades not served) among all of them. In the index's order (newestFirst):
  // asked for plain `desc`, the planner read and sorted every trade before the date (0.9 s for the
  // 100,000-trade customer, against 16 ms).
  const highestPlaceBefore = (owner: SQL, customer: SQL, from: SQL, column: SQL) => {
    const among = (last: SQL) => sql`(select max(${column}) from (
        select t.id from ${transactions} t where ${owner} and t.trade_date < ${from} ${last}
      ) t join ${tradePlaces} p on p.transaction_id = t.id and p.customer_id = ${customer})`;
    return sql`coalesce(${among(sql`order by ${newestFirst(sql`t.trade_date`, sql`t.id`)} limit 10`)}, ${among(sql``)}, 0)`;
  };
  return effect(sql`with chosen as materialized (
      select c.id, case when h.customer_id is null then '-infinity'::date else p.reorders_from end as from_date
      from unnest(${all}) as c(id)
      left join ${metricsPending} p on p.customer_id = c.id
      left join ${customerHistories} h on h.customer_id = c.id
      where p.reorders_from is not null or h.customer_id is null
    ), kept as materialized (
      -- How many of its places stand.
      select c.id as customer_id, c.from_date,
        ${highestPlaceBefore(sql`t.customer_id = c.id`, sql`c.id`, sql`c.from_date`, sql`p.place`)} as kept
      from chosen c
    ), served_accounts as materialized (
      -- Its served accounts, each with how many of its places stand. A place in an account no
      -- longer served is not kept: that change places the customer from the start.
      select a.id, k.customer_id, k.from_date,
        ${highestPlaceBefore(sql`t.account_id = a.id`, sql`k.customer_id`, sql`k.from_date`, sql`p.account_place`)} as kept
      from kept k join ${accounts} a on ${servedAccount(a, sql`k.customer_id`)}
    ), stored as materialized (
      -- The places that may change (trade_places_customer_idx), hashed once: joined to the table,
      -- the planner probed its key once per served trade (100,000 probes, 0.4 s of a 1.2 s
      -- re-place). A trade whose row another owner left is taken over by the upsert below.
      select p.* from kept k cross join lateral (
        select * from ${tradePlaces} p where p.customer_id = k.customer_id and p.place > k.kept offset 0
      ) p
    ), served as materialized (
      -- Account by account (transactions_account_date_idx), from the date: a lateral, so no
      -- estimate can make the planner cross every account with every trade read.
      select t.id, t.customer_id, t.account_id,
        p.customer_id as was_customer, p.account_id as was_account, p.place as was_place, p.account_place as was_account_place,
        (k.kept + row_number() over (partition by t.customer_id order by t.trade_date, t.id))::int as place,
        (sa.kept + row_number() over (partition by t.account_id order by t.trade_date, t.id))::int as account_place
      from served_accounts sa join kept k using (customer_id)
      cross join lateral (
        select * from ${transactions} t
        where t.account_id = sa.id and t.customer_id = sa.customer_id and t.trade_date >= sa.from_date and ${live(t)}
        offset 0
      ) t
      left join stored p on p.transaction_id = t.id
    ), placed as (
      -- Compared in the scan above, so only the rows whose place moved are written.
      ${storePlaces(sql`served where (was_customer, was_account, was_place, was_account_place)
        is distinct from (customer_id, account_id, place, account_place)`)}
    ), unplaced as (
      delete from ${tradePlaces} x using stored s
      where x.transaction_id = s.transaction_id and not exists (select from served v where v.id = s.transaction_id)
    ), per_account as (
      select sa.customer_id, sa.id as account_id, sa.kept + count(v.id)::int as n
      from served_accounts sa left join served v on v.account_id = sa.id
      group by sa.customer_id, sa.id, sa.kept
    ), counted as (
      -- Counted in one pass over the batch's trades, then joined: a lateral per customer would
      -- scan the whole batch once per customer (the materialized CTE has no index).
      insert into ${customerHistories} (customer_id, trades, account_trades)
      select c.id, coalesce(sum(per.n), 0)::int,
        coalesce(jsonb_object_agg(per.account_id::text, per.n) filter (where per.n > 0), '{}'::jsonb)
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
  effect(sql`insert into ${metricsPending} (customer_id, remerge, reorders_from)
    select customer_id, false, '-infinity'::date from ${customerMetrics}
    where ${holdsLease(holder)} and not exists (select from ${customerHistories})
    on conflict (customer_id) do update set reorders_from = '-infinity'::date`);
