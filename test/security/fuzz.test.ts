/**
 * Fuzz (issue 7, item 4): thousands of generated requests, from a fixed seed, against the Worker
 * with its production configuration (edge cache and 404 limiter on): random paths under /api, the
 * customer's page and outside, every method, query strings with long, unicode, percent-encoded
 * (valid and not), SQL and JSON values, huge per_page, repeated parameters, odd headers and bodies.
 *
 * Every answer must be one of these, exactly:
 * - a preflight (any OPTIONS): 204, no body;
 * - 405 with an Allow header that does not list the method asked;
 * - HEAD: the GET's status, no body;
 * - 304, no body, only to a GET that sent If-None-Match;
 * - the reference page: HTML, 200, only for GET /api/docs;
 * - the customer's page: an HTML document for GET /c/:slug, 200, 400, 404 or 429;
 * - the OpenAPI document: JSON without `success`, 200, only for GET /api/openapi.json;
 * - everything else JSON with a boolean `success`, true exactly when the status is 200.
 * None is a 5xx; the target's data is unchanged (checksum of every table) and the source was
 * never asked anything (no request gets through POST /api/sync without the key).
 *
 * /api/health is left out of the generated paths on purpose: it pings the source by design, and
 * the source's request count is what proves the sync stayed shut.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { newSlug } from "../../src/domain/slug";
import { Book, writeTarget } from "../support/book";
import { freshDatabases, type TestDatabases } from "../support/databases";
import { BY_SLUG, ENDPOINTS, routeWords } from "../support/endpoints";
import { Client, type Reply } from "../support/worker";

const SEED = 0x5ec_2026;
const REQUESTS = 3_000;
const CONCURRENCY = 24;

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
class Rng {
  constructor(private state: number) {}
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

const SQL = [
  "'; drop table customers; --",
  "' or 1=1 --",
  "' or '1'='1",
  "1; select pg_sleep(10)",
  '" or ""="',
  "1' union select id, slug, name from customers --",
  "%' --",
  "$1",
  "\\x27",
  "1)) or ((1=1",
];
const JSON_BITS = ['{"$gt":""}', "[]", "{}", "null", '{"page":1}', '{"__proto__":{"admin":true}}', '"', "[1,2", '{"a":', "true"];
const UNICODE = ["đồng", "Nguyễn", "😀🔑", "\u202egnp.exe", "ｓｌｕｇ", "\u0000", "\uFEFF", "İı", "\u0301", "中文", "𝕊"];
const NUMBERS = [
  "-1",
  "0",
  "1",
  "1e309",
  "99999999999999999999",
  "NaN",
  "Infinity",
  "0x10",
  "1.5",
  " 1",
  "+1",
  "010",
  "1000000",
  "100",
  "101",
  "-0",
];
/**
 * Year 0000 (no such year in PostgreSQL's `date`: once a 500) and years below 100 (where
 * `Date.UTC` reads 19xx) beside the range's edges and the usual malformed ones.
 */
const DATES = [
  "2024-02-30",
  "2024-13-01",
  "0000-00-00",
  "0000-01-01",
  "0000-02-29",
  "0000-12-31",
  "0001-01-01",
  "0004-02-29",
  "0029-02-29",
  "0099-12-31",
  "0100-02-29",
  "9999-12-31",
  "10000-01-01",
  "2024-01-01T00:00:00Z",
  "2024-1-1",
  "2024-02-29",
  "yesterday",
];
/** Already-encoded fragments, put in the URL as they are: valid and invalid escapes. */
const RAW_ESCAPES = ["%E0%A4%A", "%", "%%", "%ZZ", "%00", "%2F", "%2e%2e", "%C0%AF", "%FF", "%E2%80%AE", "%u0041", "%25"];
const VALID = new Map([
  ["type", ["buy", "sell", "BUY", "hold"]],
  ["stock_code", ["FPT", "fpt", "HPG", "TOOLONGCODE1"]],
  ["broker", ["SSI", "ssi", "vnd", "s-s-i"]],
  ["mode", ["delta", "full", "FULL"]],
]);
const PARAMS = [
  "page",
  "per_page",
  "type",
  "stock_code",
  "broker",
  "start_date",
  "end_date",
  "mode",
  "slug",
  "junk",
  "",
  "page[]",
  "__proto__",
  "constructor",
  "per_page ",
];
const SLUG_WORDS = routeWords(BY_SLUG);
// Not health: see above.
const ROUTE_WORDS = routeWords(ENDPOINTS.filter((e) => !e.path.startsWith("/api/health")));
const OUTSIDE = [
  "/",
  "/favicon.ico",
  "/.env",
  "/wp-admin/",
  "/api",
  "/api/",
  "/API/BROKERS",
  "//api//brokers",
  "/api/customers",
  "/api/transactions/a/b/c",
  "/robots.txt",
  "/api/docs/",
  "/api/openapi.json/x",
  "/cdn-cgi/trace",
  "/..%2f..%2fetc/passwd",
  "/api/%2e%2e/sync",
];
const METHODS = [
  "GET",
  "GET",
  "GET",
  "GET",
  "GET",
  "HEAD",
  "OPTIONS",
  "POST",
  "POST",
  "PUT",
  "DELETE",
  "PATCH",
  "PROPFIND",
  "purge",
] as const;

