/**
 * Books of any size for the benchmarks, generated inside PostgreSQL (INSERT … SELECT over
 * generate_series) rather than in JS: the demo generator streams ~15,000 trades a second
 * through the HTTP loader, which would make a 10,000,000-trade book a benchmark of its own.
 * The rows are plain but valid for the sync and the P&L engine: uppercase stock codes, whole
 * đồng prices, a sell never larger than what was bought before it in the same holding.
 *
 * Each holding also receives what Vietnamese issuers pay: a cash dividend every year (1,000
 * đồng per share entitled, 5% tax withheld) and a share credit every third year (one share per
 * ten held), booked in `corporate_actions` as the back office would, its shares in the position.
 * Every stock the books trade has a close on every day of the history, and VN-Index from before
 * it (ensureCloses), so a customer's value and benchmark are known on every day.
 *
 * Also here, set-based too, the days every sync benchmark applies to its source: a trading day,
 * a price day and a dividend season.
 */
import type pg from "pg";
import { DEMO_DEFAULTS, INDEX_LEAD_DAYS } from "../demo/generate";
import { INDEX_CODE, indexCloses, isinFor, Market, TICKERS, tradingDaysBefore } from "../demo/market";
import { Random } from "../demo/random";

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
  /** Book each holding's yearly cash dividend and a share credit every third year. Default true. */
  corporateActions?: boolean;
  onProgress?: (customersDone: number) => void;
}

/** The first weekday on or after a date (an SQL date expression). */
const weekdayFrom = (date: string) =>
  `(${date} + case extract(isodow from ${date}) when 6 then 2 when 7 then 1 else 0 end)::date`;

/** The corporate actions each holding receives per year of the history: ex-date, pay date, quantity. */
const ACTION_YEARS = [2021, 2022, 2023, 2024, 2025];
const CASH_EX = (y: number) => weekdayFrom(`make_date(${y}, 6, 15)`);
const CREDIT_EX = (y: number) => weekdayFrom(`make_date(${y}, 9, 15)`);
/** A share credit every third year: 2022 and 2025. */
const CREDIT_YEARS = ACTION_YEARS.filter((y) => y % 3 === 0);

