/**
 * The edge cache suites' client: the shared Client (one origin of its own, so nothing it caches
 * can be seen by another test) bound to its databases, to count what each request costs.
 */
import { expect, vi } from "vitest";
import type { Env } from "../../src/env";
import { investorBook, writeTarget } from "../support/book";
import { freshDatabases, type TestDatabases } from "../support/databases";
import { Client, type Reply } from "../support/worker";

export class CacheClient extends Client {
  constructor(
    readonly dbs: TestDatabases,
    origin?: string,
  ) {
    super(dbs.env, { origin });
  }

  /** GET `path` and report its target database round trips beside the reply. */
  async counted(path: string, headers: Record<string, string> = {}): Promise<Reply & { trips: number }> {
    const { target, result } = await this.dbs.trips(() => this.get(path, headers));
    return { ...result, trips: target };
  }

  /**
   * GET `path`, expecting a 200 with this X-Cache (null: the cache stayed out of it) and this many
   * target round trips; the path is part of what is compared, so a failure says which one.
   */
  async expectServed(path: string, cache: "HIT" | "MISS" | null, trips: number) {
    const reply = await this.counted(path);
    expect({ path, status: reply.status, cache: reply.cache, trips: reply.trips }).toEqual({ path, status: 200, cache, trips });
    return reply;
  }

  /** POST /api/sync with the admin key; expects it to succeed and returns the report. */
  async sync() {
    const reply = await this.postSync();
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data;
  }

  /** The same databases under another origin, which has a cache of its own. */
  elsewhere(): CacheClient {
    return new CacheClient(this.dbs);
  }
}

/** Fresh databases with the edge cache on (60 s unless overridden), and the 404 brake on as deployed. */
export async function cachedClient(overrides: Partial<Env> = {}): Promise<CacheClient> {
  return new CacheClient(await freshDatabases({ CACHE_TTL_SECONDS: "60", ...overrides }));
}

/** A cached client whose target already holds the investor (a fresh slug). */
export async function withInvestor(overrides: Partial<Env> = {}) {
  const client = await cachedClient(overrides);
  const investor = investorBook();
  await writeTarget(client.dbs.target, investor.book);
  return { client, ...investor };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Counts the Cache API calls made on any cache until vi.restoreAllMocks(): what an invocation
 * spends of its 1,000. `failDelete` makes the deletes of matching keys throw.
 */
export function countCacheCalls(options: { failDelete?: (key: string) => boolean } = {}) {
  const counted = { match: 0, put: 0, delete: 0 };
  const proto = Cache.prototype;
  const { match, put, delete: remove } = proto;
  vi.spyOn(proto, "match").mockImplementation(function (this: Cache, ...args: Parameters<Cache["match"]>) {
    counted.match++;
    return match.apply(this, args);
  });
  vi.spyOn(proto, "put").mockImplementation(function (this: Cache, ...args: Parameters<Cache["put"]>) {
    counted.put++;
    return put.apply(this, args);
  });
  vi.spyOn(proto, "delete").mockImplementation(async function (this: Cache, ...args: Parameters<Cache["delete"]>) {
    counted.delete++;
    const key = args[0] instanceof Request ? args[0].url : String(args[0]);
    if (options.failDelete?.(key)) throw new Error("the cache refused the delete");
    return remove.apply(this, args);
  });
  return {
    counted,
    total: () => counted.match + counted.put + counted.delete,
    reset: () => Object.assign(counted, { match: 0, put: 0, delete: 0 }),
  };
}
