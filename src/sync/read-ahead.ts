/**
 * The loop every batched step of a run shares (a stream's pages in src/sync/run.ts, the metrics'
 * batches in src/sync/holdings.ts and src/sync/customers.ts): while the budget lasts, one batch
 * per step, and the next batch is read while the current one is stored, so the database that is
 * read and the one that is written (or the target and the Worker) work at the same time.
 */
import type { Budget } from "./budget";
import type { ProfileStep } from "./profile";

export interface Batches<B, K> {
  /** Reads the batch that starts at `from`. */
  read(from: K): Promise<B>;
  /** Where the batch after this one starts; null when this one is the last. */
  after(batch: B): K | null;
  /** Stores a batch; the next one is being read meanwhile. */
  store(batch: B): Promise<void>;
}

/**
 * Works through batches from `start` while the budget lasts: true when the last one is stored,
 * false when the budget ran out first. A batch read but not stored when the run stops is left
 * for the next run, which reads it again.
 */
export async function readAhead<B, K>(budget: Budget, step: ProfileStep, start: K, batches: Batches<B, K>): Promise<boolean> {
  const read = (from: K) => {
    const batch = batches.read(from);
    batch.catch(() => undefined); // a read left behind when the run stops must not be an unhandled rejection
    return batch;
  };
  let next: Promise<B> | undefined;
  while (!budget.spent) {
    const last = await budget.step(async () => {
      // Only the wait counts as the step's read: a batch read ahead costs the run nothing more.
      const batch = await budget.profile.time(step, "read", () => next ?? read(start));
      const after = batches.after(batch);
      next = after === null ? undefined : read(after);
      await batches.store(batch);
      return after === null;
    });
    if (last) return true;
  }
  return false;
}

/** A batch of a pending list, read in key order. */
export interface Batch<T> {
  items: T[];
  /** True when more are waiting than the batch took. */
  more: boolean;
}

/** Where the list continues after `batch` (the key of its last item), or null when nothing is left. */
export function afterLast<T, K>(batch: Batch<T>, keyOf: (item: T) => K): K | null {
  const last = batch.items.at(-1);
  return batch.more && last ? keyOf(last) : null;
}
