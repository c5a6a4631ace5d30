/**
 * The embedded engine: one PGlite instance per database, in memory or persisted under
 * `dataDir/<database>`.
 *
 * Statements go through PGlite's raw protocol interface (Parse/Bind/Describe/Execute/Sync)
 * rather than `PGlite.query()`, which converts values both ways with its JS serializers and
 * parsers (the server must pass Postgres's text through untouched) and keeps only each
 * column's name and type, not the tableID, columnID, size and modifier Neon's answer carries.
 * The raw interface does what Neon's proxy does: unnamed statements, untyped text parameters,
 * text results.
 *
 * Each PGlite instance holds ~200 MB (a 128 MB minimum of WASM memory plus its in-memory
 * files), and test suites create databases by the hundred, so only the most recently used
 * `maxOpen` instances stay open: an older idle one is closed, its data kept on disk or, in
 * memory mode, as a gzipped dump (~5 MB), and it is reopened when it is next used.
 *
 * In memory, a dropped database's instance is reset to the template's state and reused for the
 * next new database of its family (pglite-recycle.ts), which costs far less than opening one.
 */
import { Mutex, PGlite, protocol } from "@electric-sql/pglite";
import type { messages } from "@electric-sql/pglite";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Backend, runBatch, type Statement, type StatementResult, toSqlError, type TransactionOptions } from "./backend";
import { type Baseline, readBaseline, resetToBaseline } from "./pglite-recycle";
import { packDump, PgliteTemplates, unpackDump } from "./pglite-templates";
import { FAMILIES, type Family, familyOf, migratePgliteDatabase } from "./schemas";

/** Instances kept open by default (`maxOpen`). */
const MAX_OPEN = 8;
/** Reset instances kept ready per family, beyond the open ones. */
const MAX_SPARE = 2;
/** Uses before an instance is closed rather than reset again, so catalog bloat stays bounded. */
const MAX_USES = 40;

interface Database {
  family: Family;
  /** PGlite is a single connection: requests take turns, and a batch holds it to the end. */
  mutex: Mutex;
  /** The open instance; undefined before first use and while closed to save memory. */
  db?: PGlite;
  /** The data of a closed in-memory database, packed. */
  dump?: Buffer;
  lastUsed: number;
  dropped: boolean;
}

export interface PgliteBackendOptions {
  /** Persist each database under `dataDir/<database>`; in memory when undefined. */
  dataDir?: string;
  /** In memory: prepare spare databases at once, for a caller that will ask for many (tests). */
  prepareSpares?: boolean;
  /** How many instances stay open at once (default MAX_OPEN); a test of reopening sets it low. */
  maxOpen?: number;
  log: (msg: string) => void;
}

export class PgliteBackend implements Backend {
  readonly #dataDir: string | undefined;
  readonly #log: (msg: string) => void;
  readonly #templates: PgliteTemplates;
  readonly #databases = new Map<string, Database>();
  /** In memory mode: instances reset to their family's baseline, ready for a new database. */
  readonly #spares = new Map<Family, PGlite[]>();
  readonly #baselines = new Map<Family, Baseline>();
  readonly #uses = new WeakMap<PGlite, number>();
  /** Resets under way, by family: a new database would rather wait for one than open an instance. */
  readonly #resets = new Map<Family, Set<Promise<void>>>();
  readonly #warming: Promise<void> | undefined;
  readonly #maxOpen: number;

