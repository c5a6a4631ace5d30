/**
 * Reading a `POST /sql` request the way Neon's proxy does (`proxy/src/serverless/sql_over_http.rs`):
 * the `Neon-*` headers, the database named by `Neon-Connection-String`, and the JSON payload,
 * a single `{query, params}` or a batch `{queries: [...]}`.
 */
import { type IsolationLevel, ISOLATION_LEVELS, type Statement, type TransactionOptions } from "./backend";

/** A request rejected before it reaches Postgres, answered with `{message}` and this status. */
export class HttpError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export interface SqlHeaders {
  database: string;
  arrayMode: boolean;
  transaction: TransactionOptions;
}

/** Only the literal `true` counts, as in the proxy. */
const isTrue = (value: string | null) => value === "true";

export function parseSqlHeaders(headers: Headers): SqlHeaders {
  const database = databaseOf(headers.get("neon-connection-string"));
  const level = headers.get("neon-batch-isolation-level");
  if (level !== null && !Object.hasOwn(ISOLATION_LEVELS, level)) throw new HttpError(400, "invalid isolation level");
  // Neon converts cells to JSON values unless asked for Postgres's text; @neondatabase/serverless
  // always asks (it parses the text itself), so this server speaks only that mode.
  if (!isTrue(headers.get("neon-raw-text-output"))) {
    throw new HttpError(400, "only Neon-Raw-Text-Output: true is served, as @neondatabase/serverless sends it");
  }
  return {
    database,
    arrayMode: isTrue(headers.get("neon-array-mode")),
    transaction: {
      isolationLevel: (level ?? undefined) as IsolationLevel | undefined,
      readOnly: isTrue(headers.get("neon-batch-read-only")),
      deferrable: isTrue(headers.get("neon-batch-deferrable")),
    },
  };
}

/** The database a connection string names; user, password and host are not checked. */
function databaseOf(connectionString: string | null): string {
  if (connectionString === null) throw new HttpError(400, "invalid header: neon-connection-string");
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch (error) {
    throw new HttpError(400, `invalid connection string: ${(error as Error).message}`);
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") throw new HttpError(400, "incorrect scheme");
  const segment = url.pathname.split("/")[1];
  if (!segment) throw new HttpError(400, "missing database name");
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, "invalid database name");
  }
}

/** One statement and its optional per-query `arrayMode`, which overrides the `Neon-Array-Mode` header. */
export interface QueryData {
  statement: Statement;
  arrayMode?: boolean;
}

export type Payload = { single: QueryData } | { batch: QueryData[] };

export function parsePayload(body: string): Payload {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw new HttpError(400, `could not parse the HTTP request body: ${(error as Error).message}`);
  }
  // Like the proxy's untagged enum: a `query` makes a single statement, else `queries` a batch.
  if (isObject(json) && "query" in json) return { single: queryData(json) };
  if (isObject(json) && Array.isArray(json.queries)) return { batch: json.queries.map(queryData) };
  throw new HttpError(400, "could not parse the HTTP request body: expected {query, params} or {queries: [...]}");
}

function queryData(value: unknown): QueryData {
  if (!isObject(value) || typeof value.query !== "string") {
    throw new HttpError(400, "could not parse the HTTP request body: `query` must be a string");
  }
  const { query, params = [], arrayMode } = value;
  if (!Array.isArray(params)) throw new HttpError(400, "could not parse the HTTP request body: `params` must be an array");
  if (arrayMode !== undefined && typeof arrayMode !== "boolean") {
    throw new HttpError(400, "could not parse the HTTP request body: `arrayMode` must be a boolean");
  }
  return { statement: { query, params: params.map(paramToText) }, arrayMode };
}

/**
 * A JSON parameter as the Postgres text the proxy binds (`json_to_pg_text`): null is NULL,
 * strings go as they are, arrays become array literals, any other value its JSON text.
 */
function paramToText(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return arrayLiteral(value);
  return JSON.stringify(value);
}

/** Array elements keep their JSON spelling, which quotes and escapes strings as Postgres expects. */
function arrayLiteral(items: unknown[]): string {
  const elements = items.map((item) => {
    if (item === null) return "NULL";
    if (Array.isArray(item)) return arrayLiteral(item);
    // An object's JSON text becomes one quoted element.
    if (typeof item === "object") return JSON.stringify(JSON.stringify(item));
    return JSON.stringify(item);
  });
  return `{${elements.join(",")}}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
