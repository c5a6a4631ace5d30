/**
 * Hard deletes (`?mode=full`): a row deleted outright in the source leaves no trace a cursor
 * could see, so each table's live source ids are scanned in id order, page by page, and the
 * target rows in the same id range that the page does not contain are removed, with their
 * descendants, through the same removal statement as soft deletes. Children first, so each
 * missing row is counted in its own table.
 */
import { removalStatement, readApplied } from "./apply";
import type { Budget } from "./budget";
import type { SyncDatabase } from "./database";
import { renewLease } from "./lease";
import type { Tally } from "./report";
import { STREAMS, type Stream } from "./streams";

/** $1: a page of source ids; ($2, $3]: the id range they cover (an open end is NULL). */
function reconcileStatement(stream: Stream): string {
  const gone = `select t.id from ${stream.name} t
    where ($2::uuid is null or t.id > $2::uuid) and ($3::uuid is null or t.id <= $3::uuid)
      and not exists (select 1 from unnest($1::uuid[]) as s(id) where s.id = t.id)`;
  return removalStatement(stream, gone);
}

/** Removes what the source no longer has; true when every table was scanned to the end. */
export async function reconcileHardDeletes(
  source: SyncDatabase,
  target: SyncDatabase,
  budget: Budget,
  holder: string,
  tally: Tally,
): Promise<boolean> {
  for (const stream of [...STREAMS].reverse()) {
    if (!(await reconcileTable(stream, source, target, budget, holder, tally))) return false;
  }
  return true;
}

async function reconcileTable(stream: Stream, source: SyncDatabase, target: SyncDatabase, budget: Budget, holder: string, tally: Tally) {
  let after: string | null = null;
  while (!budget.spent) {
    const last = await budget.step(async () => {
      const [ids] = await source.run([
        source.sql.query(
          `with page as (select id from ${stream.name} where deleted_at is null and ($1::uuid is null or id > $1::uuid) order by id limit $2)
           select count(*)::int as count, coalesce(array_agg(id order by id)::text, '{}') as ids, (array_agg(id order by id desc))[1] as last_id
           from page`,
          [after, budget.limits.reconcileIds],
        ),
      ]);
      const page = ids![0] as { count: number; ids: string; last_id: string | null };
      const isLast = page.count < budget.limits.reconcileIds;
      const [, removed] = await target.run([
        renewLease(target.sql, holder),
        target.sql.query(reconcileStatement(stream), [page.ids, after, isLast ? null : page.last_id]),
      ]);
      tally.add(stream.name, readApplied(removed!));
      after = page.last_id;
      return isLast;
    });
    if (last) return true;
  }
  return false;
}
