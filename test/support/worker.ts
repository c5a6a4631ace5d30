/**
 * Calls the Worker exactly as the runtime does: its fetch and scheduled handlers, with an env
 * and an execution context whose waitUntil work (cache writes) is finished before the answer
 * is returned. Every suite goes through `Client`.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/index";
import type { Env } from "../../src/env";

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  // Bodies are whatever the test expects them to be; the schemas check them where it matters.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** The value of X-Cache, or null. */
  cache: string | null;
}

/** A client address of its own, so the 404 limiter's count is one client's alone. */
export const newIp = () => `2001:db8:5ec::${crypto.randomUUID().slice(0, 4)}:${crypto.randomUUID().slice(0, 4)}`;

/** An origin of its own: caches.default is shared by the whole run and keyed by origin. */
const newOrigin = () => `https://t-${crypto.randomUUID().slice(0, 8)}.test`;

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The Worker as one client sees it: one client address and one origin (fresh unless named), so
 * neither the 404 limiter nor the edge cache lets one test see another's traffic.
 */
export class Client {
  readonly ip: string;
  readonly origin: string;

  constructor(
    readonly env: Env,
    options: { ip?: string; origin?: string } = {},
  ) {
    this.ip = options.ip ?? newIp();
    this.origin = options.origin ?? newOrigin();
  }

  /** The same Worker and origin, seen from another client address. */
  from(ip: string): Client {
    return new Client(this.env, { ip, origin: this.origin });
  }

  /** The same client with other settings (a timeout, a CORS list...). */
  with(overrides: Partial<Env>): Client {
    return new Client({ ...this.env, ...overrides }, { ip: this.ip, origin: this.origin });
  }

  /** The Worker's Response to `request` (a path under this origin, or a Request), from this client's address. */
  async fetch(request: string | Request, init: RequestInit = {}): Promise<Response> {
    const req = typeof request === "string" ? new Request(`${this.origin}${request}`, init) : request;
    if (!req.headers.has("CF-Connecting-IP")) req.headers.set("CF-Connecting-IP", this.ip);
    return this.fetchAsIs(req);
  }

  /** Sends `req` exactly as built, with no client address added. */
  async fetchAsIs(req: Request): Promise<Response> {
    const ctx = createExecutionContext();
    const res = await worker.fetch(req, this.env, ctx);
    const text = await res.text();
    await waitOnExecutionContext(ctx); // cache writes run in waitUntil
    return new Response(res.status === 204 || res.status === 304 || text === "" ? null : text, res);
  }

  /** Sends and reads the answer. */
  async send(request: string | Request, init: RequestInit = {}): Promise<Reply> {
    return read(await this.fetch(request, init));
  }

  async sendAsIs(req: Request): Promise<Reply> {
    return read(await this.fetchAsIs(req));
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.send(path, { headers });
  }

  /** POST /api/sync with the configured admin key (or `key`; null sends none). */
  postSync(options: { mode?: string; key?: string | null } = {}): Promise<Reply> {
    const key = options.key === undefined ? this.env.ADMIN_API_KEY : options.key;
    const headers: Record<string, string> = key === null || key === undefined ? {} : { "X-Admin-Key": key };
    return this.send(`/api/sync${options.mode ? `?mode=${options.mode}` : ""}`, { method: "POST", headers });
  }
}

async function read(res: Response): Promise<Reply> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: parseJson(text), cache: res.headers.get("X-Cache") };
}

/** The origin getJson serves: the sync suites set PUBLIC_ORIGIN to it to reach their cached answers. */
export const SHARED_ORIGIN = "https://api.test";

/** One GET (or `init`) from a fresh client address under SHARED_ORIGIN. */
export function getJson(env: Env, path: string, init: RequestInit = {}): Promise<Reply> {
  return new Client(env, { origin: SHARED_ORIGIN }).send(path, init);
}

export async function runScheduled(env: Env, cron = "*/15 * * * *"): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron }), env, ctx);
  await waitOnExecutionContext(ctx);
}
