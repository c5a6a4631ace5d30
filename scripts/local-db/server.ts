/**
 * The local database server: Neon's SQL-over-HTTP endpoint (`POST /sql`) in front of PGlite or
 * a local PostgreSQL, so the real @neondatabase/serverless driver (and drizzle-orm/neon-http)
 * runs against it unchanged. Each connection string's database name selects (and on first use
 * creates) a database; see README.md for the protocol subset and the test endpoints.
 */
import type { ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer, type HttpBindings } from "@hono/node-server";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { type Backend, toSqlError } from "./backend";
import { PgBackend } from "./pg-backend";
import { PgliteBackend } from "./pglite-backend";
import { PgliteThreads } from "./pglite-threads";
import { HttpError, parsePayload, parseSqlHeaders, type SqlHeaders } from "./request";
import { errorJson, resultJson } from "./response";

export interface LocalDbServerOptions {
  /** 0 picks a free port. Default 0. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Use this PostgreSQL server (e.g. postgres://postgres@127.0.0.1:5432) instead of PGlite. */
  pgUrl?: string;
  /** Where PGlite keeps each database (`<dataDir>/<database>`); in memory when undefined. */
  dataDir?: string;
  /** In memory: have a few databases of each family ready before the first request (tests). */
  prepareSpares?: boolean;
  /** PGlite: instances kept open at once (pglite-backend.ts), per thread; default 8. */
  maxOpen?: number;
  /**
   * PGlite: worker threads the databases are spread over (pglite-threads.ts), for callers that
   * keep several busy at once (the test suites); default none, every database on this thread.
   */
  threads?: number;
  log?: (msg: string) => void;
}

export interface LocalDbServer {
  /** e.g. http://127.0.0.1:4444 */
  url: string;
  port: number;
  /** A connection string the driver routes here: postgres://user:password@127.0.0.1:PORT/database */
  connectionString(database: string, user?: string): string;
  close(): Promise<void>;
  /** POST /sql requests received for the database so far (a batch counts once). */
  requestCount(database: string): number;
}

type Fault = "error500" | "timeout";

