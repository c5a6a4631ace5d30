/**
 * The admin key (ARCHITECTURE.md "The slug is the capability"; src/auth.ts): anything
 * but the configured key is 401 without reaching a database or throwing, whatever its length or
 * characters; wrong keys are throttled per client (ADMIN_KEY_LIMITER, wrangler.toml: 10 per 60 s);
 * a short configured key is reported as weak (not the shipped local key on a local host); and neither the key nor a database password ever
 * shows up in a log line or a response body, whether the sync fails or succeeds.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../../src/env";
import { Book, writeSource } from "../support/book";
import { adminKeyWeakness, LOCAL_ADMIN_KEY } from "../../src/auth";
import { freshDatabases, type TestDatabases } from "../support/databases";
import { Client, newIp, type Reply } from "../support/worker";
import { clearOfWindowEnd } from "./helpers";

const UNAUTHORIZED = { success: false, error: "Unauthorized", code: "unauthorized" };
/** What every admin answer announces (draft-ietf-httpapi-ratelimit-headers): wrangler.toml's limit and period. */
const POLICY = '"wrong-admin-keys";q=10;w=60';
const TOO_MANY = { success: false, error: "Too Many Requests", code: "rate_limited_admin_key" };
/** The ADMIN_KEY_LIMITER binding's `simple.limit` in wrangler.toml. */
const WRONG_KEYS_PER_MINUTE = 10;

/** A random ASCII key, as `openssl rand -hex 32` would make. */
const randomKey = () => [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");

async function withKey(key: string, overrides: Partial<Env> = {}) {
  const dbs = await freshDatabases({ ADMIN_API_KEY: key, ...overrides });
  const book = new Book();
  book.simpleCustomer();
  await writeSource(dbs.source, book);
  return { dbs, client: new Client(dbs.env) };
}

function postSync(client: Client, key?: string): Promise<Reply> {
  return client.postSync({ key: key ?? null });
}

async function requestsTo(dbs: TestDatabases, action: () => Promise<unknown>) {
  const { source, target } = await dbs.trips(action);
  return { source, target };
}

describe("the admin key", () => {
  it("refuses keys of another length, prefixes, extensions and case changes with 401, touching no database", async () => {
    const key = randomKey();
    const { dbs, client: first } = await withKey(key);
    // Each candidate from an address of its own: this test is about the comparison, not the brake.
    let client = first;
    const wrong = [
      "x",
      key.slice(0, -1),
      key.slice(0, 1),
      key.slice(0, key.length / 2),
      `${key}0`,
      `${key}${key}`,
      key.toUpperCase(),
      key.replace(/.$/, (c) => (c === "0" ? "1" : "0")),
      "k".repeat(10_000),
      `${key}\t`.slice(1),
      "null",
      "undefined",
    ];
    for (const candidate of wrong) {
      client = client.from(newIp());
      const trips = await requestsTo(dbs, async () => {
        const reply = await postSync(client, candidate);
        expect({ status: reply.status, body: reply.body }, candidate.slice(0, 40)).toEqual({ status: 401, body: UNAUTHORIZED });
      });
      expect(trips, candidate.slice(0, 40)).toEqual({ source: 0, target: 0 });
    }
    expect((await postSync(client, key)).status).toBe(200);
  });

  it("refuses unicode keys with 401 without throwing, also when the configured key is unicode", async () => {
    for (const configured of [randomKey(), `clé-🔑-${randomKey()}`]) {
      const { dbs, client: first } = await withKey(configured);
      let client = first;
      const candidates = [
        "ключ",
        `${configured}é`,
        "🔑".repeat(100),
        "\u00ff\u00fe\u0080",
        `\u202e${configured}`,
        configured.replace("🔑", "🔒"),
        configured.normalize("NFD"), // the same text to a reader, other bytes: keys are compared as bytes
      ].filter((candidate) => candidate !== configured);
      for (const candidate of candidates) {
        client = client.from(newIp());
        const trips = await requestsTo(dbs, async () => {
          const reply = await postSync(client, candidate);
          expect({ status: reply.status, body: reply.body }, JSON.stringify(candidate)).toEqual({
            status: 401,
            body: UNAUTHORIZED,
          });
        });
        expect(trips).toEqual({ source: 0, target: 0 });
      }
      expect((await postSync(client, configured)).status).toBe(200);
    }
  });
});

describe("wrong admin keys", () => {
  afterEach(() => vi.restoreAllMocks());

  it("are throttled per client: past the limit its admin calls get 429 with Retry-After, even with the right key", async () => {
    const key = randomKey();
    const { dbs, client } = await withKey(key);
    const warnings: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((line: string) => void warnings.push(line));

    await clearOfWindowEnd();
    for (let i = 0; i < WRONG_KEYS_PER_MINUTE; i++) {
      const reply = await postSync(client, `guess-${i}`);
      expect({ status: reply.status, body: reply.body, policy: reply.headers.get("RateLimit-Policy") }, `guess ${i + 1}`).toEqual(
        {
          status: 401,
          body: UNAUTHORIZED,
          policy: POLICY,
        },
      );
    }
    // Over the limit: refused before any key is compared, so the right key tells the guesser nothing.
    for (const candidate of ["one-more-guess", key, undefined]) {
      const trips = await requestsTo(dbs, async () => {
        const reply = await postSync(client, candidate);
        expect({
          status: reply.status,
          body: reply.body,
          retryAfter: reply.headers.get("Retry-After"),
          policy: reply.headers.get("RateLimit-Policy"),
        }).toEqual({ status: 429, body: TOO_MANY, retryAfter: "60", policy: POLICY });
      });
      expect(trips).toEqual({ source: 0, target: 0 });
    }

    // Only that client, and only its admin calls; the policy is on every admin answer.
    const other = await postSync(client.from(newIp()), key);
    expect({ status: other.status, policy: other.headers.get("RateLimit-Policy") }).toEqual({ status: 200, policy: POLICY });
    expect((await client.get("/api/brokers")).status).toBe(200);

    // One JSON line per refusal, with the client and the reason, never the key or a guess.
    const events = warnings.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.map((e) => `${e.event}:${e.reason ?? ""}`)).toEqual([
      ...new Array(WRONG_KEYS_PER_MINUTE).fill("admin_key_rejected:wrong_key"),
      "admin_key_throttled:wrong_key",
      "admin_key_throttled:",
      "admin_key_throttled:",
    ]);
    for (const event of events) expect(event).toMatchObject({ level: "warn", client: client.ip, request_id: expect.any(String) });
    expect(warnings.join("\n")).not.toContain(key);
    expect(warnings.join("\n")).not.toContain("guess");
  });
});

