/**
 * Helpers for the sync suites: running the sync (through the admin route, or through runSync
 * where a test injects limits), comparing the target with the source, and stamping source rows
 * with times from the source's own clock.
 *
 * Two comparisons, as docs/sync.md frames it:
 * - expectMirrored: the target holds every source row, column for column (tombstones too);
 * - expectServed: what the API serves equals a reference computed here, independently of the
 *   sync, from the source alone: a row is served when it and its owners are live and accepted
 *   and its references are present; metrics by the domain functions over the served trades.
 */
import { expect } from "vitest";
import type { Sql } from "../../src/db/client";
import type { AccountRow, BrokerRow, CorporateActionRow, CustomerRow, HoldingRow, TransactionRow } from "../../src/db/source";
import { sql as drizzleSql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { accounts as targetAccounts } from "../../src/db/schema";
import { servedAccount } from "../../src/db/served";
import type { MonthRow } from "../../src/sync/months";
import { storedDifferences } from "../../scripts/bench/differential";
import {
  combinePartials,
  computeMetrics,
  type HoldingPartial,
  mergePartials,
  type Stats,
  servedTotalReturn,
} from "../../src/domain";
import { getConfig, type Env } from "../../src/env";
import type { BudgetLimits } from "../../src/sync/budget";
import { isoMicros } from "../../src/sync/cursor";
import { render } from "../../src/sync/database";
import type { Mode } from "../../src/sync/report";
import { runSync } from "../../src/sync/run";
import { type Continuation, continueSync } from "../../src/sync/worker";
import { STREAMS } from "../../src/sync/streams";
import { Book, cashDividends, shareCredits, type Table, twoCustomerBook, writeSource } from "../support/book";

export { addTrade } from "../support/book";
import { freshDatabases, type TestDatabases } from "../support/databases";
import { Decimal } from "../../src/domain/decimal";
import { holdingValuation, latestCloses, unrealizedUnits, valuationOf } from "../support/valuation";
import { getJson } from "../support/worker";

/** A timestamptz expression as the sync formats it (src/sync/cursor.ts), as SQL text. */
const micros = (expr: string) => render(isoMicros(drizzleSql.raw(expr))).sql;
/** Account `a` is served as customer `m.customer_id`'s (src/db/served.ts), as SQL text. */
const SERVED_ACCOUNT = render(servedAccount(alias(targetAccounts, "a"), drizzleSql.raw("m.customer_id"))).sql;

/** POST /api/sync with the configured admin key (or `key`), as an operator would. */
export function postSync(env: Env, options: { mode?: Mode; key?: string | null } = {}) {
  const key = options.key === undefined ? env.ADMIN_API_KEY : options.key;
  const headers: Record<string, string> = key === null || key === undefined ? {} : { "X-Admin-Key": key };
  return getJson(env, `/api/sync${options.mode ? `?mode=${options.mode}` : ""}`, { method: "POST", headers });
}

/** A sync through the route that must succeed; returns its report. */
export async function synced(env: Env, mode?: Mode) {
  const { status, body } = await postSync(env, { mode });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.data;
}

/** A sync straight through the engine, for tests that inject limits or a stop. */
export function runWith(env: Env, limits: Partial<BudgetLimits>, mode: Mode = "delta") {
  return runSync(getConfig(env), { trigger: "manual", mode, limits });
}

/** Fresh databases with `book` in the source. */
export async function withSource(book: Book, overrides: Partial<Env> = {}): Promise<TestDatabases> {
  const dbs = await freshDatabases(overrides);
  await writeSource(dbs.source, book);
  return dbs;
}

/** Every contract column of every row of one table, `updated_at` under one name on both sides. */
function contractRows(sql: Sql, table: string, updatedAt: string) {
  const stream = STREAMS.find((s) => s.name === table)!;
  const columns = stream.columns.map((c) => c.name);
  return sql.query(
    `select id, ${columns.join(", ")}, ${micros(updatedAt)} as updated_at, ${micros("deleted_at")} as deleted_at
     from ${table} order by id`,
  );
}

/** The target holds exactly the source's rows, column for column, soft-deleted ones included. */
export async function expectMirrored(dbs: TestDatabases): Promise<void> {
  for (const { name } of STREAMS) {
    expect(await contractRows(dbs.target, name, "source_updated_at"), name).toEqual(
      await contractRows(dbs.source, name, "updated_at"),
    );
  }
  // The copied customer_id follows the account as the target holds it (null while it is missing).
  const drifted = await dbs.target`
    select t.id from transactions t left join accounts a on a.id = t.account_id
    where t.customer_id is distinct from a.customer_id`;
  expect(drifted).toEqual([]);
}

/** Rows the target set aside, as (table, id, reason). */
export async function rejectedRows(target: Sql) {
  const union = STREAMS.map(
    (s) => `select '${s.name}' as stream, id::text, rejected as reason from ${s.name} where rejected is not null`,
  );
  return target.query(`${union.join(" union all ")} order by 1, 2`);
}

// ---------------------------------------------------------------------------------------------
// The reference: what the API should serve, from the source alone.

/** The source's rows, table by table: a Book's tables, read back. */
type SourceBook = Pick<Book, Table>;

async function readSourceBook(source: Sql): Promise<SourceBook> {
  const rows = await Promise.all(STREAMS.map((s) => source.query(`select * from ${s.name} order by id`)));
  return Object.fromEntries(STREAMS.map((s, i) => [s.name, rows[i]])) as unknown as SourceBook;
}

const STOCK_CODE = /^[A-Z0-9]{1,10}$/;
const SERVABLE_SLUG = /^[A-Za-z0-9_-]{1,64}$/;
const negative = (money: string) => money.startsWith("-") && Number(money) !== 0;

/** Rows no ledger can hold, by the rules of docs/sync.md, restated here on purpose. */
export const acceptable = {
  customer: (c: CustomerRow) => SERVABLE_SLUG.test(c.slug),
  holding: (h: HoldingRow) =>
    h.quantity >= 0 && !negative(h.avg_cost) && !negative(h.total_cost) && STOCK_CODE.test(h.stock_code),
  transaction: (t: TransactionRow) =>
    t.quantity > 0 && ![t.price, t.total_value, t.fee, t.personal_tax].some(negative) && STOCK_CODE.test(t.stock_code),
  corporateAction: (c: CorporateActionRow) =>
    STOCK_CODE.test(c.stock_code) &&
    c.pay_date >= c.ex_date &&
    (c.type === "share_dividend"
      ? c.quantity > 0 && Number(c.gross_amount) === 0 && Number(c.tax) === 0
      : c.quantity >= 0 && !negative(c.gross_amount) && !negative(c.tax) && Number(c.tax) <= Number(c.gross_amount)),
};

const num = (money: string) => Number(money);
const byKey =
  <T>(key: (row: T) => (string | number)[]) =>
  (a: T, b: T) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
    return 0;
  };

