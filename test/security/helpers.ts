/**
 * Helpers for the security suites: the Worker as one client sees it, under an origin of its own
 * (caches.default is shared by every test file and keyed by origin, so nothing one test caches
 * can answer another), from a client address the test chooses.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/index";
import type { Env } from "../../src/env";
import { Book, writeTarget } from "../support/book";
import { freshDatabases, type TestDatabases } from "../support/databases";

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  body: any;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A client address of its own, so the 404 limiter's count is this test's alone. */
export const newIp = () => `2001:db8:5ec::${crypto.randomUUID().slice(0, 4)}:${crypto.randomUUID().slice(0, 4)}`;

export class Client {
  constructor(
    readonly env: Env,
    readonly ip = newIp(),
    readonly origin = `https://sec-${crypto.randomUUID().slice(0, 8)}.test`,
  ) {}

  /** Sends `request` (a path, or a Request already built under this origin) and reads the reply. */
  async send(request: string | Request, init: RequestInit = {}): Promise<Reply> {
    const req = typeof request === "string" ? new Request(`${this.origin}${request}`, init) : request;
    if (!req.headers.has("CF-Connecting-IP")) req.headers.set("CF-Connecting-IP", this.ip);
    return this.sendAsIs(req);
  }

  /** Sends `req` exactly as built, with no client address added. */
  async sendAsIs(req: Request): Promise<Reply> {
    const ctx = createExecutionContext();
    const res = await worker.fetch(req, this.env, ctx);
    const text = await res.text();
    await waitOnExecutionContext(ctx);
    return { status: res.status, headers: res.headers, text, body: parseJson(text) };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.send(path, { headers });
  }

  /** The same Worker and origin, seen from another client address. */
  from(ip: string): Client {
    return new Client(this.env, ip, this.origin);
  }
}

/** One customer with an account and a trade, written straight into fresh target databases. */
export async function withCustomer(overrides: Partial<Env> = {}) {
  const dbs = await freshDatabases(overrides);
  const book = new Book();
  const { customer, account } = book.simpleCustomer();
  book.holding({ account_id: account.id });
  book.trade({ account_id: account.id, trade_date: "2024-01-05", type: "buy", quantity: 100, price: "100000" });
  await writeTarget(dbs.target, book);
  return { dbs, book, customer, account, client: new Client(dbs.env) };
}

/** Target requests made while `action` ran. */
export async function targetTrips(dbs: TestDatabases, action: () => Promise<unknown>): Promise<number> {
  const before = await dbs.targetRequests();
  await action();
  return (await dbs.targetRequests()) - before;
}

/** The public endpoints that take a slug, as path builders. */
export const SLUG_PATHS = ["customers", "portfolio", "transactions", "stats", "analytics", "aggregate"].map(
  (resource) => (slug: string) => `/api/${resource}/${slug}`,
);