describe("a weak admin key", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is one shorter than 32 characters", () => {
    expect(adminKeyWeakness({ ADMIN_API_KEY: "x".repeat(31) })).toBe(
      "ADMIN_API_KEY has 31 characters, fewer than 32; make one with: openssl rand -base64 32",
    );
    expect(adminKeyWeakness({ ADMIN_API_KEY: "🔑".repeat(31) })).toMatch(/^ADMIN_API_KEY has 31 characters/);
    expect(adminKeyWeakness({ ADMIN_API_KEY: "x".repeat(32) })).toBeNull();
    expect(adminKeyWeakness({ ADMIN_API_KEY: randomKey() })).toBeNull();
    expect(adminKeyWeakness({ ADMIN_API_KEY: undefined })).toBeNull(); // no key: every admin call is refused anyway
  });

  it("still works, and each use logs one line saying so, without the key", async () => {
    const weak = "short-admin-key";
    const { client } = await withKey(weak);
    const warnings: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((line: string) => void warnings.push(line));
    expect((await postSync(client, weak)).status).toBe(200);
    expect(warnings.map((line) => JSON.parse(line))).toEqual([
      {
        level: "warn",
        request_id: expect.any(String),
        event: "weak_admin_key",
        detail: "ADMIN_API_KEY has 15 characters, fewer than 32; make one with: openssl rand -base64 32",
      },
    ]);
    expect(warnings.join("\n")).not.toContain(weak);
  });

  it("is not reported for the shipped local key on a local host, and is on any other host", async () => {
    expect(LOCAL_ADMIN_KEY).toBe("dev-admin-key"); // .dev.vars.example's, which tooling sends
    const { dbs } = await withKey(LOCAL_ADMIN_KEY);
    const warnings: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((line: string) => void warnings.push(line));
    for (const origin of ["http://127.0.0.1:8787", "http://localhost:8787", "http://[::1]:8787"]) {
      expect((await postSync(new Client(dbs.env, { origin }), LOCAL_ADMIN_KEY)).status, origin).toBe(200);
    }
    expect(warnings).toEqual([]);
    // The sync status, which is asked, still says so.
    const status = await new Client(dbs.env, { origin: "http://127.0.0.1:8787" }).get("/api/sync/status", {
      "X-Admin-Key": LOCAL_ADMIN_KEY,
    });
    expect(status.body.data.admin_key).toEqual({ weak: true, advice: expect.stringContaining("13 characters") });
    // Deployed with the shipped key (here: any host that is not this machine), each use warns.
    for (const origin of ["https://api.example.com", "https://127.0.0.1.example.com"]) {
      expect((await postSync(new Client(dbs.env, { origin }), LOCAL_ADMIN_KEY)).status, origin).toBe(200);
    }
    expect(warnings.map((line) => JSON.parse(line).event)).toEqual(["weak_admin_key", "weak_admin_key"]);
  });

  it("is reported for another weak key on a local host", async () => {
    const { dbs } = await withKey("short-admin-key");
    const warnings: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((line: string) => void warnings.push(line));
    expect((await postSync(new Client(dbs.env, { origin: "http://127.0.0.1:8787" }), "short-admin-key")).status).toBe(200);
    expect(warnings.map((line) => JSON.parse(line).event)).toEqual(["weak_admin_key"]);
  });

  it("is not reported when the key is strong", async () => {
    const key = randomKey();
    const { client } = await withKey(key);
    const warnings: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((line: string) => void warnings.push(line));
    expect((await postSync(client, key)).status).toBe(200);
    expect(warnings).toEqual([]);
  });
});

