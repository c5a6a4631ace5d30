/**
 * `npm run load`: 50 concurrent clients for 30 seconds against `wrangler dev` with the local
 * database server on PostgreSQL, mixing every public endpoint across the demo customers, while
 * a sync that changes data runs midway. It fails (exit 1) on any transport error, any non-200,
 * or any body that is not the requested customer's (a wrong `success`, slug or account).
 *
 * LOAD_CLIENTS, LOAD_SECONDS and LOCAL_PG_URL override the defaults.
 */
import { createSql } from "../src/db/client";
import { MACHINE_PG_URL, startLocalDbServer } from "./local-db";
import { generateDemoBookChunks } from "./demo/generate";
import { loadBook } from "./demo/load";
import { startWranglerDev } from "./wrangler-dev";
import { runLoad } from "./bench/load";

const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 50);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 30);
const ADMIN_KEY = "load-admin-key";

interface Customer {
  slug: string;
  accounts: Set<string>;
}

/** True when a 200 body belongs to the customer asked for. */
function bodyIsTheirs(path: string, customer: Customer, body: string): boolean {
  const json = JSON.parse(body) as { success?: boolean; data?: any };
  if (json.success !== true || json.data === undefined) return false;
  const d = json.data;
  if (path.startsWith("/api/customers/")) return d.slug === customer.slug;
  if (path.startsWith("/api/aggregate/")) return d.customer?.slug === customer.slug && Array.isArray(d.portfolio);
  if (path.startsWith("/api/portfolio/") || path.startsWith("/api/transactions/")) {
    return Array.isArray(d) && d.every((row: { account?: { id?: string } }) => customer.accounts.has(row.account?.id ?? ""));
  }
  if (path.startsWith("/api/stats/")) return typeof d.transaction_count === "number";
  if (path.startsWith("/api/analytics/")) return typeof d.summary?.total_deals === "number";
  return true;
}

async function main() {
  const server = await startLocalDbServer({ port: 0, pgUrl: MACHINE_PG_URL });
  const suffix = `load${Date.now().toString(36)}`;
  const targetUrl = server.connectionString(`investments_${suffix}`);
  const sourceUrl = server.connectionString(`backoffice_${suffix}`);
  const source = createSql(sourceUrl);
  const target = createSql(targetUrl);
  let worker: Awaited<ReturnType<typeof startWranglerDev>> | undefined;
  try {
    await loadBook(source, generateDemoBookChunks({ customers: 20 }));
    worker = await startWranglerDev({
      port: Number(process.env.PORT ?? 8795),
      vars: { DATABASE_URL: targetUrl, SOURCE_DATABASE_URL: sourceUrl, ADMIN_API_KEY: ADMIN_KEY },
      quiet: true,
    });
    const base = worker.url;
    const sync = () => fetch(`${base}/api/sync`, { method: "POST", headers: { "X-Admin-Key": ADMIN_KEY } });
    const first = await sync();
    if (!first.ok) throw new Error(`initial sync failed: HTTP ${first.status}`);

    const rows =
      (await target`select c.slug, a.id as account_id from customers c join accounts a on a.customer_id = c.id`) as Array<{
        slug: string;
        account_id: string;
      }>;
    const customers = new Map<string, Customer>();
    for (const r of rows) {
      const c = customers.get(r.slug) ?? { slug: r.slug, accounts: new Set<string>() };
      c.accounts.add(r.account_id);
      customers.set(r.slug, c);
    }
    const list = [...customers.values()];
    const pathsFor = (c: Customer) => [
      `/api/customers/${c.slug}`,
      `/api/portfolio/${c.slug}`,
      `/api/transactions/${c.slug}`,
      `/api/transactions/${c.slug}?page=2&per_page=25&type=sell`,
      `/api/transactions/${c.slug}/${[...c.accounts][0]}`,
      `/api/stats/${c.slug}`,
      `/api/analytics/${c.slug}`,
      `/api/aggregate/${c.slug}`,
      `/api/brokers`,
    ];

    // Midway: change 1% of the trades in the source and sync while the clients keep reading.
    const midway = (async () => {
      await new Promise((r) => setTimeout(r, (SECONDS * 1000) / 2));
      await source`update transactions set fee = fee + 1, updated_at = now() where random() < 0.01`;
      const res = await sync();
      return `midway sync: HTTP ${res.status} ${await res.text()}`;
    })();

    console.log(`load: ${CLIENTS} clients for ${SECONDS}s over ${list.length} customers on ${base}`);
    const result = await runLoad({
      concurrency: CLIENTS,
      durationMs: SECONDS * 1000,
      next: (i) => {
        const customer = list[i % list.length]!;
        const paths = pathsFor(customer);
        const path = paths[Math.floor(i / list.length) % paths.length]!;
        return { url: base + path, check: (status, body) => status === 200 && bodyIsTheirs(path, customer, body) };
      },
    });
    console.log(await midway);
    console.log(
      `requests ${result.requests}, errors ${result.errors}, wrong ${result.wrong}, ` +
        `${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, max ${result.max.toFixed(1)} ms`,
    );
    if (result.firstFailure) console.log(`first failure: ${result.firstFailure}`);
    process.exitCode = result.errors + result.wrong === 0 ? 0 : 1;
  } finally {
    await worker?.stop();
    for (const db of [`investments_${suffix}`, `backoffice_${suffix}`]) {
      await fetch(`${server.url}/__drop?database=${db}`, { method: "POST" }).catch(() => undefined);
    }
    await server.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
