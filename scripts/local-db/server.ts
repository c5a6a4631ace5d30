/**
 * The local database server: Neon's SQL-over-HTTP endpoint (`POST /sql`) in front of PGlite or
 * a local PostgreSQL, so the real @neondatabase/serverless driver (and drizzle-orm/neon-http)
 * runs against it unchanged. Each connection string's database name selects (and on first use
 * creates) a database; see README.md for the protocol subset and the test endpoints.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Backend, toSqlError } from "./backend";
import { PgBackend } from "./pg-backend";
import { PgliteBackend } from "./pglite-backend";
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

export async function startLocalDbServer(options: LocalDbServerOptions = {}): Promise<LocalDbServer> {
  const log = options.log ?? (() => {});
  const backend: Backend = options.pgUrl
    ? new PgBackend({ pgUrl: options.pgUrl, log })
    : new PgliteBackend({ dataDir: options.dataDir, prepareSpares: options.prepareSpares, log });
  const requests = new Map<string, number>();
  const faults = new Map<string, Fault>();
  /** Responses held open by the `timeout` fault, ended when the server closes. */
  const hanging = new Set<ServerResponse>();

  async function handleSql(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers = parseSqlHeaders(req.headers);
    requests.set(headers.database, (requests.get(headers.database) ?? 0) + 1);
    const fault = faults.get(headers.database);
    if (fault) {
      req.resume();
      if (fault === "error500") send(res, 500, { message: `simulated outage of database "${headers.database}"` });
      else {
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
      }
      return;
    }
    const payload = parsePayload(await readBody(req));
    const format = (arrayMode: boolean | undefined) => ({
      rawOutput: headers.rawOutput,
      arrayMode: arrayMode ?? headers.arrayMode,
    });
    if ("single" in payload) {
      const result = await backend.query(headers.database, payload.single.statement);
      send(res, 200, resultJson(result, format(payload.single.arrayMode)));
    } else {
      const { batch } = payload;
      const statements = batch.map((q) => q.statement);
      const results = await backend.transaction(headers.database, statements, headers.transaction);
      send(
        res,
        200,
        { results: results.map((result, i) => resultJson(result, format(batch[i]?.arrayMode))) },
        batchHeaders(headers),
      );
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://local");
    const route = ROUTES[url.pathname];
    if (!route) throw new HttpError(404, `not found: ${url.pathname}`);
    if (req.method !== route) throw new HttpError(400, `${url.pathname} expects ${route}, not ${req.method}`);
    switch (url.pathname) {
      case "/sql":
        return handleSql(req, res);
      case "/__health":
        return send(res, 200, { ok: true });
      case "/__stats":
        return send(res, 200, { databases: Object.fromEntries(requests) });
      case "/__drop": {
        const database = requiredParam(url, "database");
        await backend.drop(database);
        return send(res, 200, { dropped: database });
      }
      case "/__fault": {
        const database = requiredParam(url, "database");
        const mode = requiredParam(url, "mode");
        if (mode === "off") faults.delete(database);
        else if (mode === "error500" || mode === "timeout") faults.set(database, mode);
        else throw new HttpError(400, `mode must be error500, timeout or off, not "${mode}"`);
        return send(res, 200, { database, mode });
      }
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.destroyed) return; // the client went away (e.g. aborted mid-body): nobody to answer
      if (error instanceof HttpError) return send(res, error.status, { message: error.message });
      const sqlError = toSqlError(error);
      if (sqlError) return send(res, 400, errorJson(sqlError));
      log(`internal error on ${req.method} ${req.url}: ${(error as Error)?.stack ?? String(error)}`);
      send(res, 500, { message: `internal error: ${(error as Error)?.message ?? String(error)}` });
    });
  });
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

/** The method each path answers. */
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

function requiredParam(url: URL, name: string): string {
  const value = url.searchParams.get(name);
  if (!value) throw new HttpError(400, `missing query parameter "${name}"`);
  return value;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `request is too large (max is ${MAX_BODY_BYTES} bytes)`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // The client may have gone away while the query ran.
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    ...headers,
    "Content-Type": "application/json",
    "Access-Control-Allow-Origin": "*",
  });
  res.end(JSON.stringify(body));
}
