/**
 * Books of any size for the benchmarks, generated inside PostgreSQL (INSERT … SELECT over
 * generate_series) rather than in JS: the demo generator streams ~15,000 trades a second
 * through the HTTP loader, which would make a 10,000,000-trade book a benchmark of its own.
 * The rows are plain but valid for the sync and the P&L engine: uppercase stock codes, whole
 * đồng prices, a sell never larger than what was bought before it in the same holding.
 *
 * Also here: the "trading day" every sync benchmark applies to its source, set-based too.
 */
import type pg from "pg";
import { isinFor, TICKERS } from "../demo/market";

export interface SqlBookOptions {
  customers: number;
  tradesPerCustomer: number;
  /** Holdings (stock codes) per customer, spread over its accounts. Default 10. */
  holdingsPerCustomer?: number;
  /** Accounts per customer. Default 2. */
  accountsPerCustomer?: number;
  /** When set, the first holding takes this many of the customer's trades, the others share the rest. */
  firstHoldingTrades?: number;
  /** Distinguishes the customers of one call from those of another (names, slugs). */
  label: string;
  /**
   * How old the rows' updated_at is made, in seconds (default 0: now). A real back office's
   * history was written long before an initial sync; rows younger than the sync's overlap are
   * re-read by every run that starts within it.
   */
  ageSeconds?: number;
  /** Customers generated per transaction, so progress shows and no transaction is huge. */
  chunk?: number;
  onProgress?: (customersDone: number) => void;
}

/** Weekdays of 2021–2025: the history; the trading day appends after the last of them. */
const DAYS_SQL = `(select array_agg(d::date order by d) from generate_series('2021-01-04'::date, '2025-12-30'::date, '1 day') d
  where extract(isodow from d) < 6)`;

const STOCKS = TICKERS.slice(0, 30).map((t) => ({
  code: t.code,
  isin: isinFor(t.code),
  base: Math.round(t.basePrice / 100) * 100,
}));

/** Brokers and staff, once per database. */
async function ensureFirm(db: pg.Client): Promise<void> {
  const { rows } = await db.query("select (select count(*) from brokers)::int as b, (select count(*) from staff)::int as s");
  if (rows[0].b === 0)
    await db.query(`insert into brokers (code, name) select 'B' || i, 'Broker ' || i from generate_series(1, 4) i`);
  if (rows[0].s === 0)
    await db.query(
      `insert into staff (name, email) select 'Advisor ' || i, 'advisor' || i || '@advisory.example' from generate_series(1, 8) i`,
    );
}