/** The first and last days of the history: trades fall on its weekdays; the trading day appends after it. */
const HISTORY = { first: "2021-01-04", last: "2025-12-30" };
/** Weekdays of 2021–2025: the history. */
const DAYS_SQL = `(select array_agg(d::date order by d) from generate_series('${HISTORY.first}'::date, '${HISTORY.last}'::date, '1 day') d
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

/**
 * The official closes of every code the books trade (STOCKS) on every weekday of the history, and
 * of VN-Index (INDEX_CODE, BENCHMARK_CODE's default) from INDEX_LEAD_DAYS trading days before it,
 * for each of those codes that has no close yet: once per database, and never over the closes a
 * demo book brought (the sync benchmark loads one first). The demo market's walks
 * (scripts/demo/market.ts) over these days, from the demo's seed: some 40,000 rows whatever the
 * book's size, so they are made here and sent as three arrays in one statement.
 */
async function ensureCloses(db: pg.Client, stamped: string): Promise<void> {
  const codes = [...STOCKS.map((s) => s.code), INDEX_CODE];
  const { rows } = await db.query(
    `select array(select c from unnest($1::text[]) c where not exists (select 1 from stock_prices p where p.stock_code = c)) as missing,
       array(select to_char(d, 'YYYY-MM-DD') from unnest(${DAYS_SQL}) d order by d) as days`,
    [codes],
  );
  const missing = new Set<string>(rows[0].missing);
  if (missing.size === 0) return;
  const days: string[] = rows[0].days;
  // The demo's seed and its market stream (scripts/demo/generate.ts): the demo's tickers, walked over these days.
  const rng = new Random(DEMO_DEFAULTS.seed, 0);
  const market = new Market(rng, days);
  const indexDays = [...tradingDaysBefore(HISTORY.first, INDEX_LEAD_DAYS), ...days];
  const index = indexCloses(rng, indexDays.length);
  const code: string[] = [];
  const date: string[] = [];
  const close: string[] = [];
  TICKERS.forEach((ticker, i) => {
    if (!missing.has(ticker.code)) return;
    days.forEach((day, d) => {
      code.push(ticker.code);
      date.push(day);
      close.push(String(market.close(i, d)));
    });
  });
  if (missing.has(INDEX_CODE))
    indexDays.forEach((day, d) => {
      code.push(INDEX_CODE);
      date.push(day);
      close.push((index[d]! / 100).toFixed(2));
    });
  await db.query(
    `insert into stock_prices (updated_at, stock_code, trade_date, close_price)
     select ${stamped}, c.code, c.day::date, c.close::numeric from unnest($1::text[], $2::text[], $3::text[]) as c(code, day, close)`,
    [code, date, close],
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
  await ensureCloses(db, stamped);
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
    if (o.corporateActions !== false) await bookCorporateActions(db, stamped);
    // The back office's positions: what the trades and share credits leave; the cost is the
    // traded shares' at their average buy price (a credit adds shares, not cost).
    await db.query(`insert into holdings (updated_at, account_id, stock_code, isin_code, quantity, avg_cost, total_cost)
      select ${stamped}, p.account_id, p.stock_code, p.isin, p.traded + coalesce(c.credited, 0),
        round(p.cost / (p.traded + coalesce(c.credited, 0)), 4), round(p.cost, 4)
      from (
        select t.account_id, t.stock_code, min(t.isin_code) as isin,
          sum(case when t.type = 'buy' then t.quantity else -t.quantity end) as traded,
          sum(case when t.type = 'buy' then t.quantity else -t.quantity end) *
            sum(t.total_value) filter (where t.type = 'buy') / sum(t.quantity) filter (where t.type = 'buy') as cost
        from transactions t join gen_accounts a on a.id = t.account_id
        group by t.account_id, t.stock_code
      ) p
      left join (
        select c.account_id, c.stock_code, sum(c.quantity) as credited
        from corporate_actions c join gen_accounts a on a.id = c.account_id
        where c.type = 'share_dividend' group by 1, 2
      ) c on c.account_id = p.account_id and c.stock_code = p.stock_code`);
    await db.query("commit");
    o.onProgress?.(to + 1);
  }
  await db.query("analyze");
  return written;
}

/**
 * The chunk's corporate actions (its accounts are in gen_accounts): per holding and year, a cash
 * dividend on the shares traded in before its ex-date, and in CREDIT_YEARS one share per ten so
 * held. Counting traded shares only keeps it one pass over the trades; what the service checks
 * is the rows, not the entitlement.
 */
async function bookCorporateActions(db: pg.Client, stamped: string): Promise<void> {
  const signed = "case when t.type = 'buy' then t.quantity else -t.quantity end";
  const heldBefore = (ex: string, name: string) => `sum(${signed}) filter (where t.trade_date < ${ex}) as ${name}`;
  const columns = [
    ...ACTION_YEARS.map((y) => heldBefore(CASH_EX(y), `cash_${y}`)),
    ...CREDIT_YEARS.map((y) => heldBefore(CREDIT_EX(y), `credit_${y}`)),
  ];
  const events = [
    ...ACTION_YEARS.map(
      (y) => `('cash_dividend', ${CASH_EX(y)}, ${CASH_EX(y)} + 30, h.cash_${y}, h.cash_${y} * 1000, h.cash_${y} * 50)`,
    ),
    ...CREDIT_YEARS.map((y) => `('share_dividend', ${CREDIT_EX(y)}, ${CREDIT_EX(y)} + 14, h.credit_${y} / 10, 0, 0)`),
  ];
  await db.query(`insert into corporate_actions (updated_at, account_id, stock_code, isin_code, type, ex_date, pay_date, quantity, gross_amount, tax)
    select ${stamped}, h.account_id, h.stock_code, h.isin, e.type, e.ex_date, e.pay_date, e.quantity, e.gross, e.tax
    from (
      select t.account_id, t.stock_code, min(t.isin_code) as isin, ${columns.join(", ")}
      from transactions t join gen_accounts a on a.id = t.account_id
      group by t.account_id, t.stock_code
    ) h
    cross join lateral (values ${events.join(", ")}) as e(type, ex_date, pay_date, quantity, gross, tax)
    where e.quantity > 0`);
}

/** The first weekday after the latest date the source's trades, corporate actions and closes carry. */
async function nextWeekday(db: pg.Client): Promise<string> {
  const { rows } = await db.query(
    `select to_char(d, 'YYYY-MM-DD') as date
     from (select greatest((select max(trade_date) from transactions), (select max(ex_date) from corporate_actions),
             (select max(trade_date) from stock_prices)) as last) l,
       generate_series(l.last + 1, l.last + 7, '1 day') d
     where extract(isodow from d) < 6 order by d limit 1`,
  );
  return rows[0].date as string;
}

export interface FeeEdits {
  /** Trades whose fee was edited, and how many of them were sells. */
  edited: number;
  sells: number;
}

/**
 * Fee edits alone, in one transaction: the fee of `percent`% of the live trades, buys and sells,
 * raised by 1 đồng, each dated at least `daysBefore` days before its holding's last trade: a
 * correction booked long after the trade, which keeps the FIFO order and changes no quantity.
 */
export async function applyFeeEdits(db: pg.Client, { percent = 1, daysBefore = 30 } = {}): Promise<FeeEdits> {
  const { rows } = await db.query(
    `with last as (select account_id, stock_code, max(trade_date) as at from transactions where deleted_at is null group by 1, 2),
     edited as (
       update transactions t set fee = t.fee + 1, updated_at = clock_timestamp()
       from last l
       where t.id in (select id from transactions tablesample bernoulli ($1) repeatable (17) where deleted_at is null)
         and l.account_id = t.account_id and l.stock_code = t.stock_code and t.trade_date < l.at - $2::int
       returning t.type
     )
     select count(*)::int as edited, count(*) filter (where type = 'sell')::int as sells from edited`,
    [percent, daysBefore],
  );
  return rows[0] as FeeEdits;
}

export interface DividendSeason {
  /** The ex-date every credit carries: the first weekday after the source's latest date. */
  date: string;
  /** Share credits booked, one per chosen holding, and the positions they moved. */
  credits: number;
  holdings: number;
}

/**
 * A dividend season in the back office, in one transaction: a share credit of one share per ten
 * held (at least one) for `holdingPercent` of the live positions, chosen by a hash of the id,
 * booked in `corporate_actions` and added to the position.
 */
export async function applyDividendSeason(db: pg.Client, { holdingPercent = 30 } = {}): Promise<DividendSeason> {
  await db.query("begin");
  try {
    const date = await nextWeekday(db);
    await db.query(
      `create temp table season on commit drop as
       select h.id, h.account_id, h.stock_code, h.isin_code, greatest(h.quantity / 10, 1) as quantity
       from holdings h join accounts a on a.id = h.account_id
       where h.deleted_at is null and a.deleted_at is null and h.quantity > 0 and abs(hashtext(h.id::text)) % 1000 < $1`,
      [Math.round(holdingPercent * 10)],
    );
    const credits = await db.query(
      `insert into corporate_actions (account_id, stock_code, isin_code, type, ex_date, pay_date, quantity, gross_amount, tax)
       select account_id, stock_code, isin_code, 'share_dividend', $1::date, $1::date + 14, quantity, 0, 0 from season`,
      [date],
    );
    const positions = await db.query(
      `update holdings h set quantity = h.quantity + s.quantity, updated_at = clock_timestamp() from season s where h.id = s.id`,
    );
    await db.query("commit");
    return { date, credits: credits.rowCount ?? 0, holdings: positions.rowCount ?? 0 };
  } catch (err) {
    await db.query("rollback");
    throw err;
  }
}

/** `count` stock codes for a price day: the market's tickers but the one left unpriced, then made-up codes. */
export function priceDayCodes(count: number, unpriced: string): string[] {
  const codes = TICKERS.map((t) => t.code).filter((c) => c !== unpriced);
  for (let i = 0; codes.length < count; i++) codes.push(`P${String(i).padStart(4, "0")}`);
  return codes.slice(0, count);
}

export interface PriceDay {
  date: string;
  closes: number;
  /** Customers with a served position in a stock that got a close: the answers whose valuation moves. */
  valuedCustomers: number;
}

/**
 * A price day in the back office: one close for each of `codes` on the first weekday after the
 * source's latest date. A valuation only: it must recompute no customer's metrics.
 */
export async function applyPriceDay(db: pg.Client, codes: string[]): Promise<PriceDay> {
  const date = await nextWeekday(db);
  const closes = await db.query(
    `insert into stock_prices (stock_code, trade_date, close_price)
     select code, $1::date, 10000 + 50 * n from unnest($2::text[]) with ordinality as c(code, n)`,
    [date, codes],
  );
  const { rows } = await db.query(
    `select count(distinct a.customer_id)::int as n from holdings h join accounts a on a.id = h.account_id
     where h.deleted_at is null and a.deleted_at is null and h.stock_code = any($1::text[])`,
    [codes],
  );
  return { date, closes: closes.rowCount ?? 0, valuedCustomers: rows[0].n };
}

export interface TradingDay {
  /** The date the new trades carry: the first weekday after the latest date the book carries. */
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
    const { rows: head } = await db.query(`select count(*)::bigint as trades from transactions where deleted_at is null`);
    // After the last date the book carries, closes and ex-dates too: a day dated before a share
    // credit already booked (a day run again after a dividend season, `again`) would recompute
    // every credited holding it trades in whole, which a real day, after the season, does not.
    const date = await nextWeekday(db);
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
    // Seeded by the date: the sample is picked by where rows lie, and a fixed seed on a kept book
    // (`again`) finds the rows it edited the day before moved, so each later day edited ~1% as many.
    const edited = await db.query(
      `update transactions set fee = fee + 1, updated_at = clock_timestamp()
       where id in (select id from transactions tablesample bernoulli ($1) repeatable (hashtext($2)) where trade_date < $2::date and deleted_at is null)`,
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