export interface ServedCustomer {
  slug: string;
  aggregate: unknown;
  /** The whole history, newest first, as GET /api/transactions/:slug pages it. */
  history: unknown[];
}

/** What the API should serve, per slug, and the broker list. */
export async function referenceServed(
  source: Sql,
): Promise<{ customers: ServedCustomer[]; brokers: unknown[]; unservedSlugs: string[] }> {
  const book = await readSourceBook(source);
  const isLive = (r: { deleted_at: string | null }) => r.deleted_at === null;
  const brokerById = new Map(book.brokers.map((b) => [b.id, b]));
  const staffById = new Map(book.staff.map((s) => [s.id, s]));
  const servedCustomers = book.customers.filter((c) => isLive(c) && acceptable.customer(c) && staffById.has(c.staff_id));
  const brokerJson = (b: BrokerRow) => ({ id: b.id, name: b.name, code: b.code });
  const closes = latestCloses(book.stock_prices);

  const customers = servedCustomers.map((c) => {
    const staff = staffById.get(c.staff_id)!;
    const accounts = book.accounts
      .filter((a) => a.customer_id === c.id && isLive(a) && brokerById.has(a.broker_id))
      .sort(byKey((a) => [brokerById.get(a.broker_id)!.code, a.account_no, a.id]));
    const accountById = new Map(accounts.map((a) => [a.id, a]));
    const accountRef = (a: AccountRow) => ({
      id: a.id,
      account_no: a.account_no,
      broker: brokerJson(brokerById.get(a.broker_id)!),
    });
    const servedHoldings = book.holdings.filter((h) => accountById.has(h.account_id) && isLive(h) && acceptable.holding(h));
    const holdings = servedHoldings
      .map((h) => ({ h, a: accountById.get(h.account_id)! }))
      .sort(byKey(({ h, a }) => [h.stock_code, brokerById.get(a.broker_id)!.code, a.account_no, h.id]))
      .map(({ h, a }) => ({
        id: h.id,
        stock_code: h.stock_code,
        isin_code: h.isin_code,
        quantity: h.quantity,
        avg_cost: num(h.avg_cost),
        total_cost: num(h.total_cost),
        ...holdingValuation(h, closes),
        account: accountRef(a),
      }));
    const trades = book.transactions.filter((t) => accountById.has(t.account_id) && isLive(t) && acceptable.transaction(t));
    const history = [...trades]
      .sort(byKey((t) => [t.trade_date, t.id]))
      .reverse()
      .map((t) => ({
        id: t.id,
        trade_date: t.trade_date,
        stock_code: t.stock_code,
        isin_code: t.isin_code,
        type: t.type,
        quantity: t.quantity,
        price: num(t.price),
        total_value: num(t.total_value),
        fee: num(t.fee),
        personal_tax: num(t.personal_tax),
        account: accountRef(accountById.get(t.account_id)!),
      }));
    const customer = {
      id: c.id,
      slug: c.slug,
      name: c.name,
      email: c.email,
      phone: c.phone,
      staff_id: c.staff_id,
      staff: { id: staff.id, name: staff.name, email: staff.email },
      accounts: accounts.map((a) => ({
        id: a.id,
        customer_id: a.customer_id,
        broker_id: a.broker_id,
        account_no: a.account_no,
        broker: brokerJson(brokerById.get(a.broker_id)!),
      })),
    };
    const actions = book.corporate_actions.filter(
      (a) => accountById.has(a.account_id) && isLive(a) && acceptable.corporateAction(a),
    );
    const metrics = computeMetrics(trades, shareCredits(actions), cashDividends(actions));
    const valuation = valuationOf(servedHoldings, closes);
    // Served total_return: the stored part plus the exact unrealized P&L, rounded once
    // (src/domain/total-return.ts, src/db/queries/valuation.ts).
    const unrealized = Decimal.fromScaled(unrealizedUnits(servedHoldings, closes), 4);
    const total_return = servedTotalReturn(metrics.stats.total_return, unrealized);
    const stats = { ...metrics.stats, total_return, valuation };
    return { slug: c.slug, aggregate: { customer, portfolio: holdings, stats, analytics: metrics.analytics }, history };
  });
  const served = new Set(customers.map((c) => c.slug));
  return {
    customers,
    brokers: book.brokers
      .filter(isLive)
      .sort(byKey((b) => [b.code, b.id]))
      .map(brokerJson),
    unservedSlugs: book.customers.map((c) => c.slug).filter((s) => !served.has(s) && SERVABLE_SLUG.test(s)),
  };
}

