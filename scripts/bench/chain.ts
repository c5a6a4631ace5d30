/**
 * Runs as the Worker chains them: runSync again and again, each with the default budget, until
 * one reports `complete` (on Cloudflare each next run is a queue message; here it is the next
 * loop turn, so the figures leave out the queue's delivery delay). Each run's report is kept,
 * with the peak of `process.memoryUsage().heapUsed` sampled every ~50 ms while it ran: the runs
 * execute in Node here, not in workerd, so the peak is V8's heap under Node, an estimate of the
 * isolate's and not its measured figure.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ProfileFigures, ProfilePart, ProfileStep } from "../../src/sync/profile";
import type { SyncReport } from "../../src/sync/report";
import { runSync, type SyncConfig } from "../../src/sync/run";

export interface ChainedRun {
  report: SyncReport;
  /** Peak V8 heap while the run went, bytes. */
  peakHeap: number;
  /** The heap when the run started, after a full collection: what was there before it. */
  startHeap: number;
  profile: ProfileFigures;
}

// A full collection before each run, so a run's peak is not inflated by the garbage of the one
// before it (and the share the process held already is known). Node hides gc() unless asked.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

export interface Chain {
  runs: ChainedRun[];
  ms: number;
  rows: number;
  metricsMs: number;
  holdings: number;
  customers: number;
  /** Trades inserted, updated or soft-deleted in the target. */
  trades: number;
  /** Where the runs' time went, per step and part, added up over the runs (src/sync/profile.ts). */
  profile: ProfileFigures;
}

const SAMPLE_MS = 50;

/** Runs `work` while sampling the heap; the sampler's timer only fires when the run yields to the event loop. */
export async function withPeakHeap<T>(work: () => Promise<T>): Promise<{ result: T; peakHeap: number }> {
  let peak = process.memoryUsage().heapUsed;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, SAMPLE_MS);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    return { result, peakHeap: peak };
  } finally {
    clearInterval(timer);
  }
}

export async function syncUntilComplete(config: SyncConfig, onRun?: (run: ChainedRun, index: number) => void): Promise<Chain> {
  const started = performance.now();
  const runs: ChainedRun[] = [];
  for (;;) {
    collect();
    const startHeap = process.memoryUsage().heapUsed;
    const { result, peakHeap } = await withPeakHeap(() => runSync(config, { trigger: "chain", mode: "delta" }));
    const run = { report: result.report, peakHeap, startHeap, profile: result.profile };
    runs.push(run);
    onRun?.(run, runs.length);
    if (run.report.complete) break;
  }
  const sum = (f: (r: SyncReport) => number) => runs.reduce((total, { report }) => total + f(report), 0);
  return {
    runs,
    ms: performance.now() - started,
    rows: sum((r) => r.synced_rows),
    metricsMs: sum((r) => r.metrics_ms),
    holdings: sum((r) => r.holdings_recomputed),
    customers: sum((r) => r.metrics_recomputed),
    trades: sum((r) => r.streams.transactions.inserted + r.streams.transactions.updated + r.streams.transactions.deleted),
    profile: addProfiles(runs.map((r) => r.profile)),
  };
}

function addProfiles(profiles: ProfileFigures[]): ProfileFigures {
  const total: ProfileFigures = {};
  for (const profile of profiles) {
    for (const [step, parts] of Object.entries(profile) as [ProfileStep, Partial<Record<ProfilePart, number>>][]) {
      const into = (total[step] ??= {});
      for (const [part, ms] of Object.entries(parts) as [ProfilePart, number][]) into[part] = (into[part] ?? 0) + ms;
    }
  }
  return total;
}

const STEPS: ProfileStep[] = ["open", "data", "holdings", "customers", "close"];
const PARTS: [ProfilePart, string][] = [
  ["read", "r"],
  ["compute", "c"],
  ["write", "w"],
];

/**
 * A chain's time per step, in seconds: "data r 1.2 w 3.4 · holdings r 0.5 c 1.1 w 0.9 · …"
 * (r: waiting for a read, c: computing, w: waiting for a write; src/sync/profile.ts).
 */
export function profileSplit(chain: Chain): string {
  return STEPS.flatMap((step) => {
    const parts = chain.profile[step];
    if (!parts) return [];
    const shown = PARTS.filter(([part]) => parts[part] !== undefined).map(
      ([part, letter]) => `${letter} ${(parts[part]! / 1000).toFixed(2)}`,
    );
    return [`${step} ${shown.join(" ")}`];
  }).join(" · ");
}
