/**
 * HTTP benchmark (`npm run bench -- http`): every public endpoint through `wrangler dev`, with
 * the local database server on PostgreSQL, on a cache hit and on a miss, beside two floors
 * measured in the same run: a static JSON route of the same Worker (/api/health/live) and a
 * route doing one `select 1` through the same driver (/api/health/db).
 *
 * Misses are measured on a Worker started with CACHE_TTL_SECONDS=0, so every request goes to
 * the database; hits on one with the default TTL, after one warming request per URL.
 *
 * The load comes from autocannon in its own worker thread (BENCH_SECONDS, default 10 s per row):
 * the earlier fetch() loop ran on the thread that also serves the local database server, so
 * on a busy machine its figures were partly the client's own limit. Every row counts any
 * non-2xx answer, error or timeout.
 *
 * The customer's page (GET /c/:slug) also gets its HTML size and its time to first byte, from
 * one client at a time, so queueing behind other clients does not count as waiting for the page.
 */
import autocannon from "autocannon";
import { gzipSync } from "node:zlib";
import { createSql } from "../../src/db/client";
import { MACHINE_PG_URL, startLocalDbServer } from "../local-db";
import { generateDemoBookChunks } from "../demo/generate";
import { loadBook } from "../demo/load";
import { freePort, startWranglerDev } from "../wrangler-dev";
import { percentile, type LoadResult } from "./load";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ADMIN_KEY = "bench-admin-key";

const FLOOR_STATIC = "floor: static JSON route";
const FLOOR_SELECT = "floor: one select 1 through the driver";
const PAGE = "GET /c/:slug (customer page)";

interface PageFigures {
  ttfbP50: number;
  ttfbP90: number;
  /** Median over the demo customers' pages, as served and gzipped (what the edge would send). */
  htmlBytes: number;
  gzipBytes: number;
}

interface Row {
  name: string;
  mode: string;
  result: LoadResult;
  page?: PageFigures;
}

const PAGE_SAMPLES = Number(process.env.BENCH_PAGE_SAMPLES ?? 60);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Sequential GETs of the pages: time to the response headers, and the size of each body. */
async function measurePages(base: string, paths: string[]): Promise<PageFigures> {
  const ttfb: number[] = [];
  const bytes = new Map<string, [number, number]>();
  for (let i = 0; i < Math.max(PAGE_SAMPLES, paths.length); i++) {
    const path = paths[i % paths.length]!;
    const t0 = performance.now();
    const res = await fetch(base + path);
    ttfb.push(performance.now() - t0);
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
    bytes.set(path, [body.length, gzipSync(body).length]);
  }
  ttfb.sort((a, b) => a - b);
  const sizes = [...bytes.values()];
  return {
    ttfbP50: percentile(ttfb, 50),
    ttfbP90: percentile(ttfb, 90),
    htmlBytes: median(sizes.map(([raw]) => raw)),
    gzipBytes: median(sizes.map(([, gz]) => gz)),
  };
}

/** A port nobody listens on now: several people may benchmark on one machine. */

/** `CONCURRENCY` connections for `SECONDS`, each cycling through `paths`. */
async function measure(base: string, paths: string[]): Promise<LoadResult> {
  const r = await autocannon({
    url: base,
    connections: CONCURRENCY,
    duration: SECONDS,
    // Off the main thread, which also runs the local database server the Worker queries.
    workers: 1,
    requests: paths.map((path) => ({ method: "GET" as const, path })),
  });
  return {
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    wrong: r.non2xx,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
  };
}

