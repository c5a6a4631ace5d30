/**
 * Reconciliation (`?mode=full`, docs/sync.md): repairs whatever a cursor cannot see, whatever
 * happened before: rows the source deleted outright, rows changed without their `updated_at`,
 * target rows edited or deleted by hand, rows a run once missed.
 *
 * The approach is pt-table-checksum / data-diff's: each database sums a hash of every contract
 * column of every row, grouped by id range, so two equal ranges cost one small result row each
 * and never travel. Ranges are uuid prefixes (src/sync/id-ranges.ts): the whole table is first
 * compared as 256 ranges (two hex digits), in as many statements as keep each statement's rows
 * bounded, however large the table; a range that differs is split into 16 until it holds few rows, and a small
 * differing range (a leaf) is repaired: its source rows are read and applied through the same
 * statement as delta pages (which writes only rows that really differ), and target rows in the
 * range the source does not have are removed. Random uuids spread rows evenly over prefixes.
 *
 * Resumable: `reconcile_progress` keeps, per table, the id up to which it has been compared and
 * repaired, written in each repair's transaction; a run stopped by its budget leaves it there and
 * the next run (of any mode) goes on from it. A run that stops inside a differing range records
 * the range, and the next goes straight back into it, so every run moves the reconciliation on
 * however little budget the delta left it. Tables go parents first, so a repaired child finds
 * its parent already repaired.
 *
 * History: `reconciliations` keeps each one, from the run that asked for it to the run that
 * completed it, with what it repaired per table (for GET /api/sync/status).
 */
import { type SQL, sql } from "drizzle-orm";
import { MIRRORED, reconcileProgress, reconciliations } from "../db/schema";
import { addApplied, type Applied, applyPage, removeRows } from "./apply";
import type { Budget } from "./budget";
import { isoMicros, sourceRows } from "./cursor";
import { effect, int, manyRows, text, textOrNull, type Statement, type SyncDatabase } from "./database";
import { chunkDigits, FIRST_DEPTH, highest, lowest, MAX_DEPTH, MAX_UUID, prefixes, tableSizes } from "./id-ranges";
import { holdsLease, renewLease } from "./lease";
import type { ReconcileWork, Repaired, Trigger } from "./report";
import { STREAMS, type Stream, type StreamName } from "./streams";

interface Range {
  prefix: string;
  /** Rows on each side, from the comparison that found the range different. */
  rows: number;
}

/** One row's contract columns as text, identical in both databases for identical rows. */
function rowText(stream: Stream, updatedAt: string): SQL {
  const values = [
    sql`id::text`,
    isoMicros(sql.identifier(updatedAt)),
    isoMicros(sql`deleted_at`),
    ...stream.columns.map((c) =>
      c.type === "date" ? sql`to_char(${sql.identifier(c.name)}, 'YYYY-MM-DD')` : sql`${sql.identifier(c.name)}::text`,
    ),
  ];
  // A null must not look like any text, so each value is quoted or spelled NULL.
  return sql`concat_ws('|', ${sql.join(
    values.map((v) => sql`coalesce(quote_literal(${v}), 'NULL')`),
    sql`, `,
  )})`;
}

/** A condition on `id` (qualified as `column`): in the range from `lo` to `hi`, after `after` (null: from `lo`). */
const idRange = (column: SQL, lo: string, hi: string, after: string | null) =>
  sql`${column} between ${lo}::uuid and ${hi}::uuid and (${after}::uuid is null or ${column} > ${after}::uuid)`;

/**
 * Per range of `depth` hex digits under `prefix`, after `after`: rows and the sum of their
 * 64-bit hashes (numeric, so the sum cannot overflow). Equal tables give equal results.
 */
