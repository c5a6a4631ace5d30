/**
 * The JSON Neon's proxy answers with: a node-postgres-like result per statement, and the
 * Postgres error fields for a failed one.
 */
import { ERROR_FIELDS, type SqlError, type StatementResult } from "./backend";

/** Cells stay Postgres's text output (Neon-Raw-Text-Output), which the driver parses itself. */
export function resultJson(result: StatementResult, options: { arrayMode: boolean }) {
  const fields = result.fields.map((f) => ({
    name: f.name,
    dataTypeID: f.dataTypeID,
    // tokio-postgres reports 0 ("not a table column", e.g. a computed column) as None, i.e. null.
    tableID: f.tableID || null,
    columnID: f.columnID || null,
    dataTypeSize: f.dataTypeSize,
    dataTypeModifier: f.dataTypeModifier,
    format: "text",
  }));
  const rows = result.rows.map((row) => (options.arrayMode ? row : Object.fromEntries(fields.map((f, i) => [f.name, row[i]]))));
  return { command: result.command, rowCount: result.rowCount, rows, fields, rowAsArray: options.arrayMode };
}

/** Every field the proxy sends, null where Postgres gave none. */
export function errorJson(error: SqlError) {
  const body: Record<string, string | null> = { message: error.fields.message };
  for (const key of ERROR_FIELDS) body[key] = error.fields[key] ?? null;
  return body;
}
