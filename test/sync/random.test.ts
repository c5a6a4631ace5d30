/**
 * A back office doing odd things at random (docs/sync.md): inserts, updates, soft deletes,
 * restores, hard deletes, account moves, trades moved in time or to another account, slug
 * exchanges and renames, rows no ledger can hold, parents committed long after their children,
 * and changes made without bumping updated_at, with delta syncs in between. After every delta run
 * nothing is served under an owner the source does not give it, and each customer's stored
 * merge, position steps and trade places equal those made afresh; after a final full run the
 * target serves exactly what the source holds, stored metrics included.
 *
 * Seeded, so a failure replays: add its seed to SEEDS. More seeds: VITE_SYNC_SEEDS=1,2,3.
 */
import { describe, expect, it } from "vitest";
import type { Sql } from "../../src/db/client";
import { newSlug } from "../../src/domain/slug";
import type { Env } from "../../src/env";
import { Book } from "../support/book";
import { getJson } from "../support/worker";
import {
  dropSourceForeignKeys,
  expectInSync,
  expectMergesAddUp,
  expectPlacesAddUp,
  expectStoredRowsAddUp,
  synced,
  withSource,
} from "./helpers";

const SEEDS = import.meta.env.VITE_SYNC_SEEDS?.split(",").map(Number) ?? [7, 20261123];
const OPERATIONS = 240;
const SYNC_EVERY = 30;