  constructor({ dataDir, prepareSpares, maxOpen = MAX_OPEN, log }: PgliteBackendOptions) {
    this.#dataDir = dataDir;
    this.#maxOpen = maxOpen;
    this.#log = log;
    this.#templates = new PgliteTemplates(
      dataDir ? join(dataDir, ".templates") : join(tmpdir(), "local-db-pglite-templates"),
      log,
    );
    // Tests ask for databases in pairs from their first moment: have spares ready by then,
    // made while the test runner starts its workers.
    if (!dataDir && prepareSpares)
      this.#warming = this.#warm().catch((error: unknown) => log(`could not prepare spare databases: ${error}`));
  }

  async #warm(): Promise<void> {
    for (let round = 0; round < MAX_SPARE; round++) {
      for (const family of FAMILIES) {
        const db = new PGlite({ loadDataDir: await this.#templates.dump(family) });
        await db.waitReady;
        if (!this.#baselines.has(family)) this.#baselines.set(family, await readBaseline(db));
        const spares = this.#spares.get(family) ?? [];
        if (spares.length >= MAX_SPARE) {
          await db.close();
          continue;
        }
        this.#spares.set(family, [...spares, db]);
      }
    }
  }

  query(database: string, statement: Statement): Promise<StatementResult> {
    return this.#exclusive(database, (db) => execute(db, statement));
  }

  transaction(database: string, statements: Statement[], options: TransactionOptions): Promise<StatementResult[]> {
    // On an error #exclusive rolls the open transaction back.
    return this.#exclusive(database, (db) => runBatch((statement) => execute(db, statement), statements, options));
  }

  async drop(database: string): Promise<void> {
    familyOf(database); // validates the name before it becomes a path
    const entry = this.#databases.get(database);
    this.#databases.delete(database);
    if (entry) {
      await entry.mutex.runExclusive(async () => {
        entry.dropped = true;
        const db = entry.db;
        entry.db = undefined;
        if (db) this.#recycle(entry.family, db);
      });
    }
    if (this.#dataDir) await rm(join(this.#dataDir, database), { recursive: true, force: true });
  }

  /** Resets a dropped database's instance in the background and keeps it as a spare, or closes it. */
  #recycle(family: Family, db: PGlite): void {
    const baseline = this.#baselines.get(family);
    const spares = this.#spares.get(family) ?? [];
    const uses = this.#uses.get(db) ?? 0;
    if (this.#dataDir || !baseline || spares.length >= MAX_SPARE || uses >= MAX_USES) {
      void db.close().catch(() => undefined);
      return;
    }
    const reset = resetToBaseline(db, baseline)
      .then(async (clean) => {
        const room = (this.#spares.get(family)?.length ?? 0) < MAX_SPARE;
        if (clean && room) this.#spares.set(family, [...(this.#spares.get(family) ?? []), db]);
        else await db.close();
      })
      .catch(async (error: unknown) => {
        this.#log(`could not reset a dropped database for reuse: ${error}`);
        await db.close().catch(() => undefined);
      })
      .finally(() => pending.delete(reset));
    const pending = this.#resets.get(family) ?? new Set();
    this.#resets.set(family, pending.add(reset));
  }

  async close(): Promise<void> {
    await this.#warming;
    await Promise.all([...this.#resets.values()].flatMap((pending) => [...pending]));
    const spares = [...this.#spares.values()].flat();
    this.#spares.clear();
    await Promise.all(spares.map((db) => db.close()));
    const entries = [...this.#databases.values()];
    this.#databases.clear();
    for (const entry of entries) {
      await entry.mutex.runExclusive(async () => {
        entry.dropped = true;
        await entry.db?.close();
      });
    }
  }

  /** A reset instance for a new database of this family, waiting for a reset under way if need be. */
  async #spare(family: Family): Promise<PGlite | undefined> {
    for (;;) {
      const spare = this.#spares.get(family)?.pop();
      if (spare) return spare;
      const pending = this.#resets.get(family);
      if (!pending?.size) return undefined;
      await Promise.race(pending);
    }
  }

  /** Runs `work` while holding the database, opening (or creating) it first. */
  async #exclusive<T>(database: string, work: (db: PGlite) => Promise<T>): Promise<T> {
    for (;;) {
      const entry = this.#entry(database);
      // Before taking this database's mutex: closing another one takes that one's mutex.
      if (!entry.db) await this.#makeRoom();
      const outcome = await entry.mutex.runExclusive(async () => {
        if (entry.dropped) return undefined; // dropped while this request waited: start over
        entry.db ??= await this.#open(database, entry);
        entry.dump = undefined;
        entry.lastUsed = performance.now();
        const db = entry.db;
        try {
          return { value: await work(db) };
        } catch (error) {
          throw toSqlError(error) ?? error;
        } finally {
          // Whatever happened, the next request must find the session idle, as a pooled
          // Neon connection would be (a failed batch, or a lone BEGIN sent as a single query).
          if (db.isInTransaction()) await execute(db, { query: "ROLLBACK", params: [] });
        }
      });
      if (outcome) return outcome.value;
    }
  }

  #entry(database: string): Database {
    let entry = this.#databases.get(database);
    if (!entry) {
      entry = { family: familyOf(database), mutex: new Mutex(), lastUsed: 0, dropped: false };
      this.#databases.set(database, entry);
    }
    return entry;
  }

  async #open(database: string, entry: Database): Promise<PGlite> {
    const started = performance.now();
    const dir = this.#dataDir && join(this.#dataDir, database);
    const spare = dir || entry.dump ? undefined : await this.#spare(entry.family);
    let db: PGlite;
    let how: string;
    if (spare) {
      db = spare;
      how = "reused an instance for";
    } else if (entry.dump) {
      db = new PGlite({ loadDataDir: await unpackDump(entry.dump) });
      how = "reopened";
    } else if (dir && existsSync(join(dir, "PG_VERSION"))) {
      db = new PGlite({ dataDir: dir });
      how = "opened";
      // An existing database catches up with migrations added since it was created.
      await migratePgliteDatabase(db, entry.family).catch(async (error: unknown) => {
        await db.close();
        throw error;
      });
    } else {
      // Clear what an interrupted creation may have left before loading the template into it.
      if (dir) await rm(dir, { recursive: true, force: true });
      db = new PGlite({ dataDir: dir, loadDataDir: await this.#templates.dump(entry.family) });
      how = "created";
      if (!dir && !this.#baselines.has(entry.family)) {
        await db.waitReady;
        this.#baselines.set(entry.family, await readBaseline(db));
      }
    }
    this.#uses.set(db, (this.#uses.get(db) ?? 0) + 1);
    await db.waitReady;
    // The session settings the PostgreSQL backend sets too, so text output matches Neon's.
    await db.exec("SET TimeZone TO 'UTC'; SET DateStyle TO 'ISO, MDY'");
    this.#log(`${how} ${database} (PGlite${dir ? "" : ", in memory"}) in ${Math.round(performance.now() - started)} ms`);
    return db;
  }

  /**
   * Closes the least recently used idle instances until one more fits under `maxOpen`. It runs
   * in the request that opens an instance, so memory stays bounded however fast they come.
   */
  async #makeRoom(): Promise<void> {
    const open = [...this.#databases.values()].filter((e) => e.db).sort((a, b) => a.lastUsed - b.lastUsed);
    for (const entry of open.slice(0, Math.max(0, open.length - this.#maxOpen + 1))) {
      if (entry.mutex.isLocked()) continue; // in use: not the one to close
      await entry.mutex
        .runExclusive(async () => {
          const db = entry.db;
          if (!db || entry.dropped) return;
          // A persisted database already has its data on disk.
          const dump = this.#dataDir ? undefined : await packDump(db);
          await db.close();
          entry.db = undefined;
          entry.dump = dump;
        })
        // Failing to save memory must not fail the request that asked for room.
        .catch((error: unknown) => this.#log(`could not close an idle database: ${error}`));
    }
  }
}

const { serialize } = protocol;

/** Runs one statement with the extended protocol: text parameters of unspecified type, text results. */
async function execute(db: PGlite, { query, params }: Statement): Promise<StatementResult> {
  const request = concat([
    serialize.parse({ text: query }),
    serialize.bind({ values: params }),
    serialize.describe({ type: "P" }),
    serialize.execute({}),
    serialize.sync(),
  ]);
  const { messages } = await db.execProtocol(request, { throwOnError: false });
  const result: StatementResult = { command: "", rowCount: null, fields: [], rows: [] };
  for (const message of messages) {
    switch (message.name) {
      case "rowDescription":
        result.fields = (message as messages.RowDescriptionMessage).fields.map((f) => ({
          name: f.name,
          dataTypeID: f.dataTypeID,
          tableID: f.tableID,
          columnID: f.columnID,
          dataTypeSize: f.dataTypeSize,
          dataTypeModifier: f.dataTypeModifier,
        }));
        break;
      case "dataRow":
        result.rows.push((message as messages.DataRowMessage).fields);
        break;
      case "commandComplete":
        Object.assign(result, parseCommandTag((message as messages.CommandCompleteMessage).text));
        break;
      case "error":
        throw toSqlError(message) ?? message;
    }
  }
  return result;
}

/** Splits a command tag the way Neon's proxy does: INSERT's count is its third word, others' the second. */
function parseCommandTag(tag: string): Pick<StatementResult, "command" | "rowCount"> {
  const words = tag.split(" ");
  const command = words[0] ?? "";
  const count = Number.parseInt(words[command === "INSERT" ? 2 : 1] ?? "", 10);
  return { command, rowCount: Number.isNaN(count) ? null : count };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