/** Generates a book into the source database `db` (a pg client on it). Returns the trades written. */
export async function generateSqlBook(db: pg.Client, o: SqlBookOptions): Promise<number> {
  const holdings = Math.min(o.holdingsPerCustomer ?? 10, STOCKS.length);
  const accounts = Math.min(o.accountsPerCustomer ?? 2, holdings);
  const trades = o.tradesPerCustomer;
  const big = o.firstHoldingTrades;
  if (big !== undefined && (holdings < 2 || big >= trades))
    throw new RangeError("firstHoldingTrades needs a second holding and fewer trades than the customer has");
  const chunk = o.chunk ?? 500;
  const stamped = `now() - make_interval(secs => ${Number(o.ageSeconds ?? 0)})`;
  await ensureFirm(db);
  const stocks = JSON.stringify(STOCKS.slice(0, holdings).map((s, k) => ({ k, ...s })));

  // Trade n of a customer belongs to holding h at ordinal j of m trades of that holding.
  const placement =
    big === undefined
      ? `n % ${holdings} as h, n / ${holdings} as j, ceil(${trades}::numeric / ${holdings})::int as m`
      : `case when n < ${big} then 0 else 1 + (n - ${big}) % ${holdings - 1} end as h,
         case when n < ${big} then n else (n - ${big}) / ${holdings - 1} end as j,
         case when n < ${big} then ${big} else ceil(${trades - big}::numeric / ${holdings - 1})::int end as m`;

  let written = 0;
  for (let from = 0; from < o.customers; from += chunk) {
    const to = Math.min(o.customers, from + chunk) - 1;
    await db.query("begin");
    await db.query(`create temp table gen_customers on commit drop as
      select i, gen_random_uuid() as id, (select id from staff order by id offset i % (select count(*) from staff) limit 1) as staff_id
      from generate_series(${from}, ${to}) i`);
    await db.query(`create temp table gen_accounts on commit drop as
      select c.i, k, gen_random_uuid() as id, c.id as customer_id,
        (select id from brokers order by id offset k % (select count(*) from brokers) limit 1) as broker_id
      from gen_customers c cross join generate_series(0, ${accounts - 1}) k`);
    await db.query(
      `insert into customers (updated_at, id, slug, name, email, phone, staff_id)
       select ${stamped}, id, $1 || '-' || i || '-' || substr(md5(random()::text), 1, 12), 'Customer ' || $1 || ' ' || i,
         $1 || i || '@customers.example', '09' || lpad((i % 100000000)::text, 8, '0'), staff_id
       from gen_customers`,
      [o.label],
    );
    await db.query(
      `insert into accounts (updated_at, id, customer_id, broker_id, account_no)
       select ${stamped}, id, customer_id, broker_id, $1 || '-' || i || '-' || k from gen_accounts`,
      [o.label],
    );
    // Per holding: buy 200, buy 200, sell 100, … so a sell never exceeds what was bought before it.
    const inserted = await db.query(
      `with days as (select ${DAYS_SQL} as d),
       stock as (select * from jsonb_to_recordset($1::jsonb) as s(k int, code text, isin text, base int)),
       placed as (select c.i, n, ${placement} from gen_customers c cross join generate_series(0, ${trades - 1}) n),
       priced as (
         select p.*, s.code, s.isin, a.id as account_id,
           case when p.j % 3 = 2 then 'sell' else 'buy' end as type,
           case when p.j % 3 = 2 then 100 else 200 end as quantity,
           (s.base + (p.j % 37) * 100)::numeric as price,
           (select d[1 + (p.j::bigint * (array_length(d, 1) - 1) / greatest(p.m, 1))::int] from days) as trade_date
         from placed p join stock s on s.k = p.h join gen_accounts a on a.i = p.i and a.k = p.h % ${accounts}
       )
       insert into transactions (updated_at, account_id, trade_date, stock_code, isin_code, type, quantity, price, total_value, fee, personal_tax)
       select ${stamped}, account_id, trade_date, code, isin, type, quantity, price, quantity * price,
         round(quantity * price * 0.0015), case when type = 'sell' then quantity * price / 1000 else 0 end
       from priced`,
      [stocks],
    );
    written += inserted.rowCount ?? 0;
    // The back office's positions: what the trades leave, at their average buy price.
    await db.query(`insert into holdings (updated_at, account_id, stock_code, isin_code, quantity, avg_cost, total_cost)
      select ${stamped}, t.account_id, t.stock_code, min(t.isin_code),
        sum(case when t.type = 'buy' then t.quantity else -t.quantity end),
        round(sum(t.total_value) filter (where t.type = 'buy') / sum(t.quantity) filter (where t.type = 'buy'), 4),
        round(sum(case when t.type = 'buy' then t.quantity else -t.quantity end) *
          sum(t.total_value) filter (where t.type = 'buy') / sum(t.quantity) filter (where t.type = 'buy'), 4)
      from transactions t join gen_accounts a on a.id = t.account_id
      group by t.account_id, t.stock_code`);
    await db.query("commit");
    o.onProgress?.(to + 1);
  }
  await db.query("analyze");
  return written;
}

export interface TradingDay {
  /** The date the new trades carry: the first weekday after the book's last trade. */
  date: string;
  customers: number;
  appended: number;
  edited: number;
  deleted: number;
  /** Back-office positions moved by the appended trades. */
  holdings: number;
}

/**
 * One trading day in the back office, in one transaction: trades adding up to `appendPercent`
 * of the book appended on the next date for `customerPercent` of the customers (spread over
 * their holdings, a sell only where the position is large enough), their positions updated,
 * `editPercent` of the older trades edited (a fee correction), and `softDeletes` trades
 * cancelled (soft-deleted).
 */
