/**
 * Which schema a database gets, chosen by the family its name belongs to, and applying it with
 * drizzle-orm's own migrators so the `drizzle.__drizzle_migrations` bookkeeping is exactly what
 * `drizzle-kit migrate` leaves in production.
 */
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type pg from "pg";
import { SqlError } from "./backend";

export const FAMILIES = ["investments", "backoffice"] as const;
export type Family = (typeof FAMILIES)[number];

const migrationsFolders: Record<Family, string> = {
  investments: fileURLToPath(new URL("../../drizzle/target", import.meta.url)),
  backoffice: fileURLToPath(new URL("../../drizzle/source", import.meta.url)),
};

/** Database names are used as directory names and quoted identifiers, so keep them plain. */
const DATABASE_NAME = /^[A-Za-z0-9_-]{1,63}$/;

/** The family of a database name; anything else is answered like a missing Postgres database. */
export function familyOf(database: string): Family {
  if (DATABASE_NAME.test(database)) {
    if (database.startsWith("investments")) return "investments";
    if (database.startsWith("backoffice")) return "backoffice";
  }
  throw new SqlError({
    message: `unknown database "${database}": names must start with "investments" (target schema) or "backoffice" (source schema)`,
    code: "3D000",
    severity: "FATAL",
  });
}

export async function migratePgliteDatabase(db: PGlite, family: Family): Promise<void> {
  await migratePglite(drizzlePglite({ client: db }), { migrationsFolder: migrationsFolders[family] });
}

export async function migratePostgresDatabase(client: pg.Client, family: Family): Promise<void> {
  await migratePg(drizzlePg({ client }), { migrationsFolder: migrationsFolders[family] });
}

/** A digest of a family's migration files: a cached, already migrated copy is valid while it matches. */
export async function migrationsDigest(family: Family): Promise<string> {
  const hash = createHash("sha256");
  const folder = migrationsFolders[family];
  const files = (await readdir(folder, { recursive: true })).sort();
  for (const file of files) {
    if (!file.endsWith(".sql") && !file.endsWith(".json")) continue;
    hash
      .update(file)
      .update("\0")
      .update(await readFile(`${folder}/${file}`))
      .update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}
