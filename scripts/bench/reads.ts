/**
 * What a read costs on the synced sync-bench book (scripts/bench/sync.ts), beside a floor of the
 * same driver in the same run:
 *
 * - the performance of a 100,000-trade customer and a 1,000-trade one, `range=max` and `1y`, as
 *   the route reads it (findPerformance: the one statement, then the figures), beside one round
 *   trip that reads the same stored rows (the customer's position steps, its codes' closes over
 *   the period, the benchmark's closes) as JSON;
 * - the unfiltered trade history's page 1 and page 10,000 of the 100,000-trade customer, and a
 *   filtered one's (`type=buy`) page 1 and page 1,000: the stored places make the first pair cost
 *   the same, the filtered list's cost grows with its depth (docs/api.md, "What a page costs");
 *   and pages 1 and 90 filtered by the code of its large holding and of a small one;
 * - the Cache API calls of invalidating 5,000 customers (src/cache/invalidate.ts), counted by a
 *   cache that only counts.
 *
 * Each time is the median of five after one untimed warm-up, so a cold buffer cache is not
 * what is measured.
 */
import { createDb, type Db } from "../../src/db/client";
import { findHistory } from "../../src/db/queries/history";
import { findPerformance } from "../../src/db/queries/performance";
import { invalidate, customerScope } from "../../src/cache";
import type { Config } from "../../src/env";

const BENCHMARK = "VNINDEX";
const SAMPLES = 5;

export interface TimedRead {
  name: string;
  ms: number;
  floorMs: number;
  floor: string;
}

export interface ReadsResult {
  reads: TimedRead[];
  invalidation: { customers: number; cacheCalls: number };
}

async function median(work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = performance.now();
    await work();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(SAMPLES / 2)]!;
}

/** The stored rows a performance read of `slug` over [from, to] reads, in one round trip. */
async function performanceFloor(sql: ReturnType<typeof createDb>["sql"], slug: string, from: string | null) {
  await sql.query(
    `with accts as (select a.id from accounts a join customers c on c.id = a.customer_id where c.slug = $1),
       steps as (select * from position_steps where account_id in (select id from accts))
     select
       (select json_agg(s) from steps s) as steps,
       (select json_agg(json_build_array(p.stock_code, p.trade_date, p.close_price)) from stock_prices p
         where p.stock_code in (select distinct stock_code from steps) and ($2::date is null or p.trade_date >= $2::date)) as closes,
       (select json_agg(json_build_array(p.trade_date, p.close_price)) from stock_prices p
         where p.stock_code = $3 and ($2::date is null or p.trade_date >= $2::date)) as benchmark`,
    [slug, from, BENCHMARK],
  );
}

export async function measureReads(
  targetUrl: string,
  customers: { large: string; typical: string; largeCodes: { most: string; fewest: string } },
): Promise<ReadsResult> {
  const { db, sql } = createDb(targetUrl);
  const reads: TimedRead[] = [];
  for (const [who, slug] of [
    ["100,000-trade customer", customers.large],
    ["1,000-trade customer", customers.typical],
  ] as const) {
    for (const range of ["max", "1y"] as const) {
      const found = await findPerformance(db, slug, { range }, BENCHMARK);
      if (!found || found === "building") throw new Error(`no performance for ${slug}: ${String(found)}`);
      const from = range === "max" ? null : found.start_date;
      reads.push({
        name: `performance range=${range}, ${who} (${found.points.length} points)`,
        ms: await median(() => findPerformance(db, slug, { range }, BENCHMARK)),
        floorMs: await median(() => performanceFloor(sql, slug, from)),
        floor: "its steps and closes read as JSON",
      });
    }
  }
  const page = (slug: string, n: number, filter: { type?: "buy"; stock_code?: string } = {}) =>
    findHistory(db as Db, { slug }, { page: n, per_page: 10, ...filter });
  const first = await median(() => page(customers.large, 1));
  reads.push(
    { name: "history page 1, 100,000-trade customer", ms: first, floorMs: first, floor: "page 1" },
    {
      name: "history page 10,000, 100,000-trade customer",
      ms: await median(() => page(customers.large, 10_000)),
      floorMs: first,
      floor: "page 1",
    },
  );
  const filtered = await median(() => page(customers.large, 1, { type: "buy" }));
  reads.push(
    { name: "history type=buy page 1, 100,000-trade customer", ms: filtered, floorMs: filtered, floor: "page 1" },
    {
      name: "history type=buy page 1,000, 100,000-trade customer",
      ms: await median(() => page(customers.large, 1_000, { type: "buy" })),
      floorMs: filtered,
      floor: "page 1",
    },
  );
  // One code's trades: the large holding's (97,000) and a small one's (1,000) of the same customer.
  for (const [which, code] of [
    ["the large holding's code", customers.largeCodes.most],
    ["a small holding's code", customers.largeCodes.fewest],
  ] as const) {
    const byCode = await median(() => page(customers.large, 1, { stock_code: code }));
    reads.push(
      {
        name: `history stock_code=${which} page 1, 100,000-trade customer`,
        ms: byCode,
        floorMs: first,
        floor: "unfiltered page 1",
      },
      {
        name: `history stock_code=${which} page 90, 100,000-trade customer`,
        ms: await median(() => page(customers.large, 90, { stock_code: code })),
        floorMs: byCode,
        floor: "its page 1",
      },
    );
  }
  return { reads, invalidation: await countInvalidation(5_000) };
}

/** The Cache API calls of invalidating `customers` stale customers, the prices and the brokers. */
async function countInvalidation(customers: number) {
  let cacheCalls = 0;
  const counting = {
    delete: async () => {
      cacheCalls++;
      return true;
    },
  } as unknown as Cache;
  const scopes = [...Array.from({ length: customers }, (_, i) => customerScope(`customer-${i}`)), "prices", "brokers"];
  await invalidate(scopes, { config: {} as Config, origin: "https://bench.invalid", cache: counting });
  return { customers, cacheCalls };
}

export function printReads(r: ReadsResult): string {
  const lines = [
    `Reads on the synced book, through the HTTP driver, median of ${SAMPLES} after a warm-up:`,
    "",
    "| read | ms | floor | floor ms | ÷ floor |",
    "|---|---:|---|---:|---:|",
    ...r.reads.map(
      (x) => `| ${x.name} | ${x.ms.toFixed(1)} | ${x.floor} | ${x.floorMs.toFixed(1)} | ${(x.ms / x.floorMs).toFixed(2)} |`,
    ),
    "",
    `Invalidating ${r.invalidation.customers.toLocaleString("en-US")} stale customers, the prices and the brokers: ${r.invalidation.cacheCalls} Cache API calls.`,
  ];
  return lines.join("\n");
}
