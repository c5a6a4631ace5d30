/**
 * Loads demo data into an empty source database and prints what it loaded.
 *
 *   npx tsx scripts/demo/cli.ts [--customers N] [--trades-per-customer N|MIN-MAX] [--seed N]
 *
 * The source is SOURCE_DATABASE_URL, by default the local database server's `backoffice`.
 */
import { createSql } from "../../src/db/client";
import { parseArgs } from "node:util";
import { DEMO_DEFAULTS, generateDemoBookChunks, type DemoOptions } from "./generate";
import { demoSlugs, isSourceEmpty, loadBook } from "./load";

const { values } = parseArgs({
  options: {
    customers: { type: "string" },
    "trades-per-customer": { type: "string" },
    seed: { type: "string" },
  },
});

function integer(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n)) throw new Error(`--${flag} must be an integer, got ${text}`);
  return n;
}

function tradesPerCustomer(text: string): DemoOptions["tradesPerCustomer"] {
  const [min, max] = text.split("-");
  return max === undefined
    ? integer("trades-per-customer", text)
    : [integer("trades-per-customer", min!), integer("trades-per-customer", max)];
}

const options: DemoOptions = {
  customers: values.customers === undefined ? undefined : integer("customers", values.customers),
  tradesPerCustomer: values["trades-per-customer"] === undefined ? undefined : tradesPerCustomer(values["trades-per-customer"]),
  seed: values.seed === undefined ? undefined : integer("seed", values.seed),
};

const url =
  process.env.SOURCE_DATABASE_URL ?? `postgres://backoffice:local@127.0.0.1:${process.env.LOCAL_DB_PORT ?? 4444}/backoffice`;
// Name the database without the credentials: logs never carry a connection string.
const { hostname, port, pathname } = new URL(url);
const where = `${pathname.slice(1)} on ${hostname}${port ? `:${port}` : ""}`;
const sql = createSql(url);

if (!(await isSourceEmpty(sql))) {
  console.error(`The source database ${where} already has data; the demo loads only into an empty one.`);
  process.exit(1);
}

const started = performance.now();
const counts = await loadBook(sql, generateDemoBookChunks(options));
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`Loaded demo data (seed ${options.seed ?? DEMO_DEFAULTS.seed}) into ${where} in ${seconds} s:`);
for (const [table, count] of Object.entries(counts))
  console.log(`  ${table.padEnd(13)}${count.toLocaleString("en-US").padStart(12)}`);
console.log("Customer slugs:");
for (const { slug, name } of await demoSlugs(sql)) console.log(`  ${slug}  ${name}`);
