/**
 * `npm run sync [-- --full]`: asks the running local service (npm start) for a delta sync, or a
 * full reconciliation with --full, and prints the result.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const base = process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`;

function adminKey(): string {
  if (process.env.ADMIN_API_KEY) return process.env.ADMIN_API_KEY;
  const file = `${root}.dev.vars`;
  return (existsSync(file) && parseEnv(readFileSync(file, "utf8")).ADMIN_API_KEY) || "";
}

const full = process.argv.includes("--full");
const res = await fetch(`${base}/api/sync${full ? "?mode=full" : ""}`, {
  method: "POST",
  headers: { "X-Admin-Key": adminKey() },
});
console.log(`HTTP ${res.status}`);
console.log(JSON.stringify(await res.json(), null, 2));
process.exit(res.ok ? 0 : 1);
