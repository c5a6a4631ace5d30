/**
 * The PostgreSQL engine: one database on an existing server per requested name, reached
 * through a `pg.Pool` per database, a dedicated client per request.
 *
 * New databases are copies of a migrated template per family (`tmpl_investments_<digest>`,
 * `tmpl_backoffice_<digest>`): `CREATE DATABASE ... TEMPLATE` takes ~100 ms where running the
 * migrations takes seconds. Creation holds a Postgres advisory lock per family, so two
 * requests (or two servers sharing the PostgreSQL) never race to create the same database or
 * clone a template while it is being migrated.
 */
import pg from "pg";
import { type Backend, runBatch, type Statement, type StatementResult, toSqlError, type TransactionOptions } from "./backend";
import { type Family, familyOf, migratePostgresDatabase, migrationsDigest } from "./schemas";

export interface PgBackendOptions {
  /** A server URL such as postgres://postgres@127.0.0.1:5432 (its database is used for admin work). */
  pgUrl: string;
  log: (msg: string) => void;
}

export class PgBackend implements Backend {
  readonly #pgUrl: string;
  readonly #log: (msg: string) => void;
  readonly #admin: pg.Pool;
  readonly #pools = new Map<string, Promise<pg.Pool>>();
  /** Families whose template this process has brought up to date with the migrations. */
  readonly #templatesMigrated = new Set<Family>();
  /** Drops still running, by database: a request for that name waits for its drop first. */
  readonly #dropping = new Map<string, Promise<void>>();
  /** Drops that failed, reported by close() so that a test run cannot leave databases behind unseen. */
  readonly #dropFailures: string[] = [];

  constructor({ pgUrl, log }: PgBackendOptions) {
    this.#pgUrl = pgUrl;
    this.#log = log;
    this.#admin = this.#newPool(pgUrl, "admin");
  }

  query(database: string, statement: Statement): Promise<StatementResult> {
    return this.#withClient(database, (client) => execute(client, statement));
  }

  transaction(database: string, statements: Statement[], options: TransactionOptions): Promise<StatementResult[]> {
    // On an error #withClient rolls the open transaction back.
    return this.#withClient(database, (client) => runBatch((statement) => execute(client, statement), statements, options));
  }

