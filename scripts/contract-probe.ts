/**
 * `npm run probe -- <base URL> <slug>`: drives every operation of the OpenAPI document, through `base`,
 * into each status it can reach from outside (200, 304, 400, 401, 404, 405, 409, 429, and with
 * the local database server's fault injection 502 and 503), and prints the requests per
 * operation and status. Put a validating proxy in front of `npm start` and point this at it
 * (docs/testing.md, "The contract against a validating proxy"): every response it sees is one
 * the document must describe.
 *
 * Run against `npm start` only: it trips the lookup and admin-key brakes of the address it
 * comes from, and injects outages into the local databases (always switched off again).
 */
import { parseEnv } from "node:util";
import { readFileSync } from "node:fs";

const base = (process.argv[2] ?? "http://127.0.0.1:4010").replace(/\/$/, "");
const dbServer = process.env.LOCAL_DB_URL ?? `http://127.0.0.1:${process.env.LOCAL_DB_PORT ?? 4444}`;
const vars = parseEnv(readFileSync(new URL("../.dev.vars", import.meta.url), "utf8")) as Record<string, string>;
const adminKey = vars.ADMIN_API_KEY ?? "";
const databaseOf = (url: string | undefined, fallback: string) => (url ? new URL(url).pathname.slice(1) : fallback);
const target = databaseOf(vars.DATABASE_URL, "investments");
const source = databaseOf(vars.SOURCE_DATABASE_URL, "backoffice");

type Doc = { paths: Record<string, Record<string, { operationId: string; parameters?: { name: string; in: string }[] }>> };
const tally = new Map<string, Map<number, number>>();

async function send(operation: string, path: string, init: RequestInit = {}, expected?: number): Promise<Response> {
  const res = await fetch(`${base}${path}`, { redirect: "manual", ...init });
  await res.arrayBuffer();
  const counts = tally.get(operation) ?? new Map<number, number>();
  counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
  tally.set(operation, counts);
  if (expected !== undefined && res.status !== expected) {
    console.warn(`${operation}: ${init.method ?? "GET"} ${path} answered ${res.status}, expected ${expected}`);
  }
  return res;
}

async function fault(database: string, mode: "error500" | "off") {
  const res = await fetch(`${dbServer}/__fault?database=${database}&mode=${mode}`, { method: "POST" });
  if (!res.ok) throw new Error(`fault ${mode} on ${database}: HTTP ${res.status}`);
}

const admin = { "X-Admin-Key": adminKey };

async function main() {
  const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as Doc;
  const brokers = (await (await fetch(`${base}/api/brokers`)).json()) as { data: { code: string }[] };
  const slug = process.argv[3];
  if (!slug) throw new Error("usage: npm run probe -- <base URL> <a customer's slug, as npm start prints them>");
  const profile = (await (await fetch(`${base}/api/customers/${slug}`)).json()) as { data: { accounts: { id: string }[] } };
  const accountId = profile.data.accounts[0]!.id;
  const fill = (path: string) => path.replace("{slug}", slug).replace("{accountId}", accountId);
  const unknown = (path: string) =>
    path.replace("{slug}", "nobody-here-at-all").replace("{accountId}", "00000000-0000-4000-8000-000000000000");
  console.log(`probing ${base} with customer ${slug}, account ${accountId}, ${brokers.data.length} brokers`);

  // The document's paths are the full ones (`/api/...`).
  const operations = Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      template,
      method: method.toUpperCase(),
      op,
      headers: template.startsWith("/api/sync") ? admin : {},
    })),
  );
  for (const { template, method, op, headers } of operations) {
    const path = fill(template);
    const ok = await send(op.operationId, path, { method, headers });
    const etag = ok.headers.get("ETag");
    if (etag) await send(op.operationId, path, { method, headers: { ...headers, "If-None-Match": etag } }, 304);
    const query = (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
    for (const name of query) await send(op.operationId, `${path}?${name}=${badValue(name)}`, { method, headers }, 400);
    if (template.includes("{")) await send(op.operationId, unknown(template), { method, headers }, 404);
    if (headers === admin) await send(op.operationId, path, { method }, 401);
    await send(op.operationId, path, { method: method === "GET" ? "DELETE" : "PUT", headers }, 405);
  }

  // 409: a second sync while the first runs.
  const first = send("runSync", "/api/sync?mode=full", { method: "POST", headers: admin });
  await new Promise((r) => setTimeout(r, 300));
  await send("runSync", "/api/sync", { method: "POST", headers: admin }, 409);
  await first;

  // 502: the back office down; 503: the serving database down, for an answer not cached.
  await fault(source, "error500");
  try {
    await send("runSync", "/api/sync", { method: "POST", headers: admin }, 502);
    await send("getSyncStatus", "/api/sync/status", { headers: admin }, 200);
  } finally {
    await fault(source, "off");
  }
  await fault(target, "error500");
  try {
    for (const { template, method, op, headers } of operations) {
      if (method !== "GET" || ["/api/openapi.json", "/api/docs", "/api/health/live"].includes(template)) continue;
      // An unknown slug: no cached answer can stand in for the database (stale-if-error).
      await send(op.operationId, unknown(template), { headers });
    }
  } finally {
    await fault(target, "off");
  }

  // 429: unknown slugs until the lookup brake holds, then wrong admin keys until that one does.
  for (let i = 0; i < 40; i++) await send("getCustomer", `/api/customers/nobody-${i}`);
  await send("getPortfolio", `/api/portfolio/${slug}`, {}, 429);
  for (let i = 0; i < 40; i++) await send("getSyncStatus", "/api/sync/status", { headers: { "X-Admin-Key": `wrong-${i}` } });

  const statuses = [...new Set([...tally.values()].flatMap((m) => [...m.keys()]))].sort((a, b) => a - b);
  console.log(["operation", ...statuses].join("\t"));
  for (const [operation, counts] of [...tally].sort()) {
    console.log([operation, ...statuses.map((s) => counts.get(s) ?? 0)].join("\t"));
  }
  const total = (s: number) => [...tally.values()].reduce((n, m) => n + (m.get(s) ?? 0), 0);
  console.log(["all", ...statuses.map(total)].join("\t"));
}

/** A value each query parameter refuses (src/schemas/queries.ts). */
function badValue(name: string): string {
  if (name === "page") return "99999999999999999999";
  if (name.endsWith("_date") || name === "from" || name === "to") return "2024-02-30";
  // Malformed, not merely unknown: an unknown broker or stock code is a filter that matches nothing.
  return "n%21";
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
