/**
 * The PGlite template dumps in the shared temp folder (scripts/local-db/pglite-templates.ts):
 * checkouts with other migrations keep theirs while they are in use, so suites of two branches
 * running side by side do not rebuild each other's template mid-run.
 */
import { mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { pruneUnusedDumps, UNUSED_DUMP_MS } from "../../scripts/local-db/pglite-templates";

it("keeps the dumps of other migrations used within the week, and removes older ones", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pglite-templates-"));
  const now = Date.now();
  const files = {
    "investments-0.5.16-mine.tar.gz": now,
    "investments-0.5.16-other-branch.tar.gz": now - 60_000,
    "investments-0.5.16-abandoned.tar.gz": now - UNUSED_DUMP_MS - 60_000,
    "investments-0.5.16-mine.tar.gz.123.0.partial": now - UNUSED_DUMP_MS - 60_000,
    "backoffice-0.5.16-abandoned.tar.gz": now - UNUSED_DUMP_MS - 60_000,
  };
  for (const [name, used] of Object.entries(files)) {
    writeFileSync(join(dir, name), "");
    utimesSync(join(dir, name), used / 1000, used / 1000);
  }
  await pruneUnusedDumps(dir, "investments", "investments-0.5.16-mine.tar.gz", now);
  expect(readdirSync(dir).sort()).toEqual([
    "backoffice-0.5.16-abandoned.tar.gz",
    "investments-0.5.16-mine.tar.gz",
    "investments-0.5.16-mine.tar.gz.123.0.partial",
    "investments-0.5.16-other-branch.tar.gz",
  ]);
});
