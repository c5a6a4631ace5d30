/**
 * How much one run may do, so it ends cleanly before the Worker's limits (wall time, CPU,
 * subrequests) instead of being killed mid-page. A run checks the budget before each step (a
 * page, a checksum comparison, a repair, a metrics batch); when it is spent the run stops after the step
 * it committed, keeps its cursors, and reports `complete: false`; the next run continues.
 */
import { Profile } from "./profile";

export interface BudgetLimits {
  /** Wall time for the whole run. */
  maxWallMs: number;
  /** Database requests (each one a Worker subrequest), keeping a few for the run's end. */
  maxSubrequests: number;
  /** Rows and JSON bytes per page read from the source (the first row of a page always fits). */
  pageRows: number;
  pageBytes: number;
  /** A differing id range with at most this many rows is repaired row by row rather than split. */
  reconcileLeafRows: number;
  /** The most rows one checksum statement of a reconciliation should read (src/sync/id-ranges.ts). */
  reconcileCompareRows: number;
  /**
   * Trades loaded per metrics batch (a holding with more is loaded alone). The next batch is
   * read while one is worked on, so two are in memory; the default keeps a run under a 48 MB
   * heap (`metricsTrades` in docs/sync.md).
   */
  metricsTrades: number;
  /**
   * Customers per metrics batch: each comes with its merged partial (monthly maps, every served
   * holding's top deals), a few kB. Two batches are in memory (the next is read ahead); the
   * default keeps a run under a 48 MB heap.
   */
  metricsCustomers: number;
  /** Any single database request taking longer counts as the database being unavailable. */
  requestTimeoutMs: number;
  /** Stop after this many steps: lets tests interrupt a run at any page. */
  stopAfterSteps?: number;
}

const DEFAULT_LIMITS: BudgetLimits = {
  maxWallMs: 25_000,
  maxSubrequests: 900,
  pageRows: 10_000,
  pageBytes: 4 * 1024 * 1024,
  reconcileLeafRows: 2_000,
  // A checksum this size takes seconds on each side (`reconcileCompareRows` in docs/sync.md).
  reconcileCompareRows: 500_000,
  metricsTrades: 10_000,
  metricsCustomers: 100,
  requestTimeoutMs: 20_000,
};

/** Requests one step makes: a read and a write. */
const REQUESTS_PER_STEP = 2;
/** Requests kept for closing the run: its history row, releasing the lease, cache purges. */
const RESERVED_REQUESTS = 5;

export class Budget {
  readonly limits: BudgetLimits;
  /** Where the run's time went (src/sync/profile.ts). */
  readonly profile = new Profile();
  private readonly started = Date.now();
  private requests = 0;
  private steps = 0;
  private longestStepMs = 0;

  constructor(limits: Partial<BudgetLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  elapsedMs(): number {
    return Date.now() - this.started;
  }

  /** Counts database requests, as they are made. */
  spend(requests: number): void {
    this.requests += requests;
  }

  /** Runs one step, timing it so the run can tell whether another would still fit. */
  async step<T>(work: () => Promise<T>): Promise<T> {
    const began = Date.now();
    const result = await work();
    this.longestStepMs = Math.max(this.longestStepMs, Date.now() - began);
    this.steps++;
    return result;
  }

  /** True when the next step might not fit (it is assumed as slow as the slowest so far). */
  get spent(): boolean {
    const { maxWallMs, maxSubrequests, stopAfterSteps } = this.limits;
    return (
      this.elapsedMs() + this.longestStepMs >= maxWallMs ||
      this.requests + REQUESTS_PER_STEP + RESERVED_REQUESTS > maxSubrequests ||
      (stopAfterSteps !== undefined && this.steps >= stopAfterSteps)
    );
  }
}