export async function runHttpBenchmark(): Promise<Row[]> {
  const server = await startLocalDbServer({ port: 0, pgUrl: MACHINE_PG_URL });
  const suffix = `bench${Date.now().toString(36)}`;
  const targetUrl = server.connectionString(`investments_${suffix}`);
  const sourceUrl = server.connectionString(`backoffice_${suffix}`);
  const rows: Row[] = [];
  try {
    await loadBook(createSql(sourceUrl), generateDemoBookChunks({ customers: 20 }));
    const target = createSql(targetUrl);
    const vars = { DATABASE_URL: targetUrl, SOURCE_DATABASE_URL: sourceUrl, ADMIN_API_KEY: ADMIN_KEY };

    for (const [mode, ttl] of [
      ["miss", "0"],
      ["hit", "60"],
    ] as const) {
      const worker = await startWranglerDev({ port: await freePort(), vars: { ...vars, CACHE_TTL_SECONDS: ttl }, quiet: true });
      try {
        if (mode === "miss") {
          const sync = await fetch(`${worker.url}/api/sync`, { method: "POST", headers: { "X-Admin-Key": ADMIN_KEY } });
          if (!sync.ok) throw new Error(`sync failed: HTTP ${sync.status} ${await sync.text()}`);
        }
        // The floors are measured on each Worker, right before its endpoints.
        rows.push({ name: FLOOR_STATIC, mode, result: await measure(worker.url, ["/api/health/live"]) });
        rows.push({ name: FLOOR_SELECT, mode, result: await measure(worker.url, ["/api/health/db"]) });
        const customers =
          (await target`select c.slug, a.id as account_id from customers c join accounts a on a.customer_id = c.id order by c.slug`) as Array<{
            slug: string;
            account_id: string;
          }>;
        const slugs = [...new Set(customers.map((c) => c.slug))];
        const endpoints: Array<[string, string[]]> = [
          ["GET /api/customers/:slug", slugs.map((s) => `/api/customers/${s}`)],
          ["GET /api/portfolio/:slug", slugs.map((s) => `/api/portfolio/${s}`)],
          ["GET /api/transactions/:slug", slugs.map((s) => `/api/transactions/${s}?page=2&per_page=20`)],
          ["GET /api/transactions/:slug/:accountId", customers.map((c) => `/api/transactions/${c.slug}/${c.account_id}`)],
          ["GET /api/stats/:slug", slugs.map((s) => `/api/stats/${s}`)],
          ["GET /api/analytics/:slug", slugs.map((s) => `/api/analytics/${s}`)],
          ["GET /api/aggregate/:slug", slugs.map((s) => `/api/aggregate/${s}`)],
          ["GET /api/brokers", ["/api/brokers"]],
          [PAGE, slugs.map((s) => `/c/${s}`)],
        ];
        for (const [name, paths] of endpoints) {
          if (mode === "hit") await Promise.all(paths.map((p) => fetch(worker.url + p).then((r) => r.arrayBuffer())));
          const result = await measure(worker.url, paths);
          rows.push({ name, mode, result, page: name === PAGE ? await measurePages(worker.url, paths) : undefined });
        }
      } finally {
        await worker.stop();
      }
    }
  } finally {
    for (const db of [`investments_${suffix}`, `backoffice_${suffix}`]) {
      await fetch(`${server.url}/__drop?database=${db}`, { method: "POST" }).catch(() => undefined);
    }
    await server.close();
  }
  return rows;
}

export function printHttpTable(rows: Row[]): string {
  const floor = (name: string, mode: string) => rows.find((r) => r.name === name && r.mode === mode)!.result;
  const lines = [
    `HTTP, wrangler dev + local database server on PostgreSQL, autocannon (own thread), ${CONCURRENCY} connections, ${SECONDS} s per row; req/s is autocannon's mean of its per-second samples`,
    "| endpoint | cache | req/s | p50 ms | p99 ms | req/s ÷ static floor | req/s ÷ select-1 floor | errors |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
  ];
  for (const { name, mode, result: r } of rows) {
    const staticFloor = floor(FLOOR_STATIC, mode);
    const selectFloor = floor(FLOOR_SELECT, mode);
    lines.push(
      `| ${name} | ${mode} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.rps / staticFloor.rps).toFixed(2)} | ${(r.rps / selectFloor.rps).toFixed(2)} | ${r.errors + r.wrong} |`,
    );
  }
  const pages = rows.filter((r) => r.page);
  if (pages.length) {
    lines.push(
      "",
      "Customer page, one client at a time",
      "| cache | TTFB p50 ms | TTFB p90 ms | HTML bytes (median) | gzipped |",
      "|---|---:|---:|---:|---:|",
    );
    for (const { mode, page } of pages) {
      lines.push(
        `| ${mode} | ${page!.ttfbP50.toFixed(1)} | ${page!.ttfbP90.toFixed(1)} | ${page!.htmlBytes} | ${page!.gzipBytes} |`,
      );
    }
  }
  return lines.join("\n");
}