/** Neon's documented request size limit. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

type LocalDbContext = Context<{ Bindings: HttpBindings }>;

export async function startLocalDbServer(options: LocalDbServerOptions = {}): Promise<LocalDbServer> {
  const log = options.log ?? (() => {});
  const pglite = { dataDir: options.dataDir, prepareSpares: options.prepareSpares, maxOpen: options.maxOpen };
  const backend: Backend = options.pgUrl
    ? new PgBackend({ pgUrl: options.pgUrl, log })
    : options.threads
      ? new PgliteThreads(options.threads, pglite, log)
      : new PgliteBackend({ ...pglite, log });
  const requests = new Map<string, number>();
  const faults = new Map<string, Fault>();
  /** Responses held open by the `timeout` fault, ended when the server closes. */
  const hanging = new Set<ServerResponse>();

  async function handleSql(c: LocalDbContext): Promise<Response> {
    const headers = parseSqlHeaders(c.req.raw.headers);
    requests.set(headers.database, (requests.get(headers.database) ?? 0) + 1);
    const fault = faults.get(headers.database);
    if (fault === "error500") return c.json({ message: `simulated outage of database "${headers.database}"` }, 500);
    if (fault === "timeout") {
      // Never answered: Node drops the unread body, and close() cuts the connection.
      const res = c.env.outgoing;
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return new Promise<Response>(() => {});
    }
    const payload = parsePayload(await c.req.text());
    const format = (arrayMode: boolean | undefined) => ({ arrayMode: arrayMode ?? headers.arrayMode });
    if ("single" in payload) {
      const result = await backend.query(headers.database, payload.single.statement);
      return c.json(resultJson(result, format(payload.single.arrayMode)));
    }
    const { batch } = payload;
    const statements = batch.map((q) => q.statement);
    const results = await backend.transaction(headers.database, statements, headers.transaction);
    return c.json(
      { results: results.map((result, i) => resultJson(result, format(batch[i]?.arrayMode))) },
      200,
      batchHeaders(headers),
    );
  }

  const app = new Hono<{ Bindings: HttpBindings }>();
  app.use(async (c, next) => {
    await next();
    c.header("Access-Control-Allow-Origin", "*");
  });
  app.post(
    "/sql",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json({ message: `request is too large (max is ${MAX_BODY_BYTES} bytes)` }, 413),
    }),
    handleSql,
  );
  app.get("/__health", (c) => c.json({ ok: true }));
  app.get("/__stats", (c) => c.json({ databases: Object.fromEntries(requests) }));
  app.post("/__drop", async (c) => {
    const database = requiredParam(c, "database");
    await backend.drop(database);
    return c.json({ dropped: database });
  });
  app.post("/__fault", (c) => {
    const database = requiredParam(c, "database");
    const mode = requiredParam(c, "mode");
    if (mode === "off") faults.delete(database);
    else if (mode === "error500" || mode === "timeout") faults.set(database, mode);
    else throw new HttpError(400, `mode must be error500, timeout or off, not "${mode}"`);
    return c.json({ database, mode });
  });
  for (const [path, method] of Object.entries(ROUTES)) {
    app.all(path, (c) => {
      throw new HttpError(400, `${path} expects ${method}, not ${c.req.method}`);
    });
  }
  app.notFound((c) => c.json({ message: `not found: ${c.req.path}` }, 404));
  app.onError((error, c) => {
    if (error instanceof HttpError) return c.json({ message: error.message }, error.status as 400);
    const sqlError = toSqlError(error);
    if (sqlError) return c.json(errorJson(sqlError), 400);
    // The client may have gone away (e.g. aborted mid-body): nobody to answer, nothing to report.
    if (c.env.outgoing.destroyed) return c.body(null, 500);
    log(`internal error on ${c.req.method} ${c.req.url}: ${(error as Error)?.stack ?? String(error)}`);
    return c.json({ message: `internal error: ${(error as Error)?.message ?? String(error)}` }, 500);
  });

  // Hono's Node adapter, leaving the process's own Request and Response alone: the server also
  // runs inside the test runner and start.ts, whose fetch must stay Node's.
  const server = createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false });
  if (!("closeIdleConnections" in server)) throw new Error("expected an HTTP/1.1 server");
  // Node closes an idle keep-alive connection after 5 s; a client that sends its next request
  // on it at that moment sees the connection reset (workerd: "Network connection lost", which
  // the service rightly answers with 503). Clients close idle connections well before a minute.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 61_000;

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  // A wildcard bind is still reached through loopback.
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    port,
    connectionString: (database, user = "local") =>
      `postgres://${encodeURIComponent(user)}:local@${urlHost}:${port}/${encodeURIComponent(database)}`,
    requestCount: (database) => requests.get(database) ?? 0,
    async close() {
      for (const res of hanging) res.destroy();
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeIdleConnections();
      // Requests still running get a moment to finish before their connections are cut.
      const cut = setTimeout(() => server.closeAllConnections(), 2000);
      await closed;
      clearTimeout(cut);
      await backend.close();
    },
  };
}

/** The method each path answers; any other method gets 400. */
const ROUTES: Record<string, string> = {
  "/sql": "POST",
  "/__health": "GET",
  "/__stats": "GET",
  "/__drop": "POST",
  "/__fault": "POST",
};

/** Neon echoes the transaction settings it applied to a batch. */
function batchHeaders({ transaction }: SqlHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  if (transaction.readOnly) headers["Neon-Batch-Read-Only"] = "true";
  if (transaction.deferrable) headers["Neon-Batch-Deferrable"] = "true";
  if (transaction.isolationLevel) headers["Neon-Batch-Isolation-Level"] = transaction.isolationLevel;
  return headers;
}

function requiredParam(c: LocalDbContext, name: string): string {
  const value = c.req.query(name);
  if (!value) throw new HttpError(400, `missing query parameter "${name}"`);
  return value;
}