/** The whole history of a slug through GET /api/transactions/:slug, page after page. */
async function fullHistory(env: Env, slug: string): Promise<unknown[]> {
  const rows: unknown[] = [];
  for (let page = 1; ; page++) {
    const { status, body } = await getJson(env, `/api/transactions/${slug}?per_page=100&page=${page}`);
    expect(status).toBe(200);
    rows.push(...body.data);
    if (rows.length >= body.pagination.total) return rows;
  }
}

/**
 * What the API serves equals the reference: every served customer's data, a 404 for every other
 * slug. Read past the edge cache, whose keys name no database: this compares what the database
 * serves (the cache suites prove the cache).
 */
export async function expectServed(dbs: TestDatabases): Promise<void> {
  const env = { ...dbs.env, CACHE_TTL_SECONDS: "0" };
  const expected = await referenceServed(dbs.source);
  for (const customer of expected.customers) await expectServedAs(env, customer);
  for (const slug of expected.unservedSlugs) {
    const { status } = await getJson(env, `/api/customers/${slug}`);
    expect(status, `${slug} is not served`).toBe(404);
  }
  const { body } = await getJson(env, "/api/brokers");
  expect(body.data).toEqual(expected.brokers);
}

async function expectServedAs(env: Env, customer: ServedCustomer): Promise<void> {
  const { status, body } = await getJson(env, `/api/aggregate/${customer.slug}`);
  expect(status, customer.slug).toBe(200);
  expect(body.data, customer.slug).toEqual(customer.aggregate);
  expect(await fullHistory(env, customer.slug), customer.slug).toEqual(customer.history);
}

