/**
 * Helpers for the edge cache suites. `caches.default` is shared by every test file in the run
 * and its keys start with the request's origin, so each test talks to the Worker under an origin
 * of its own: nothing it caches (the broker list included) can be seen by another test.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import worker from "../../src/index";
import type { Env } from "../../src/env";
import { Book, writeTarget } from "../support/book";
import { freshDatabases, type TestDatabases } from "../support/databases";

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or null when there is none (304) or it is not JSON (the customer's page). */
  body: any;
  /** The value of X-Cache, or null. */
  cache: string | null;
}

/** The Worker as one client sees it, under an origin of its own. */
export class Client {
  readonly origin = `https://cache-${crypto.randomUUID().slice(0, 8)}.test`;
  constructor(readonly dbs: TestDatabases) {}

  get env(): Env {
    return this.dbs.env;
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Reply> {
    const ctx = createExecutionContext();
    const headers = new Headers(init.headers);
    if (!headers.has("CF-Connecting-IP")) headers.set("CF-Connecting-IP", `2001:db8::${crypto.randomUUID().slice(0, 4)}`);
    const res = await worker.fetch(new Request(`${this.origin}${path}`, { ...init, headers }), this.env, ctx);
    const text = await res.text();
    await waitOnExecutionContext(ctx); // cache writes run in waitUntil
    const json = res.headers.get("Content-Type")?.startsWith("application/json");
    return { status: res.status, headers: res.headers, text, body: text && json ? JSON.parse(text) : null, cache: res.headers.get("X-Cache") };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.fetch(path, { headers });
  }

  /** Target database requests made while `action` ran, and what it returned. */
  async trips<T>(action: () => Promise<T>): Promise<{ trips: number; result: T }> {
    const before = await this.dbs.targetRequests();
    const result = await action();
    return { trips: (await this.dbs.targetRequests()) - before, result };
  }

  /** GET `path` and report its database round trips beside the reply. */
  async counted(path: string, headers: Record<string, string> = {}): Promise<Reply & { trips: number }> {
    const { trips, result } = await this.trips(() => this.get(path, headers));
    return { ...result, trips };
  }

  /** POST /api/sync with the admin key; expects it to succeed and returns the report. */
  async sync() {
    const reply = await this.fetch("/api/sync", { method: "POST", headers: { "X-Admin-Key": this.env.ADMIN_API_KEY! } });
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data;
  }
}

/** Fresh databases with the edge cache on (60 s unless overridden) and the 404 limit off. */
export async function cachedClient(overrides: Partial<Env> = {}): Promise<Client> {
  const dbs = await freshDatabases({ CACHE_TTL_SECONDS: "60", NOT_FOUND_LIMITER: undefined, ...overrides });
  return new Client(dbs);
}

/** One customer with two accounts (SSI and VND), holdings and trades in both. */
export function investorBook(book = new Book()) {
  const ssi = book.broker({ code: "SSI", name: "SSI Securities Corporation" });
  const vnd = book.broker({ code: "VND", name: "VNDIRECT Securities Corporation" });
  const staff = book.staffMember();
  const customer = book.customer({ staff_id: staff.id });
  const ssiAccount = book.account({ customer_id: customer.id, broker_id: ssi.id, account_no: "0001" });
  const vndAccount = book.account({ customer_id: customer.id, broker_id: vnd.id, account_no: "0002" });
  book.holding({ account_id: ssiAccount.id });
  book.holding({ account_id: vndAccount.id, stock_code: "HPG", isin_code: "VN000000HPG4", quantity: 300, avg_cost: "25000.5000", total_cost: "7500150.0000" });
  book.trade({ account_id: ssiAccount.id, trade_date: "2024-01-05", type: "buy", quantity: 100, price: "100000", fee: "150" });
  book.trade({ account_id: ssiAccount.id, trade_date: "2024-02-10", type: "sell", quantity: 100, price: "110000", fee: "165" });
  book.trade({ account_id: vndAccount.id, trade_date: "2024-03-01", stock_code: "HPG", isin_code: "VN000000HPG4", type: "buy", quantity: 300, price: "25000" });
  return { book, customer, staff, accounts: { ssi: ssiAccount, vnd: vndAccount }, brokers: { ssi, vnd } };
}

/** A cached client whose target already holds one investor (a fresh slug). */
export async function withInvestor(overrides: Partial<Env> = {}) {
  const client = await cachedClient(overrides);
  const investor = investorBook();
  await writeTarget(client.dbs.target, investor.book);
  return { client, ...investor, slug: investor.customer.slug };
}

/** Every public endpoint of one customer (and the broker list). */
export function publicPaths(slug: string, accountId: string): string[] {
  return [
    `/api/customers/${slug}`,
    `/api/portfolio/${slug}`,
    `/api/transactions/${slug}`,
    `/api/transactions/${slug}/${accountId}`,
    `/api/stats/${slug}`,
    `/api/analytics/${slug}`,
    `/api/aggregate/${slug}`,
    "/api/brokers",
  ];
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
