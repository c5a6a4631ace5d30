/**
 * `npm run bundle`: builds the Worker exactly as `wrangler deploy` would (--dry-run, nothing is
 * uploaded) and prints its gzip size beside the Workers limits; fails above the free plan's.
 * Static assets (wrangler.toml `[assets]`: Scalar's script for /api/docs) are not part of the
 * Worker and do not count; they are filled first, since wrangler refuses a missing folder.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { fillAssets } from "./assets";

/** https://developers.cloudflare.com/workers/platform/limits/#worker-size (after compression). */
const FREE_PLAN_GZIP = 3 * 1024 * 1024;
const PAID_PLAN_GZIP = 10 * 1024 * 1024;

fillAssets();
const outdir = mkdtempSync(join(tmpdir(), "worker-bundle-"));
try {
  execFileSync("wrangler", ["deploy", "--dry-run", "--outdir", outdir], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  // Everything uploaded: the entry and its modules (text modules too), not the source maps.
  const modules = readdirSync(outdir).filter((name) => !name.endsWith(".map") && name !== "README.md");
  let raw = 0;
  let gzip = 0;
  for (const name of modules) {
    const bytes = readFileSync(join(outdir, name));
    raw += statSync(join(outdir, name)).size;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
  const share = (n: number) => `${((gzip / n) * 100).toFixed(0)}%`;
  console.log(
    `worker bundle: ${kib(gzip)} gzip (${kib(raw)} raw, ${modules.length} modules); ` +
      `limit ${kib(FREE_PLAN_GZIP)} free plan (${share(FREE_PLAN_GZIP)} used), ${kib(PAID_PLAN_GZIP)} paid (${share(PAID_PLAN_GZIP)})`,
  );
  if (gzip > FREE_PLAN_GZIP) {
    console.error("the bundle is over the free plan's limit");
    process.exitCode = 1;
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
