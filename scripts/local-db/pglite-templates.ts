/**
 * Migrated PGlite data directories, one per schema family, that new databases are cloned from.
 *
 * A fresh PGlite runs initdb and then the migrations (2-6 s on this machine); loading a dump of
 * an already migrated instance takes a few hundred milliseconds, and tests create many
 * databases. The dump is also cached on disk (gzipped, keyed by the PGlite version and a digest
 * of the migration files), so a restarted server skips initdb too.
 */
import { PGlite } from "@electric-sql/pglite";
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { threadId } from "node:worker_threads";
import { gunzip, gzip } from "node:zlib";
import { type Family, migratePgliteDatabase, migrationsDigest } from "./schemas";

const pgliteVersion = (
  JSON.parse(
    await readFile(join(createRequire(import.meta.url).resolve("@electric-sql/pglite"), "../../package.json"), "utf8"),
  ) as { version: string }
).version;

/**
 * A PGlite data directory packed small: dumped uncompressed (PGlite's own gzip runs on the
 * thread that serves the databases) and compressed on libuv's thread pool instead.
 */
export async function packDump(db: PGlite): Promise<Buffer> {
  const tar = new Uint8Array(await (await db.dumpDataDir("none")).arrayBuffer());
  // The fastest level: a data directory is mostly empty pages, which any level shrinks ~8x.
  return promisify(gzip)(tar, { level: 1 });
}

/** The `loadDataDir` input for a packed dump. */
export async function unpackDump(packed: Buffer): Promise<Blob> {
  return new Blob([await promisify(gunzip)(packed)]);
}

/**
 * How long a dump of other migrations is kept after its last use. Checkouts of different branches
 * (each with its own migrations, so its own digest) share the temp folder; when each build
 * removed every other digest's dump at once, two suites running side by side rebuilt each
 * other's template over and over, mid-run: a minute and more of initdb and migrations on a
 * loaded machine, which a server started inside a test (test/node/pglite-reopen.test.ts) spent
 * out of its test's time.
 */
export const UNUSED_DUMP_MS = 7 * 24 * 3_600_000;

/** Removes the family's dumps other than `keep` that no server has used for UNUSED_DUMP_MS. */
export async function pruneUnusedDumps(cacheDir: string, family: Family, keep: string, now = Date.now()): Promise<void> {
  for (const old of await readdir(cacheDir)) {
    if (!old.startsWith(`${family}-`) || old === keep || old.endsWith(".partial")) continue;
    const used = await stat(join(cacheDir, old)).then(
      (s) => s.mtimeMs,
      () => now,
    );
    if (now - used > UNUSED_DUMP_MS) await rm(join(cacheDir, old), { force: true });
  }
}

export class PgliteTemplates {
  readonly #cacheDir: string;
  readonly #log: (msg: string) => void;
  readonly #dumps = new Map<Family, Promise<Blob>>();

  constructor(cacheDir: string, log: (msg: string) => void) {
    this.#cacheDir = cacheDir;
    this.#log = log;
  }

  /** An uncompressed tar of a migrated data directory, for `new PGlite({ loadDataDir })`. */
  dump(family: Family): Promise<Blob> {
    let dump = this.#dumps.get(family);
    if (!dump) {
      dump = this.#load(family);
      // A failed build is retried by the next request rather than cached forever.
      dump.catch(() => this.#dumps.delete(family));
      this.#dumps.set(family, dump);
    }
    return dump;
  }

  async #load(family: Family): Promise<Blob> {
    const prefix = `${family}-`;
    const file = `${prefix}${pgliteVersion}-${await migrationsDigest(family)}.tar.gz`;
    const path = join(this.#cacheDir, file);
    // A missing or unreadable cache file (say, cut short by a full disk) is simply rebuilt.
    const cached = await readFile(path)
      .then(unpackDump)
      .catch(() => undefined);
    if (cached) {
      // Its time of last use, which the pruning below goes by.
      const now = new Date();
      await utimes(path, now, now).catch(() => undefined);
      return cached;
    }

    const started = performance.now();
    const db = new PGlite();
    try {
      await migratePgliteDatabase(db, family);
      const packed = await packDump(db);
      this.#log(`built the ${family} template in ${Math.round(performance.now() - started)} ms`);
      await mkdir(this.#cacheDir, { recursive: true });
      // Written under a unique name and renamed, so a concurrent server (or another thread of
      // this one, pglite-threads.ts) never reads half a file.
      const partial = `${path}.${process.pid}.${threadId}.partial`;
      await writeFile(partial, packed);
      await rename(partial, path);
      await pruneUnusedDumps(this.#cacheDir, family, file);
      return unpackDump(packed);
    } finally {
      await db.close();
    }
  }
}