/** mulberry32: small, fast and good enough to drive a test. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T | undefined => (items.length ? items[Math.floor(next() * items.length)] : undefined),
  };
}

function startingBook(): Book {
  const book = new Book();
  const brokers = [book.broker({ code: "SSI" }), book.broker({ code: "VND", name: "VNDIRECT" })];
  const staff = [book.staffMember(), book.staffMember({ name: "Võ Văn Tâm" })];
  for (let c = 0; c < 5; c++) {
    const customer = book.customer({ staff_id: staff[c % 2]!.id });
    for (let a = 0; a < 1 + (c % 2); a++) {
      const account = book.account({ customer_id: customer.id, broker_id: brokers[(c + a) % 2]!.id, account_no: `0${c}${a}` });
      book.holding({ account_id: account.id, stock_code: a ? "HPG" : "FPT" });
      for (let d = 1; d <= 5; d++) {
        book.trade({
          account_id: account.id,
          trade_date: `2024-0${d}-1${c}`,
          stock_code: d % 2 ? "FPT" : "HPG",
          type: d % 3 === 0 ? "sell" : "buy",
          quantity: 100 * d + c,
          price: `${20000 + 137 * d}.5`,
          fee: `${d}.2500`,
        });
      }
    }
  }
  return book;
}

const TABLES = ["brokers", "staff", "customers", "accounts", "holdings", "transactions"] as const;

type Rng = ReturnType<typeof random>;

/** One random back-office operation on the source; returns its name for the failure message. */
async function operate(source: Sql, rng: Rng): Promise<string> {
  // Stamped up to a minute back: transactions that commit late, well inside the overlap window.
  const stamp = `clock_timestamp() - make_interval(secs => ${rng.int(60)})`;
  const ids = async (table: string, where = "true") =>
    (await source.query(`select id from ${table} where ${where} order by id`)).map((r) => r.id as string);
  const touch = (table: string, id: string, set: string, params: unknown[] = []) =>
    source.query(`update ${table} set ${set}, updated_at = ${stamp} where id = $1`, [id, ...params]);
  const kind = rng.int(13);
  switch (kind) {
    case 0:
    case 1: {
      const account = rng.pick(await ids("accounts"));
      if (!account) return "no account to trade in";
      const bad = rng.int(6) === 0;
      const type = rng.int(3) === 0 ? "sell" : "buy";
      const quantity = bad ? -rng.int(3) : 1 + rng.int(400);
      await source.query(
        `insert into transactions (id, account_id, trade_date, stock_code, isin_code, type, quantity, price, total_value, fee, personal_tax, updated_at)
         values (gen_random_uuid(), $1, $2, $3, 'VN000000TST1', $4, $5, 21000, $6, $7, 0, ${stamp})`,
        [
          account,
          `2024-${String(1 + rng.int(12)).padStart(2, "0")}-1${rng.int(10)}`,
          rng.pick(["FPT", "HPG", "VNM"]),
          type,
          quantity,
          21000 * Math.abs(quantity),
          bad && rng.int(2) ? "-1" : `${rng.int(50)}.0001`,
        ],
      );
      return bad ? "insert a bad trade" : "insert a trade";
    }
    case 2: {
      const trade = rng.pick(await ids("transactions"));
      if (!trade) return "no trade";
      const change = rng.pick([
        "quantity = quantity + 7",
        "fee = fee + 0.0001",
        "price = -price",
        "quantity = abs(quantity) + 1, price = abs(price)",
        "stock_code = 'vnm'",
        "stock_code = 'VNM'",
        "trade_date = trade_date - 45",
        "trade_date = trade_date + 45",
        "account_id = $2",
      ])!;
      await touch("transactions", trade, change, change.includes("$2") ? [rng.pick(await ids("accounts"))] : []);
      return `update a trade: ${change}`;
    }
    case 3:
    case 4: {
      const table = rng.pick(TABLES)!;
      const id = rng.pick(await ids(table, "deleted_at is null"));
      if (id) await touch(table, id, "deleted_at = clock_timestamp()");
      return `soft-delete a row of ${table}`;
    }
    case 5: {
      const table = rng.pick(TABLES)!;
      const id = rng.pick(await ids(table, "deleted_at is not null"));
      if (id) await touch(table, id, "deleted_at = null");
      return `restore a row of ${table}`;
    }
    case 6: {
      const table = rng.pick(["transactions", "holdings", "accounts", "customers"] as const)!;
      const id = rng.pick(await ids(table));
      if (id) await source.query(`delete from ${table} where id = $1`, [id]);
      return `hard-delete a row of ${table}`;
    }
    case 7: {
      const [account, customer] = [rng.pick(await ids("accounts")), rng.pick(await ids("customers"))];
      if (account && customer) await touch("accounts", account, "customer_id = $2", [customer]);
      return "move an account";
    }
    case 8: {
      const customers = await source.query(`select id, slug from customers order by id`);
      const [a, b] = [rng.pick(customers), rng.pick(customers)];
      if (!a || !b || a.id === b.id) return "no two customers";
      await touch("customers", a.id as string, "slug = $2", [`transit-${crypto.randomUUID()}`]);
      await touch("customers", b.id as string, "slug = $2", [a.slug]);
      await touch("customers", a.id as string, "slug = $2", [b.slug]);
      return "exchange two slugs";
    }
    case 9: {
      const customer = rng.pick(await ids("customers"));
      if (customer)
        await touch("customers", customer, "slug = $2", [rng.int(5) === 0 ? `no good slug ${crypto.randomUUID()}!` : newSlug()]);
      return "rename a slug";
    }
    case 10: {
      // A parent committed long after its children, stamped an hour back: only a full run sees it.
      const [staff, broker] = [rng.pick(await ids("staff")), rng.pick(await ids("brokers"))];
      if (!staff || !broker) return "no staff or broker";
      const customer = crypto.randomUUID();
      const account = crypto.randomUUID();
      await source.query(
        `insert into accounts (id, customer_id, broker_id, account_no, updated_at) values ($1, $2, $3, 'LATE', ${stamp})`,
        [account, customer, broker],
      );
      await source.query(
        `insert into transactions (id, account_id, trade_date, stock_code, isin_code, type, quantity, price, total_value, fee, personal_tax, updated_at)
         values (gen_random_uuid(), $1, '2024-06-01', 'FPT', 'VN000000FPT1', 'buy', 10, 1000, 10000, 1, 0, ${stamp})`,
        [account],
      );
      await source.query(
        `insert into customers (id, slug, name, email, phone, staff_id, updated_at)
         values ($1, $2, 'Late Parent', 'late@example.test', '+84900000000', $3, clock_timestamp() - interval '1 hour')`,
        [customer, newSlug(), staff],
      );
      return "commit a parent late";
    }
    case 11: {
      const trade = rng.pick(await ids("transactions"));
      if (trade) await source.query(`update transactions set fee = fee + 3 where id = $1`, [trade]);
      return "change a trade without bumping updated_at";
    }
    default: {
      const holding = rng.pick(await ids("holdings"));
      if (holding) await touch("holdings", holding, "quantity = $2", [rng.int(4) === 0 ? -5 : rng.int(1000)]);
      return "update a holding";
    }
  }
}

