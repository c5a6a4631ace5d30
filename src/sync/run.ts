/**
 * One sync run (docs/sync.md): take the lease, copy each stream's changes up to one upper bound
 * pinned from the source's clock, in foreign-key order, page by page (one source read and one
 * target transaction per page); recompute the stored metrics the changes touched; then, with
 * what is left of the budget, reconcile source and target when asked (or when a reconciliation
 * is under way) and recompute what its repairs touched; record the run; release the lease.
 *
 * Plain TypeScript over the HTTP driver, with no Worker-only import and no HTTP notion, so
 * scripts and benchmarks run it in Node too. It throws its own errors (src/sync/errors.ts);
 * src/sync/worker.ts adds the Worker's cache invalidation, logging and chaining.
 */
import type { Config } from "../env";
import { describe, isTimeout } from "../errors";
import { log } from "../log";
import { addApplied, applyPage } from "./apply";
import { Budget, type BudgetLimits } from "./budget";
import { advanceCursor, loadStarts, readPage, readUpperBound, shrinkPages, type Key, type Page, type Pass } from "./cursor";
import { sourceDatabase, targetDatabase, type Statement, type SyncDatabase } from "./database";
import { METRICS_RULES } from "../domain";
import { LeaseHeldError, RulesNewerError, SourceUnavailableError } from "./errors";
import { recordHeld } from "./held";
import { recordDied, recordEnd, recordStart, type Outcome } from "./history";
import { storedMetricsRules, upgradeMetricsRules } from "./rules";
import { acquireLease, isLeaseLost, leaseExpiry, releaseLease, renewLease } from "./lease";
import { recomputePending } from "./metrics";
import { buildHistoriesOnce } from "./ordinals";
import { refreshLatestPrices } from "./prices";
import { type Reconciled, reconcile, recordRepairs, requestReconciliation } from "./reconcile";
import type { ProfileFigures } from "./profile";
import { readAhead } from "./read-ahead";
import { Tally, type Mode, type SyncReport, type Trigger } from "./report";
import { STREAMS, type Stream } from "./streams";

export type SyncConfig = Pick<Config, "DATABASE_URL" | "SOURCE_DATABASE_URL" | "SYNC_OVERLAP_SECONDS">;

export interface RunOptions {
  trigger: Trigger;
  mode: Mode;
  limits?: Partial<BudgetLimits>;
  /**
   * A full run's request for a reconciliation stands even when another run holds the lease (and
   * this one gets LeaseHeldError): the run holding it, or the next, carries it out. For the
   * scheduled reconciliation, which fires at the same minute as a delta cron and must not be
   * lost to it; an operator's request that gets 409 changes nothing.
   */
  requestEvenIfBusy?: boolean;
}

export interface SyncOutcome {
  report: SyncReport;
  /**
   * What the run made stale: customers' slugs (changed, deleted or replaced), the broker list,
   * and every answer carrying a valuation (a stock's latest close changed).
   */
  stale: { slugs: string[]; brokers: boolean; prices: boolean };
  /** Where the run's time went, per step and part (src/sync/profile.ts): for the benchmarks, not the report. */
  profile: ProfileFigures;
}

interface Run {
  id: string;
  source: SyncDatabase;
  target: SyncDatabase;
  budget: Budget;
  tally: Tally;
  /** What the run did for a reconciliation under way. */
  reconciled: Reconciled | null;
  /** Written with the run's end: a stream's smaller pages after one of its pages timed out. */
  shrunk: Statement<void> | null;
}

/**
 * Runs a sync. Throws LeaseHeldError when another run holds the lease (also when this run
 * loses it midway), SourceUnavailableError when the source fails or is not configured, and
 * TargetUnavailableError when the target cannot be reached; a run that got the lease records
 * its failure first.
 */
