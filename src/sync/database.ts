/**
 * The two databases as the sync uses them: every request is one non-interactive transaction
 * (one HTTP request), counted against the run's budget and bounded by its timeout. A source
 * failure is the upstream's (502, Bad Gateway); a target that cannot be reached is 503.
 */
import type { NeonQueryPromise } from "@neondatabase/serverless";
import { createSql, type Sql } from "../db/client";
import { AppError, isDatabaseUnavailable } from "../errors";
import type { Budget } from "./budget";

/** A statement built but not sent: `run` sends several as one transaction. */
export type Query = NeonQueryPromise<false, false>;
export type Rows = Record<string, unknown>[];

export interface SyncDatabase {
  /** Builds statements (`sql.query(text, params)`) for `run`. */
  sql: Sql;
  /** Runs the statements in order as one transaction and returns each one's rows. */
  run(statements: Query[]): Promise<Rows[]>;
}

function connect(url: string, budget: Budget, readOnly: boolean, onError: (err: unknown) => never): SyncDatabase {
  const sql = createSql(url);
  return {
    sql,
    async run(statements) {
      budget.spend(1);
      try {
        return (await sql.transaction(statements, {
          readOnly,
          fetchOptions: { signal: AbortSignal.timeout(budget.limits.requestTimeoutMs) },
        })) as Rows[];
      } catch (err) {
        onError(err);
      }
    },
  };
}

/** The back office, read only: the sync never writes there. */
export function sourceDatabase(url: string, budget: Budget): SyncDatabase {
  return connect(url, budget, true, (err) => {
    throw new AppError(502, { cause: err });
  });
}

export function targetDatabase(url: string, budget: Budget): SyncDatabase {
  return connect(url, budget, false, (err) => {
    throw isDatabaseUnavailable(err) ? new AppError(503, { cause: err }) : err;
  });
}
