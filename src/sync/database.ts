/**
 * The two databases as the sync uses them: every request is one non-interactive transaction
 * (one HTTP request), counted against the run's budget and bounded by its timeout.
 *
 * Statements are values: drizzle `sql` templates (identifiers from the table objects in
 * src/db/schema/ and src/db/source.ts, parameters numbered as they are rendered) built by the
 * sync's modules without a driver, each with the decoder of its rows (`Statement<T>`), so what a
 * statement returns is declared once, beside its SQL. `run` is the one place that renders them
 * (`render`) and sends them, and it hands back typed values.
 */
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { createSql } from "../db/client";
import { isDatabaseUnavailable } from "../errors";
import type { Budget } from "./budget";
import { SourceUnavailableError, TargetUnavailableError } from "./errors";

/** A statement built but not sent. */
export type Query = SQL;
export type Row = Record<string, unknown>;

const dialect = new PgDialect();

/** A statement as the driver takes it: its text, with parameters numbered in the order they occur, and their values. */
export function render(query: Query): { sql: string; params: unknown[] } {
  const { sql, params } = dialect.sqlToQuery(query);
  return { sql, params };
}

export interface Statement<T> {
  query: Query;
  decode(rows: Row[]): T;
}

/** A statement whose rows nobody reads. */
export const effect = (query: Query): Statement<void> => ({ query, decode: () => undefined });

/** A statement returning exactly one row, decoded by `decode`. */
export function oneRow<T>(query: Query, decode: (row: Row) => T): Statement<T> {
  return {
    query,
    decode(rows) {
      if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
      return decode(rows[0]!);
    },
  };
}

export const manyRows = <T>(query: Query, decode: (row: Row) => T): Statement<T[]> => ({
  query,
  decode: (rows) => rows.map(decode),
});

type Results<S extends readonly Statement<unknown>[]> = { -readonly [K in keyof S]: S[K] extends Statement<infer T> ? T : never };

export interface SyncDatabase {
  /** Runs the statements in order as one transaction and returns each one's decoded result. */
  run<const S extends readonly Statement<unknown>[]>(statements: S): Promise<Results<S>>;
}

/** Column decoders for rows as the driver gives them (text formats kept as strings). */
export const text = (value: unknown): string => {
  if (typeof value !== "string") throw new TypeError(`expected text, got ${typeof value}`);
  return value;
};
export const textOrNull = (value: unknown): string | null => (value === null ? null : text(value));
export const int = (value: unknown): number => {
  if (typeof value !== "number" || !Number.isInteger(value)) throw new TypeError(`expected an integer, got ${typeof value}`);
  return value;
};
export const texts = (value: unknown): string[] => {
  if (!Array.isArray(value)) throw new TypeError(`expected an array, got ${typeof value}`);
  return value.map(text);
};

function connect(url: string, budget: Budget, readOnly: boolean, onError: (err: unknown) => never): SyncDatabase {
  const sql = createSql(url);
  // The sync's statements work on batches (a page, hundreds of holdings or customers, each with
  // correlated subqueries), so the planner's estimates pass jit_above_cost while the work itself
  // takes milliseconds, and compiling costs far more than it saves (`jit = off` in
  // docs/sync.md).
  const noJit = sql.query("set local jit = off");
  return {
    async run(statements) {
      budget.spend(1);
      const queries = statements.map((s) => {
        const { sql: text, params } = render(s.query);
        return sql.query(text, params);
      });
      let rows: Row[][];
      try {
        rows = (await sql.transaction([noJit, ...queries], {
          readOnly,
          fetchOptions: { signal: AbortSignal.timeout(budget.limits.requestTimeoutMs) },
        })) as Row[][];
      } catch (err) {
        onError(err);
      }
      return statements.map((s, i) => s.decode(rows[i + 1]!)) as Results<typeof statements>;
    },
  };
}

/** The back office, read only: the sync never writes there. Any failure to read it is the source's. */
export function sourceDatabase(url: string, budget: Budget): SyncDatabase {
  return connect(url, budget, true, (err) => {
    throw new SourceUnavailableError("the source database failed", { cause: err });
  });
}

export function targetDatabase(url: string, budget: Budget): SyncDatabase {
  return connect(url, budget, false, (err) => {
    throw isDatabaseUnavailable(err) ? new TargetUnavailableError("the target database is unavailable", { cause: err }) : err;
  });
}
