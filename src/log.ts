/**
 * The service's one log format: a JSON line per event, `{"level", "event", "request_id"?, …fields}`,
 * written to the console method of its level (Workers Logs and `wrangler tail` keep the level).
 * Operators query these fields by name, so an event keeps its fields once it has shipped.
 * Never pass a connection string, a key or a slug as a field.
 */
export type LogLevel = "info" | "warn" | "error";

const WRITE: Record<LogLevel, (line: string) => void> = {
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

export function log(level: LogLevel, event: string, fields: Record<string, unknown> = {}): void {
  WRITE[level](JSON.stringify({ level, event, ...fields }));
}