export async function runSync(config: SyncConfig, options: RunOptions): Promise<SyncOutcome> {
  if (!config.SOURCE_DATABASE_URL) throw new SourceUnavailableError("SOURCE_DATABASE_URL is not configured");
  const budget = new Budget(options.limits);
  const run: Run = {
    id: crypto.randomUUID(),
    source: sourceDatabase(config.SOURCE_DATABASE_URL, budget),
    target: targetDatabase(config.DATABASE_URL, budget),
    budget,
    tally: new Tally(),
    reconciled: null,
    shrunk: null,
  };
  const [taken, lease, storedRules, , , , , , startOf] = await budget.profile.time("open", "write", () =>
    run.target.run([
      acquireLease(run.id),
      leaseExpiry(),
      // Read before this run could record its own version.
      storedMetricsRules(),
      // After the lease: only the run that holds it records a new rules version.
      upgradeMetricsRules(run.id),
      buildHistoriesOnce(run.id),
      recordDied(run.id),
      recordStart(run.id, options.trigger, options.mode),
      requestReconciliation(run.id, options.trigger, options.mode === "full", options.requestEvenIfBusy ?? false),
      loadStarts(),
    ]),
  );
  if (!taken) throw new LeaseHeldError(lease.expiresAt, lease.retryAfterSeconds);

  const report = (complete: boolean) =>
    run.tally.report({ id: run.id, mode: options.mode, durationMs: budget.elapsedMs(), complete });
  try {
    // Inside the try: the run is recorded as failed and its lease released.
    if (storedRules !== null && storedRules > METRICS_RULES) throw new RulesNewerError(storedRules, METRICS_RULES);
    const bound = await readUpperBound(run.source);
    let caughtUp = true;
    for (const stream of STREAMS) {
      caughtUp = await syncStream(run, stream, {
        start: startOf(stream.name),
        bound,
        overlapSeconds: config.SYNC_OVERLAP_SECONDS,
      });
      if (!caughtUp) break;
    }
    // What changed is served first, metrics included; a reconciliation under way gets what is
    // left of the budget, and the metrics of its repairs after it (or first thing next run).
    let metricsDone = await recomputeMetrics(run);
    let reconciled = true;
    if (caughtUp && metricsDone) {
      run.reconciled = await reconcile({ ...run, holder: run.id });
      if (run.reconciled) {
        run.tally.reconciled(run.reconciled);
        if (run.reconciled.failure !== undefined) throw run.reconciled.failure;
        reconciled = run.reconciled.done;
        metricsDone = await recomputeMetrics(run);
      }
    }
    const complete = caughtUp && metricsDone && reconciled;
    // The latest closes travel with the held-row count: one round trip, however many codes changed.
    // A reconciliation this run completed makes the rows still held orphans (src/sync/held.ts).
    const [held, prices] = await budget.profile.time("close", "write", () =>
      run.target.run([recordHeld(run.reconciled?.done ?? false), refreshLatestPrices()]),
    );
    [run.tally.pendingRows, run.tally.orphanRows, run.tally.pricesChanged] = [held.pending, held.orphans, prices];
    const done = report(complete);
    await finish(run, done, complete ? "complete" : "partial", null);
    return {
      report: done,
      stale: { slugs: [...run.tally.staleSlugs], brokers: run.tally.brokersChanged, prices: run.tally.pricesChanged > 0 },
      profile: budget.profile.figures,
    };
  } catch (err) {
    await finish(run, report(false), "failed", describe(err)).catch((historyErr) =>
      log("error", "sync_history_failed", { run_id: run.id, error: describe(historyErr) }),
    );
    if (isLeaseLost(err)) throw new LeaseHeldError(null, 1);
    throw err;
  }
}

/**
 * Copies one stream's pages until it reaches the bound (true) or the budget is spent (false).
 * The next page is read from the source while the current one is applied to the target, so
 * the two databases work at the same time.
 */
async function syncStream(run: Run, stream: Stream, pass: Pass): Promise<boolean> {
  const { source, target, budget } = run;
  const limits = {
    maxRows: Math.min(budget.limits.pageRows, pass.start.pageRows ?? Infinity),
    maxBytes: budget.limits.pageBytes,
  };
  let cursor = pass.start.from;
  let caughtUp = !pass.start.resumes;
  return readAhead<Page, Key>(budget, "data", cursor, {
    read: (from) => readPage(source, stream, from, pass.bound, limits),
    after: (page) => (page.exhausted ? null : page.last!),
    async store(page) {
      const last = page.last;
      if (last) {
        // The page's rows, its cursor and the lease renewal commit together or not at all.
        const [, , ...applied] = await budget.profile
          .time("data", "write", () =>
            target.run([
              renewLease(run.id),
              advanceCursor(stream.name, last, page.exhausted, pass),
              ...applyPage(stream, page.rows),
            ]),
          )
          .catch((err: unknown) => {
            if (isTimeout(err)) run.shrunk = shrinkPages(stream.name, page.count, pass);
            throw err;
          });
        run.tally.add(stream.name, applied.reduce(addApplied));
        [cursor, caughtUp] = [last, page.exhausted];
      } else if (!caughtUp) {
        // The pass ended on an empty page: the stream is caught up, and its re-read is due.
        await target.run([advanceCursor(stream.name, cursor, true, pass)]);
      }
    },
  });
}

/** Recomputes the stored metrics the run's changes left pending, while the budget lasts: true when none is left. */
async function recomputeMetrics(run: Run): Promise<boolean> {
  const started = run.budget.elapsedMs();
  const metrics = await recomputePending(run.target, run.budget, run.id);
  run.tally.holdingsRecomputed += metrics.holdings;
  run.tally.metricsRecomputed += metrics.customers;
  run.tally.metricsMs += run.budget.elapsedMs() - started;
  for (const slug of metrics.slugs) run.tally.staleSlugs.add(slug);
  return metrics.done;
}

/** Records how the run ended and releases its lease, in one transaction. */
async function finish(run: Run, report: SyncReport, outcome: Outcome, error: string | null): Promise<void> {
  // A reconciliation this run completed recorded its counts then; one still under way takes them now.
  const reconciling = run.reconciled && !run.reconciled.done ? [recordRepairs(run.reconciled)] : [];
  const shrunk = run.shrunk ? [run.shrunk] : [];
  await run.target.run([recordEnd(report, outcome, error), ...reconciling, ...shrunk, releaseLease(run.id)]);
}
