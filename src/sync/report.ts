/**
 * What a run did, as the API returns it and as its history row keeps it.
 *
 * `synced_rows` counts rows of the six synced tables that the run inserted, updated or deleted
 * in the target: rows rewritten because they differed, transactions whose `customer_id`
 * followed their account, and every row removed below a deleted parent. Rows re-read but
 * identical, orphans skipped, stored metrics and bookkeeping are not counted, so a run with
 * no source change reports 0. A stream's `deleted` includes the rows removed below it.
 */
import type { Applied } from "./apply";
import { STREAMS, type StreamName } from "./streams";

export type Trigger = "manual" | "cron" | "start";
export type Mode = "delta" | "full";

export interface StreamReport {
  inserted: number;
  updated: number;
  deleted: number;
  /** Live rows skipped because a parent was not in the target (yet). */
  orphans: number;
  /** Page transactions committed: delta pages and, in full mode, reconciliation pages. */
  pages: number;
}

export interface SyncReport {
  run_id: string;
  mode: Mode;
  complete: boolean;
  synced_rows: number;
  duration_ms: number;
  /** Of duration_ms, the time spent recomputing stored metrics. */
  metrics_ms: number;
  streams: Record<StreamName, StreamReport>;
  /** Customers whose stored metrics were recomputed. */
  metrics_recomputed: number;
  /** Customers whose cached responses were invalidated (changed, deleted or re-slugged). */
  changed_customers: number;
}

/** Adds up what a run did as it goes, and remembers which served data became stale. */
export class Tally {
  readonly streams = Object.fromEntries(
    STREAMS.map((s) => [s.name, { inserted: 0, updated: 0, deleted: 0, orphans: 0, pages: 0 }]),
  ) as Record<StreamName, StreamReport>;
  /** Slugs whose cached responses are stale: customers recomputed, deleted or re-slugged. */
  readonly staleSlugs = new Set<string>();
  private metricsRecomputed = 0;
  private metricsMs = 0;

  add(stream: StreamName, applied: Applied): void {
    const report = this.streams[stream];
    report.inserted += applied.inserted;
    report.updated += applied.updated;
    report.deleted += applied.deleted;
    report.orphans += applied.orphans;
    report.pages++;
    for (const slug of applied.goneSlugs) this.staleSlugs.add(slug);
  }

  recomputed(slugs: string[], ms: number): void {
    this.metricsRecomputed = slugs.length;
    this.metricsMs = ms;
    for (const slug of slugs) this.staleSlugs.add(slug);
  }

  get syncedRows(): number {
    return Object.values(this.streams).reduce((sum, s) => sum + s.inserted + s.updated + s.deleted, 0);
  }

  /** True when anything in the broker list changed. */
  get brokersChanged(): boolean {
    const b = this.streams.brokers;
    return b.inserted + b.updated + b.deleted > 0;
  }

  report(run: { id: string; mode: Mode; durationMs: number; complete: boolean }): SyncReport {
    return {
      run_id: run.id,
      mode: run.mode,
      complete: run.complete,
      synced_rows: this.syncedRows,
      duration_ms: run.durationMs,
      metrics_ms: this.metricsMs,
      streams: this.streams,
      metrics_recomputed: this.metricsRecomputed,
      changed_customers: this.staleSlugs.size,
    };
  }
}