interface World {
  slugs: string[];
  accountIds: string[];
}

/** A value meant to be hostile somewhere: a parameter, a path segment, a header. */
function junk(rng: Rng): string {
  switch (rng.int(9)) {
    case 0:
      return rng.pick(SQL);
    case 1:
      return rng.pick(JSON_BITS);
    case 2:
      return rng.pick(UNICODE);
    case 3:
      return rng.pick(NUMBERS);
    case 4:
      return rng.pick(DATES);
    case 5:
      return rng.chance(0.5) ? "a".repeat(10_240) : "é".repeat(rng.int(4_000) + 1);
    case 6:
      return Array.from({ length: rng.int(40) + 1 }, () => String.fromCharCode(32 + rng.int(95))).join("");
    case 7:
      return rng.pick(SQL) + rng.pick(UNICODE);
    default:
      return "";
  }
}

/** Puts a value into a URL: properly encoded, raw (the URL parser makes what it can of it), or with a broken escape. */
function inUrl(rng: Rng, value: string): string {
  const r = rng.int(10);
  if (r < 5) return encodeURIComponent(value);
  if (r < 7) return value.replace(/[#?/]/g, "");
  if (r < 9) return encodeURIComponent(value) + rng.pick(RAW_ESCAPES);
  return rng.pick(RAW_ESCAPES);
}

function slugFor(rng: Rng, world: World): string {
  switch (rng.int(6)) {
    case 0:
    case 1:
      return rng.pick(world.slugs);
    case 2:
      return newSlug();
    case 3:
      return rng.pick(world.slugs).toUpperCase();
    case 4:
      return rng.pick(world.slugs) + inUrl(rng, junk(rng));
    default:
      return inUrl(rng, junk(rng));
  }
}

function accountFor(rng: Rng, world: World): string {
  switch (rng.int(4)) {
    case 0:
      return rng.pick(world.accountIds);
    case 1:
      return crypto.randomUUID();
    case 2:
      return rng
        .pick(world.accountIds)
        .toUpperCase()
        .replace(/-/g, rng.chance(0.5) ? "" : "-");
    default:
      return inUrl(rng, junk(rng));
  }
}

/** A route word, sometimes with one letter percent-encoded (which must route the same). */
function routeWord(rng: Rng, words = ROUTE_WORDS): string {
  const word = rng.pick(words);
  if (!rng.chance(0.15)) return word;
  const i = rng.int(word.length);
  return `${word.slice(0, i)}%${word.charCodeAt(i).toString(16)}${word.slice(i + 1)}`;
}

function pathFor(rng: Rng, world: World): string {
  const r = rng.int(22);
  if (r >= 20) return rng.pick(["/api/sync", "/api/sync", "/api/sync/", "/api/%73ync", "/api/sync/x", "/api//sync"]);
  if (r < 9) return `/api/${routeWord(rng, rng.chance(0.85) ? SLUG_WORDS : ROUTE_WORDS)}/${slugFor(rng, world)}`;
  if (r < 12) return `/api/transactions/${slugFor(rng, world)}/${accountFor(rng, world)}`;
  if (r < 14) return `/api/${routeWord(rng)}`;
  if (r < 16) return rng.pick(OUTSIDE);
  if (r < 18) return `/c/${slugFor(rng, world)}`;
  const segments = Array.from({ length: rng.int(4) + 1 }, () => (rng.chance(0.3) ? routeWord(rng) : inUrl(rng, junk(rng))));
  return `${rng.chance(0.7) ? "/api/" : "/"}${segments.join("/")}`;
}

function queryFor(rng: Rng): string {
  if (rng.chance(0.35)) return "";
  const parts: string[] = [];
  for (let n = rng.int(6) + 1; n > 0; n--) {
    const name = rng.pick(PARAMS);
    const known = VALID.get(name);
    let value: string;
    if (name === "per_page" && rng.chance(0.4)) value = rng.pick(["1000000", "101", "100", "99999999999999999999", "-5", "1e3"]);
    else if (known && rng.chance(0.5)) value = rng.pick(known);
    else if ((name === "start_date" || name === "end_date") && rng.chance(0.5)) value = rng.pick(DATES);
    else value = junk(rng);
    const pair = `${inUrl(rng, name)}=${inUrl(rng, value)}`;
    parts.push(pair);
    if (rng.chance(0.2)) for (let k = rng.int(5) + 1; k > 0; k--) parts.push(`${name}=${inUrl(rng, rng.pick(NUMBERS))}`); // repeated
    if (rng.chance(0.05)) parts.push(rng.pick(["", "=", "&", "==", "a", "=x"]));
  }
  return `?${parts.join("&")}`;
}

const ASCII_JUNK = () => Array.from({ length: 64 }, (_, i) => String.fromCharCode(33 + ((i * 37) % 94))).join("");

/** Never the key itself: header values lose surrounding whitespace, so " key " would be the key. */
function nearMisses(key: string): string[] {
  return [
    `${key}x`,
    key.slice(0, -1),
    key.toUpperCase(),
    `Bearer ${key}`,
    `${key},${key}`,
    `"${key}"`,
    key.split("").reverse().join(""),
  ];
}

function headersFor(rng: Rng, ip: string, key: string): Record<string, string> {
  const headers: Record<string, string> = { "CF-Connecting-IP": ip };
  const ascii = (s: string) => s.replace(/[^\x20-\x7e]/g, "?"); // fetch refuses control characters in headers
  if (rng.chance(0.3))
    headers["X-Admin-Key"] = ascii(rng.pick([junk(rng), rng.pick(nearMisses(key)), "", ASCII_JUNK(), "x".repeat(8_192)]));
  if (rng.chance(0.2))
    headers["Content-Type"] = rng.pick([
      "application/json",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json; charset=utf-16",
      ";;;",
    ]);
  if (rng.chance(0.15)) headers["If-None-Match"] = rng.pick(["*", '"abc"', 'W/"x"', ascii(junk(rng)), '"", *']);
  if (rng.chance(0.15)) headers["X-Request-Id"] = ascii(rng.pick([junk(rng), "abcdefgh-1234", "x".repeat(500), "../../etc"]));
  if (rng.chance(0.15)) headers.Origin = rng.pick(["https://app.example", "null", "https://evil.example", ascii(junk(rng))]);
  if (rng.chance(0.1)) headers.Accept = rng.pick(["text/html", "*/*", "application/xml", ascii(junk(rng))]);
  if (rng.chance(0.1)) headers["X-Forwarded-For"] = ascii(junk(rng));
  if (rng.chance(0.05)) headers.Range = "bytes=0-10";
  if (rng.chance(0.05)) headers.Cookie = ascii(junk(rng));
  if (rng.chance(0.05)) headers["Access-Control-Request-Method"] = rng.pick(["GET", "DELETE", "FOO"]);
  return headers;
}

function bodyFor(rng: Rng, method: string): string | undefined {
  if (method === "GET" || method === "HEAD" || rng.chance(0.4)) return undefined;
  return rng.pick([rng.pick(JSON_BITS), rng.pick(SQL), "x".repeat(10_240), '{"mode":"full"}', junk(rng)]);
}

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The path the router sees: percent-decoded where the escapes are valid. */
function routedPath(url: string): string {
  const { pathname } = new URL(url);
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
}

const SCANNER_IP = "2001:db8:f022::5ca0";
const ALLOWED_STATUSES = new Set([200, 204, 304, 400, 401, 404, 405, 429]);
/** The customer's page, which answers a person in HTML: the page, a wrong filter, 404 and 429. */
const CUSTOMER_PAGE = /^\/c\/[^/]+$/;
const PAGE_STATUSES = new Set([200, 400, 404, 429]);

/** What is wrong with this answer to this request, if anything. */
function problem(sent: Sent, reply: Reply): string | undefined {
  const type = reply.headers.get("Content-Type") ?? "";
  const path = routedPath(sent.url);
  if (!ALLOWED_STATUSES.has(reply.status)) return `status ${reply.status}`;
  if (sent.method === "OPTIONS") return reply.status === 204 && reply.text === "" ? undefined : "OPTIONS is not a 204 preflight";
  if (reply.status === 204) return "204 to something other than OPTIONS";
  if (reply.status === 405) {
    const allow = reply.headers.get("Allow") ?? "";
    if (!/^[A-Z]+(, [A-Z]+)*$/.test(allow) || allow.split(", ").includes(sent.method)) return `405 with Allow "${allow}"`;
  }
  if (sent.method === "HEAD") return reply.text === "" ? undefined : "HEAD with a body";
  if (reply.status === 304) {
    return sent.method === "GET" && sent.headers["If-None-Match"] !== undefined && reply.text === ""
      ? undefined
      : "unexpected 304";
  }
  if (type.startsWith("text/html")) {
    if (sent.method === "GET" && path === "/api/docs" && reply.status === 200) return undefined;
    if (sent.method === "GET" && CUSTOMER_PAGE.test(path) && PAGE_STATUSES.has(reply.status)) {
      return /^<!doctype html><html lang="(vi|en)">/.test(reply.text) ? undefined : "a page that is not a document";
    }
    return `HTML for ${path}`;
  }
  if (!type.startsWith("application/json")) return `content type "${type}"`;
  if (reply.body === undefined) return "body is not JSON";
  if (path === "/api/openapi.json" && sent.method === "GET" && reply.status === 200) {
    return typeof reply.body.openapi === "string" ? undefined : "OpenAPI document without `openapi`";
  }
  if (typeof reply.body.success !== "boolean") return "no boolean `success`";
  if (reply.body.success !== (reply.status === 200)) return `success: ${reply.body.success} with status ${reply.status}`;
  if (!reply.body.success && typeof reply.body.error !== "string") return "error envelope without `error`";
  if (reply.body.data?.run_id !== undefined) return "a sync ran";
  return undefined;
}

/** A digest of every row of every table in the target. */
async function checksum(dbs: TestDatabases): Promise<Record<string, string>> {
  const tables = (await dbs.target`
    select table_name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`) as Array<{ table_name: string }>;
  expect(tables.length).toBeGreaterThanOrEqual(6);
  const parts = tables.map(
    ({ table_name }) =>
      `select '${table_name}' as name, count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${table_name}" t`,
  );
  const rows = (await dbs.target.query(parts.join(" union all "))) as Array<{ name: string; n: number; digest: string }>;
  return Object.fromEntries(rows.map((r) => [r.name, `${r.n}:${r.digest}`]));
}

describe("fuzz", () => {
  let dbs: TestDatabases;
  let world: World;

  beforeAll(async () => {
    // Production configuration (cache and 404 limiter on), with a database deadline long enough
    // for 24 requests at a time on one shared machine: a 503 here would be the machine's, not
    // an answer to the request (test/security/outage.test.ts covers the deadline).
    dbs = await freshDatabases({ DATABASE_TIMEOUT_MS: "60000" });
    const book = new Book();
    const brokers = [book.broker({ code: "SSI" }), book.broker({ code: "VND", name: "VNDIRECT" })];
    const staff = book.staffMember();
    for (let c = 0; c < 4; c++) {
      const customer = book.customer({ staff_id: staff.id });
      for (const broker of brokers) {
        const account = book.account({ customer_id: customer.id, broker_id: broker.id, account_no: `00${c}${broker.code}` });
        book.holding({ account_id: account.id, stock_code: "HPG", isin_code: "VN000000HPG4" });
        book.trade({ account_id: account.id, trade_date: "2024-01-05", type: "buy", quantity: 100, price: "25000" });
        book.trade({ account_id: account.id, trade_date: "2024-02-05", type: "sell", quantity: 50, price: "26000" });
      }
    }
    await writeTarget(dbs.target, book);
    world = { slugs: book.customers.map((c) => c.slug), accountIds: book.accounts.map((a) => a.id) };
  });

  it(`answers ${REQUESTS} generated requests with well-formed, non-5xx responses and changes nothing`, {
    timeout: 120_000,
  }, async () => {
    const rng = new Rng(SEED);
    const client = new Client(dbs.env);
    const key = dbs.env.ADMIN_API_KEY!;
    expect(key.length).toBeGreaterThan(4);
    const before = await checksum(dbs);
    const sourceBefore = await dbs.sourceRequests();

    // Most requests come from addresses of their own; a sixth from one scanner, which the 404
    // limiter soon answers with 429 on every slug and account lookup. The scanner goes first, as
    // a burst: the limiter counts per minute, and the whole run can take longer than that; and
    // one address, so its lookups' 404s are well over the limit (30) whatever the mix. Its burst
    // may still straddle the limiter's minute, which splits the count in two: with a tenth (~50
    // lookups, 20 answered 429) a split left 3 once; a sixth gives ~100 (69 answered 429), so
    // even split in two more than 10 are answered 429.
    const generated = Array.from({ length: REQUESTS }, (_, i) => {
      const path = pathFor(rng, world);
      const method = path.includes("sync") && rng.chance(0.7) ? "POST" : rng.pick(METHODS);
      const scanner = rng.chance(1 / 6);
      const ip = scanner ? SCANNER_IP : `2001:db8:f022:1::${i.toString(16)}`;
      const url = `${client.origin}${path}${queryFor(rng)}`;
      return { scanner, sent: { method, url, headers: headersFor(rng, ip, key), body: bodyFor(rng, method) } };
    });
    const requests: Sent[] = [...generated.filter((g) => g.scanner), ...generated.filter((g) => !g.scanner)].map((g) => g.sent);

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const kinds = new Map<string, number>();
    let unsendable = 0;
    for (let i = 0; i < requests.length; i += CONCURRENCY) {
      await Promise.all(
        requests.slice(i, i + CONCURRENCY).map(async (sent) => {
          let request: Request;
          try {
            request = new Request(sent.url, { method: sent.method, headers: sent.headers, body: sent.body });
          } catch {
            unsendable++; // a URL or header the fetch API itself refuses never reaches a Worker
            return;
          }
          let reply: Reply;
          try {
            reply = await client.sendAsIs(request);
          } catch (err) {
            failures.push(`${sent.method} ${sent.url.slice(0, 200)}: threw ${String(err)}`);
            return;
          }
          statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
          const type = reply.headers.get("Content-Type")?.split(";")[0] ?? "none";
          const kind = sent.method === "HEAD" || sent.method === "OPTIONS" ? sent.method : reply.status === 304 ? "304" : type;
          kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
          const wrong = problem(sent, reply);
          if (wrong) {
            failures.push(
              `${wrong}: ${sent.method} ${sent.url.slice(0, 200)} ${JSON.stringify(sent.headers).slice(0, 200)} -> ${reply.status} ${reply.text.slice(0, 200)}`,
            );
          }
        }),
      );
    }

    expect(failures.slice(0, 20)).toEqual([]);
    expect(unsendable).toBeLessThan(REQUESTS * 0.01);
    // The mix reached every kind of answer, so the checks above were not vacuous.
    console.info(
      `fuzz: ${REQUESTS} requests (${unsendable} refused by fetch itself), statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}, kinds ${JSON.stringify(Object.fromEntries(kinds))}`,
    );
    for (const status of [200, 204, 400, 401, 404, 405, 429])
      expect(statuses.get(status) ?? 0, `status ${status}`).toBeGreaterThan(10);
    for (const kind of ["HEAD", "OPTIONS", "text/html"]) expect(kinds.get(kind) ?? 0, kind).toBeGreaterThan(0);

    expect(await checksum(dbs)).toEqual(before);
    expect(await dbs.sourceRequests()).toBe(sourceBefore);
  });
});
