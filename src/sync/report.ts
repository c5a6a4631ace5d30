/**
 * What a run did, as the API returns it and as its history row keeps it.
 *
 * `synced_rows` counts rows of the synced tables that the run inserted, updated or deleted in
 * the target because their source row changed or a reconciliation repaired them: rows written
 * because they differed (tombstones and restores included) and rows removed because the source
 * no longer has them. `derived_rows` counts, apart, rows changed only because another row
 * changed: child rows whose copied `customer_id` followed their account (a moved account's
 * trades, trades released when their late account arrived or unlinked when it went) and rows
 * taken off the slug another took. Rows re-read but identical, rows set aside (counted in
 * `rejected_rows`), stored metrics and bookkeeping are not counted, so a run with no source
 * change reports 0 of each.
 */
import type { Applied } from "./apply";
import type { Mode, StreamReport, SyncReport } from "./schemas";
import { STREAMS, type StreamName } from "./streams";

export type { Mode, Repaired, SyncReport } from "./schemas";

export type Trigger = "manual" | "cron" | "chain" | "start";

/** What a run did for the reconciliation under way (src/sync/reconcile.ts returns it). */
export interface ReconcileWork {
  compared_ranges: number;
  repaired_ranges: number;
  done: boolean;
  /** What each committed repair applied, per table. */
  repairs: readonly { stream: StreamName; applied: Applied }[];
}

/** Adds up what a run did as it goes, and remembers which served data became stale. */
export class Tally {
  readonly streams = Object.fromEntries(
    STREAMS.map((s) => [s.name, { inserted: 0, updated: 0, deleted: 0, rejected: 0, derived: 0, pages: 0 }]),
  ) as Record<StreamName, StreamReport>;
  /** Slugs whose cached responses are stale: customers whose data changed, and slugs they lost. */
  readonly staleSlugs = new Set<string>();
  /** What the run did for a reconciliation, when one was under way. */
  reconciliation: ReconcileWork | null = null;
  pendingRows = 0;
  orphanRows = 0;
  holdingsRecomputed = 0;
  metricsRecomputed = 0;
  metricsMs = 0;
  pricesChanged = 0;

  add(stream: StreamName, applied: Applied): void {
    const report = this.streams[stream];
    report.inserted += applied.inserted;
    report.updated += applied.updated;
    report.deleted += applied.deleted;
    report.rejected += applied.rejected;
    report.pages++;
    for (const [other, n] of Object.entries(applied.derived) as [StreamName, number][]) this.streams[other].derived += n;
    for (const slug of applied.goneSlugs) this.staleSlugs.add(slug);
  }

  /** Takes in what a reconciliation did: its repairs count among the streams' rows. */
  reconciled(work: ReconcileWork): void {
    this.reconciliation = work;
    for (const { stream, applied } of work.repairs) this.add(stream, applied);
  }

  get syncedRows(): number {
    return Object.values(this.streams).reduce((sum, s) => sum + s.inserted + s.updated + s.deleted, 0);
  }

  get derivedRows(): number {
    return Object.values(this.streams).reduce((sum, s) => sum + s.derived, 0);
  }

  get rejectedRows(): number {
    return Object.values(this.streams).reduce((sum, s) => sum + s.rejected, 0);
  }

  /** True when anything in the broker list changed. */
  get brokersChanged(): boolean {
    const b = this.streams.brokers;
    return b.inserted + b.updated + b.deleted + b.rejected > 0;
  }

  report(run: { id: string; mode: Mode; durationMs: number; complete: boolean }): SyncReport {
    return {
      run_id: run.id,
      mode: run.mode,
      complete: run.complete,
      synced_rows: this.syncedRows,
      derived_rows: this.derivedRows,
      rejected_rows: this.rejectedRows,
      pending_rows: this.pendingRows,
      orphan_rows: this.orphanRows,
      duration_ms: run.durationMs,
      metrics_ms: this.metricsMs,
      streams: this.streams,
      reconciliation: this.reconciliation && {
        compared_ranges: this.reconciliation.compared_ranges,
        repaired_ranges: this.reconciliation.repaired_ranges,
        done: this.reconciliation.done,
        repaired_rows: this.reconciliation.repairs.reduce((sum, { applied: a }) => sum + a.inserted + a.updated + a.deleted, 0),
      },
      holdings_recomputed: this.holdingsRecomputed,
      metrics_recomputed: this.metricsRecomputed,
      changed_customers: this.staleSlugs.size,
      prices_changed: this.pricesChanged,
    };
  }
}
