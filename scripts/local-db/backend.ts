/**
 * What the HTTP layer needs from a database engine: run one statement, or several in one
 * transaction, returning Postgres's own text output. Two engines implement it: embedded PGlite
 * (pglite-backend.ts) and a real PostgreSQL server (pg-backend.ts).
 */

export const ISOLATION_LEVELS = {
  ReadUncommitted: "READ UNCOMMITTED",
  ReadCommitted: "READ COMMITTED",
  RepeatableRead: "REPEATABLE READ",
  Serializable: "SERIALIZABLE",
} as const;

export type IsolationLevel = keyof typeof ISOLATION_LEVELS;

/** One statement as the proxy receives it: parameters already in Postgres text form. */
export interface Statement {
  query: string;
  params: (string | null)[];
}

export interface TransactionOptions {
  isolationLevel?: IsolationLevel;
  readOnly: boolean;
  deferrable: boolean;
}

/** A column as Postgres's RowDescription describes it. */
export interface Field {
  name: string;
  dataTypeID: number;
  tableID: number;
  columnID: number;
  dataTypeSize: number;
  dataTypeModifier: number;
}

export interface StatementResult {
  command: string;
  rowCount: number | null;
  fields: Field[];
  /** Cells in Postgres's text output format, NULL as null. */
  rows: (string | null)[][];
}

export interface Backend {
  /** Runs one statement on the database, creating the database first if it does not exist. */
  query(database: string, statement: Statement): Promise<StatementResult>;
  /** Runs the statements in one transaction: all commit, or none (the first error is thrown). */
  transaction(database: string, statements: Statement[], options: TransactionOptions): Promise<StatementResult[]>;
  /** Deletes the database; a later request for the same name creates it afresh. */
  drop(database: string): Promise<void>;
  close(): Promise<void>;
}

/** The fields of a Postgres ErrorResponse, named as node-postgres and Neon's proxy name them. */
export const ERROR_FIELDS = [
  "code",
  "detail",
  "hint",
  "position",
  "internalPosition",
  "internalQuery",
  "severity",
  "where",
  "table",
  "column",
  "schema",
  "dataType",
  "constraint",
  "file",
  "line",
  "routine",
] as const;

export type ErrorFields = Partial<Record<(typeof ERROR_FIELDS)[number], string>> & { message: string };

/** An error Postgres reported for the client's SQL; the server answers it with HTTP 400. */
export class SqlError extends Error {
  readonly fields: ErrorFields;

  constructor(fields: ErrorFields) {
    super(fields.message);
    this.fields = fields;
  }
}

/**
 * The SqlError for a database error from node-postgres or PGlite, undefined for anything else
 * (a lost connection, a bug). Both raise pg-protocol's DatabaseError, but from two different
 * copies of that package, so this checks its shape instead of using instanceof.
 */
export function toSqlError(error: unknown): SqlError | undefined {
  if (error instanceof SqlError) return error;
  const e = error as Record<string, unknown> | null;
  if (!(error instanceof Error) || typeof e?.code !== "string" || typeof e.severity !== "string") return undefined;
  const fields: ErrorFields = { message: error.message };
  for (const key of ERROR_FIELDS) {
    if (typeof e[key] === "string") fields[key] = e[key];
  }
  return new SqlError(fields);
}

/**
 * A `queries` batch as Neon's proxy runs it on one session: begin with the batch's mode, each
 * statement in order, commit. On an error the caller rolls the open transaction back.
 */
export async function runBatch(
  execute: (statement: Statement) => Promise<StatementResult>,
  statements: Statement[],
  options: TransactionOptions,
): Promise<StatementResult[]> {
  await execute({ query: beginStatement(options), params: [] });
  const results: StatementResult[] = [];
  for (const statement of statements) results.push(await execute(statement));
  await execute({ query: "COMMIT", params: [] });
  return results;
}

/** The statement tokio-postgres sends for Neon's `build_transaction()`. */
function beginStatement({ isolationLevel, readOnly, deferrable }: TransactionOptions): string {
  const modes = [
    ...(isolationLevel ? [`ISOLATION LEVEL ${ISOLATION_LEVELS[isolationLevel]}`] : []),
    ...(readOnly ? ["READ ONLY"] : []),
    ...(deferrable ? ["DEFERRABLE"] : []),
  ];
  return ["START TRANSACTION", modes.join(", ")].filter(Boolean).join(" ");
}