/**
 * Nothing is served under an owner the source does not give it: every served customer is the
 * source's live customer of that slug, and every served account and trade that the source still
 * has is, in the source, live and that customer's. (Rows the source deleted outright and values
 * changed without updated_at wait for a full run: only their owner is checked.)
 */
async function expectNoWrongOwner(env: Env, source: Sql): Promise<void> {
  const uncached = { ...env, CACHE_TTL_SECONDS: "0" };
  const customers = await source.query(`select id, slug, deleted_at from customers`);
  const accounts = new Map((await source.query(`select id, customer_id, deleted_at from accounts`)).map((a) => [a.id, a]));
  const trades = new Map((await source.query(`select id, account_id, deleted_at from transactions`)).map((t) => [t.id, t]));
  for (const { slug } of customers) {
    const { status, body } = await getJson(uncached, `/api/aggregate/${encodeURIComponent(slug as string)}`);
    if (status === 404) continue;
    expect(status).toBe(200);
    const owner = customers.find((c) => c.slug === slug)!;
    expect(body.data.customer.id, `slug ${slug}`).toBe(owner.id);
    expect(owner.deleted_at, `slug ${slug} served for a deleted customer`).toBeNull();
    for (const account of body.data.customer.accounts) {
      const truth = accounts.get(account.id);
      if (truth)
        expect({ owner: truth.customer_id, deleted: truth.deleted_at }, `account ${account.id}`).toEqual({
          owner: owner.id,
          deleted: null,
        });
    }
    const history = await getJson(uncached, `/api/transactions/${slug}?per_page=100`);
    for (const trade of history.body.data) {
      const truth = trades.get(trade.id);
      if (!truth) continue;
      const account = accounts.get(truth.account_id);
      expect(truth.deleted_at, `trade ${trade.id}`).toBeNull();
      if (account)
        expect({ owner: account.customer_id, deleted: account.deleted_at }, `trade ${trade.id}'s account`).toEqual({
          owner: owner.id,
          deleted: null,
        });
    }
  }
}

/**
 * Every served customer's history, paged as the API pages it, equals a plain ORDER BY / OFFSET
 * over its served trades (live trade, live account still the customer's, broker present), and
 * so does a page of each of its accounts: the stored places (src/sync/ordinals.ts) follow what
 * is served through deletes, restores, moves and held rows. With nothing pending, every page
 * comes from the stored places, which the check asserts were built.
 */