function checksums(stream: Stream, updatedAt: string, prefix: string, depth: number, after: string | null) {
  return manyRows(
    sql`select substr(id::text, 1, ${depth}::int) as bucket, count(*)::int as rows, sum(h)::text as hash
       from (
         select id, ('x' || substr(md5(${rowText(stream, updatedAt)}), 1, 16))::bit(64)::bigint as h
         from ${stream.table} where ${idRange(sql`id`, lowest(prefix), highest(prefix), after)}
       ) r
       group by 1 order by 1`,
    (r) => ({ bucket: text(r.bucket), rows: int(r.rows), hash: text(r.hash) }),
  );
}

/**
 * Where a reconciliation stands: per table, compared up to `after` (null: from the start), the
 * range a run stopped inside (`descent`), and the rows repaired so far. Empty: none under way.
 */
export const loadProgress = () =>
  manyRows(
    sql`select stream, after_id, descent, descent_rows, inserted, updated, deleted from ${reconcileProgress} order by stream`,
    (r) => ({
      stream: text(r.stream) as StreamName,
      after: textOrNull(r.after_id),
      descent: r.descent === null ? null : { prefix: text(r.descent), rows: int(r.descent_rows) },
      repaired: { inserted: int(r.inserted), updated: int(r.updated), deleted: int(r.deleted) },
    }),
  );

/**
 * Puts a reconciliation under way unless one already is, when `requested` and the run `holder`
 * holds the lease (or whoever holds it, when `evenIfBusy`), and opens its history row. Sent in
 * the batch that takes the lease, so a full run stopped before it got to compare anything still
 * leaves the request for the runs after it.
 */
export const requestReconciliation = (
  holder: string,
  trigger: Trigger,
  requested: boolean,
  evenIfBusy = false,
): Statement<void> =>
  effect(
    sql`with asked as (
         select where ${requested}::boolean and not exists (select from ${reconcileProgress})
           and (${evenIfBusy}::boolean or ${holdsLease(sql`${holder}::uuid`)})
       ),
       progress as (
         insert into ${reconcileProgress} (stream, after_id) select unnest(${sql.param(STREAMS.map((s) => s.name))}::text[]), null from asked
       )
       insert into ${reconciliations} (id, trigger, started_at) select ${holder}::uuid, ${trigger}, now() from asked`,
  );

/** The reconciliation under way: the latest one not finished. */
const OPEN = sql`(select id from ${reconciliations} where finished_at is null order by started_at desc limit 1)`;

/**
 * Adds what this run did for the reconciliation under way to its progress and history: rows
 * repaired per table, ranges, one more run. Sent once per run, when it ends or completes the
 * reconciliation (a run killed midway loses only its own counts, never its repairs).
 */
export function recordRepairs(reconciled: Reconciled): Statement<void> {
  const counts = Object.entries(repairedRows(reconciled)).map(([stream, r]) => ({ stream, ...r }));
  return effect(
    sql`with counts as (select * from jsonb_to_recordset(${JSON.stringify(counts)}::jsonb) as c(stream text, inserted int, updated int, deleted int)),
       bumped as (
         update ${reconcileProgress} p set inserted = p.inserted + c.inserted, updated = p.updated + c.updated,
           deleted = p.deleted + c.deleted
         from counts c where p.stream = c.stream
       )
       update ${reconciliations} set runs = runs + 1, compared_ranges = compared_ranges + ${reconciled.compared_ranges},
         repaired_ranges = repaired_ranges + ${reconciled.repaired_ranges}
       where id = ${OPEN}`,
  );
}

/** Closes the reconciliation: its history row takes the rows repaired per table, and the progress goes. */
const completeReconciliation = (): Statement<void> =>
  effect(
    sql`with closed as (
         update ${reconciliations} set finished_at = now(), repaired = (
           select jsonb_object_agg(stream, jsonb_build_object('inserted', inserted, 'updated', updated, 'deleted', deleted))
           from ${reconcileProgress})
         where id = ${OPEN}
       )
       delete from ${reconcileProgress}`,
  );