/** One customer's answers equal the reference, whatever the others' (drift not repaired yet). */
export async function expectCustomerServed(dbs: TestDatabases, slug: string): Promise<void> {
  const customer = (await referenceServed(dbs.source)).customers.find((c) => c.slug === slug);
  expect(customer, slug).toBeDefined();
  await expectServedAs({ ...dbs.env, CACHE_TTL_SECONDS: "0" }, customer!);
}

/** The source's time `offsetSeconds` from now, as a microsecond ISO string. */
export async function sourceTime(source: Sql, offsetSeconds: number): Promise<string> {
  const [row] = await source.query(`select ${micros("now() + make_interval(secs => $1)")} as at`, [offsetSeconds]);
  return row!.at as string;
}

/** `at` as a time: a time is itself, a number is that many seconds from the source's clock. */
const stampAt = async (source: Sql, at: string | number) => (typeof at === "number" ? sourceTime(source, at) : at);

/**
 * Changes a source row the way the back office does: its fields, and `updated_at` bumped to `at`
 * (a time, or a number of seconds from the source's clock: a change the next delta run must read
 * is stamped by that clock, not this machine's).
 */
export async function changeSource(
  source: Sql,
  table: string,
  id: string,
  changes: Record<string, unknown>,
  at: string | number = "2025-06-01T00:00:00Z",
) {
  const assignments = Object.keys(changes).map((column, i) => `${column} = $${i + 3}`);
  await source.query(`update ${table} set ${["updated_at = $2", ...assignments].join(", ")} where id = $1`, [
    id,
    await stampAt(source, at),
    ...Object.values(changes),
  ]);
}

/** Soft-deletes a source row: `deleted_at` and `updated_at` both `at` (a time, or seconds from the source's clock). */
export async function softDelete(source: Sql, table: string, id: string, at: string | number = "2025-06-01T00:00:00Z") {
  const stamp = await stampAt(source, at);
  await changeSource(source, table, id, { deleted_at: stamp }, stamp);
}

/** Restores a soft-deleted source row, stamped `at` (a time, or seconds from the source's clock). */
export const restore = (source: Sql, table: string, id: string, at: string | number = "2025-06-02T00:00:00Z") =>
  changeSource(source, table, id, { deleted_at: null }, at);

/** Inserts rows of one table into the source. */
export async function insertSource(source: Sql, table: string, rows: object[]): Promise<void> {
  await source.query(`insert into ${table} select * from jsonb_populate_recordset(null::${table}, $1::jsonb)`, [
    JSON.stringify(rows),
  ]);
}

export const countRows = (book: Book) => STREAMS.reduce((n, s) => n + book[s.name].length, 0);

/** A small but complete book: two customers, two brokers, accounts, holdings and trades. */
export const sampleBook = (): Book => twoCustomerBook().book;

/**
 * No customer keeps a merge to adjust (docs/stored-state.md), and each one's stored analytics, and
 * its stats but the dividends and total return, are those of the merge of its served holdings'
 * stored partials and month rows made afresh (where that merge decides them). Holds whenever no
 * metrics work is pending.
 */
