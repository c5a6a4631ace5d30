/**
 * Helpers for the sync suites: running the sync (through the admin route, or through runSync
 * where a test injects limits), comparing the target with the source table by table, and
 * stamping source rows with times from the source's own clock.
 */
import { expect } from "vitest";
import type { Sql } from "../../src/db/client";
import { getConfig, type Env } from "../../src/env";
import type { BudgetLimits } from "../../src/sync/budget";
import { isoMicros } from "../../src/sync/cursor";
import type { Mode } from "../../src/sync/report";
import { runSync } from "../../src/sync/run";
import { STREAMS } from "../../src/sync/streams";
import { freshDatabases, type TestDatabases } from "../support/databases";
import { getJson } from "../support/worker";
import { Book, writeSource } from "../support/book";

const TABLES = STREAMS.map((s) => s.name);

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

/**
 * Every row of the six tables as the target should hold it: the source's rows, minus soft-deleted
 * ones and minus rows below a soft-deleted parent, with `updated_at` as `source_updated_at`,
 * each transaction carrying its account's customer.
 */
async function expectedTarget(source: Sql): Promise<Record<string, unknown[]>> {
  const live = new Map<string, string>();
  for (const stream of STREAMS) {
    const parents = stream.parents.map((p) => `and ${p.column} in (select id from live_${p.stream})`).join(" ");
    live.set(stream.name, `live_${stream.name} as (select * from ${stream.name} where deleted_at is null ${parents})`);
  }
  const ctes = [...live.values()].join(", ");
  const result: Record<string, unknown[]> = {};
  for (const stream of STREAMS) {
    const columns = stream.columns.map((c) => `t.${c.name}`);
    const customer = stream.name === "transactions" ? ", a.customer_id" : "";
    const join = stream.name === "transactions" ? "join live_accounts a on a.id = t.account_id" : "";
    result[stream.name] = await source.query(
      `with ${ctes} select t.id, ${columns.join(", ")}${customer}, t.updated_at as source_updated_at
       from live_${stream.name} t ${join} order by t.id`,
    );
  }
  return result;
}

async function targetRows(target: Sql): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const stream of STREAMS) {
    const columns = [...stream.columns.map((c) => c.name), ...stream.derived.map((d) => d.name)];
    result[stream.name] = await target.query(`select id, ${columns.join(", ")}, source_updated_at from ${stream.name} order by id`);
  }
  return result;
}

/** The target equals the source, table by table and column by column. */
export async function expectInSync(dbs: TestDatabases): Promise<void> {
  expect(await targetRows(dbs.target)).toEqual(await expectedTarget(dbs.source));
}

/** Everything the sync could change in the target: data, cursors, pending work and metrics. */
export async function targetState(target: Sql) {
  return {
    rows: await targetRows(target),
    cursors: await target`select * from sync_cursors order by stream`,
    pending: await target`select * from metrics_pending order by customer_id`,
    metrics: await target`select customer_id, stats, analytics from customer_metrics order by customer_id`,
  };
}

export const countRows = (book: Book) => TABLES.reduce((n, t) => n + book[t].filter((r) => r.deleted_at === null).length, 0);

/** The source's time `offsetSeconds` from now, as a microsecond ISO string. */
export async function sourceTime(source: Sql, offsetSeconds: number): Promise<string> {
  const [row] = await source.query(
    `select ${isoMicros("now() + make_interval(secs => $1)")} as at`,
    [offsetSeconds],
  );
  return row!.at as string;
}

/** Changes a source row the way the back office does: its fields, and `updated_at` bumped to `at`. */
export async function changeSource(source: Sql, table: string, id: string, changes: Record<string, unknown>, at = "2025-06-01T00:00:00Z") {
  const assignments = Object.keys(changes).map((column, i) => `${column} = $${i + 3}`);
  await source.query(`update ${table} set ${["updated_at = $2", ...assignments].join(", ")} where id = $1`, [id, at, ...Object.values(changes)]);
}

export const softDelete = (source: Sql, table: string, id: string, at = "2025-06-01T00:00:00Z") =>
  changeSource(source, table, id, { deleted_at: at }, at);

/** A small but complete book: two customers, two brokers, accounts, holdings and trades. */
export function sampleBook(): Book {
  const book = new Book();
  const { broker, staff, customer, account } = book.simpleCustomer();
  const vnd = book.broker({ code: "VND", name: "VNDIRECT Securities Corporation" });
  const second = book.account({ customer_id: customer.id, broker_id: vnd.id, account_no: "0002" });
  book.holding({ account_id: account.id });
  book.holding({ account_id: second.id, stock_code: "HPG", isin_code: "VN000000HPG4", quantity: 300, avg_cost: "25000.5000", total_cost: "7500150.0000" });
  book.trade({ account_id: account.id, trade_date: "2024-01-05", type: "buy", quantity: 100, price: "100000", fee: "150.25" });
  book.trade({ account_id: account.id, trade_date: "2024-02-10", type: "sell", quantity: 100, price: "110000.5", fee: "165" });
  book.trade({ account_id: second.id, trade_date: "2024-03-01", stock_code: "HPG", isin_code: "VN000000HPG4", type: "buy", quantity: 300, price: "25000" });
  const other = book.customer({ staff_id: staff.id, name: "Lê Thị Hoa" });
  const otherAccount = book.account({ customer_id: other.id, broker_id: broker.id, account_no: "0009" });
  book.trade({ account_id: otherAccount.id, trade_date: "2024-02-15", type: "buy", quantity: 5, price: "101000" });
  return book;
}