export async function applyTradingDay(
  db: pg.Client,
  { appendPercent = 1, customerPercent = 30, editPercent = 0.1, softDeletes = 10 } = {},
): Promise<TradingDay> {
  await db.query("begin");
  try {
    const { rows: head } = await db.query(`select
      (select count(*) from transactions where deleted_at is null)::bigint as trades,
      (select max(trade_date) from transactions) as last`);
    const { rows: next } = await db.query(
      `select to_char(d, 'YYYY-MM-DD') as date from generate_series($1::date + 1, $1::date + 7, '1 day') d
       where extract(isodow from d) < 6 order by d limit 1`,
      [head[0].last],
    );
    const date = next[0].date as string;
    // Chosen by a hash of the id: the same customers every run of one book, and no scan of a sample.
    await db.query(
      `create temp table day_customers on commit drop as
       select id from customers where deleted_at is null and abs(hashtext(id::text)) % 1000 < $1`,
      [Math.round(customerPercent * 10)],
    );
    const { rows: chosen } = await db.query("select count(*)::int as n from day_customers");
    const perCustomer = Math.max(1, Math.ceil((Number(head[0].trades) * appendPercent) / 100 / Math.max(chosen[0].n, 1)));
    await db.query(
      `create temp table day_holdings on commit drop as
       select h.account_id, h.stock_code, h.isin_code, h.quantity, greatest(round(h.avg_cost / 100) * 100, 100) as price,
         row_number() over (partition by a.customer_id order by h.account_id, h.stock_code) - 1 as r,
         count(*) over (partition by a.customer_id) as holdings_of, a.customer_id
       from holdings h join accounts a on a.id = h.account_id join day_customers c on c.id = a.customer_id
       where h.deleted_at is null and a.deleted_at is null`,
    );
    // Trade i of a customer goes to its holding i % (its holdings); every other one is a sell of 100
    // where the position holds at least 1,000 (a day has far fewer sells per holding than that allows).
    const appended = await db.query(
      `insert into transactions (account_id, trade_date, stock_code, isin_code, type, quantity, price, total_value, fee, personal_tax)
       select h.account_id, $1::date, h.stock_code, h.isin_code, v.type, 100, h.price, 100 * h.price, round(100 * h.price * 0.0015),
         case when v.type = 'sell' then 100 * h.price / 1000 else 0 end
       from day_customers c cross join generate_series(0, $2::int - 1) i
       join day_holdings h on h.customer_id = c.id and h.r = i % h.holdings_of
       cross join lateral (select case when i % 2 = 1 and h.quantity >= 1000 then 'sell' else 'buy' end as type) v`,
      [date, perCustomer],
    );
    const positions = await db.query(
      `update holdings h set quantity = h.quantity + d.delta, updated_at = clock_timestamp()
       from (select account_id, stock_code, sum(case when type = 'buy' then quantity else -quantity end) as delta
             from transactions where trade_date = $1 group by account_id, stock_code) d
       where h.account_id = d.account_id and h.stock_code = d.stock_code`,
      [date],
    );
    const edited = await db.query(
      `update transactions set fee = fee + 1, updated_at = clock_timestamp()
       where id in (select id from transactions tablesample bernoulli ($1) repeatable (11) where trade_date < $2 and deleted_at is null)`,
      [editPercent, date],
    );
    const deleted = await db.query(
      `update transactions set deleted_at = clock_timestamp(), updated_at = clock_timestamp()
       where id in (select id from transactions tablesample system (1) repeatable (13) where trade_date < $2 and deleted_at is null limit $1)`,
      [softDeletes, date],
    );
    await db.query("commit");
    return {
      date,
      customers: chosen[0].n,
      appended: appended.rowCount ?? 0,
      edited: edited.rowCount ?? 0,
      deleted: deleted.rowCount ?? 0,
      holdings: positions.rowCount ?? 0,
    };
  } catch (err) {
    await db.query("rollback");
    throw err;
  }
}