export async function expectMergesAddUp(target: Sql): Promise<void> {
  const rows = (await target.query(
    `select m.customer_id, m.partial, m.stats, m.analytics, (
       select coalesce(json_agg(json_build_object('partial', h.partial, 'months', (
         select coalesce(json_agg(json_build_object('month', o.month, 'trades', o.trades, 'pnl', o.pnl::text, 'pnl_inexact', o.pnl_inexact)), '[]')
         from holding_months o where o.account_id = h.account_id and o.stock_code = h.stock_code))), '[]')
       from holding_metrics h join accounts a on a.id = h.account_id
       where ${SERVED_ACCOUNT}
     ) as holdings
     from customer_metrics m`,
  )) as { customer_id: string; partial: unknown; stats: Stats; analytics: unknown; holdings: StoredHolding[] }[];
  for (const r of rows) {
    expect(r.partial, r.customer_id).toBeNull();
    const merged = mergePartials([combinePartials(r.holdings.map(withMonths))]);
    if (!merged) continue;
    const { dividends: _d, total_return: _t, ...stats } = r.stats;
    const { dividends: _md, total_return: _mt, ...mergedStats } = merged.stats;
    expect({ stats, analytics: r.analytics }, r.customer_id).toEqual({ stats: mergedStats, analytics: merged.analytics });
  }
}

type StoredMonth = Pick<MonthRow, "month" | "trades" | "pnl" | "pnl_inexact">;

/** A holding as the target stores it: its partial, and its months as rows. */
interface StoredHolding {
  partial: HoldingPartial;
  months: StoredMonth[];
}

/** A stored holding's partial with its month rows put back as its monthly maps. */
function withMonths({ partial, months }: StoredHolding): HoldingPartial {
  const counts = months.filter((m) => m.trades > 0).map((m) => [m.month, m.trades] as const);
  const pnl = months.flatMap((m) => (m.pnl === null ? [] : [[m.month, { sum: m.pnl, inexact: m.pnl_inexact ?? 0 }] as const]));
  return { ...partial, monthly_trade_counts: Object.fromEntries(counts), monthly_pnl: Object.fromEntries(pnl) };
}

/**
 * Every holding's stored metrics rows (its partial, months, open lots and position steps), however
 * many runs continued or relaid them, equal those of its live trades and share credits made
 * afresh: the differential check the sync bench runs after each phase (scripts/bench/differential.ts).
 * Holds whenever no holding is pending.
 */
export async function expectStoredRowsAddUp(target: Sql): Promise<void> {
  const { differences } = await storedDifferences((text, params) => target.query(text, params));
  expect(differences).toEqual([]);
}

/**
 * Every placed customer's stored places, however many runs appended to them or placed them again
 * from a date, equal its served trades numbered afresh (trade date, then id), in its history and
 * in each account's, and its stored counts equal theirs (src/sync/ordinals.ts). Holds whenever no
 * metrics work is pending.
 */
export async function expectPlacesAddUp(target: Sql): Promise<void> {
  const served = `select t.id, t.customer_id, t.account_id,
       row_number() over (partition by t.customer_id order by t.trade_date, t.id)::int as place,
       row_number() over (partition by t.account_id order by t.trade_date, t.id)::int as account_place
     from transactions t join accounts a on a.id = t.account_id
     join customer_histories m on m.customer_id = t.customer_id
     where t.deleted_at is null and t.rejected is null and ${SERVED_ACCOUNT}`;
  const order = "order by customer_id, place, id";
  const stored = await target.query(
    `select p.transaction_id as id, p.customer_id, p.account_id, p.place, p.account_place
     from trade_places p join customer_histories m on m.customer_id = p.customer_id ${order}`,
  );
  expect(stored).toEqual(await target.query(`${served} ${order}`));
  const counts = `select customer_id, trades, account_trades from customer_histories order by customer_id`;
  expect(await target.query(counts)).toEqual(
    await target.query(
      `select m.customer_id, coalesce(sum(s.n), 0)::int as trades,
         coalesce(jsonb_object_agg(s.account_id::text, s.n) filter (where s.account_id is not null), '{}'::jsonb) as account_trades
       from customer_histories m left join (
         select customer_id, account_id, count(*)::int as n from (${served}) s group by customer_id, account_id
       ) s on s.customer_id = m.customer_id
       group by m.customer_id order by m.customer_id`,
    ),
  );
}

