/**
 * The PGlite backend keeps only `maxOpen` instances open (scripts/local-db/pglite-backend.ts):
 * an idle one is closed and its data packed, then reopened from the pack when next used. This
 * server of its own keeps two open, so three databases are enough to close and reopen one, where
 * the run's shared server (eight open) would need nine PGlite instances. It runs in Node because
 * it starts a server, which workerd cannot.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSql } from "../../src/db/client";
import { type LocalDbServer, startLocalDbServer } from "../../scripts/local-db";

let server: LocalDbServer;
const log: string[] = [];
beforeAll(async () => {
  server = await startLocalDbServer({ port: 0, maxOpen: 2, log: (line) => log.push(line) });
});
afterAll(() => server.close());

it("keeps each database's data when more are used than stay open", { timeout: 180_000 }, async () => {
  const names = ["investments_treopen1", "investments_treopen2", "investments_treopen3"];
  for (const name of names) {
    const sql = createSql(server.connectionString(name));
    await sql`insert into brokers (id, code, name, source_updated_at)
      values ('00000000-0000-4000-8000-000000000001', ${name}, 'Broker', '2024-01-02T03:04:05.123456Z')`;
  }
  // The first was closed to make room for the third: reading it back reopens it from its pack.
  expect(log.filter((line) => line.startsWith("reopened"))).toStrictEqual([]);
  for (const name of names) {
    expect(await createSql(server.connectionString(name))`select code from brokers`).toStrictEqual([{ code: name }]);
  }
  expect(log.find((line) => line.startsWith("reopened"))).toMatch(/^reopened investments_treopen1 /);
});