const saveProgress = (stream: StreamName, after: string): Statement<void> =>
  effect(sql`update ${reconcileProgress} set after_id = ${after} where stream = ${stream}`);

/** Records the range a run stopped inside, so the next goes straight back into it. */
const saveDescent = (stream: StreamName, range: Range | null): Statement<void> =>
  effect(
    sql`update ${reconcileProgress} set descent = ${range?.prefix ?? null}, descent_rows = ${range?.rows ?? null}
      where stream = ${stream}`,
  );

interface Context {
  source: SyncDatabase;
  target: SyncDatabase;
  budget: Budget;
  holder: string;
}

/** What a run did for the reconciliation under way; `done` when it is complete and recorded. */
export interface Reconciled extends ReconcileWork {
  repairs: { stream: StreamName; applied: Applied }[];
  /**
   * The error that stopped it. Repairs committed before it stay committed, so the run still
   * counts and records them (src/sync/run.ts) before it fails with this error.
   */
  failure?: unknown;
}

/** The rows repairs wrote, per table. */
export function repairedRows(reconciled: Reconciled): Partial<Record<StreamName, Repaired>> {
  const rows: Partial<Record<StreamName, Repaired>> = {};
  for (const { stream, applied } of reconciled.repairs) {
    const r = (rows[stream] ??= { inserted: 0, updated: 0, deleted: 0 });
    r.inserted += applied.inserted;
    r.updated += applied.updated;
    r.deleted += applied.deleted;
  }
  return rows;
}

/** A reconciliation step's context: the run's databases and budget, and what this run did so far. */
type Step = Context & { work: Reconciled };

/**
 * Goes on with the reconciliation under way, if any (requestReconciliation): null when none is;
 * else what this run did, `done` when every table has been compared to its end, not when the
 * budget ran out first.
 */
export async function reconcile(ctx: Context): Promise<Reconciled | null> {
  const [progress, sizes] = await ctx.target.run([loadProgress(), tableSizes()]);
  if (progress.length === 0) return null;
  const sizeOf = new Map(sizes.map((s) => [s.stream, s.rows]));
  const work: Reconciled = { compared_ranges: 0, repaired_ranges: 0, done: false, repairs: [] };
  try {
    const progressOf = new Map(progress.map((p) => [p.stream, p]));
    for (const stream of STREAMS) {
      const p = progressOf.get(stream.name);
      if (p?.after === MAX_UUID) continue;
      const at = { after: p?.after ?? null, descent: p?.descent ?? null, rows: sizeOf.get(stream.name) ?? 0 };
      if (!(await reconcileTable({ ...ctx, work }, stream, at))) return work;
    }
    await ctx.target.run([recordRepairs(work), completeReconciliation()]);
    work.done = true;
  } catch (failure) {
    work.failure = failure;
  }
  return work;
}

/** Where a table stands: compared up to `after`, stopped inside `descent`, about `rows` rows. */
interface TableAt {
  after: string | null;
  descent: Range | null;
  rows: number;
}