async function expectPagesAsOffset(env: Env, target: Sql): Promise<void> {
  const uncached = { ...env, CACHE_TTL_SECONDS: "0" };
  expect(await target.query(`select customer_id from metrics_pending`)).toEqual([]);
  const served = (await target.query(
    `select c.slug, t.id, t.account_id, t.stock_code from customers c
     join transactions t on t.customer_id = c.id
     join accounts a on a.id = t.account_id and a.customer_id = c.id
     where c.slug is not null and c.deleted_at is null and c.rejected is null
       and t.deleted_at is null and t.rejected is null and a.deleted_at is null and a.rejected is null
       and exists (select from brokers b where b.id = a.broker_id)
     order by t.trade_date desc, t.id desc`,
  )) as { slug: string; id: string; account_id: string; stock_code: string }[];
  const built = new Set(
    (await target.query(`select c.slug from customers c join customer_histories h on h.customer_id = c.id`)).map((r) => r.slug),
  );
  const perPage = 3;
  const page = async (path: string, n: number) => {
    const { status, body } = await getJson(uncached, `${path}${path.includes("?") ? "&" : "?"}per_page=${perPage}&page=${n}`);
    expect(status, path).toBe(200);
    return { total: body.pagination.total, ids: body.data.map((t: { id: string }) => t.id) };
  };
  // The second page (a skip) and the last (partial, or the first past the end): each request costs a check.
  const expectPaged = async (path: string, ids: string[], pages: (last: number) => number[]) => {
    const last = Math.max(1, Math.ceil(ids.length / perPage));
    for (const n of new Set(pages(last))) {
      expect(await page(path, n), `${path} page ${n}`).toEqual({
        total: ids.length,
        ids: ids.slice((n - 1) * perPage, n * perPage),
      });
    }
  };
  for (const { slug } of await target.query(`select slug from customers where slug is not null order by id`)) {
    const { status, body } = await getJson(uncached, `/api/aggregate/${slug}`);
    if (status === 404) continue;
    expect(built.has(slug), `${slug}'s history is placed`).toBe(true);
    const theirs = served.filter((t) => t.slug === slug);
    await expectPaged(
      `/api/transactions/${slug}`,
      theirs.map((t) => t.id),
      (last) => [2, last],
    );
    for (const account of body.data.customer.accounts as { id: string }[]) {
      const ids = theirs.filter((t) => t.account_id === account.id).map((t) => t.id);
      await expectPaged(`/api/transactions/${slug}/${account.id}`, ids, (last) => [last]);
    }
    // Filtered by a stock code alone, the page is merged from the accounts' index ranges and its total stored.
    for (const code of new Set(theirs.map((t) => t.stock_code))) {
      const ofCode = theirs.filter((t) => t.stock_code === code);
      await expectPaged(
        `/api/transactions/${slug}?stock_code=${code}`,
        ofCode.map((t) => t.id),
        (last) => [1, 2, last],
      );
      const account = ofCode[0]!.account_id;
      const ids = ofCode.filter((t) => t.account_id === account).map((t) => t.id);
      await expectPaged(`/api/transactions/${slug}/${account}?stock_code=${code}`, ids, (last) => [last]);
    }
  }
}

describe("a back office doing odd things at random", () => {
  it.each(SEEDS)(
    "seed %i: serves no one else's data after each delta run, and exactly the source after a full run",
    async (seed) => {
      const rng = random(seed);
      const dbs = await withSource(startingBook());
      await dropSourceForeignKeys(dbs.source);
      await synced(dbs.env);
      const done: string[] = [];
      for (let op = 1; op <= OPERATIONS; op++) {
        done.push(await operate(dbs.source, rng));
        if (op % SYNC_EVERY === 0) {
          const report = await synced(dbs.env);
          expect(report.complete, `after: ${done.slice(-SYNC_EVERY).join("; ")}`).toBe(true);
          await expectNoWrongOwner(dbs.env, dbs.source);
          await expectMergesAddUp(dbs.target);
          await expectStoredRowsAddUp(dbs.target);
          await expectPlacesAddUp(dbs.target);
          await expectPagesAsOffset(dbs.env, dbs.target);
        }
      }
      const full = await synced(dbs.env, "full");
      expect(full.complete).toBe(true);
      await expectMergesAddUp(dbs.target);
      await expectStoredRowsAddUp(dbs.target);
      await expectPlacesAddUp(dbs.target);
      await expectPagesAsOffset(dbs.env, dbs.target);
      await expectInSync(dbs);
    },
    600_000,
  );
});