describe("secrets in logs and errors", () => {
  const lines: string[] = [];
  const capture = () => {
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        lines.push(
          args
            .map((a) =>
              typeof a === "string" ? a : a instanceof Error ? `${a.name}: ${a.message}\n${a.stack}` : JSON.stringify(a),
            )
            .join(" "),
        );
      });
    }
  };
  afterEach(() => {
    vi.restoreAllMocks();
    lines.length = 0;
  });

  /** Fresh databases whose connection strings carry passwords of their own. */
  async function withSecrets() {
    const secrets = { key: `adm-${randomKey()}`, targetPassword: `tpw${randomKey()}`, sourcePassword: `spw${randomKey()}` };
    const plain = await freshDatabases();
    const env: Env = {
      ...plain.env,
      ADMIN_API_KEY: secrets.key,
      DATABASE_URL: plain.env.DATABASE_URL.replace(":local@", `:${secrets.targetPassword}@`),
      SOURCE_DATABASE_URL: plain.env.SOURCE_DATABASE_URL!.replace(":local@", `:${secrets.sourcePassword}@`),
    };
    expect(env.DATABASE_URL).toContain(secrets.targetPassword);
    const book = new Book();
    book.simpleCustomer();
    await writeSource(plain.source, book);
    return { dbs: plain, env, secrets, client: new Client(env) };
  }

  function expectNoSecret(secrets: Record<string, string>, texts: string[]) {
    const all = texts.join("\n");
    for (const [name, value] of Object.entries(secrets)) expect(all.includes(value), `${name} leaked`).toBe(false);
  }

  it("never prints the key or a password, in failing and succeeding syncs alike", async () => {
    const { dbs, env, secrets, client } = await withSecrets();
    capture();
    const bodies: string[] = [];
    const expectStatus = async (status: number, reply: Promise<Reply>) => {
      const r = await reply;
      bodies.push(r.text, JSON.stringify([...r.headers]));
      expect(r.status, r.text).toBe(status);
    };

    await expectStatus(401, postSync(client, `${secrets.key}x`));
    await expectStatus(401, postSync(client));

    await dbs.fault("source", "error500");
    await expectStatus(502, postSync(client, secrets.key));
    await dbs.recover("source");
    await dbs.fault("target", "error500");
    await expectStatus(503, postSync(client, secrets.key));
    await expectStatus(503, client.get("/api/brokers"));
    await expectStatus(503, client.get("/api/health"));
    await dbs.recover("target");
    // A source nobody listens on: the driver's own "cannot connect" error.
    const unreachable = new Client({
      ...env,
      SOURCE_DATABASE_URL: `postgres://sync:${secrets.sourcePassword}@127.0.0.1:9/backoffice_nowhere`,
    });
    await expectStatus(502, postSync(unreachable, secrets.key));
    // A configuration error names the bad key, never its value.
    const misconfigured = new Client({ ...env, SOURCE_DATABASE_URL: `not a url ${secrets.sourcePassword}` });
    await expectStatus(500, postSync(misconfigured, secrets.key));
    await expectStatus(500, misconfigured.get("/api/brokers"));

    await expectStatus(200, postSync(client, secrets.key));
    await expectStatus(200, client.get("/api/health"));

    expect(lines.length).toBeGreaterThan(0); // the failures and the run were logged
    expect(lines.some((l) => l.includes("sync_failed"))).toBe(true);
    expect(lines.some((l) => l.includes('"event":"sync"'))).toBe(true);
    expectNoSecret(secrets, [...lines, ...bodies]);
  });
});
