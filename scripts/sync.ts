/**
 * `npm run sync [-- --full]`: asks the running local service (npm start) for a delta sync, or a
 * full reconciliation with --full, and prints the result.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const base = process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`;

function adminKey(): string {
  if (process.env.ADMIN_API_KEY) return process.env.ADMIN_API_KEY;
  const file = `${root}.dev.vars`;
  const line = existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .find((l) => l.startsWith("ADMIN_API_KEY="))
    : undefined;
  return line ? line.slice("ADMIN_API_KEY=".length).trim() : "";
}

const full = process.argv.includes("--full");
const res = await fetch(`${base}/api/sync${full ? "?mode=full" : ""}`, {
  method: "POST",
  headers: { "X-Admin-Key": adminKey() },
});
console.log(`HTTP ${res.status}`);
console.log(JSON.stringify(await res.json(), null, 2));
process.exit(res.ok ? 0 : 1);
