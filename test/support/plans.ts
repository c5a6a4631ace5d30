/**
 * What a statement reads, from its plan: how a test bounds a read's cost without timing it.
 */
import type { Sql } from "../../src/db/client";

interface PlanNode {
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

/**
 * How many rows of `relation` the statement reads, from EXPLAIN ANALYZE with sequential scans and
 * sorts off (a small table would otherwise be scanned whole and sorted, whatever the query; where
 * an index can give the rows in order, the planner takes it then, as it does on a table of real
 * size) and fresh statistics, as autovacuum keeps them on a real server.
 */
export async function rowsRead(target: Sql, relation: string, statement: { sql: string; params: unknown[] }): Promise<number> {
  await target.query(`analyze ${relation}`);
  const [, , explained] = (await target.transaction([
    target.query("set local enable_seqscan = off"),
    target.query("set local enable_sort = off"),
    target.query(`explain (analyze, format json) ${statement.sql}`, statement.params),
  ])) as unknown as [unknown, unknown, Explained];
  return readOf(explained, relation);
}

/**
 * How many rows of `relation` the statement reads as the planner plans it on the statistics the
 * target has: for a table that fills and empties within a run, whose last ANALYZE saw it empty.
 * The statement is run (EXPLAIN ANALYZE): a change it makes stays.
 */
export async function rowsReadAsPlanned(
  target: Sql,
  relation: string,
  statement: { sql: string; params: unknown[] },
): Promise<number> {
  const explained = (await target.query(
    `explain (analyze, format json) ${statement.sql}`,
    statement.params,
  )) as unknown as Explained;
  return readOf(explained, relation);
}

type Explained = { "QUERY PLAN": [{ Plan: PlanNode }] }[];

function readOf(explained: Explained, relation: string): number {
  let read = 0;
  const walk = (node: PlanNode) => {
    if (node["Relation Name"] === relation)
      read += (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)) * node["Actual Loops"];
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(explained[0]!["QUERY PLAN"][0].Plan);
  return read;
}
