/**
 * The floor the sync benchmarks print beside their figures: the same source rows copied into a
 * second target with the same schema by `INSERT ... SELECT` over dblink, one statement per
 * table, on the same PostgreSQL server (no HTTP, no JSON, no metrics).
 */
import type pg from "pg";
import { STREAMS } from "../../src/sync/streams";

export interface Timed {
  rows: number;
  ms: number;
}

/** Copies the source rows changed after `since` (all of them when null) into the floor target over dblink. */
export async function dblinkCopy(floor: pg.Client, sourceDb: string, since: string | null): Promise<Timed> {
  await floor.query("create extension if not exists dblink");
  const started = performance.now();
  let rows = 0;
  for (const stream of STREAMS) {
    // The target mirrors every row, tombstones included, as the sync leaves it.
    const columns = ["id", "deleted_at", ...stream.columns.map((c) => c.name)];
    const typeOf = (c: string) =>
      c === "id" ? "uuid" : c === "deleted_at" ? "timestamptz" : stream.columns.find((s) => s.name === c)!.type;
    const typed = [...columns.map((c) => `${c} ${typeOf(c)}`), "source_updated_at timestamptz"];
    const derived = stream.derived ? [stream.derived.name] : [];
    const select = [...columns.map((c) => `t.${c}`), "t.updated_at"];
    const join = stream.derived ? ` left join ${stream.derived.stream} p on p.id = t.${stream.derived.foreignKey}` : "";
    const remote = `select ${[...select, ...(stream.derived ? [`p.${stream.derived.column}`] : [])].join(", ")} from ${stream.name} t${join}
      ${since ? `where t.updated_at > '${since}'` : ""}`;
    const all = [...columns, "source_updated_at", ...derived];
    const result = await floor.query(
      `insert into ${stream.name} (${all.join(", ")})
       select ${all.join(", ")} from dblink($1, $2) as s(${[...typed, ...derived.map((d: string) => `${d} uuid`)].join(", ")})
       on conflict (id) do update set ${all
         .filter((c) => c !== "id")
         .map((c) => `${c} = excluded.${c}`)
         .join(", ")}`,
      [`dbname=${sourceDb}`, remote],
    );
    rows += result.rowCount ?? 0;
  }
  return { rows, ms: performance.now() - started };
}