  /**
   * Answers at once and drops in the background: tests drop their databases as they end, and a
   * DROP DATABASE takes as long as creating one. A later request for the name waits for it.
   */
  async drop(database: string): Promise<void> {
    familyOf(database); // validates the name before it goes into SQL
    // Taken now, so no request reaches the old database while the drop waits its turn.
    const pool = this.#pools.get(database);
    this.#pools.delete(database);
    const previous = this.#dropping.get(database) ?? Promise.resolve();
    const dropped = previous
      .then(() => this.#drop(database, pool))
      .catch((error: unknown) => {
        this.#dropFailures.push(`${database}: ${(error as Error)?.message ?? error}`);
      })
      .finally(() => {
        if (this.#dropping.get(database) === dropped) this.#dropping.delete(database);
      });
    this.#dropping.set(database, dropped);
  }

  async #drop(database: string, pending: Promise<pg.Pool> | undefined): Promise<void> {
    const pool = await pending?.catch(() => undefined);
    // Not awaited before the DROP: FORCE ends the pool's busy connections, which lets end() finish.
    const ended = pool?.end();
    await this.#admin.query(`DROP DATABASE IF EXISTS ${ident(database)} WITH (FORCE)`);
    await ended;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#dropping.values()]);
    const pools = await Promise.allSettled([...this.#pools.values()]);
    this.#pools.clear();
    await Promise.all(pools.map((p) => (p.status === "fulfilled" ? p.value.end() : undefined)));
    await this.#admin.end();
    if (this.#dropFailures.length)
      throw new Error(`could not drop ${this.#dropFailures.length} database(s):\n${this.#dropFailures.join("\n")}`);
  }

  async #withClient<T>(database: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await (await this.#pool(database)).connect();
    let broken: Error | undefined;
    try {
      return await work(client);
    } catch (error) {
      const sqlError = toSqlError(error);
      if (!sqlError) broken = error as Error;
      throw sqlError ?? error;
    } finally {
      // Return the connection idle, as Neon's pool does (a failed batch, or a lone BEGIN sent
      // as a single query); a connection that cannot be cleaned is discarded instead.
      if (!broken && client.getTransactionStatus() !== "I") {
        broken = await client.query("ROLLBACK").then(
          () => undefined,
          (error: Error) => error,
        );
      }
      client.release(broken);
    }
  }

  #pool(database: string): Promise<pg.Pool> {
    let pool = this.#pools.get(database);
    if (!pool) {
      const dropping = this.#dropping.get(database) ?? Promise.resolve();
      const created = dropping
        .then(() => this.#ensureDatabase(database))
        .then(() => this.#newPool(this.#urlOf(database), database));
      created.catch(() => {
        if (this.#pools.get(database) === created) this.#pools.delete(database);
      });
      this.#pools.set(database, created);
      pool = created;
    }
    return pool;
  }

  #newPool(connectionString: string, name: string): pg.Pool {
    // Small and quick to let go: tests create many databases and max_connections is shared.
    // UTC and ISO dates make timestamptz and date text come out as on Neon, whatever the server's defaults.
    const pool = new pg.Pool({
      connectionString,
      max: 4,
      idleTimeoutMillis: 2000,
      options: "-c TimeZone=UTC -c DateStyle=ISO,MDY",
    });
    // An idle connection that dies must not crash the server; while the pool is being ended
    // (a DROP DATABASE ... WITH (FORCE) races the pool's own goodbyes) that is expected.
    pool.on("error", (error) => {
      if (!pool.ending) this.#log(`connection to ${name} lost: ${error.message}`);
    });
    return pool;
  }

  async #ensureDatabase(database: string): Promise<void> {
    const family = familyOf(database);
    const started = performance.now();
    await this.#underFamilyLock(family, async (admin) => {
      const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
      if (exists.rowCount) {
        // An existing database catches up with migrations added since it was created.
        await this.#migrate(database, family);
        this.#log(`opened ${database} (PostgreSQL) in ${Math.round(performance.now() - started)} ms`);
        return;
      }
      const template = await this.#template(admin, family);
      await admin.query(`CREATE DATABASE ${ident(database)} TEMPLATE ${ident(template)}`);
      this.#log(`created ${database} (PostgreSQL) in ${Math.round(performance.now() - started)} ms`);
    });
  }

  /**
   * The family's template database, created and migrated on first use by this process. Its name
   * carries a digest of the migrations, so a template built from other migrations is never reused.
   */
  async #template(admin: pg.PoolClient, family: Family): Promise<string> {
    const template = `tmpl_${family}_${(await migrationsDigest(family)).slice(0, 12)}`;
    if (this.#templatesMigrated.has(family)) return template;
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
    if (!exists.rowCount) await admin.query(`CREATE DATABASE ${ident(template)}`);
    await this.#migrate(template, family);
    this.#templatesMigrated.add(family);
    return template;
  }

  async #migrate(database: string, family: Family): Promise<void> {
    // A plain client, ended before returning: CREATE DATABASE refuses a template that has connections.
    const client = new pg.Client({ connectionString: this.#urlOf(database) });
    await client.connect();
    try {
      await migratePostgresDatabase(client, family);
    } finally {
      await client.end();
    }
  }

  async #underFamilyLock(family: Family, work: (admin: pg.PoolClient) => Promise<void>): Promise<void> {
    const admin = await this.#admin.connect();
    const key = `local-db:${family}`;
    let unlockFailed: Error | undefined;
    try {
      await admin.query("SELECT pg_advisory_lock(hashtext($1))", [key]);
      await work(admin);
    } finally {
      unlockFailed = await admin.query("SELECT pg_advisory_unlock(hashtext($1))", [key]).then(
        () => undefined,
        (error: Error) => error,
      );
      // A session that may still hold the lock is closed rather than pooled: closing releases it.
      admin.release(unlockFailed);
    }
  }

  #urlOf(database: string): string {
    const url = new URL(this.#pgUrl);
    url.pathname = `/${encodeURIComponent(database)}`;
    return url.toString();
  }
}

/** node-postgres hands back every value as the text Postgres sent, like Neon's raw text output. */
const rawText = { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig;

/**
 * Runs one statement with the extended protocol even without parameters, as Neon's proxy does,
 * so a string holding several statements fails the same way it would there.
 */
async function execute(client: pg.PoolClient, { query, params }: Statement): Promise<StatementResult> {
  const config: pg.QueryArrayConfig & { queryMode: "extended" } = {
    text: query,
    values: params,
    rowMode: "array",
    types: rawText,
    queryMode: "extended",
  };
  const result = await client.query<(string | null)[]>(config);
  return {
    command: result.command ?? "",
    rowCount: result.rowCount,
    fields: result.fields.map((f) => ({
      name: f.name,
      dataTypeID: f.dataTypeID,
      tableID: f.tableID,
      columnID: f.columnID,
      dataTypeSize: f.dataTypeSize,
      dataTypeModifier: f.dataTypeModifier,
    })),
    rows: result.rows,
  };
}

function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