/** Both comparisons: the target mirrors the source, and serves what the reference says. */
export async function expectInSync(dbs: TestDatabases): Promise<void> {
  await expectMirrored(dbs);
  await expectServed(dbs);
}

/** Everything the sync could change in the target: data, cursors, pending work and metrics. */
export async function targetState(target: Sql) {
  const rows: Record<string, unknown[]> = {};
  for (const { name } of STREAMS) rows[name] = await target.query(`select * from ${name} order by id`);
  return {
    rows,
    cursors: await target`select * from sync_cursors order by stream`,
    pending: await target`select * from metrics_pending order by customer_id`,
    holdingsPending: await target`select * from holdings_pending order by 1, 2`,
    metrics: await target`select customer_id, stats, analytics from customer_metrics order by customer_id`,
    reconcile: await target`select * from reconcile_progress order by stream`,
  };
}

/** Makes the source a back office without foreign keys, where a child can be committed before its parent. */
export async function dropSourceForeignKeys(source: Sql): Promise<void> {
  const keys = await source`select conrelid::regclass::text as tbl, conname from pg_constraint where contype = 'f'`;
  for (const { tbl, conname } of keys) await source.query(`alter table ${tbl} drop constraint ${conname}`);
}

/**
 * An account the back office commits before its customer, as one without foreign keys (dropped
 * here) can: a new customer of `staff`, stamped `customerAt` when given but not written, and
 * their account at `broker`, written stamped `accountAt` seconds from the source's clock. The
 * test commits the customer when its story says.
 */
export async function accountBeforeCustomer(
  source: Sql,
  parents: { staff: { id: string }; broker: { id: string } },
  accountAt: number,
  customerAt?: string,
) {
  await dropSourceForeignKeys(source);
  const late = new Book();
  const customer = late.customer({ staff_id: parents.staff.id, ...(customerAt === undefined ? {} : { updated_at: customerAt }) });
  const account = late.account({
    customer_id: customer.id,
    broker_id: parents.broker.id,
    updated_at: await sourceTime(source, accountAt),
  });
  await insertSource(source, "accounts", [account]);
  return { customer, account };
}

/** A queue that keeps what it is sent, for the test to deliver. */
export function recordingQueue() {
  const sent: Continuation[] = [];
  /** The delay each message was sent with, in order. */
  const delays: (number | undefined)[] = [];
  const queue = {
    send: async (body: Continuation, options?: QueueSendOptions) => {
      sent.push(body);
      delays.push(options?.delaySeconds);
    },
    sendBatch: async (bodies: Iterable<{ body: Continuation }>) => void sent.push(...[...bodies].map((b) => b.body)),
  } as unknown as Queue<Continuation>;
  return { sent, delays, queue };
}

/** One delivery of `body`, and what the consumer did with it. */
export async function deliver(env: Env, body: Continuation, limits: Partial<BudgetLimits>) {
  const outcomes: Array<"ack" | { retryAfter: number | undefined }> = [];
  const message = {
    id: crypto.randomUUID(),
    timestamp: new Date(),
    body,
    attempts: 1,
    ack: () => void outcomes.push("ack"),
    retry: (options?: { delaySeconds?: number }) => void outcomes.push({ retryAfter: options?.delaySeconds }),
  };
  const batch = {
    queue: "sync-continuations",
    messages: [message],
    ackAll() {},
    retryAll() {},
  } as unknown as MessageBatch<Continuation>;
  await continueSync(batch, env, { limits });
  return outcomes;
}

/** A book of a few customers, with enough rows that ids spread over many ranges. */
export function widerBook(): Book {
  const book = new Book();
  const broker = book.broker();
  const staff = book.staffMember();
  for (let c = 0; c < 4; c++) {
    const customer = book.customer({ staff_id: staff.id });
    const account = book.account({ customer_id: customer.id, broker_id: broker.id, account_no: `00${c}` });
    book.holding({ account_id: account.id });
    for (let d = 1; d <= 6; d++) {
      book.trade({
        account_id: account.id,
        trade_date: `2024-0${d}-0${c + 1}`,
        type: d % 3 === 0 ? "sell" : "buy",
        quantity: 10 * d,
        price: `${1000 + d}`,
      });
    }
  }
  return book;
}