async function reconcileTable(ctx: Step, stream: Stream, at: TableAt): Promise<boolean> {
  let { after } = at;
  const { descent } = at;
  const small = (range: Range) => range.rows <= ctx.budget.limits.reconcileLeafRows || range.prefix.length >= MAX_DEPTH;
  /** Makes one differing range equal: repaired row by row when small, else split and compared again. */
  const settle = async (range: Range): Promise<boolean> => {
    const done = small(range) ? await repair(ctx, stream, range, after) : await walk(range.prefix, range.prefix.length + 1);
    if (!done) return false;
    after = highest(range.prefix);
    return true;
  };
  const walk = async (prefix: string, depth: number): Promise<boolean> => {
    if (ctx.budget.spent) return false;
    const differing = await ctx.budget.step(() => compare(ctx, stream, prefix, depth, after));
    for (const range of differing) {
      if (ctx.budget.spent) {
        // Stopped with this range known to differ: the next run starts in it, not at the top.
        await ctx.target.run([saveDescent(stream.name, range)]);
        return false;
      }
      if (!(await settle(range))) return false;
    }
    return true;
  };
  // A range this table's previous run stopped inside, unless that run finished it after all.
  if (descent && (after === null || after < highest(descent.prefix))) {
    if (!(await settle(descent))) return false;
  }
  // The first comparison, in statements of bounded size; a run stopped between two of them
  // saves how far it got, since no repair may have saved it.
  const digits = chunkDigits(at.rows, ctx.budget.limits.reconcileCompareRows);
  for (const chunk of prefixes(digits)) {
    if (after !== null && highest(chunk) <= after) continue;
    if (ctx.budget.spent) {
      if (after !== null) await ctx.target.run([saveProgress(stream.name, after)]);
      return false;
    }
    if (!(await walk(chunk, Math.max(FIRST_DEPTH, digits + 1)))) return false;
    after = highest(chunk);
  }
  await ctx.target.run([saveProgress(stream.name, MAX_UUID)]);
  return true;
}

/** The ranges of `depth` digits under `prefix` whose checksums differ, in id order. */
async function compare(ctx: Step, stream: Stream, prefix: string, depth: number, after: string | null): Promise<Range[]> {
  const [[source], [target]] = await Promise.all([
    ctx.source.run([checksums(stream, "updated_at", prefix, depth, after)]),
    ctx.target.run([checksums(stream, MIRRORED.sourceUpdatedAt, prefix, depth, after)]),
  ]);
  const theirs = new Map(target.map((b) => [b.bucket, b]));
  const differing = new Map<string, Range>();
  for (const ours of source) {
    const other = theirs.get(ours.bucket);
    if (!other || other.rows !== ours.rows || other.hash !== ours.hash) {
      differing.set(ours.bucket, { prefix: ours.bucket, rows: Math.max(ours.rows, other?.rows ?? 0) });
    }
  }
  for (const other of target) {
    if (!source.some((b) => b.bucket === other.bucket)) differing.set(other.bucket, { prefix: other.bucket, rows: other.rows });
  }
  ctx.work.compared_ranges += new Set([...source, ...target].map((b) => b.bucket)).size;
  return [...differing.values()].sort((a, b) => (a.prefix < b.prefix ? -1 : 1));
}

/**
 * Makes the target's rows in the range equal the source's, page by page in id order: each page
 * of source rows is applied, and the target rows between the previous page and this one that
 * the page does not hold are removed, with the table's progress, in one transaction.
 */
async function repair(ctx: Step, stream: Stream, range: Range, after: string | null): Promise<boolean> {
  const { source, target, budget, work } = ctx;
  const lo = lowest(range.prefix);
  const hi = highest(range.prefix);
  let from = after;
  for (;;) {
    if (budget.spent) {
      await target.run([saveDescent(stream.name, range)]);
      return false;
    }
    const done = await budget.step(async () => {
      const limits = { maxRows: budget.limits.pageRows, maxBytes: budget.limits.pageBytes };
      const [page] = await source.run([sourceRows(stream, idRange(sql`id`, lo, hi, from), sql`id`, limits)]);
      const exhausted = page.fetched < budget.limits.pageRows && page.kept === page.fetched;
      const upTo = exhausted ? hi : page.lastId!;
      const kept = sql`not exists (select from jsonb_to_recordset(${page.rows}::jsonb) as p(id uuid) where p.id = t.id)`;
      const [, , ...applied] = await target.run([
        renewLease(ctx.holder),
        saveProgress(stream.name, upTo),
        removeRows(stream, sql`${idRange(sql`t.id`, lo, upTo, from)} and ${kept}`),
        ...applyPage(stream, page.rows),
      ]);
      work.repairs.push({ stream: stream.name, applied: applied.reduce(addApplied) });
      from = upTo;
      return exhausted;
    });
    if (done) break;
  }
  work.repaired_ranges++;
  return true;
}
